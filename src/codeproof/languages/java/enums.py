"""A ``java.time`` enum constant read off a date class: ``LocalDate.SATURDAY`` becomes
``DayOfWeek.SATURDAY``, ``LocalDate.MARCH`` becomes ``Month.MARCH``.

The date classes have no such constants, so the file does not compile, and a module
whose every draft does has no test that runs. A java-business-calendar draft compared
``day.getDayOfWeek() != LocalDate.SATURDAY`` (session 18's greedy draft; two of six
drafts in session 37's run): the rest of that code was right. The names are
unambiguous: a day of the week is a ``DayOfWeek``, a month a ``Month``, both in
``java.time`` (whose import :func:`~.tidy.add_java_imports` adds).
"""

from __future__ import annotations

from codeproof.languages.syntax import parse
from codeproof.languages.syntax.edit import replace

_DAYS = "MONDAY TUESDAY WEDNESDAY THURSDAY FRIDAY SATURDAY SUNDAY"
_MONTHS = "JANUARY FEBRUARY MARCH APRIL MAY JUNE JULY AUGUST SEPTEMBER OCTOBER NOVEMBER DECEMBER"
_ENUM_OF = {
    **{day: "DayOfWeek" for day in _DAYS.split()},
    **{month: "Month" for month in _MONTHS.split()},
}
"""Constant -> the ``java.time`` enum it belongs to."""
_DATE_CLASSES = frozenset(
    {"LocalDate", "LocalDateTime", "ZonedDateTime", "OffsetDateTime", "YearMonth", "MonthDay"}
)
"""``java.time`` classes with no day or month constants of their own."""


def enum_constants(source: str) -> str:
    """``source`` with each ``<date class>.<day or month>`` read off its enum, unless
    the file declares something named like the date class or the enum itself."""
    tree = parse("java", source)
    own = {d.name for d in tree.declarations()}
    edits = []
    for node in tree.nodes():
        if node.kind != "field_access":
            continue
        owner, constant = node.field("object"), node.field("field")
        if owner is None or constant is None:
            continue
        enum = _ENUM_OF.get(constant.text)
        date_class = owner.text.removeprefix("java.time.")
        if enum and date_class in _DATE_CLASSES and not own & {date_class, enum}:
            edits.append((owner.start, owner.end, enum))
    return replace(source, edits) if edits else source
