"""Reading an existing project and placing modules in its layout (no sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest

from codeproof.core.errors import InputError
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, TestCase, TestReport
from codeproof.languages.python.existing import rewrite_imports
from codeproof.workflow.project import judge, load_project, planned_changes, written

FIXTURE = Path(__file__).parents[1] / "retrieval" / "fixtures" / "project"


def write(root: Path, files: dict[str, str]) -> Path:
    for path, content in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(content)
    return root


def test_a_package_project() -> None:
    p = load_project(FIXTURE)
    assert (p.language, p.import_root, p.package, p.tests_dir) == (
        "python",
        "",
        "tidepool",
        "tests",
    )
    assert sorted(p.tests) == ["tests/test_ledger.py"]
    assert p.place("brine.py") == "tidepool/brine.py"
    assert p.place("ledger.py") == "tidepool/ledger.py"  # an existing module changes
    assert p.place("test_brine.py") == "tests/test_brine.py"
    assert p.place("test_ledger.py") == "tests/test_ledger_codeproof.py"  # never replaced


def test_a_src_layout_puts_src_on_the_path(tmp_path: Path) -> None:
    root = write(tmp_path, {
        "src/kelp/__init__.py": "", "src/kelp/core.py": "def grow(): return 1\n",
        "test/test_core.py": "from kelp.core import grow\n", ".venv/lib/x.py": "junk = 1\n",
    })  # fmt: skip
    p = load_project(root)
    assert (p.import_root, p.package, p.tests_dir) == ("src", "kelp", "test")
    assert p.place("frond.py") == "src/kelp/frond.py"
    assert p.dotted("src/kelp/frond.py") == "kelp.frond"
    assert ".venv/lib/x.py" not in p.sources
    conftest = p.sandbox_sources()["conftest.py"]
    assert "sys.path.insert(0, str(_here / 'src'))" in conftest


def test_a_flat_project_and_its_own_conftest(tmp_path: Path) -> None:
    root = write(tmp_path, {"calc.py": "def add(a, b): return a + b\n",
                            "conftest.py": "# the project's own\n",
                            "test_calc.py": "from calc import add\n"})  # fmt: skip
    p = load_project(root)
    assert (p.package, p.tests_dir) == ("", "")
    assert p.place("mul.py") == "mul.py"
    assert p.sandbox_sources()["conftest.py"] == "# the project's own\n"


def test_the_language_is_the_projects_main_one(tmp_path: Path) -> None:
    root = write(tmp_path, {"index.js": "module.exports = {};\n", "a.test.js": "", "x.py": ""})
    p = load_project(root)
    assert p.language == "javascript" and list(p.tests) == ["a.test.js"]
    assert p.place("sum.js") == "sum.js"


def test_bad_projects_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is not a directory"):
        load_project(tmp_path / "missing")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(InputError, match="no Python, JavaScript or Java source"):
        load_project(tmp_path)


def test_imports_of_placed_modules_are_rewritten() -> None:
    source = (
        "import os, brine\nfrom brine import salt as s\nfrom . import brine\n"
        "import brineish\nfrom brine.sub import x\n"
    )
    assert rewrite_imports(source, {"brine": "tidepool.brine"}) == (
        "import os, tidepool.brine as brine\nfrom tidepool.brine import salt as s\n"
        "from . import brine\nimport brineish\nfrom brine.sub import x\n"
    )
    assert rewrite_imports("def (:\n", {"brine": "x.brine"}) == "def (:\n"


def test_planned_changes_name_each_file() -> None:
    p = load_project(FIXTURE)
    module = Module(name="ledger", purpose="p", language="python", public_interface="x")
    assert planned_changes(p, [module]) == [
        "ledger changes tidepool/ledger.py",
        "ledger adds tests/test_ledger_codeproof.py",
    ]


def case(name: str, outcome: str) -> TestCase:
    return TestCase(name=name, outcome=outcome)  # type: ignore[arg-type]


def test_the_gate_counts_regressions_and_own_failures_only() -> None:
    report = TestReport(total=3, passed=1, failed=2, tests=[
        case("tests.test_ledger.test_a", "passed"),
        case("tests.test_ledger.test_b", "failed"),  # failed before the run too
        case("tests.test_brine.test_c", "failed"),
    ])  # fmt: skip
    baseline = {"tests.test_ledger.test_a"}
    assert judge(report, baseline, {"tests/test_other.py"}, "brine") is None
    verdict = judge(report, baseline, {"tests/test_brine.py"}, "brine")
    assert verdict is not None and [t.name for t in verdict.tests] == ["tests.test_brine.test_c"]
    regressed = report.model_copy(update={"tests": [case("tests.test_ledger.test_a", "error")]})
    verdict = judge(regressed, baseline, set(), "brine")
    assert verdict is not None and verdict.tests[0].message.startswith("regression:")


def test_only_modules_whose_own_tests_passed_go_into_the_project() -> None:
    module = Module(name="m", purpose="p", language="python", public_interface="f()")

    def outcome(status: str, passed: int) -> ModuleOutcome:
        report = TestReport(total=passed, passed=passed)
        return ModuleOutcome.model_validate(
            {"module": module, "status": status, "report": report.model_dump()}
        )

    assert written(outcome("passed", 3)) and written(outcome("weak", 1))
    assert not written(outcome("weak", 0))  # every test set aside: nothing was shown
    assert not written(outcome("failed", 2))
