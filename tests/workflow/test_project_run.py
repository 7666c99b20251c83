"""``--project``: work inside an existing project (scripted model, real sandbox, real git).

The module's files are placed in the project's layout, its tests run with the project's
existing tests, a regression is repaired, and the changes land on a new branch as one
commit (or, outside git, beside backups of the replaced files).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from wf_world import ScriptedHuman, World

from codeproof.core.config import Settings
from codeproof.core.types import Module
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.project import load_project
from codeproof.workflow.runner import Runner, RunResult
from codeproof.workflow.store import RunStore

pytestmark = pytest.mark.docker

FIXTURE = Path(__file__).parents[1] / "retrieval" / "fixtures" / "project"

CRABS = Module(
    name="crab_total",
    purpose="Total crabs seen, using the tidepool ledger.",
    language="python",
    public_interface="crab_total(ledger: Ledger) -> int",
)
CRABS_CODE = """from tidepool.ledger import Ledger


def crab_total(ledger: Ledger) -> int:
    return ledger.tally("crab")
"""
CRABS_TESTS = """from crab_total import crab_total
from tidepool.ledger import Ledger


def test_total():
    ledger = Ledger()
    ledger.log("north", "crab", 2)
    ledger.log("south", "crab", 1)
    assert crab_total(ledger) == 3
"""
LEDGER = Module(
    name="ledger",
    purpose="The ledger gains creatures(): the distinct creatures seen, sorted.",
    language="python",
    public_interface="class Ledger: creatures() -> list[str]",
)
LEDGER_TESTS = """from ledger import Ledger


def test_creatures_sorted_and_distinct():
    ledger = Ledger()
    ledger.log("a", "crab")
    ledger.log("b", "anemone")
    ledger.log("c", "crab")
    assert ledger.creatures() == ["anemone", "crab"]
