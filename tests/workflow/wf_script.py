"""Test-only entry point: a run with the scripted FakeModel and the real toolchain.

Used by the kill -9 test as a subprocess (FakeModel is not a registered provider)::

    python wf_script.py start RUNS_DIR OUT_DIR RUN_ID
    python wf_script.py resume RUNS_DIR RUN_ID

The human answers the clarifying question and accepts the modules; each question it
is asked is appended to ``RUNS_DIR/asked.txt`` (so a test can see none is asked twice).
"""

from __future__ import annotations

import sys
from pathlib import Path

from wf_world import BROKEN, BROKEN_2, GOOD, ScriptedHuman, World

from codeproof.core.config import load_settings
from codeproof.toolchains.client import ToolchainClient
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    ModuleSelection,
    ModulesRequest,
)
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore

WORLD = World(
    questions=[["Keep unicode letters?"]],
    code={"slugify": BROKEN},
    repairs={"slugify": [BROKEN_2, BROKEN_2.replace("lower(", "lower( ") + "\n", GOOD]},
)


class LoggingHuman(ScriptedHuman):
    def __init__(self, log: Path) -> None:
        super().__init__(clarify_answers=[ClarifyAnswer(answers=["ASCII only"])])
        self.log = log

    def _note(self, kind: str) -> None:
        with self.log.open("a") as f:
            f.write(kind + "\n")

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        self._note("clarify")
        return super().clarify(request)

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        self._note("modules")
        return super().select_modules(request)


def main(argv: list[str]) -> int:
    action, runs_dir = argv[0], Path(argv[1])
    settings = load_settings(sandbox={"backend": "docker"})

    def toolchains(language: str) -> ToolchainLike:
        client = ToolchainClient(settings, language)
        client.start()
        return client

    with RunStore(runs_dir) as store:
        runner = Runner(
            settings, store, WORLD.model(), toolchains, LoggingHuman(runs_dir / "asked.txt")
        )
        if action == "start":
            options = RunOptions(out_dir=argv[2], max_attempts=5, on_failure="continue")
            result = runner.start("a slugify function", options, run_id=argv[3])
        else:
            result = runner.resume(argv[2])
    print(result.status, result.project_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
