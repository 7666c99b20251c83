"""The per-module engine as one call: prepare, tests ‖ first draft, then execute and the
step the evidence calls for (:func:`.policy.next_step`) until the module is settled or
the budget is spent; then the proof of its tests (:mod:`.proving`).

The workflow's graph runs exactly these steps as nodes (with the human deciding at an
escalation and answering the proof's questions); :func:`build` runs them in a loop with
the failure policy ``continue`` and the questions' default answers (the evaluation's
pipeline mode).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from codeproof.engine.answering import after_proof, answer_pending
from codeproof.engine.context import Context
from codeproof.engine.drafting import begin, design_tests, draw, first_draft
from codeproof.engine.executing import execute
from codeproof.engine.policy import Step, next_step
from codeproof.engine.proving import prove
from codeproof.engine.repairing import repair
from codeproof.engine.state import Work


def prepare(ctx: Context, work: Work | None = None) -> Work:
    """A fresh round: the toolchain's conventions and the user's stated examples."""
    base = work or Work()
    return base.model_copy(
        update={
            "conventions": ctx.toolchain.conventions(),
            "examples": [*ctx.examples, *base.answers],
            "designed": {},
            "drafts": [],
            "inputs": [],
            "rung": 0,
            "files": None,
            "report": None,
            "stuck": False,
            "attempt": 0,
            "seen": [],
            "repaired": False,
            "best": None,
            "verdict": None,
            "proof": None,
            "pending": [],
            "reprove": False,
            "killed": [],
        }
    )


def start(ctx: Context, work: Work) -> Work:
    """The tests and the first draft, written at once (the tests never see the code)."""
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="engine-start") as pool:
        tests = pool.submit(design_tests, ctx, work)
        first = first_draft(ctx, work)
        designed = tests.result()
    return begin(ctx, work, designed, [first])


def advance(ctx: Context, work: Work, step: Step) -> Work:
    """Take ``step`` (``draw`` or ``repair``); the next execution runs its result."""
    if step == "draw":
        return draw(ctx, work)
    if step == "repair":
        return repair(ctx, work)
    raise ValueError(f"{step!r} is not a step of the engine")


def settle(work: Work, step: Step) -> Work:
    """The module's final state: the best attempt, passed or failed."""
    best = work.best
    kept = work
    if best is not None:
        kept = work.model_copy(
            update={
                "files": best.files,
                "tests": best.tests,
                "report": best.report,
                "examples_missed": best.examples_missed,
            }
        )
    passed = step == "finish" and work.verdict == "passed"
    return kept.model_copy(update={"verdict": "passed" if passed else "failed"})


def proven(ctx: Context, work: Work) -> Work:
    """The proof of a settled module, its questions answered by default, until it needs
    nothing more or the choice among the drafts must be made again (``files`` is then
    ``None``)."""
    while True:
        work = answer_pending(ctx, prove(ctx, work))
        if after_proof(work) != "prove":
            return work


def build(ctx: Context) -> Work:
    """Build one module with the failure policy ``continue`` (no human asked)."""
    work = start(ctx, prepare(ctx))
    while True:
        work = execute(ctx, work)
        step = next_step(work, ctx.options, ctx.language)
        if step in ("finish", "escalate"):
            work = proven(ctx, settle(work, step))
            if work.files is not None:
                return work
            continue
        work = advance(ctx, work, step)