"""


def ledger_code(tally: str) -> str:
    original = (FIXTURE / "tidepool" / "ledger.py").read_text()
    body = original.replace(
        "        return sum(s.count for s in self._sightings if s.creature == creature)",
        f"        return {tally}",
    )
    return body + (
        "\n    def creatures(self) -> list[str]:\n"
        '        """The distinct creatures seen, sorted."""\n'
        "        return sorted({s.creature for s in self._sightings})\n"
    )


GOOD_LEDGER = ledger_code("sum(s.count for s in self._sightings if s.creature == creature)")
BROKEN_LEDGER = ledger_code("len([s for s in self._sightings if s.creature == creature])")


def git(root: Path, *args: str) -> str:
    ident = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    done = subprocess.run(["git", "-C", str(root), *ident, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "tidepool"
    shutil.copytree(FIXTURE, root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def start(
    settings: Settings,
    store: RunStore,
    toolchains: Callable[[str], ToolchainLike],
    world: World,
    root: Path,
    out: Path,
    human: ScriptedHuman | None = None,
) -> RunResult:
    project = load_project(root)
    runner = Runner(
        settings, store, world.model(), toolchains, human or ScriptedHuman(), project=project
    )
    options = RunOptions(out_dir=str(out), project=str(project.root), language="python")
    return runner.start("a crab total", options)


def report_of(result: RunResult) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (Path(result.project_dir or "") / "codeproof-report.json").read_text()
    )
    return data


def test_a_new_module_lands_in_the_package_on_a_new_branch(
    wf_settings: Settings,
    store: RunStore,
    real_toolchains: Callable[[str], ToolchainLike],
    repo: Path,
    tmp_path: Path,
) -> None:
    world = World(
        modules=[CRABS], code={"crab_total": CRABS_CODE}, tests={"crab_total": CRABS_TESTS}
    )
    human = ScriptedHuman()
    result = start(wf_settings, store, real_toolchains, world, repo, tmp_path / "out", human)
    assert result.status == "done"
    (request,) = [s for s in human.shown if type(s).__name__ == "ModulesRequest"]
    assert request.changes == [
        "crab_total adds tidepool/crab_total.py",
        "crab_total adds tests/test_crab_total.py",
    ]
    project = report_of(result)["project"]
    assert project["applied"] is True
    assert project["branch"] == f"codeproof/{result.run_id}"
    assert [(c["action"], c["path"]) for c in project["changes"]] == [
        ("add", "tests/test_crab_total.py"),
        ("add", "tidepool/crab_total.py"),
    ]
    assert project["existing_tests_passed_before"] == 3
    assert project["existing_tests_still_passing"] == 3
    assert (project["new_tests_passed"], project["new_tests_total"]) == (1, 1)
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD") == f"codeproof/{result.run_id}"
    assert git(repo, "log", "--format=%s", "main..HEAD").count("\n") == 0  # one commit
    placed_test = (repo / "tests" / "test_crab_total.py").read_text()
    assert placed_test.startswith("from tidepool.crab_total import crab_total")
    assert (repo / "tidepool" / "crab_total.py").read_text() == CRABS_CODE
    assert git(repo, "status", "--porcelain") == ""
    assert "crab_total.py" not in git(repo, "ls-tree", "-r", "--name-only", "main")
    md = (Path(result.project_dir or "") / "codeproof-report.md").read_text()
    assert "## Changes to the project" in md and "add `tidepool/crab_total.py`" in md


def test_a_regression_of_an_existing_test_is_repaired_before_anything_is_written(
    wf_settings: Settings,
    store: RunStore,
    real_toolchains: Callable[[str], ToolchainLike],
    repo: Path,
    tmp_path: Path,
) -> None:
    world = World(
        modules=[LEDGER],
        code={"ledger": BROKEN_LEDGER},  # its own test passes, tally() regresses
        tests={"ledger": LEDGER_TESTS},
        repairs={"ledger": [GOOD_LEDGER]},
    )
    model = world.model()
    runner = Runner(
        wf_settings, store, model, real_toolchains, ScriptedHuman(), project=load_project(repo)
    )
    options = RunOptions(out_dir=str(tmp_path / "out"), project=str(repo), language="python")
    result = runner.start("add creatures()", options)
    assert result.status == "done"
    repair_prompts = [
        c.messages[-1].content for c in model.calls if c.messages[0].content.startswith("You fix")
    ]
    assert repair_prompts and "regression:" in repair_prompts[0]
    assert "test_tally_sums_over_pools" in repair_prompts[0]
    project = report_of(result)["project"]
    assert [(c["action"], c["path"]) for c in project["changes"]] == [
        ("add", "tests/test_ledger_codeproof.py"),  # the existing test file is kept
        ("modify", "tidepool/ledger.py"),
    ]
    assert project["applied"] is True
    assert project["existing_tests_still_passing"] == 3
    placed = (repo / "tests" / "test_ledger_codeproof.py").read_text()
    assert placed.startswith("from tidepool.ledger import Ledger")
    assert (repo / "tidepool" / "ledger.py").read_text() == GOOD_LEDGER


def test_outside_git_replaced_files_are_backed_up(
    wf_settings: Settings,
    store: RunStore,
    real_toolchains: Callable[[str], ToolchainLike],
    tmp_path: Path,
) -> None:
    root = tmp_path / "plain"
    shutil.copytree(FIXTURE, root)
    before = (root / "tidepool" / "ledger.py").read_text()
    world = World(modules=[LEDGER], code={"ledger": GOOD_LEDGER}, tests={"ledger": LEDGER_TESTS})
    result = start(wf_settings, store, real_toolchains, world, root, tmp_path / "out")
    project = report_of(result)["project"]
    assert project["applied"] is True and project["backup_dir"]
    backup = Path(project["backup_dir"])
    assert (backup / "tidepool" / "ledger.py").read_text() == before
    assert (root / "tidepool" / "ledger.py").read_text() == GOOD_LEDGER


def test_uncommitted_edits_are_never_overwritten(
    wf_settings: Settings,
    store: RunStore,
    real_toolchains: Callable[[str], ToolchainLike],
    repo: Path,
    tmp_path: Path,
) -> None:
    mine = (repo / "tidepool" / "ledger.py").read_text() + "\n# my unsaved thought\n"
    (repo / "tidepool" / "ledger.py").write_text(mine)
    world = World(modules=[LEDGER], code={"ledger": GOOD_LEDGER}, tests={"ledger": LEDGER_TESTS})
    result = start(wf_settings, store, real_toolchains, world, repo, tmp_path / "out")
    project = report_of(result)["project"]
    assert project["applied"] is False
    assert "uncommitted changes" in project["reason"] and "tidepool/ledger.py" in project["reason"]
    assert (repo / "tidepool" / "ledger.py").read_text() == mine
    assert git(repo, "rev-parse", "--abbrev-ref", "HEAD") == "main"
    assert (Path(result.project_dir or "") / "ledger.py").read_text() == GOOD_LEDGER  # kept
