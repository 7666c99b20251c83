"""Where the drafts disagree: inputs that become questions for the human, and inputs
whose output the drafts agree on (the only expected values the proof may use).

The drafts are independent readings of the same request; an input on which they return
different results is one the request (or the chosen code) may get wrong, and one concrete
question settles it: ``slugify('a - b')``: ``'a-b'`` (2 drafts) or ``'a---b'`` (1)? Each
distinct draft counts once (a repeated draft is no second opinion); the chosen code is
one of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from codeproof.core.proof import DisputedCheck, ProofQuestion, QuestionChoice
from codeproof.languages.base import is_broken

Outputs = list[str] | None

MIN_AGREEING = 2
"""Distinct drafts (the chosen code included) that must give an output before it is an
expected value of a check."""

UNSETTLED = ("!TimeoutError", "!import")
"""Outputs that say nothing about the task (a hang, a module that does not load)."""


def settled(output: str, broken: Collection[str] = ()) -> bool:
    """Whether ``output`` says something about the task: not a hang, a module that does
    not load, a call that does not compile, nor one of the ``broken`` errors (the
    language prober's: a name the code never defined...)."""
    unsettled = output.startswith(UNSETTLED) or output == "!CompileError"
    return not (unsettled or is_broken(output, broken))


def agreed(
    chosen: Sequence[str],
    others: Sequence[Outputs],
    *,
    errors: bool,
    broken: Collection[str] = (),
) -> dict[int, str]:
    """Input index -> the chosen code's output, where at least :data:`MIN_AGREEING`
    distinct drafts (the chosen code and ``others``) give it and more than half of those
    probed do. An error is an expected value only if ``errors`` and every probed draft
    raises it, and never one of the ``broken`` errors."""
    probed = [o for o in others if o is not None]
    out = {}
    for k, mine in enumerate(chosen):
        if not settled(mine, broken):
            continue
        same = 1 + sum(1 for o in probed if o[k] == mine)
        voters = 1 + len(probed)
        if mine.startswith("!") and not (errors and same == voters):
            continue
        if same >= MIN_AGREEING and 2 * same > voters:
            out[k] = mine
    return out


def questions(
    calls: Sequence[str],
    chosen: Sequence[str],
    others: Sequence[Outputs],
    *,
    asked: Collection[str] = (),
    backed: Collection[str] = (),
    limit: int = 3,
    broken: Collection[str] = (),
) -> list[ProofQuestion]:
    """Up to ``limit`` questions on the ``calls`` the drafts split on, most informative
    first: where the chosen code is not among the most given answers, then where more
    drafts disagree with it; an input splitting the drafts exactly as a question already
    taken does adds nothing and is left out. ``asked`` calls are not asked again, nor
    is a call on which a draft raises one of the ``broken`` errors (a bug is no answer).

    The default answer (taken when nobody answers) is what most drafts return, except on
    the ``backed`` calls, which a test the chosen code passes makes: a test written
    without seeing any code backs the chosen code's answer there, and a majority of
    sampled drafts sharing a misreading must not outvote it (HumanEval/155 in words: two
    drafts returning ``(0, 0)`` for ``even_odd_count(0)`` set aside the designed test
    expecting ``(1, 0)`` and replaced the right greedy draft)."""
    if limit <= 0:
        return []
    probed = [o for o in others if o is not None]
    ranked: list[tuple[tuple[int, int, int, int], ProofQuestion, frozenset[frozenset[int]]]] = []
    for k, call in enumerate(calls):
        votes = [chosen[k], *(o[k] for o in probed)]
        if call in asked or not all(settled(v, broken) for v in votes):
            continue
        counts = Counter(votes)
        if len(counts) < 2:
            continue
        choices = sorted(
            (QuestionChoice(value=v, drafts=n, chosen=v == chosen[k]) for v, n in counts.items()),
            key=lambda c: (-c.drafts, not c.chosen),
        )
        default = chosen[k] if call in backed else choices[0].value
        against = len(votes) - counts[chosen[k]]
        rank = (int(default != chosen[k]), against, len(counts), -k)
        split = frozenset(
            frozenset(i for i, v in enumerate(votes) if v == value) for value in counts
        )
        ranked.append((rank, ProofQuestion(call=call, choices=choices, default=default), split))
    ranked.sort(key=lambda r: r[0], reverse=True)
    out: list[ProofQuestion] = []
    splits: set[frozenset[frozenset[int]]] = set()
    for _, question, split in ranked:
        if split not in splits and len(out) < limit:
            splits.add(split)
            out.append(question)
    return out


def disputed(
    checks: Sequence[DisputedCheck],
    chosen: Sequence[str],
    others: Sequence[Outputs],
    *,
    asked: Collection[str] = (),
    limit: int = 3,
) -> list[ProofQuestion]:
    """Up to ``limit`` questions on the designed checks the final code contradicts
    (:mod:`codeproof.engine.disputes`; ``chosen`` and ``others``: the outputs of the
    code and of the peer drafts on each check's call): ``compress([1, 2])``: ``'1'`` (2
    drafts, the chosen code) or ``'1-2'`` (a designed test)? One per call; the default
    keeps the code's answer (what the choice did). A test and drafts written apart from
    each other disagree here; replayed on stored runs the code was right at 89-92% of
    such checks, and a range compressor's drafts that all dropped the last number of a
    run of two were among the rest."""
    out: list[ProofQuestion] = []
    probed = [o for o in others if o is not None]
    for k, check in enumerate(checks):
        if len(out) >= limit or check.call in asked or chosen[k] != check.agreed:
            continue
        if any(q.call == check.call for q in out) or check.expected == check.agreed:
            continue
        tests = sum(1 for c in checks if c.call == check.call and c.expected == check.expected)
        drafts = 1 + sum(1 for o in probed if o[k] == check.agreed)
        choices = [
            QuestionChoice(value=check.agreed, drafts=drafts, chosen=True),
            QuestionChoice(value=check.expected, drafts=0, tests=tests),
        ]
        out.append(ProofQuestion(call=check.call, choices=choices, default=check.agreed))
    return out


def backing(choice: QuestionChoice) -> str:
    """Who gives ``choice``: ``2 drafts``, ``a designed test``, or both."""
    parts = []
    if choice.drafts or not choice.tests:
        parts.append(f"{choice.drafts} draft{'s' if choice.drafts != 1 else ''}")
    if choice.tests:
        parts.append("a designed test" if choice.tests == 1 else f"{choice.tests} designed tests")
    return ", ".join(parts)


def shown(value: str) -> str:
    """An output as a person reads it (``!ValueError`` is ``raises ValueError``)."""
    return f"raises {value[1:]}" if value.startswith("!") else value
