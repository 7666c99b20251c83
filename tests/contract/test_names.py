"""Files, modules, functions and classes the request names are the ones built."""

from __future__ import annotations

import pytest

from codeproof.agents.planner import order_modules
from codeproof.contract.examples import stated_examples
from codeproof.contract.files import stated_files
from codeproof.contract.names import fit_modules, stated_names
from codeproof.core.types import Module
from codeproof.languages.registry import layout_for


def _module(name: str, interface: str, language: str = "python") -> Module:
    return Module(name=name, purpose="p", language=language, public_interface=interface)


def test_a_stated_python_file_names_the_module() -> None:
    words = "Write a Python module roman.py with two functions to_roman(n) and from_roman(s)."
    proposed = [_module("roman_numeral_converter", "to_roman(n: int) -> str\nfrom_roman(s)")]
    [module] = fit_modules(proposed, words, layout_for("python"), [])
    assert module.name == "roman" and "to_roman" in module.public_interface
    assert layout_for("python").source_path(module.name) == "roman.py"


@pytest.mark.parametrize(
    ("language", "words", "name"),
    [
        ("python", "Write a module called text_utils with shout(s) and whisper(s).", "text_utils"),
        ("javascript", "Create the module `textUtils` exporting shout(s).", "textUtils"),
        ("python", "A module (one file) exporting shout(s) and whisper(s).", "helpers"),
        ("python", "A module named after its purpose, with shout(s).", "helpers"),
    ],
)
def test_a_module_named_in_words_names_the_module(language: str, words: str, name: str) -> None:
    proposed = [_module("helpers", "shout(s)\nwhisper(s)", language)]
    [module] = fit_modules(proposed, words, layout_for(language), [])
    assert module.name == name and "shout" in module.public_interface


def test_two_stated_files_become_two_modules_with_their_names_and_dependency() -> None:
    words = (
        "A library with two modules: store.py defines class Inventory with add(name, qty) "
        "and remove(name, qty); report.py defines to_csv(inventory: Inventory)."
    )
    proposed = [_module("sqlite", "class Inventory"), _module("inventory", "to_csv(inv)")]
    store, report = fit_modules(
        proposed, words, layout_for("python"), ["class Inventory", "to_csv(inventory)"]
    )
    assert (store.name, report.name) == ("store", "report")
    assert report.depends_on == ["store"]
    assert [m.name for m in order_modules([report, store], language="python")] == [
        "store",
        "report",
    ]


def test_stated_javascript_and_java_files_name_their_modules() -> None:
    js = fit_modules(
        [_module("textTools", "function wordCount(text)", "javascript")],
        "Create words.js exporting wordCount(text).",
        layout_for("javascript"),
        [],
    )
    assert [m.name for m in js] == ["words"]
    assert layout_for("javascript").source_path(js[0].name) == "words.js"
    java = fit_modules(
        [_module("inventory_manager", "class Inventory { void add(String n, int q) }", "java")],
        "Write Inventory.java: a class Inventory with add(String name, int qty). "
        "Also Report.java with toCsv(Inventory inv).",
        layout_for("java"),
        ["class Inventory { void add(String n, int q) }", "class Report { String toCsv() }"],
    )
    assert [m.name for m in java] == ["Inventory", "Report"]
    assert [layout_for("java").source_path(m.name) for m in java] == [
        "Inventory.java",
        "Report.java",
    ]
    assert java[1].depends_on == ["Inventory"]


def test_without_stated_files_the_proposal_stands_and_tests_are_not_modules() -> None:
    proposed = [_module("slugify", "slugify(text)")]
    words = "a slugify(text) function; put its tests in test_slugify.py"
    assert stated_files(words, layout_for("python")) == []
    assert fit_modules(proposed, words, layout_for("python"), []) == proposed
    assert stated_names("class Inventory with `add` and remove(name)") == [
        "Inventory",
        "add",
        "remove",
    ]


def test_words_before_a_bracket_in_prose_are_not_names() -> None:
    words = (
        "I need slugify.js, a Node.js module (CommonJS) exporting slugify(title, maxLength). "
        'It is cut after the last whole word that fits (for "The quick brown fox" with '
        'maxLength 12 the output should be "the-quick").'
    )
    assert stated_names(words) == ["slugify"]
    # the request's only function: its examples stated by their input alone are read
    assert stated_examples(words, stated_names(words), {"slugify": ["title", "maxLength"]}) == [
        'slugify("The quick brown fox", 12) -> "the-quick"'
    ]


