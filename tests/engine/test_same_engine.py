"""``codeproof eval --mode pipeline`` and ``codeproof new --yes`` run the same engine.

One benchmark task, built twice with the same scripted model and the in-memory
toolchain: through the evaluation's pipeline, and through the workflow graph given the
task's spec and module (``codeproof new --spec``). Only the first draft's adapter of the
user's words differs (the benchmark's one-call prompt; ``new``'s one call answering the
whole request, scope ``whole``); every engine step, model role and result is the same.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from codeproof.core.config import load_settings
from codeproof.engine.context import EngineOptions
from codeproof.engine.loop import build
from codeproof.evaluation.datasets import Task
from codeproof.evaluation.pipeline import context_for, outcome_of
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel, said
from codeproof.toolchains.memory import MemoryToolchain
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.humans import AutoHuman
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore
from inproc import memory_python_toolchain

TASK = Task(
    task_id="tiny/is_even",
    prompt='def is_even(n: int) -> bool:\n    """True when n is even.\n'
    '    >>> is_even(4)\n    True\n    """\n',
    entry_point="is_even",
    test="def check(candidate):\n    assert candidate(4) is True\n",
)
CRASH = "def is_even(n):\n    return n.is_even()\n"  # an error a repair can fix
RIGHT = "def is_even(n):\n    return n % 2 == 0\n"
TESTS = "from is_even import is_even\n\n\ndef test_even():\n    assert is_even(4)\n"


def _model() -> FakeModel:
    def system(prefix: str):  # type: ignore[no-untyped-def]
        return lambda m: prefix in said(m)

    fenced = "File: {path}\n```python\n{code}```\n"
    return FakeModel(
        rules=[
            (system("You write python tests"), fenced.format(path="test_is_even.py", code=TESTS)),
            (system("You are a tester"), "```python\nis_even(-2)\nis_even(3)\n```"),
            (system("You plan how"), {"steps": ["Return whether n is even."]}),
            (system("You fix"), fenced.format(path="is_even.py", code=RIGHT) + "Summary: parity"),
            # the two adapters of the user's words, and the programmer's spec drafts
            (lambda m: "Complete the code" in m[0].content, f"```python\n{CRASH}```"),
            (system("Build the project"), fenced.format(path="is_even.py", code=CRASH)),
            (system("You are an expert python"), fenced.format(path="is_even.py", code=CRASH)),
            (system("You write short documentation"), {"summary": "Parity.", "items": []}),
        ]
    )


def _step(scope: str) -> str:
    """The engine step of a call's scope; ``new``'s whole-request call is its first draft."""
    step = scope.split(":", 1)[0]
    return "draft" if step == "whole" else step


def test_eval_pipeline_and_new_run_the_same_steps(tmp_path: Path) -> None:
    options = EngineOptions(max_attempts=3, max_drafts=3, probe_inputs=2)

    # the evaluation's pipeline mode
    eval_model, eval_toolchain = _model(), memory_python_toolchain()
    ctx = context_for(eval_model, eval_toolchain, TASK, options)
    scopes: list[str] = []

    def recording(scope: str) -> ChatModel:
        scopes.append(scope)
        return eval_model

    ctx.model_for = recording
    work = build(ctx)
    outcome = outcome_of(work, ctx.module)

    # codeproof new --yes --spec (the task's spec and module), through the graph
    new_model, toolchains = _model(), [memory_python_toolchain()]

    def factory(language: str) -> ToolchainLike:
        return toolchains[0]

    run = RunOptions(
        out_dir=str(tmp_path / "out"),
        auto=True,
        on_failure="continue",
        max_attempts=3,
        candidates=3,
        probe_inputs=2,
    )
    with RunStore(tmp_path / "runs") as store:
        runner = Runner(load_settings(), store, new_model, factory, AutoHuman())
        result = runner.start(TASK.prompt, run, spec=spec_for(TASK), modules=[module_for(TASK)])
        calls = [e.payload for e in store.events(result.run_id, "llm_call")]
        finish = [
            e for e in store.events(result.run_id, "node_end") if e.payload["node"] == "finish"
        ]
    assert result.status == "done"
    [module] = finish[-1].payload["output"]["outcomes"]

    # the same engine steps asked the model for the same roles
    engine_steps = {"tests", "draft", "plan", "inputs", "code", "repair"}
    new_steps = Counter(_step(c["scope"]) for c in calls if _step(c["scope"]) in engine_steps)
    called = Counter(_step(s) for s in scopes if _step(s) in engine_steps)
    assert (
        new_steps
        == called
        == Counter({"tests": 1, "draft": 2, "plan": 1, "inputs": 1, "code": 1, "repair": 1})
    )
    assert not any(_step(c["scope"]) in ("intake", "analyze", "modules") for c in calls)
    # both ran tests and probes in the sandbox (the counts differ only because the
    # benchmark adapter's first draft carries the prompt's own lines), with the same result
    assert all(
        _tools(t)["run_tests"] >= 2 and _tools(t)["run"] >= 1 for t in (eval_toolchain, *toolchains)
    )
    # both proved the code alike: green tests, too few distinct checks to say "passed"
    assert outcome.tests_green and not outcome.own_tests_green and module["status"] == "weak"
    assert outcome.proof is not None and module["proof"]["strength"] == outcome.proof.strength
    assert module["proof"]["distinct_checks"] == outcome.proof.distinct_checks == 2
    assert outcome.attempts == module["attempts"] == 3
    assert outcome.code == module["files"]["is_even.py"] == RIGHT
    assert [d.source for d in work.drafts] == ["direct", "spec", "direct"]


def _tools(toolchain: MemoryToolchain) -> Counter[str]:
    return Counter(call.tool for call in toolchain.calls)
