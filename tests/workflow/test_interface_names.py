"""A candidate lacking a top-level name of its module's interface never outvotes the tests
of that name (py-inventory-report at e33c326)."""

from __future__ import annotations

from codeproof.choosing.interface import declared_top_level, missing_names
from codeproof.choosing.selection import choose, judge
from codeproof.core.types import Module, TestCase, TestReport
from inproc import memory_python_toolchain

REPORT = Module(
    name="report",
    purpose="CSV of an inventory",
    language="python",
    public_interface="report.to_csv(inventory: Inventory) -> str",
)
METHOD = (
    "class Inventory:\n"
    "    def __init__(self):\n        self.items = {}\n\n"
    "    def add(self, sku, qty):\n        self.items[sku] = qty\n\n"
    "    def to_csv(self):\n        return 'sku,quantity'\n"
)
FUNCTION = "def to_csv(inventory):\n    return 'sku,quantity\\n'\n"


def _report(passed: list[str], failed: list[str]) -> TestReport:
    cases = [TestCase(name=n, outcome="passed") for n in passed]
    cases += [TestCase(name=n, outcome="failed", message="boom") for n in failed]
    return TestReport(total=len(cases), passed=len(passed), failed=len(failed), tests=cases)


def test_the_names_an_interface_declares_at_the_top_level() -> None:
    def declared(interface: str) -> list[str]:
        return declared_top_level(REPORT.model_copy(update={"public_interface": interface}))

    assert declared("report.to_csv(inventory) -> str") == ["to_csv"]
    assert declared("to_csv(inventory)\nfrom_csv(text)") == ["to_csv", "from_csv"]
    assert declared("class Inventory\nInventory.add(sku, qty)") == ["Inventory"]
    assert declared("class Cart\nadd_item(name)") == ["Cart"]  # may be a method of Cart
    assert declared("other.to_csv(inventory)") == []
    # a return type's prose is no declaration (py-word-freq at 68dd645: "define `of`")
    stated = "word_frequencies(text, top=None) -> list of (word, count) tuples\ntop_word(text)"
    assert declared(stated) == ["word_frequencies", "top_word"]


def test_a_javascript_function_defined_where_it_is_exported_is_defined() -> None:
    # js-slugify at 9283193: the draft passing the most tests wrote
    # `module.exports = { slugify(title, maxLength) {...} }` and was set aside as
    # "lacking the interface's slugify"
    module = Module(
        name="slugify", purpose="p", language="javascript", public_interface="slugify(title)"
    )
    declared = "const slugify = (title) => title;\nmodule.exports = { slugify };\n"
    inline = [
        "module.exports = {\n  slugify(title) {\n    return title;\n  },\n};\n",
        "module.exports = { slugify: (title) => title };\n",
        "exports.slugify = function (title) { return title; };\n",
    ]
    candidates = [{"slugify.js": declared}, *({"slugify.js": s} for s in inline)]
    assert missing_names(module, candidates) == [[], [], [], []]
    helper_only = {"slugify.js": "module.exports = { helper(x) { return x; } };\n"}
    assert missing_names(module, [{"slugify.js": declared}, helper_only]) == [[], ["slugify"]]


def test_a_name_is_required_only_where_some_candidate_defines_it_at_the_top_level() -> None:
    assert missing_names(REPORT, [{"report.py": METHOD}, {"report.py": FUNCTION}]) == [
        ["to_csv"],
        [],
    ]
    assert missing_names(REPORT, [{"report.py": METHOD}, {"report.py": METHOD}]) == [[], []]
    tests_only = {"test_report.py": FUNCTION}  # a test file defines nothing of the module
    assert missing_names(REPORT, [{"report.py": METHOD}, tests_only]) == [[], []]
    java = Module(
        name="Table", purpose="t", language="java", public_interface="Table.addRow(List<String>)"
    )
    source = "public class Table { public void addRow(java.util.List<String> r) {} }"
    assert missing_names(java, [{"Table.java": source}, {"Table.java": source}]) == [[], []]


def test_agreeing_candidates_lacking_the_function_do_not_set_its_tests_aside() -> None:
    # three drafts without to_csv agree on the store's tests and fail the to_csv ones
    lacking = _report(["t_add", "t_total"], ["t_csv_header", "t_csv_rows"])
    whole = _report(["t_add", "t_csv_header"], ["t_total", "t_csv_rows"])
    reports = [lacking, lacking, lacking, whole]
    before = judge(reports)
    assert before.index == 0 and "t_csv_header" in before.disputed
    after = judge(reports, incomplete=[True, True, True, False])
    assert after.index == 3 and after.disputed == ()
    assert judge(reports, incomplete=[True] * 4).index == 0  # none complete: as before


def test_the_choice_keeps_the_draft_defining_the_stated_function() -> None:
    toolchain = memory_python_toolchain()
    tests = {
        "test_report.py": (
            "from report import *  # noqa: F403\n\n\n"
            "def test_header():\n"
            "    from report import to_csv\n"
            "    assert to_csv(None).startswith('sku,quantity')\n\n\n"
            "def test_lines():\n"
            "    from report import to_csv\n"
            "    assert to_csv(None).endswith('\\n')\n\n\n"
            "def test_inventory_here():\n"
            "    import report\n"
            "    assert hasattr(report, 'Inventory')\n"
        )
    }
    choice = choose(
        lambda files, t: toolchain.run_tests(files, t, 60),
        [*({"report.py": METHOD + "\n" * i} for i in range(3)), {"report.py": FUNCTION}],
        tests,
        REPORT,
    )
    assert choice.index == 3 and choice.quarantined == []  # the to_csv tests are kept
    assert choice.report.passed == 2
    assert choice.lacking == {0: ["to_csv"], 1: ["to_csv"], 2: ["to_csv"]}
    assert "lacking the interface's to_csv (candidate 0)" in choice.note
