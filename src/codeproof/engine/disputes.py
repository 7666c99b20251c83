"""The designed checks the final code contradicts: what the kept tests no longer hold.

While choosing, a designed check that the agreeing drafts contradict is set aside, and a
designed test that every agreeing draft fails is removed (:mod:`codeproof.choosing`).
Either way the final code is green without it, and either way a test written without
seeing any code and code written without seeing the tests disagree there. The proof
asks about them (:func:`codeproof.proof.questions.disputed`): the calls of the designed
tests that no kept test makes are probed on the final code, and each designed check
whose expected value contradicts what the code gives is one :class:`DisputedCheck`.
"""

from __future__ import annotations

from collections.abc import Sequence

from codeproof.choosing.consensus import edit_asserts
from codeproof.choosing.examples import example_tests
from codeproof.choosing.probing import Outputs, broken_errors, probe_calls
from codeproof.contract.listed import stated_errors
from codeproof.core.proof import DisputedCheck
from codeproof.engine.context import Context
from codeproof.engine.state import Work
from codeproof.proof.questions import settled


def vanished(ctx: Context, work: Work) -> list[str]:
    """The probe calls of the designed tests that no kept test makes any more."""
    kept = set(probe_calls(ctx.module, work.tests))
    designed = probe_calls(ctx.module, work.designed)
    return [call for call in dict.fromkeys(designed) if call not in kept]


def contradicted(
    ctx: Context, work: Work, calls: Sequence[str], chosen: Sequence[str], others: Sequence[Outputs]
) -> tuple[list[DisputedCheck], list[str], list[Outputs]]:
    """The designed checks of ``calls`` that contradict ``chosen`` (the final code's
    outputs on them), with the final code's and every peer draft's output at each check.

    A hang, a module that does not load or a broken error is no answer; nor is an error
    the request does not state (a call of the wrong shape, which the choice set aside as
    a misfit, raises ``TypeError``: no reading of the task, as for the choice's own
    agreement, :func:`codeproof.choosing.consensus.consensus`)."""
    broken, stated = broken_errors(ctx.module), stated_errors(ctx.words)
    gives = {
        call: out
        for call, out in zip(calls, chosen, strict=True)
        if settled(out, broken) and (not out.startswith("!") or out[1:] in stated)
    }
    if not gives:
        return [], [], []
    users = list(example_tests(ctx.module, work.examples))
    _, found = edit_asserts(ctx.module.language, work.designed, gives, users)
    index = {call: k for k, call in reversed(list(enumerate(calls)))}
    checks = [d for d in found if d.call in index]
    at = [index[d.call] for d in checks]
    return (
        checks,
        [chosen[k] for k in at],
        [[o[k] for k in at] if o is not None else None for o in others],
    )