@pytest.mark.parametrize(
    ("words", "names"),
    [
        ("Create a class named Stack with push and pop methods.", ["Stack"]),
        ("Write a function called count_words that counts the words of a text.", ["count_words"]),
        ("Add a method named is_leap to class Calendar.", ["is_leap", "Calendar"]),
        ("Sort the items with a function called on each pair of items.", []),
        ("Write a Stack class with a push method.", ["Stack"]),
        ("Write a Python class for stacks, or a JavaScript class.", []),
    ],
)
def test_names_stated_in_words_alone(words: str, names: list[str]) -> None:
    assert stated_names(words) == names


def test_a_stated_name_that_shadows_a_standard_module_is_kept() -> None:
    [module] = order_modules([_module("random", "pick(xs)")], strict=False, stated=["random"])
    assert module.name == "random"
    [renamed] = order_modules([_module("random", "pick(xs)")], strict=False)
    assert renamed.name != "random"


def test_without_stated_files_a_module_that_builds_nothing_stated_is_dropped() -> None:
    words = (
        "Write a Java class BusinessCalendar for computing due dates. It is created with new "
        "BusinessCalendar(Set<LocalDate> holidays) and has boolean isBusinessDay(LocalDate "
        "day) and int businessDaysBetween(LocalDate from, LocalDate to)."
    )
    calendar = _module(
        "BusinessCalendar",
        "boolean isBusinessDay(LocalDate day), int businessDaysBetween(LocalDate a, LocalDate b)",
        "java",
    )
    holidays = _module("HolidaySet", "Set<LocalDate> getHolidays()", "java")
    fitted = fit_modules([calendar, holidays], words, layout_for("java"), [])
    assert [m.name for m in fitted] == ["BusinessCalendar"]


def test_a_module_repeating_what_the_stated_class_builds_is_dropped() -> None:
    """java-card-numbers (session 37): one stated class planned as three modules; the
    two extra ones ran the request past its time limit."""
    words = (
        "I need a Java utility class CardNumbers with three static methods for payment "
        "card numbers: boolean isValid(String number), String brand(String number) and "
        "String mask(String number)."
    )
    cards = _module("CardNumbers", "isValid(String n), brand(String n), mask(String n)", "java")
    luhn = _module("LuhnChecksum", "isValid(String number)", "java")
    brand = _module("CardBrand", "brand(String number)", "java")
    fitted = fit_modules([cards, luhn, brand], words, layout_for("java"), [])
    assert [m.name for m in fitted] == ["CardNumbers"]
    # one the stated class depends on stays
    uses = cards.model_copy(update={"depends_on": ["LuhnChecksum"]})
    fitted = fit_modules([uses, luhn, brand], words, layout_for("java"), [])
    assert [m.name for m in fitted] == ["CardNumbers", "LuhnChecksum"]


def test_a_class_the_request_names_only_as_a_word_is_kept() -> None:
    """java-timesheet-payroll (session 37): the planner renamed Payroll's method, so
    the module built no stated name and was dropped; the user had named the class."""
    words = (
        "Two Java classes for paying hourly staff. Timesheet records the hours someone "
        "worked, with void log(LocalDate day, double hours). Payroll has one static "
        "method, long grossPayCents(Timesheet sheet, long hourlyRateCents)."
    )
    sheet = _module("Timesheet", "log(LocalDate date, double hours)", "java")
    payroll = _module("Payroll", "calculateGrossPay(Timesheet t, double rate)", "java")
    unstated = _module("PayCalculator", "calculateGrossPay(Timesheet t, double rate)", "java")
    fitted = fit_modules([sheet, payroll, unstated], words, layout_for("java"), [])
    assert [m.name for m in fitted] == ["Timesheet", "Payroll"]


