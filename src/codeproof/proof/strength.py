"""How strong a proof is, and the module status it allows.

A module is reported ``passed`` only when its code passes its kept tests *and* those
tests are at least moderately strong evidence:

* **strong**: mutation score at least :data:`STRONG` (80%, the issue's target) and at
  least :data:`MIN_CHECKS` distinct checks;
* **moderate**: mutation score at least :data:`MODERATE` (60%: the tests tell apart most
  of the faults a careless implementation makes) and at least :data:`MIN_CHECKS`
  distinct checks;
* **weak**: less than that (the weaknesses say what is missing);
* **unmeasured**: no mutant behaviour could be run against the tests (the language has
  no mutation operators, every mutant looked equivalent, or the time box ended first),
  or fewer than :data:`MIN_BEHAVIOURS` when the time box cut the analysis short.

Code that passes its tests with a weak or unmeasured proof is ``weak``, not ``passed``; so
is code that compiles when every designed test was set aside (none failed, none was run).
"""

from __future__ import annotations

from codeproof.core.proof import Mutation, Proof, Strength
from codeproof.core.reports import ModuleStatus

STRONG = 0.8
MODERATE = 0.6
MIN_CHECKS = 3
"""Distinct checks (assertions) the kept tests must hold."""
MIN_BEHAVIOURS = 3
"""Mutant behaviours that must have been run when the time box cut the analysis short."""
SHOWN_SURVIVORS = 3


def grade(mutation: Mutation | None, distinct_checks: int, unmeasured: str = "") -> Proof:
    """The strength of the evidence: ``mutation`` analysis and the distinct checks
    (``unmeasured`` says why there is no mutation analysis, when there is none)."""
    weaknesses = []
    if distinct_checks < MIN_CHECKS:
        weaknesses.append(
            f"{distinct_checks} distinct check(s) in the kept tests (at least {MIN_CHECKS} needed)"
        )
    score = mutation.score if mutation is not None else None
    strength: Strength
    if mutation is None or score is None:
        strength = "unmeasured"
        weaknesses.insert(0, unmeasured or "mutation score not measured")
    elif mutation.timed_out and mutation.tested < MIN_BEHAVIOURS:
        strength = "unmeasured"
        weaknesses.insert(
            0,
            f"the time box ({mutation.budget_s:.0f} s) ended after {mutation.tested} mutant "
            f"behaviour(s) (at least {MIN_BEHAVIOURS} needed)",
        )
    else:
        strength = "strong" if score >= STRONG else "moderate" if score >= MODERATE else "weak"
        if score < MODERATE:
            shown = "; ".join(mutation.survivors[:SHOWN_SURVIVORS])
            weaknesses.insert(
                0,
                f"mutation score {score:.0%} (at least {MODERATE:.0%} needed): "
                f"{len(mutation.survivors)} mutant(s) survive the tests, e.g. {shown}",
            )
        if weaknesses and strength != "weak":
            strength = "weak"
    return Proof(strength=strength, weaknesses=weaknesses, mutation=mutation)


def status(verdict: str | None, proof: Proof | None, *, untested: bool = False) -> ModuleStatus:
    """``passed`` when the code passes its kept tests, the proof is at least moderate and
    no answer it rests on was assumed; ``weak`` when it passes them on a weaker proof or
    on an assumed answer (:func:`assumed`), or when no test was left to run on code that
    compiles and meets every stated example (``untested``: every designed test was set
    aside, so nothing failed and nothing was shown); else ``failed``."""
    if verdict != "passed":
        return "weak" if untested else "failed"
    if proof is None or proof.strength not in ("strong", "moderate"):
        return "weak"
    return "weak" if proof.assumptions else "passed"


def assumed(proof: Proof) -> str | None:
    """The weakness of a proof that rests on answers nobody gave, in words (None: none).

    A question is put where the drafts split; with ``--yes`` (and in the evaluation) it
    takes the answer most drafts give, which becomes an example the code then meets.
    Drafts that share a misreading outvote a right one there: of the three green modules
    of the stored in-words runs whose answers were assumed, two were wrong
    (``sort_even``, ``even_odd_count``), while no green module without one was. So such
    code is ``weak``, and the report names the answers to check.
    """
    taken = proof.assumptions
    if not taken:
        return None
    shown = "; ".join(taken[:SHOWN_SURVIVORS])
    return f"{len(taken)} answer(s) assumed where the drafts disagree, nobody asked: {shown}"
