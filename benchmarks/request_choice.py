"""The choice among a stored request run's drafts, made again with the code as it is now.

Answers "would the choosing code of today have shipped another draft, and a better one?"
without a model call. For each module of each pipeline run that kept its event log
(`codeproof eval-requests --out DIR` keeps `DIR/<id>/pipeline/events.jsonl`), the work
as it stood before the module's last choice (its drafts, designed tests, stated examples
and probe inputs) goes through the engine's own `execute` step again, in the sandbox.
Both choices, then and now, are scored on the hidden acceptance tests with the other
modules as shipped. Prints (never asserts) one line per module.

    .venv/bin/python benchmarks/request_choice.py eval-results/req-java --ids java-lru-cache
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from request_drafts import cases_of, results, run_parser, shipped

from codeproof.core.config import load_settings
from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context
from codeproof.engine.executing import execute
from codeproof.engine.state import Work
from codeproof.llm.fake import FakeModel
from codeproof.toolchains.client import ToolchainClient, open_toolchain


class Stored:
    """What one run's event log holds: the words, the spec, the modules, and each
    module's last work before a choice and the draft that choice took."""

    def __init__(self, events: Path) -> None:
        self.words = ""
        self.spec: Spec | None = None
        self.modules: list[Module] = []
        self.before: dict[str, dict[str, Any]] = {}
        self.chosen: dict[str, int] = {}
        for line in events.read_text(encoding="utf-8").splitlines():
            self._read(json.loads(line))

    def _read(self, event: dict[str, Any]) -> None:
        node, data = event.get("node"), event.get("output") or {}
        if event.get("event") == "node_start" and node == "intake":
            self.words = str((event.get("input") or {}).get("request") or "")
        if event.get("event") != "node_end":
            return
        if node == "analyze" and "spec" in data:
            self.spec = Spec.model_validate(data["spec"])
        if node == "modules" and "checklist" in data:
            self.modules = [Module.model_validate(m) for m in data["checklist"]]
        work, module = data.get("work") or {}, event.get("module")
        if not module or not work:
            return
        if work.get("files") is None and work.get("drafts"):
            self.before[module] = work
        elif node == "execute" and work.get("chosen") is not None:
            self.chosen[module] = int(work["chosen"])


def choose_again(
    stored: Stored, module: Module, base: dict[str, str], toolchain: ToolchainClient
) -> Work:
    """The module's last choice made again (no model call: a fake answers if one is made)."""
    assert stored.spec is not None
    own = {p for d in stored.before[module.name]["drafts"] for p in d["files"]}
    ctx = Context(
        spec=stored.spec,
        module=module,
        words=stored.words,
        toolchain=toolchain,
        model_for=lambda scope: FakeModel(),
        direct=lambda model, index, greedy: {},
        dependencies=[m for m in stored.modules if m.name in module.depends_on],
        dependency_files={p: c for p, c in base.items() if p not in own},
    )
    return execute(ctx, Work.model_validate(stored.before[module.name]))


def main() -> None:
    args = run_parser(__doc__).parse_args()
    cases = cases_of(args)
    settings = load_settings()
    for result in results(args.run_dir):
        case = cases.get(str(result["id"]))
        events = args.run_dir / str(result["id"]) / "pipeline" / "events.jsonl"
        if result["mode"] != "pipeline" or case is None or not events.is_file():
            continue
        language = case.meta.language
        stored = Stored(events)
        base = shipped(args.run_dir / case.id / "pipeline" / "project", language)
        print(f"{case.id}: shipped {result['passed']}/{case.meta.checks} checks")
        with open_toolchain(settings, language) as toolchain:
            for module in stored.modules:
                if module.name not in stored.before:
                    continue
                drafts = Work.model_validate(stored.before[module.name]).drafts
                again = choose_again(stored, module, base, toolchain)
                then = stored.chosen.get(module.name, 0)
                now = again.chosen if again.chosen is not None else 0
                score = [
                    toolchain.run_tests(
                        {**base, **drafts[i].files}, dict(case.acceptance), args.timeout
                    ).passed
                    for i in (then, now)
                ]
                print(
                    f"  {module.name}: {len(drafts)} drafts; chosen then {then} ({score[0]} "
                    f"checks), now {now} ({score[1]} checks): {again.choice}"
                )


if __name__ == "__main__":
    main()