@pytest.mark.parametrize(
    ("language", "words", "used"),
    [
        (
            "java",
            "Write a Java class BusinessCalendar. It is created with new BusinessCalendar("
            "Set<LocalDate> holidays) and has boolean isBusinessDay(LocalDate day).",
            ["LocalDate", "Set"],
        ),
        (
            "javascript",
            "Write a JavaScript function restock(items), where items is a Map from sku to "
            "a count, and a Date of the last restock.",
            ["Map", "Date"],
        ),
    ],
)
def test_a_standard_type_the_request_writes_is_used_not_asked_for(
    language: str, words: str, used: list[str]
) -> None:
    """Session 37's business-calendar rerun: the planner's modules ``LocalDate`` and
    ``Set`` were kept as stated because the request writes ``Set<LocalDate>``; 29 calls
    instead of 14."""
    main = "BusinessCalendar" if language == "java" else "inventory"
    interface = "isBusinessDay(LocalDate day)" if language == "java" else "restock(items)"
    proposed = [_module(main, interface, language)]
    proposed += [_module(name, f"{name.lower()}Of(x)", language) for name in used]
    fitted = fit_modules(proposed, words, layout_for(language), [])
    assert [m.name for m in fitted] == [main]


def test_modules_each_building_a_stated_name_of_their_own_are_kept() -> None:
    words = "Write tokenize(text) and evaluate(expression), and total(rows) for reports."
    both = _module("parsing", "tokenize(text), evaluate(expression)")
    again = _module("evaluation", "evaluate(expression)")  # nothing of its own
    report = _module("report", "total(rows), evaluate(expression)")  # adds total
    fitted = fit_modules([again, both, report], words, layout_for("python"), [])
    assert [m.name for m in fitted] == ["parsing", "report"]


def test_an_unstated_module_a_stated_one_depends_on_is_kept() -> None:
    words = "Write a Python function evaluate(expression) that computes an arithmetic expression."
    lexer = _module("lexer", "tokenize(text: str) -> list[str]")
    evaluator = _module("evaluator", "evaluate(expression: str) -> float").model_copy(
        update={"depends_on": ["lexer"]}
    )
    unused = _module("history", "remember(result: float) -> None")
    fitted = fit_modules([lexer, evaluator, unused], words, layout_for("python"), [])
    assert [m.name for m in fitted] == ["lexer", "evaluator"]


def test_modules_are_kept_when_the_request_names_nothing_they_define() -> None:
    words = "Make me a small library to parse and format durations."
    proposed = [_module("parsing", "parse(text) -> int"), _module("formatting", "fmt(s) -> str")]
    assert fit_modules(proposed, words, layout_for("python"), []) == proposed


def test_a_file_only_mentioned_in_another_files_sentence_keeps_its_own_names() -> None:
    """js-cart at 7781283: "cart.js exports a class Cart, built on pricing.js, with
    addItem(...)" gave pricing.js Cart's methods too, so the proposal whose interface had
    them (a planner that swapped the two interfaces) became pricing."""
    words = (
        "ledger.js exports addEntry(amount) and balance(). Amounts are integer cents.\n\n"
        "report.js exports a class Report, built on ledger.js, with render(), "
        "totalLine() (the ledger's balance()) and rows()."
    )
    swapped = [
        _module("ledger", "class Report: render(), totalLine(), rows()", "javascript"),
        _module("report", "addEntry(amount); balance()", "javascript"),
    ]
    ledger, report = fit_modules(swapped, words, layout_for("javascript"), [])
    assert (ledger.name, report.name) == ("ledger", "report")
    assert "addEntry" in ledger.public_interface and "render" not in ledger.public_interface
    assert "render" in report.public_interface and report.depends_on == ["ledger"]
    files = stated_files(words, layout_for("javascript"))
    assert "render()" not in files[0].text and "render()" in files[1].text


def test_rules_after_the_last_file_keep_to_the_files_that_name_them() -> None:
    """py-inventory-report at e793c62: the rules after "report.py defines to_csv(...)"
    speak of quantity(sku) and total_value(), so report got them too, and store was made
    to depend on report."""
    words = (
        "Two modules. shelf.py defines a class Shelf with put(book, copies), "
        "copies(book) and value().\n\nlisting.py defines render(shelf), a text listing.\n\n"
        "Rules:\n- copies(book) is 0 for a book not on the shelf.\n"
        "- value() is the sum of the copies times their price.\n"
        "- render(shelf) lists one line per book, sorted."
    )
    proposed = [
        _module("listing", "render(shelf)\ncopies(book)\nvalue()"),
        _module("shelf", "class Shelf: put(book, copies), copies(book), value()"),
    ]
    shelf, listing = fit_modules(proposed, words, layout_for("python"), [])
    assert (shelf.name, listing.name) == ("shelf", "listing")
    assert "copies" not in listing.public_interface and "render" in listing.public_interface
    assert shelf.depends_on == [] and listing.depends_on == ["shelf"]


