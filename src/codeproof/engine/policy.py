"""What to do next with a module: the evidence ladder and where repair can work.

* **Settled**: the chosen code meets every example the user stated and passes its kept
  tests, and the drafts that pass the same tests do not split on its outputs: stop,
  whatever budget is left.
* **Repair first** code that does not load (it does not compile, or an import or syntax
  error stops every test): one targeted fix is cheaper than new drafts.
* **Draw more drafts** while the evidence is against the current choice (a stated
  example missed, a crash, failing tests) and the ladder has room; only the drafts'
  agreement can tell a wrong test from wrong code. Once three or more drafts agree on
  every test and every output and meet the stated examples, more drafts would only agree
  too: the failing tests are disputed by all of them, and none is drawn. Nor is one
  drawn when nothing tells three or more drafts apart (no test ran on any, no two agree
  on any output): the first would be kept whatever came next. An answer the person gave
  that the code misses draws one more rung, written with the answers, even when the
  ladder is full: no draft before it knew what the person said.
* **Repair** what a repair can fix once the drafts are spent: crashes and hangs. An
  assertion the drafts' agreement did not settle is a disagreement about behaviour,
  which the repairer has never resolved in the measured runs.
* Otherwise **escalate**: the human decides (or the failure policy does).
"""

from __future__ import annotations

from typing import Literal

from codeproof.choosing.selection import crashes
from codeproof.core.types import TestReport
from codeproof.engine.context import EngineOptions
from codeproof.engine.state import Work, answer_unmet
from codeproof.languages.base import Language

Step = Literal["finish", "draw", "repair", "escalate"]


def next_step(work: Work, options: EngineOptions, language: Language) -> Step:
    """The step after an execution of ``work``."""
    if work.verdict == "passed":
        return "draw" if work.contested and _can_draw(work, options) else "finish"
    if not work.tests:
        return "escalate"  # no test and no stated example: nothing can tell drafts apart
    report = work.report
    budget = not work.stuck and work.attempt < options.max_attempts
    if budget and report is not None and not report.loaded and repairable(report, language):
        return "repair"
    if _can_draw(work, options):
        return "draw"
    if budget and report is not None and repairable(report, language):
        return "repair"
    return "escalate"


def _can_draw(work: Work, options: EngineOptions) -> bool:
    """More drafts can still change the choice: the ladder has room, no hint from the
    human asks to go on from the current code, and the drafts so far are not unanimous
    on code that meets every stated example."""
    if work.hint:
        return False
    if answer_unmet(work):
        return True
    settled = (work.unanimous or work.blind) and work.examples_missed == 0
    rungs_left = work.rung * options.rung < options.max_drafts  # a rung may draw nothing
    return not settled and rungs_left and len(work.drafts) < options.max_drafts


def repairable(report: TestReport, language: Language) -> bool:
    """Whether the failure is one a repair can fix: nothing ran (compile, syntax or import
    error), the run timed out, or a test failed with an error the code raised."""
    if report.green:
        return False
    if report.timed_out:
        return True
    if report.total == 0:  # nothing ran: code that compiles has no failure to repair
        return not report.untested  # (every test was set aside)
    return bool(crashes(report, language.editing.assertion))
