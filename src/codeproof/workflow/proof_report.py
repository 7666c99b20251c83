"""The report's "Proof" section: how strong each module's evidence is, in words.

Per module: its status and the proof's strength, what keeps it from strong, the mutation
score (before and after the proof's checks), the checks kept and how many are distinct,
the checks the proof added (and the mutants each tells apart), the mutants that survive,
the tests set aside while choosing (and why), and the questions asked and their answers
(an answer ``--yes`` took is marked as an assumption).
"""

from __future__ import annotations

from codeproof.core.proof import Mutation, Proof, ProofQuestion
from codeproof.core.reports import ModuleReport
from codeproof.proof.questions import backing, shown

SHOWN_SURVIVORS = 10


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def proof_cell(module: ModuleReport) -> str:
    """The modules table's cell: strength and mutation score."""
    proof = module.proof
    if proof is None:
        return "–"
    score = proof.mutation.score if proof.mutation else None
    return proof.strength if score is None else f"{proof.strength} ({_percent(score)})"


def _mutation_lines(mutation: Mutation) -> list[str]:
    tested, killed = mutation.tested, mutation.killed + mutation.killed_by_checks
    cut = "; cut by the time box" if mutation.timed_out else ""
    lines = [
        f"- Mutation score: {_percent(mutation.score)} ({killed} of {tested} mutant "
        f"behaviours told apart by the kept tests; {_percent(mutation.score_before)} before "
        f"the proof's checks)",
        f"- Mutants: {mutation.generated} made, {mutation.sampled} taken, {mutation.probed} "
        f"run on {mutation.inputs} probe inputs: {mutation.equivalent} look equivalent, "
        f"{mutation.stillborn} do not compile or load, {mutation.behaviours} distinct "
        f"behaviours ({mutation.seconds:.1f} s of a {mutation.budget_s:.0f} s time box{cut})",
    ]
    if mutation.operators:
        counts = ", ".join(f"{op} {n}" for op, n in sorted(mutation.operators.items()))
        lines.append(f"- Operators: {counts}")
    if mutation.survivors:
        lines.append("- Surviving mutants (no kept test tells them apart):")
        lines += [f"  - {s}" for s in mutation.survivors[:SHOWN_SURVIVORS]]
        if len(mutation.survivors) > SHOWN_SURVIVORS:
            lines.append(f"  - … and {len(mutation.survivors) - SHOWN_SURVIVORS} more")
    return lines


def _question_line(question: ProofQuestion) -> str:
    options = ", ".join(
        f"`{shown(c.value)}` ({backing(c)}{', the chosen code' if c.chosen else ''})"
        for c in question.choices
    )
    if question.answer is None:
        return f"  - `{question.call}`: {options}; not answered"
    source = "read in the request" if question.read else "what most drafts return"
    if question.disputes_a_test:
        source = "the drafts' result; the designed test was set aside"
    who = f"assumed (`--yes`: {source})" if question.assumed else "answered"
    return f"  - `{question.call}`: {options}; {who}: `{shown(question.answer)}`"


def proof_lines(status: str, proof: Proof) -> list[str]:
    """One module's part of the section."""
    lines = [f"- Status: {status}; proof: {proof.strength}"]
    lines += [f"- Weak: {w}" for w in proof.weaknesses]
    if proof.mutation is not None:
        lines += _mutation_lines(proof.mutation)
    lines.append(
        f"- Checks kept: {proof.checks} ({proof.distinct_checks} distinct); "
        + (f"drafts drawn: {proof.drawn}; " if proof.drawn else "")
        + f"compared on probe inputs: {proof.drafts} (the chosen code and the drafts that "
        "pass every test it passes)"
    )
    if proof.added:
        lines.append("- Checks the proof added (expected values from the agreeing drafts):")
        for check in proof.added:
            kills = f"; tells apart {'; '.join(check.kills)}" if check.kills else ""
            lines.append(
                f"  - `{check.call}` gives `{shown(check.expected)}` ({check.origin}{kills})"
            )
    if proof.set_aside:
        lines.append("- Tests dropped or set aside:")
        lines += [f"  - {note}" for note in proof.set_aside]
    if proof.questions:
        lines.append("- Questions where the drafts (or a designed test and the code) disagree:")
        lines += [_question_line(q) for q in proof.questions]
    return lines


def proof_section(modules: list[ModuleReport]) -> list[str]:
    """The report's "Proof" section (markdown lines)."""
    out = ["", "## Proof", ""]
    proven = [m for m in modules if m.proof is not None]
    if not proven:
        return [*out, "None."]
    for module in proven:
        assert module.proof is not None
        out += [f"### `{module.name}`", "", *proof_lines(module.status, module.proof), ""]
    return out[:-1]
