"""Names the request states are the contract: files, modules, functions and classes.

"Write a Python module roman.py with two functions to_roman and from_roman" must give
``roman.py`` defining ``to_roman`` and ``from_roman``: the user will write
``from roman import to_roman``. A model asked for modules invents its own names
(``roman_numeral_converter``), so the proposal is fitted to the stated files here: one
module per stated file of the request's language, named after it, whose interface keeps
every name the request states in the same breath.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.contract.files import PROSE, StatedFile, stated_files
from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module
from codeproof.languages.layout import Layout
from codeproof.languages.registry import find as find_language

_CALLED = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)\(")
"""A call as code writes it: prose puts a space before its brackets ("a module (CommonJS)")."""
_SIGNATURE = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)\s*\(")
"""A name declared in an interface line, where ``add (a, b)`` is still a signature."""
_CLASS = re.compile(
    r"\b(?:class|interface|record|enum)\s+(?:(?:named|called)\s+)?`?([A-Za-z_$][\w$]*)"
)
_NAMED_CLASS = re.compile(r"(?<![\w$.`])([A-Z][\w$]*)\s+class\b")
"""A class named before the word: "a Stack class", "the Calendar class"."""
_NAMED = re.compile(r"\b(?:function|method)\s+(?:named|called)\s+`?([A-Za-z_$][\w$]*)")
"""A name stated in words alone: "a function called count_words that ..."."""
_QUOTED = re.compile(r"`([A-Za-z_$][\w$]*)`")
_DECLARATION = re.compile(r"(?<![\w.$])([A-Za-z_$][\w$]*)\(([^()]*)\)")
_PARAMETER = re.compile(
    r"(?:[A-Za-z_$][\w$.]*(?:<[^()]*>)?(?:\[\])*(?:\.\.\.)?\s+)?[A-Za-z_$][\w$]*"
)
"""A parameter as a declaration writes it: ``day``, ``LocalDate day``, ``Set<K> keys``."""
_NOT_NAMES = frozenset(
    {"if", "for", "while", "return", "new", "print", "assert", "len", "str"} | PROSE
)


def stated_names(text: str) -> list[str]:
    """Function and class names ``text`` states: called (``to_roman(n)``), declared
    (``class Inventory``, "a class named Stack", "a Stack class"), named in words ("a
    function called count_words") or quoted (`` `to_csv` ``), in order."""
    found = [
        *(m.group(1) for m in _CLASS.finditer(text)),
        *(n for n in _NAMED_CLASS.findall(text) if find_language(n) is None),
        *(m.group(1) for m in _CALLED.finditer(text)),
        *(m.group(1) for m in _NAMED.finditer(text)),
        *(m.group(1) for m in _QUOTED.finditer(text)),
    ]
    ordered = sorted(set(found), key=lambda name: text.find(name))
    return [name for name in ordered if name not in _NOT_NAMES and not name.isupper()]


def fit_modules(
    proposed: Sequence[Module], words: str, layout: Layout, interfaces: Sequence[str]
) -> list[Module]:
    """The proposed modules with the names the request states.

    Where the request names source files of the language, the modules are exactly those
    files (one each, named after them): a proposed module is reused for the file whose
    sentences name most of its interface, else a module is made from the file's
    sentences and the spec's interfaces they name. Where it names no file, the proposals
    that build what it names are kept (:func:`unstated_dropped`), with the methods the
    request states for them (:func:`with_stated_methods`).
    """
    files = stated_files(words, layout)
    if not files:
        kept = classes_as_stated(unstated_dropped(proposed, words), words, layout)
        return with_stated_methods(kept, words)
    left = list(proposed)
    fitted: list[Module] = []
    renamed: dict[str, str] = {}
    for file in files:
        names = _own_names(file, files)
        match = _best(left, names)
        if match is not None:
            left.remove(match)
            renamed[match.name] = file.stem
            match = _without_others(match, file, files)
        fitted.append(_module_for(file, names, match, interfaces, layout.language))
    texts = {file.stem: file.text for file in files}
    modules = [
        m.model_copy(update={"depends_on": _deps(m, renamed, fitted, texts.get(m.name, ""))})
        for m in fitted
    ]
    return _with_files_used(modules, {file.stem: file.uses for file in files})


def _with_files_used(modules: Sequence[Module], uses: dict[str, tuple[str, ...]]) -> list[Module]:
    """``modules``, each also depending on the stated files its sentences say it uses
    ("describe(celsius) ..., using temperature.py"), unless that file depends on it."""
    deps = {m.name: list(m.depends_on) for m in modules}
    for module in modules:
        for used in uses.get(module.name, ()):
            if (
                used in deps
                and used not in deps[module.name]
                and not _reaches(deps, used, module.name)
            ):
                deps[module.name].append(used)
    return [m.model_copy(update={"depends_on": deps[m.name]}) for m in modules]


def _reaches(deps: dict[str, list[str]], start: str, goal: str) -> bool:
    """Whether ``start`` depends on ``goal``, directly or through others."""
    stack, seen = [start], set()
    while stack:
        name = stack.pop()
        if name == goal:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(deps.get(name, []))
    return False


def _own_names(file: StatedFile, files: Sequence[StatedFile]) -> list[str]:
    """The names ``file``'s sentences state, less those another file's naming sentences
    state and its own do not: rules after the last file named ("quantity(sku) is 0 for
    a sku not in stock", after "report.py defines to_csv(...)") speak of every file."""
    own = set(stated_names(file.intro))
    others = {n for f in files if f.path != file.path for n in stated_names(f.intro)}
    return [n for n in stated_names(file.text) if n in own or n not in others]


def _without_others(module: Module, file: StatedFile, files: Sequence[StatedFile]) -> Module:
    """``module`` without the interface lines that only define names another file's
    naming sentences state (a proposal that gave ``copies(book)`` of shelf.py to
    listing.py too)."""
    own = set(stated_names(file.intro))
    others = {n for f in files if f.path != file.path for n in stated_names(f.intro)} - own
    lines = module.public_interface.splitlines()
    kept = [line for line in lines if not (set(_declared(line)) and set(_declared(line)) <= others)]
    return module.model_copy(update={"public_interface": "\n".join(kept)}) if kept else module


def unstated_dropped(proposed: Sequence[Module], words: str) -> list[Module]:
    """The proposed modules that define a class or function the request names, and the
    modules they depend on; the others build nothing the user asked for.

    "Write a Java class BusinessCalendar ... with three methods" was planned as modules
    ``BusinessCalendar`` and ``HolidaySet`` (``getHolidays()``, used by no module): a
    second class the user never asked for, built, tested and proven at the cost of a
    module. Nor does a module whose stated names a module kept before it already defines
    (:func:`_adding`). When no proposal defines a stated name (or the request states
    none), all are kept: the names cannot tell.
    """
    names = set(stated_names(words)) | _named_in_words(proposed, words)
    wanted = _adding(proposed, names)
    if not wanted:
        return list(proposed)
    by_name = {m.name: m for m in proposed}
    kept: set[str] = set()
    stack = [m.name for m in wanted]
    while stack:  # with what they depend on, transitively
        name = stack.pop()
        if name in kept or name not in by_name:
            continue
        kept.add(name)
        stack.extend(by_name[name].depends_on)
    return [m for m in proposed if m.name in kept]


def _named_in_words(proposed: Sequence[Module], words: str) -> set[str]:
    """The proposed modules whose name, spelt as an identifier (a capital or an
    underscore in it), the request writes as a word of its own, unless the language's
    standard library defines a type of that name.

    "Two Java classes ... Payroll has one static method, long grossPayCents(...)" names
    the class ``Payroll`` in no pattern of :func:`stated_names`; a planner that renamed
    its method left the module building no stated name, so it was dropped and the
    project had no ``Payroll.java`` (java-timesheet-payroll, session 37). The same
    request's ``log(LocalDate day, ...)``, or ``new BusinessCalendar(Set<LocalDate>
    holidays)``, writes ``LocalDate`` and ``Set``: types it uses, which a planner
    proposing them as modules does not make asked for (java-business-calendar).
    """
    return {
        m.name
        for m in proposed
        if (m.name[:1].isupper() or "_" in m.name)
        and not _standard(m)
        and re.search(rf"(?<![\w$.]){re.escape(m.name)}(?![\w$])", words)
    }


def _standard(module: Module) -> bool:
    """Whether ``module`` is named after a standard type or module of its language."""
    language = find_language(module.language)
    if language is None:
        return False
    layout = language.layout
    return module.name in layout.standard_types or module.name.lower() in layout.reserved


def _adding(proposed: Sequence[Module], names: set[str]) -> list[Module]:
    """The proposed modules that build a stated name no other kept module builds: first
    those named as stated (a stated class is its own module), then the others, most
    stated names first.

    "I need a Java utility class CardNumbers with three static methods ... isValid,
    brand and mask" was planned as ``CardNumbers`` (all three) plus ``LuhnChecksum``
    (``isValid``) and ``CardBrand`` (``brand``), on which nothing depended: two more
    modules drafted, tested and proven, which ran the request past its 20 minutes.
    """
    stated = {m.name: names & {m.name, *_declared(m.public_interface)} for m in proposed}
    order = sorted(
        (m for m in proposed if stated[m.name]),
        key=lambda m: (m.name not in names, -len(stated[m.name])),
    )
    built: set[str] = set()
    adding: set[str] = set()
    for module in order:
        if module.name in names or stated[module.name] - built:
            adding.add(module.name)
            built |= stated[module.name]
    return [m for m in proposed if m.name in adding]


def classes_as_stated(modules: Sequence[Module], words: str, layout: Layout) -> list[Module]:
    """In a language whose files are named after their class (:attr:`Layout.class_files`),
    a module that defines exactly one class the request states is named after it, spelt
    as stated.

    "Write a Java class LruCache<K, V> ..." was planned as the module ``LRUCache``: its
    file ``LRUCache.java`` held the drafts' ``class LruCache``, the designed tests were
    written against one spelling and compiled against no draft, so every one was set
    aside and the module ended "failed 0/0"; and the project had no ``LruCache.java``.
    Modules that define no stated class, or several, keep their names.
    """
    if not layout.class_files:
        return list(modules)
    found = (m.group(1) for m in _CLASS.finditer(words))  # "a class that ..." names none
    stated = list(dict.fromkeys(c for c in found if c[:1].isupper()))
    taken = {m.name for m in modules}
    renamed: dict[str, str] = {}
    for module in modules:
        if module.name in stated:
            continue
        declared = {m.group(1) for m in _CLASS.finditer(module.public_interface)}
        own = [c for c in stated if c in declared or c.casefold() == module.name.casefold()]
        if len(own) == 1 and own[0] not in taken | set(renamed.values()):
            renamed[module.name] = own[0]
    return [_renamed(m, renamed) for m in modules]


def with_stated_methods(modules: Sequence[Module], words: str) -> list[Module]:
    """``modules`` with each function or method the request declares and no interface
    does, in the module the request names last before it; a module given one loses the
    interface lines that only declare names the request never states.

    "Timesheet records the hours someone worked, with void log(LocalDate day, double
    hours), double hoursOn(LocalDate day) and double totalHours(). Payroll has one static
    method, long grossPayCents(Timesheet sheet, long hourlyRateCents)" was planned as
    ``Timesheet: log(...)`` and ``Payroll: calculateGrossPay(...)``: drafts built to the
    plan, tests built to the words, and no test compiled against any draft (java-
    timesheet-payroll, session 38). A declaration is a name written with parameters, not
    values (``hoursOn(LocalDate day)``, ``totalHours()``; not ``round(x, 2)``).
    """
    stated = set(stated_names(words))
    names = {m.name for m in modules}
    declared = {n for m in modules for n in _declared(m.public_interface)}
    added: dict[str, list[str]] = {}
    for name, declaration, at in _declarations(words):
        if name in names or name in declared or name not in stated:
            continue
        owner = _named_last(words[:at], names)
        if owner is not None:
            added.setdefault(owner, []).append(declaration)
            declared.add(name)
    return [_given(m, added.get(m.name, []), stated) for m in modules]


def _declarations(words: str) -> list[tuple[str, str, int]]:
    """``(name, name(params), offset)`` for each name ``words`` writes with parameters
    (identifiers, typed or not, or none), first occurrence only."""
    found: dict[str, tuple[str, str, int]] = {}
    for m in _DECLARATION.finditer(words):
        params = [p.strip() for p in m.group(2).split(",") if p.strip()]
        if m.group(1) not in found and all(_PARAMETER.fullmatch(p) for p in params):
            found[m.group(1)] = (m.group(1), m.group(0), m.start())
    return list(found.values())


def _named_last(before: str, names: set[str]) -> str | None:
    spots = [
        (m.start(), n)
        for n in names
        for m in re.finditer(rf"(?<![\w$]){re.escape(n)}(?![\w$])", before)
    ]
    return max(spots)[1] if spots else None


def _given(module: Module, declarations: list[str], stated: set[str]) -> Module:
    if not declarations:
        return module
    known = stated | {module.name}
    lines = module.public_interface.splitlines()
    kept = [
        line for line in lines if not (set(_declared(line)) and not set(_declared(line)) & known)
    ]
    return module.model_copy(update={"public_interface": "\n".join([*kept, *declarations])})


def _renamed(module: Module, renamed: dict[str, str]) -> Module:
    """``module`` under its new name, its dependencies under theirs, and its interface
    and purpose saying the new names."""

    def said(text: str) -> str:
        for old, new in renamed.items():
            text = re.sub(rf"(?<![\w$]){re.escape(old)}(?![\w$])", new, text)
        return text

    return module.model_copy(
        update={
            "name": renamed.get(module.name, module.name),
            "public_interface": said(module.public_interface),
            "purpose": said(module.purpose),
            "depends_on": [renamed.get(d, d) for d in module.depends_on],
        }
    )


def _best(modules: Sequence[Module], names: Sequence[str]) -> Module | None:
    scored = [(sum(n in m.public_interface for n in names), i) for i, m in enumerate(modules)]
    best = max(scored, default=(0, 0))
    return modules[best[1]] if best[0] > 0 else None


def _module_for(
    file: StatedFile,
    names: Sequence[str],
    match: Module | None,
    interfaces: Sequence[str],
    language: str,
) -> Module:
    own = [i for i in interfaces if any(_declares(i, n) for n in names)]
    interface = match.public_interface if match is not None else ""
    missing = [i for i in own if not any(_declares(interface, n) for n in _declared(i))]
    interface = "\n".join(part for part in [interface, *missing] if part.strip())
    stated = [n for n in names if n not in interface]
    if stated and not interface.strip():
        interface = "\n".join(f"{n}(...)" for n in stated)
    classes = [m.group(1) for m in _CLASS.finditer(file.intro)]
    absent = [c for c in dict.fromkeys(classes) if not _declares(interface, c)]
    if absent:  # "cart.js exports a class Cart ... with addItem(...)": Cart is a class
        interface = "\n".join([*(f"class {c}" for c in absent), interface]).strip()
    return Module(
        name=file.stem,
        purpose=(match.purpose if match is not None else "") or file.text[:300] or file.stem,
        language=match.language if match is not None else language,
        depends_on=list(match.depends_on) if match is not None else [],
        public_interface=interface or file.stem,
    )


def _declares(interface: str, name: str) -> bool:
    """Whether ``interface`` defines ``name``: a class of that name, or a function or
    method called so (not a mere mention, such as a parameter's type)."""
    escaped = re.escape(name)
    pattern = rf"\b(?:class|interface|record|enum)\s+{escaped}\b|(?<![\w$.]){escaped}\s*\("
    return re.search(pattern, interface) is not None


def _declared(interface: str) -> list[str]:
    """The names an interface line defines (its classes and functions)."""
    said = declaring_part(interface)
    return [*(m.group(1) for m in _CLASS.finditer(said)), *_called_names(said)]


def _called_names(text: str) -> list[str]:
    return [m.group(1) for m in _SIGNATURE.finditer(text) if m.group(1) not in _NOT_NAMES]


def _deps(
    module: Module, renamed: dict[str, str], fitted: Sequence[Module], text: str
) -> list[str]:
    """The proposal's dependencies (renamed), and the stated modules whose classes or
    functions this module's sentences or interface use."""
    known = {m.name for m in fitted}
    deps = [renamed.get(d, d) for d in module.depends_on]
    said = f"{text}\n{module.public_interface}"
    for other in fitted:
        own = set(_declared(module.public_interface))
        used = [n for n in _declared(other.public_interface) if n not in own]
        mentioned = any(re.search(rf"\b{re.escape(n)}\b", said) for n in used)
        if other.name != module.name and mentioned:
            deps.append(other.name)
    return [d for d in dict.fromkeys(deps) if d in known and d != module.name]
