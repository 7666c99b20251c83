"""Clean-up of model-written Java: class named after its file, no package, imports added.

Read with the syntax facade (:mod:`codeproof.languages.syntax`): strings, text blocks,
char literals and comments are never mistaken for code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from codeproof.languages.java.enums import enum_constants
from codeproof.languages.syntax import Tree, parse
from codeproof.languages.syntax.edit import remove, replace


def rename_java_class(source: str, expected: str, *, sole: bool = False) -> str:
    """Rename the file's public class to ``expected`` (the file name) when it differs:
    every use of its name in the code (strings and comments are left as written).
    ``sole``: without a public class, the one top-level class is renamed (a JUnit 5 test
    class is often package-private, and its name is what the report calls it)."""
    tree = parse("java", source)
    top = [d for d in tree.declarations() if d.kind == "class" and d.top_level]
    public = [d for d in top if "public" in d.modifiers]
    if not public and sole and len(top) == 1:
        public = top
    if not public or public[0].name == expected:
        return source
    old = public[0].name
    return replace(source, [(n.start, n.end, expected) for n in tree.names() if n.text == old])


def _rename_duplicates_java(source: str) -> str:
    seen: dict[str, int] = {}
    renames = []
    for case in parse("java", source).tests():
        seen[case.name] = seen.get(case.name, 0) + 1
        if seen[case.name] > 1 and case.name_node is not None:
            node = case.name_node
            renames.append((node.start, node.end, f"{case.name}{seen[case.name]}"))
    return replace(source, renames)


def _drop_unfinished_java_tail(source: str) -> str:
    """Cut a test class that stopped mid-statement (token limit) after its last complete
    statement or block, and close what is open. A file whose braces balance is never
    touched."""
    depth, parens, cut = 0, 0, None
    for token in parse("java", source).tokens():
        if token.missing:
            continue
        kind = token.kind
        parens += (kind == "(") - (kind == ")")
        depth += (kind == "{") - (kind == "}")
        if depth >= 1 and parens == 0 and kind in (";", "}"):
            cut = (token.end, depth)
    if depth == 0 or cut is None:
        return source
    end, open_blocks = cut
    closing = "".join("\n" + "    " * level + "}" for level in range(open_blocks - 1, -1, -1))
    return source[:end] + closing + "\n"


_JAVA_UTIL = """Arrays List ArrayList LinkedList Map HashMap TreeMap LinkedHashMap Set HashSet
TreeSet LinkedHashSet Optional Collections Iterator Deque ArrayDeque Queue PriorityQueue Stack
Objects Comparator StringJoiner Random BitSet Scanner"""

_JAVA_TIME = """LocalDate LocalDateTime LocalTime Duration Period DayOfWeek Month Instant Year
YearMonth MonthDay ZonedDateTime ZoneId ZoneOffset OffsetDateTime Clock"""


JAVA_PACKAGES: dict[str, frozenset[str]] = {
    "java.util": frozenset(_JAVA_UTIL.split()),
    "java.util.stream": frozenset({"Collectors", "Stream", "IntStream", "LongStream"}),
    "java.util.function": frozenset(
        {"Function", "BiFunction", "Predicate", "BiPredicate", "Supplier", "Consumer"}
    ),
    "java.math": frozenset({"BigInteger", "BigDecimal", "RoundingMode", "MathContext"}),
    "java.time": frozenset(_JAVA_TIME.split()),
    "java.time.format": frozenset({"DateTimeFormatter", "DateTimeParseException"}),
    "java.time.temporal": frozenset({"ChronoUnit", "ChronoField", "TemporalAdjusters"}),
}
"""Standard classes small models use without importing them, by package."""


def add_java_imports(source: str) -> str:
    """Add ``import <package>.*;`` for the standard classes a Java file uses but does not
    import (``Arrays`` in a test, ``Collections`` in a solution); strings and comments are
    not read, and a class the file declares itself is not imported."""
    tree = parse("java", source)
    found = tree.declarations()
    words = {n.text for n in tree.names()}
    declared = {d.name for d in found if d.kind == "class"}
    imported = {d.name for d in found if d.kind == "import"}
    head = []
    for package, names in JAVA_PACKAGES.items():
        used = (words & names) - declared
        if (
            used
            and f"{package}.*" not in imported
            and not {f"{package}.{n}" for n in used} <= imported
        ):
            head.append(f"import {package}.*;")
    return _with_imports(source, head)


def tidy_java_source(source: str) -> str:
    """A generated Java file in the default package (the toolchain's convention: a
    ``package com.example;`` line makes the tests fail to find the class), its day and
    month constants read off their enums (:mod:`.enums`), with the standard imports it
    forgot (:func:`add_java_imports`)."""
    packages = [d.node for d in parse("java", source).declarations() if d.kind == "package"]
    return add_java_imports(enum_constants(remove(source, packages[:1])))


def _with_imports(source: str, head: Sequence[str]) -> str:
    if not head:
        return source
    packages = [d.node for d in parse("java", source).declarations() if d.kind == "package"]
    at = packages[0].end if packages else 0
    return source[:at] + ("\n" if at else "") + "\n".join(head) + "\n" + source[at:]


def _junit_imports(tree: Tree) -> list[str]:
    """The JUnit 5 imports a test file needs and lacks: ``Test`` for its ``@Test``
    methods, the static ``Assertions`` for its bare ``assertX(...)`` calls."""
    imported = {d.name for d in tree.declarations() if d.kind == "import"}
    head = []
    if tree.tests() and not imported & {"org.junit.jupiter.api.Test", "org.junit.jupiter.api.*"}:
        head.append("import org.junit.jupiter.api.Test;")
    bare = [
        c
        for c in tree.calls()
        if c.receiver is None and c.name[:6] == "assert" and c.name[6:7].isupper()
    ]
    if bare and not any("Assertions" in path for path in imported):
        head.append("import static org.junit.jupiter.api.Assertions.*;")
    return head


def fix_java_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Cut an unfinished tail, de-duplicate test names and add missing JUnit 5 and
    standard library imports."""
    text = _rename_duplicates_java(_drop_unfinished_java_tail(source))
    return tidy_java_source(_with_imports(text, _junit_imports(parse("java", text))))


def class_name(module: str) -> str:
    """The Java class name of a module name: ``string_utils`` -> ``StringUtils``."""
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", module) if p]
    name = "".join(p[:1].upper() + p[1:] for p in parts) or "Module"
    return name if not name[0].isdigit() else f"M{name}"


def fix_source(source: str, path: str) -> str:
    """A generated class named after its file, without a package line, with its imports.
    A file whose one top-level class is package-private is named after it too
    (``LRUCache.java`` holding ``class LruCache`` compiles, but ``new LRUCache<>()`` in the
    tests does not)."""
    return tidy_java_source(rename_java_class(source, PurePosixPath(path).stem, sole=True))


def fix_tests(source: str, path: str, module: str, dependencies: Sequence[str]) -> str:
    """A generated JUnit 5 test class named after its file, with its imports."""
    fixed = fix_java_tests(source, module, dependencies)
    return rename_java_class(fixed, PurePosixPath(path).stem, sole=True)
