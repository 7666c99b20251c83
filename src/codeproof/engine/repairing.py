"""Repairing: the repairer fixes the chosen code from its failing tests.

Only failures a repair can fix get here (:func:`.policy.repairable`). A test changes
only with a stated reason; the change is recorded. The next execution runs the result.
"""

from __future__ import annotations

from codeproof.agents import repairer
from codeproof.engine.context import Context
from codeproof.engine.drafting import scope
from codeproof.engine.state import Work


def repair(ctx: Context, work: Work) -> Work:
    """One repair of the current code (a retry after an escalation samples, so it varies)."""
    if work.files is None or work.report is None:
        raise ValueError("repair needs an executed attempt")
    result = repairer.repair(
        ctx.model_for(scope("repair", ctx, work, attempt=True)),
        ctx.spec,
        ctx.module,
        work.files,
        work.tests,
        work.report,
        hint=work.hint,
        history=[h.change for h in work.history],
        temperature=0.0 if work.round == 0 else 0.7,
        context=ctx.grounding("repair", repairer.describe_report(work.report)),
    )
    files = {**work.files, **{f.path: f.content for f in result.files}}
    tests, changes = work.tests, list(work.test_changes)
    if result.test_files and result.test_change_reason:
        tests = {**tests, **{f.path: f.content for f in result.test_files}}
        changes.append(result.test_change_reason)
    return work.model_copy(
        update={
            "files": files,
            "tests": tests,
            "test_changes": changes,
            "change": result.change_summary or "repair",
            "repaired": True,
        }
    )