def test_a_class_the_files_sentence_states_is_in_its_interface() -> None:
    """js-cart at b219ba7: the planner listed Cart's methods as functions, and the
    request's "cart.js exports a class Cart" was lost from the interface."""
    words = "basket.js exports a class Basket with add(item) and size()."
    proposed = [_module("basket", "function add(item): void; function size(): number;")]
    [basket] = fit_modules(proposed, words, layout_for("javascript"), [])
    assert basket.public_interface.startswith("class Basket\nfunction add(item)")


def test_a_runtime_named_like_a_file_is_not_a_stated_file() -> None:
    # js-slugify: "a Node.js module" became a second module called Node
    words = "I need slugify.js, a Node.js module (CommonJS) exporting slugify(title)."
    files = stated_files(words, layout_for("javascript"))
    assert [f.path for f in files] == ["slugify.js"]


def test_a_java_module_takes_the_stated_spelling_of_its_class() -> None:
    """java-lru-cache at db01955: planned as ``LRUCache``, so LRUCache.java held the
    drafts' ``class LruCache`` and no designed test compiled against any draft."""
    words = (
        "Write a Java class LruCache<K, V>, a fixed-size cache. Constructor "
        "LruCache(int capacity); methods V get(K key) and void put(K key, V value). "
        "A class CacheStats counts the hits of a cache."
    )
    planned = _module(
        "LRUCache", "public class LRUCache<K, V> { LRUCache(int capacity); V get(K key) }", "java"
    )
    stats = _module("CacheStats", "class CacheStats { int hits(LRUCache c) }", "java")
    stats = stats.model_copy(update={"depends_on": ["LRUCache"]})
    cache, main = fit_modules([planned, stats], words, layout_for("java"), [])
    assert cache.name == "LruCache"
    assert "class LruCache<K, V>" in cache.public_interface
    assert "LRUCache" not in cache.public_interface
    assert layout_for("java").source_path(cache.name) == "LruCache.java"
    assert main.depends_on == ["LruCache"]
    assert main.public_interface == "class CacheStats { int hits(LruCache c) }"


def test_a_java_module_defining_one_stated_class_under_another_name_takes_its_name() -> None:
    words = "Write a Java class TextTable that renders rows as an aligned text table."
    planned = _module("TableRenderer", "class TextTable { String render() }", "java")
    [module] = fit_modules([planned], words, layout_for("java"), [])
    assert module.name == "TextTable"


def test_module_names_are_left_alone_where_files_are_not_named_after_classes() -> None:
    """A Python module ``inventory`` defining the stated ``class Inventory`` stays
    ``inventory.py``; a Java module defining two stated classes cannot tell which."""
    words = "Write a class Inventory that counts items, and a class Report."
    python = _module("inventory", "class Inventory: add(sku)")
    assert fit_modules([python], words, layout_for("python"), []) == [python]
    java = _module("Stock", "class Inventory { }\nclass Report { }", "java")
    assert fit_modules([java], words, layout_for("java"), [])[0].name == "Stock"
    words = "Write a Java class that renders a table."  # "that" is no class name
    that = _module("TextTable", "class that { }", "java")
    assert fit_modules([that], words, layout_for("java"), [])[0].name == "TextTable"


