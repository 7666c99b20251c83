"""Repairing: the repairer fixes the chosen code from its failing tests.

Only failures a repair can fix get here (:func:`.policy.repairable`). A test changes
only with a stated reason; the change is recorded. The next execution runs the result.
"""

from __future__ import annotations

import logging

from codeproof.agents import repairer
from codeproof.choosing.examples import example_tests, is_example_test
from codeproof.choosing.interface import undefined_names
from codeproof.core.errors import ContextLengthError
from codeproof.core.types import RepairResult, TestReport
from codeproof.engine.context import Context
from codeproof.engine.drafting import fitted, scope
from codeproof.engine.state import Work

logger = logging.getLogger(__name__)


def repair(ctx: Context, work: Work) -> Work:
    """One repair of the current code (a retry after an escalation samples, so it varies).

    When the code and its failures do not fit the model's context, nothing changes and
    the module is stuck: the next execution of the same code escalates with the best
    attempt kept."""
    if work.files is None or work.report is None:
        raise ValueError("repair needs an executed attempt")
    try:
        result = _repaired(ctx, work, work.files, work.report)
    except ContextLengthError as exc:
        logger.warning("%s: no repair: %s", ctx.module.name, exc)
        return work.model_copy(update={"stuck": True, "change": "no repair (context full)"})
    files = fitted(ctx, {**work.files, **{f.path: f.content for f in result.files}})
    tests, changes = work.tests, list(work.test_changes)
    users = users_tests(ctx, work)
    changed = {f.path: f.content for f in result.test_files if f.path not in users}
    if len(changed) < len(result.test_files):
        logger.info("%s: repair: dropped a change of the user's example tests", ctx.module.name)
    if changed and result.test_change_reason:
        tests = {**tests, **changed}
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


def users_tests(ctx: Context, work: Work) -> set[str]:
    """The test files of the user's word: the stated examples' (and the answers') and
    the worked examples'. A repair never changes them, whatever reason it gives (the
    interactive ranges run: a repair rewrote the person's answers as "contradicting the
    requirement")."""
    paths = set(example_tests(ctx.module, work.examples))
    worked = ctx.language.layout.worked_test_path
    if worked is not None:
        paths.add(worked(ctx.module.name))
    return paths


def _repaired(ctx: Context, work: Work, files: dict[str, str], report: TestReport) -> RepairResult:
    return repairer.repair(
        ctx.model_for(scope("repair", ctx, work, attempt=True)),
        ctx.spec,
        ctx.module,
        files,
        work.tests,
        report,
        hint=work.hint,
        history=[h.change for h in work.history if h.repaired],
        temperature=0.0 if work.round == 0 else 0.7,
        context=ctx.grounding("repair", repairer.describe_report(report)),
        stated=[t.name for t in report.tests if is_example_test(t.name)],
        missing=undefined_names(ctx.module, files),
        dependency_files=ctx.dependency_files,
    )
