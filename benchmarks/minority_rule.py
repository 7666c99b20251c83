"""Would a stricter rule for a minority setting tests aside have helped? (no model)

Runs ``codeproof eval-replay`` on a stored pipeline run and watches the choice among
drafts (:func:`codeproof.choosing.selection.judge`). Where a group of drafts that is not a
majority sets tests aside (its pick's outputs agree with another draft's on some probe,
today's rule), it prints whether the stricter rule tried in session 26 would have kept
those tests (the pick's outputs must agree with the others' *more* than any draft outside
the group), and whether the pick passes the hidden tests. A kept test costs green recall
where the pick is right and gains green precision where it is wrong. Prints, never
asserts; writes the replay next to the run (``replay.json``), so copy the run first:

    cp -r benchmarks/results/2026-11-30/he-164-pipe /tmp/he && \\
        .venv/bin/python benchmarks/minority_rule.py /tmp/he
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Sequence
from typing import Any

from codeproof.choosing import ladder, selection
from codeproof.cli import app
from codeproof.commands import eval_replay
from codeproof.core.types import TestReport
from codeproof.evaluation import replay
from codeproof.evaluation.results import TaskResult

_judge, _replay_task = selection.judge, replay.replay_task
_current: dict[str, Any] = {}
_rows: list[tuple[str, bool]] = []


def _strict_blocks(
    verdict: selection.Verdict, reports: Sequence[TestReport], agree: list[int]
) -> bool:
    """Whether the stricter rule keeps the tests this verdict sets aside (the groups read
    from the reports of the drafts that load; a draft lacking a declared name, which the
    judge leaves out of the groups, is counted here)."""
    loaded = [i for i, r in enumerate(reports) if r.loaded]
    pick = ladder.passed_names(reports[verdict.index])
    members = [i for i in loaded if ladder.passed_names(reports[i]) == pick]
    if 2 * len(members) > len(loaded):
        return False  # a majority: both rules let it set tests aside
    outside = [agree[i] for i in loaded if i not in members]
    return agree[verdict.index] <= max(outside, default=0)


def judge(reports: Sequence[TestReport], **kwargs: Any) -> selection.Verdict:
    verdict = _judge(reports, **kwargs)
    agree = list(kwargs.get("outputs_agree") or [0] * len(reports))
    if verdict.disputed and _strict_blocks(verdict, reports, agree):
        passed = _current["passed"][verdict.index]
        _rows.append((_current["task"], passed))
        print(
            f"  {_current['task']}: the stricter rule keeps {len(verdict.disputed)} test(s); "
            f"agreement {agree}; the pick passes the hidden tests: {passed}"
        )
    return verdict


def replay_task(client: Any, result: TaskResult, task: Any, **kwargs: Any) -> Any:
    _current.update(task=result.task_id, passed=result.drafts_passed or [])
    return _replay_task(client, result, task, **kwargs)


def main() -> None:
    selection.judge = judge  # type: ignore[assignment]
    eval_replay.replay_task = replay_task  # type: ignore[assignment]
    sys.argv = ["codeproof", "eval-replay", *sys.argv[1:]]
    with contextlib.suppress(SystemExit):
        app()
    right = sum(1 for _, passed in _rows if passed)
    print(
        f"stricter rule: keeps tests in {len(_rows)} choice(s); the pick is right in {right} "
        f"(green recall at risk), wrong in {len(_rows) - right} (green precision gained)"
    )


if __name__ == "__main__":
    main()
