"""Assembly of the output project and its report."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from codeproof.core.errors import InputError
from codeproof.core.reports import Finding, ModuleOutcome, ModuleReport, RunReport, RunUsage
from codeproof.core.types import Docs, Module, Spec, TestReport
from codeproof.workflow.assemble import REPORT_JSON, REPORT_MD, assemble_project

DOCS = Docs(readme="# Adder\n", api="# API reference\n")
FINDING = Finding(
    tool="bandit", severity="medium", file="adder.py", line=2, message="eval", rule="B307"
)


def _outcomes(language: str = "python") -> list[ModuleOutcome]:
    util = Module(name="util", purpose="helps", language=language, public_interface="helper()")
    adder = Module(
        name="adder",
        purpose="adds",
        language=language,
        public_interface="add()",
        depends_on=["util"],
    )
    return [
        ModuleOutcome(
            module=util,
            files={"util.py": "def helper():\n    return 1\n"},
            tests={"test_util.py": "from util import helper\n"},
            status="passed",
            attempts=1,
            report=TestReport(total=2, passed=2),
        ),
        ModuleOutcome(
            module=adder,
            files={"adder.py": "def add(a, b):\n    return eval('a+b')\n"},
            tests={"test_adder.py": "from adder import add\n"},
            status="failed",
            attempts=6,
            report=TestReport(total=4, passed=3, failed=1),
            scan=[FINDING],
            test_changes=["the spec says add(-1, 1) -> 0"],
        ),
    ]


REPORT = {
    "run_id": "r-1",
    "provider": "fake",
    "model": "fake",
    "usage": {
        "calls": 9,
        "cache_hits": 2,
        "prompt_tokens": 900,
        "completion_tokens": 300,
        "cost_usd": 0.0,
        "latency_s": 12.5,
    },
    "modules": [
        {
            "name": "adder",
            "language": "python",
            "status": "failed",
            "usage": {"calls": 4, "prompt_tokens": 10},
        }
    ],
}


def test_assemble_writes_a_runnable_project(tmp_path: Path, spec: Spec) -> None:
    out = assemble_project(tmp_path / "out", spec, _outcomes(), DOCS, REPORT)
    assert out == tmp_path / "out"
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert files == [
        "Dockerfile",
        "README.md",
        "adder.py",
        REPORT_JSON,
        REPORT_MD,
        "docs/api.md",
        "requirements-dev.txt",
        "test_adder.py",
        "test_util.py",
        "util.py",
    ]
    assert (out / "docs/api.md").read_text() == DOCS.api
    dockerfile = (out / "Dockerfile").read_text()
    assert "FROM python:3.12-slim" in dockerfile and "pytest" in dockerfile
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no temp dirs left


def test_report_has_modules_totals_and_usage(tmp_path: Path, spec: Spec) -> None:
    out = assemble_project(tmp_path / "out", spec, _outcomes(), DOCS, REPORT)
    data = json.loads((out / REPORT_JSON).read_text())
    report = RunReport.model_validate(data)
    assert report.title == "Adder" and report.language == "python" and report.run_id == "r-1"
    assert [m.name for m in report.modules] == ["util", "adder"]
    adder = report.modules[1]
    assert (
        adder.status,
        adder.attempts,
        adder.tests_total,
        adder.tests_passed,
        adder.tests_failed,
    ) == (
        "failed",
        6,
        4,
        3,
        1,
    )
    assert adder.findings == [FINDING] and adder.usage.calls == 4
    assert data["totals"] == {
        "modules": 2,
        "passed": 1,
        "weak": 0,
        "failed": 1,
        "skipped": 0,
        "attempts": 7,
        "tests_total": 6,
        "tests_passed": 5,
        "findings": 1,
    }
    assert data["usage"]["total_tokens"] == 1200
    md = (out / REPORT_MD).read_text()
    assert "| `adder` | failed | – | 6 | 3/4 | 1 | 1 | 10 |" in md
    assert "| 2 | 1 | 0 | 1 | 0 | 5/6 | 7 | 1 |" in md
    assert "| 9 | 2 | 900 | 300 | 12.5 | 0.0000 |" in md
    assert "`adder.py:2` **medium** bandit `B307`: eval" in md
    assert "- the spec says add(-1, 1) -> 0" in md


def test_report_model_is_accepted_as_is(tmp_path: Path, spec: Spec) -> None:
    report = RunReport(
        usage=RunUsage(calls=1),
        modules=[ModuleReport(name="x", language="python", status="skipped")],
    )
    out = assemble_project(tmp_path / "out", spec, _outcomes()[:1], DOCS, report)
    data = json.loads((out / REPORT_JSON).read_text())
    assert [m["name"] for m in data["modules"]] == ["util"] and data["usage"]["calls"] == 1


@pytest.mark.parametrize(
    ("language", "expected", "extra"),
    [
        ("javascript", 'CMD ["node", "--test"]', "package.json"),
        ("java", "junit-platform-console-standalone", None),
    ],
)
def test_dockerfile_per_language(
    tmp_path: Path, spec: Spec, language: str, expected: str, extra: str | None
) -> None:
    spec = spec.model_copy(update={"language": language})
    out = assemble_project(tmp_path / "out", spec, [], DOCS, {})
    assert expected in (out / "Dockerfile").read_text()
    if extra:
        package = json.loads((out / extra).read_text())
        assert package["scripts"]["test"] == "node --test" and package["name"] == "adder"


def test_previous_output_is_replaced(tmp_path: Path, spec: Spec) -> None:
    out = assemble_project(tmp_path / "out", spec, _outcomes(), DOCS, REPORT)
    assemble_project(out, spec, _outcomes()[:1], DOCS, REPORT)
    assert not (out / "adder.py").exists() and (out / "util.py").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_empty_existing_directory_is_used(tmp_path: Path, spec: Spec) -> None:
    (tmp_path / "out").mkdir()
    out = assemble_project(tmp_path / "out", spec, _outcomes(), DOCS, REPORT)
    assert (out / "README.md").exists()


def test_foreign_directory_is_refused_and_left_alone(tmp_path: Path, spec: Spec) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me")
    (target / REPORT_JSON).write_text('{"generator": "someone-else"}')
    with pytest.raises(InputError, match="not a previous codeproof output"):
        assemble_project(target, spec, _outcomes(), DOCS, REPORT)
    assert sorted(p.name for p in target.iterdir()) == [REPORT_JSON, "notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine"]


def test_a_file_as_out_dir_is_refused(tmp_path: Path, spec: Spec) -> None:
    (tmp_path / "f").write_text("x")
    with pytest.raises(InputError, match="not a directory"):
        assemble_project(tmp_path / "f", spec, [], DOCS, {})


@pytest.mark.parametrize("path", ["../evil.py", "/abs.py", "README.md"])
def test_unsafe_or_clashing_module_paths_are_refused(tmp_path: Path, spec: Spec, path: str) -> None:
    bad = _outcomes()[0].model_copy(update={"files": {path: "x = 1\n"}})
    with pytest.raises(InputError):
        assemble_project(tmp_path / "out", spec, [bad], DOCS, {})
    assert not (tmp_path / "out").exists()


def test_assembled_python_project_passes_its_tests(tmp_path: Path, spec: Spec) -> None:
    module = Module(name="adder", purpose="adds", language="python", public_interface="add()")
    outcome = ModuleOutcome(
        module=module,
        files={"adder.py": "def add(a, b):\n    return a + b\n"},
        tests={
            "test_adder.py": (
                "from adder import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"
            )
        },
        status="passed",
    )
    out = assemble_project(tmp_path / "out", spec, [outcome], DOCS, {})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=out,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