def test_a_sentence_introducing_two_files_gives_each_its_clause() -> None:
    """Session 38's own request: the whole sentence went to temperature.py, so the
    planner's describe stayed there and reading.py became ``from temperature import
    describe``, failing all of its tests."""
    words = (
        "Write a Python module temperature.py with two functions, to_fahrenheit(celsius) "
        "and to_celsius(fahrenheit), each rounding to one decimal, and a module reading.py "
        "with describe(celsius) that returns a string like '21.5 C (70.7 F)', using "
        "temperature.py. Example: describe(0) returns '0.0 C (32.0 F)'."
    )
    temperature, reading = stated_files(words, layout_for("python"))
    assert "to_celsius" in temperature.intro and "describe" not in temperature.text
    assert reading.intro.startswith("and a module reading.py with describe(celsius)")
    assert "describe(0)" in reading.text and reading.uses == ("temperature",)
    proposed = [_module("temperature", "to_fahrenheit(celsius)\nto_celsius(f)\ndescribe(c)")]
    fitted = fit_modules(proposed, words, layout_for("python"), ["describe(celsius) -> str"])
    assert [(m.name, m.depends_on) for m in fitted] == [
        ("temperature", []),
        ("reading", ["temperature"]),
    ]
    assert "describe" not in fitted[0].public_interface
    assert "describe(celsius)" in fitted[1].public_interface


@pytest.mark.parametrize(
    ("words", "owners"),
    [
        # a file the sentence says another builds on is not introduced by it
        (
            "cart.js exports a class Cart, built on pricing.js, with addItem(name).",
            {"cart.js": "addItem", "pricing.js": ""},
        ),
        # a file with a sentence of its own keeps that sentence, not this clause
        (
            "Two modules, a.js and b.js, where a.js has f(x). b.js has g(y).",
            {"a.js": "f(x)", "b.js": "g(y)"},
        ),
        ("Write a.js with f(x), b.js with g(y), and c.js with h(z).", {"c.js": "h(z)"}),
    ],
)
def test_only_a_file_introduced_mid_sentence_takes_the_clause_after_it(
    words: str, owners: dict[str, str]
) -> None:
    files = {f.path: f for f in stated_files(words, layout_for("javascript"))}
    for path, name in owners.items():
        assert (name in files[path].intro) if name else not files[path].intro
    others = {p: f.intro for p, f in files.items() if p not in owners}
    assert not any(n in intro for intro in others.values() for n in owners.values() if n)


def test_files_listed_together_do_not_depend_on_each_other() -> None:
    words = (
        "Two modules, money.py and split.py. money.py has parse_money(text). "
        "split.py has split_bill(text), which reads it with parse_money, built on money.py."
    )
    money, split = stated_files(words, layout_for("python"))
    assert (money.uses, split.uses) == ((), ("money",))
    fitted = fit_modules([], words, layout_for("python"), [])
    assert [(m.name, m.depends_on) for m in fitted] == [("money", []), ("split", ["money"])]


def test_methods_the_request_declares_are_in_the_interface_of_the_class_it_names() -> None:
    """java-timesheet-payroll at session 38: planned as ``Timesheet: log(...)`` and
    ``Payroll: calculateGrossPay(...)``, so no designed test compiled against a draft."""
    words = (
        "Two Java classes for paying hourly staff. Timesheet records the hours someone "
        "worked, with void log(LocalDate day, double hours), double hoursOn(LocalDate day) "
        "and double totalHours(). Payroll has one static method, long "
        "grossPayCents(Timesheet sheet, long hourlyRateCents). Pay is rounded like "
        "Math.round(x) or round(x, 2)."
    )
    proposed = [
        _module("Timesheet", "log(LocalDate date, double hours)", "java"),
        _module("Payroll", "calculateGrossPay(Timesheet t, double rate)\nclass Payroll", "java"),
    ]
    timesheet, payroll = fit_modules(proposed, words, layout_for("java"), [])
    assert timesheet.public_interface.splitlines() == [
        "log(LocalDate date, double hours)",
        "hoursOn(LocalDate day)",
        "totalHours()",
    ]
    assert payroll.public_interface.splitlines() == [
        "class Payroll",
        "grossPayCents(Timesheet sheet, long hourlyRateCents)",
    ]


def test_a_call_with_values_declares_nothing_and_a_class_named_nowhere_gets_nothing() -> None:
    proposed = [_module("Stats", "double mean(double[] xs)", "java")]
    words = "A Java class Stats. median(xs) of [1, 2] is 1.5; max(3, 4) is 4."
    [stats] = fit_modules(proposed, words, layout_for("java"), [])
    assert stats.public_interface.splitlines() == ["median(xs)"]  # mean: asked by no one
    elsewhere = "mode(values) returns the most common value. A Java class Stats."
    assert fit_modules(proposed, elsewhere, layout_for("java"), [])[0] == proposed[0]
