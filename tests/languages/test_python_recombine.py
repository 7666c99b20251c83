"""One function of a Python draft put in another (languages/python/recombine.py)."""

from __future__ import annotations

import ast

from codeproof.choosing.choice import Choice
from codeproof.choosing.recombining import adopt, recombined
from codeproof.core.types import Module, TestCase, TestReport
from codeproof.languages.python.recombine import calls_by_test, splice

BASE = '''"""Durations."""

from __future__ import annotations

import re

UNITS = {"h": 3600}


def parse(text):
    return int(re.findall(r"\\d+", text)[0]) * UNITS["h"]


@staticmethod
def show(seconds):
    return f"{seconds}s"
'''
DONOR = """import math
from functools import reduce

PARTS = ("h", "m", "s")


def _join(parts):
    return " ".join(parts)


@staticmethod
def show(seconds):
    return _join([f"{math.floor(seconds)}{PARTS[2]}"])


def parse(text):
    return 0
"""


def _defs(code: str) -> list[str]:
    return [n.name for n in ast.parse(code).body if isinstance(n, ast.FunctionDef)]


def test_the_function_comes_with_the_helpers_constants_and_imports_it_uses() -> None:
    spliced = splice({"d.py": BASE}, {"d.py": DONOR}, "show")
    assert spliced is not None
    code = spliced["d.py"]
    assert code.startswith('"""Durations."""\n\nfrom __future__ import annotations\nimport math\n')
    assert "import functools" not in code and "reduce" not in code  # not used by show
    assert 'PARTS = ("h", "m", "s")' in code and "def _join(parts):" in code
    assert "UNITS = " in code and "re.findall" in code  # the base's own parse is kept
    assert _defs(code) == ["parse", "show", "_join"]
    assert code.count("@staticmethod") == 1
    namespace: dict[str, object] = {}
    exec(compile(code, "d.py", "exec"), namespace)  # the test's own trusted code
    assert namespace["show"].__func__(90.5) == "90s"  # type: ignore[attr-defined]


def test_nothing_is_spliced_where_the_drafts_disagree_or_agree() -> None:
    other = DONOR.replace('PARTS = ("h", "m", "s")', 'PARTS = ("s",)')
    clash = BASE + '\n\nPARTS = ("x", "y", "z")\n'
    assert splice({"d.py": clash}, {"d.py": other}, "show") is None  # PARTS differs
    assert splice({"d.py": BASE}, {"d.py": BASE}, "show") is None  # the same function
    assert splice({"d.py": BASE}, {"d.py": DONOR}, "missing") is None
    assert splice({"d.py": BASE}, {"e.py": "x = 1\n"}, "show") is None


def test_each_test_names_the_module_functions_it_calls() -> None:
    tests = {
        "test_d_examples.py": "def test_example_1():\n    assert parse('1h') == 3600\n",
        "test_d.py": (
            "class TestBoth:\n    def test_round(self):\n        assert parse(show(1)) == 1\n"
        ),
    }
    assert calls_by_test(tests, {"parse", "show"}) == {
        "test_d_examples.test_example_1": frozenset({"parse"}),
        "test_d.TestBoth.test_round": frozenset({"parse", "show"}),
    }


MODULE = Module(name="d", purpose="p", language="python", public_interface="parse(t)\nshow(s)")
EXAMPLES = {
    "test_d_examples.py": (
        "from d import parse, show\n\n\ndef test_example_1():\n    assert parse('1h') == 3600\n"
        "\n\ndef test_example_2():\n    assert show(1) == '1s'\n"
    )
}


def _report(passed: list[str], failed: list[str]) -> TestReport:
    cases = [TestCase(name=f"test_d_examples.{n}", outcome="passed") for n in passed]
    cases += [TestCase(name=f"test_d_examples.{n}", outcome="failed") for n in failed]
    return TestReport(total=len(cases), passed=len(passed), failed=len(failed), tests=cases)


def test_the_chosen_candidate_takes_the_function_whose_examples_another_meets() -> None:
    reports = [_report(["test_example_1"], ["test_example_2"]), _report(["test_example_2"], [])]
    [(files, taken)] = recombined(MODULE, [{"d.py": BASE}, {"d.py": DONOR}], reports, EXAMPLES, 0)
    assert taken == {"show": 1} and "def _join(parts):" in files["d.py"]
    assert "re.findall" in files["d.py"]  # parse stays the chosen one's
    # nothing to take where the chosen candidate meets as many of each function's examples
    even = [_report(["test_example_1", "test_example_2"], []), reports[1]]
    assert recombined(MODULE, [{"d.py": BASE}, {"d.py": DONOR}], even, EXAMPLES, 0) == []


def test_each_candidate_meeting_as_many_examples_gives_a_composite() -> None:
    # py-durations: two drafts met format_duration's three examples; the earliest one's
    # missed the hidden "0s" rule, the other's did not, and no example tells them apart
    other = DONOR.replace('return _join([f"{math.floor(seconds)}{PARTS[2]}"])', 'return "1s"')
    reports = [
        _report(["test_example_1"], ["test_example_2"]),
        *[_report(["test_example_2"], [])] * 3,
    ]
    candidates = [{"d.py": BASE}, {"d.py": DONOR}, {"d.py": other}, {"d.py": DONOR}]
    made = recombined(MODULE, candidates, reports, EXAMPLES, 0)
    assert [taken for _, taken in made] == [{"show": 1}, {"show": 2}]  # the copy adds none


def test_a_composite_is_shipped_only_where_it_misses_fewer_stated_examples() -> None:
    chosen = _report(["test_example_1"], ["test_example_2"])
    both = _report(["test_example_1", "test_example_2"], [])
    choice = Choice(0, {"d.py": BASE}, EXAMPLES, chosen, 1, reports=[chosen, both])
    composite = ({"d.py": "composite"}, {"show": 1})

    adopted = adopt(lambda files, tests: both, None, MODULE, choice, [composite])
    assert adopted is not None and adopted.files == {"d.py": "composite"}
    assert adopted.examples_missed == 0 and "shipped with show from candidate 1" in adopted.note
    # a composite that meets no more examples (here it breaks parse's) is not shipped
    worse = _report(["test_example_2"], ["test_example_1"])
    assert adopt(lambda files, tests: worse, None, MODULE, choice, [composite]) is None
