"""The proof in the graph: the disagreement question (interrupt), its answer as an example,
``--yes`` assumptions, and the report's Proof section (scripted model, in-memory toolchain).

The world is :func:`wf_world.disagreeing`: the greedy draft passes the weak designed tests
yet gives ``a---b`` for ``a - b``, where the other drafts give ``a-b``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console
from wf_world import BUGGY, GOOD, GOOD_TOO, ScriptedHuman, disagreeing

from codeproof.agents.programmer import DIRECT_TEMPERATURE
from codeproof.commands.display import _ask_question
from codeproof.commands.progress import JsonEvents, JsonHuman
from codeproof.core.proof import ProofQuestion, QuestionChoice
from codeproof.core.reports import ModuleOutcome
from codeproof.workflow.humans import AutoHuman
from codeproof.workflow.models import QuestionAnswer, QuestionRequest
from codeproof.workflow.proof_nodes import request_for
from codeproof.workflow.store import RunStore


def _outcome(store: RunStore, run_id: str) -> ModuleOutcome:
    ends = [e for e in store.events(run_id, "node_end") if e.payload["node"] == "finish"]
    return ModuleOutcome.model_validate(ends[-1].payload["output"]["outcomes"][0])


def _report(project: str | None) -> tuple[dict[str, object], str]:
    out = Path(project or "")
    data = json.loads((out / "codeproof-report.json").read_text())
    return data, (out / "codeproof-report.md").read_text()


def test_the_human_answers_where_the_drafts_disagree(run_workflow, store):
    human = ScriptedHuman(answers=[QuestionAnswer(value="'a-b'")])

    result = run_workflow(disagreeing().model(), human)

    assert result.status == "done"
    asked = [s for s in human.shown if isinstance(s, QuestionRequest)]
    first = asked[0]
    assert first.kind == "question" and first.call == "slugify('a - b')"
    assert [(c.shown, c.drafts, c.chosen) for c in first.results] == [
        ("'a-b'", 2, False),
        ("'a---b'", 1, True),
    ]
    assert first.choices == ["'a-b'", "'a---b'"]
    assert first.suggested == "'a-b'" and first.default == {"value": "'a-b'"}
    assert (first.number, first.limit) == (1, 3)
    assert "`slugify('a - b')`: `'a-b'` (2 drafts) or `'a---b'` (1 draft)?" in first.question
    decisions = [e.payload for e in store.events(result.run_id, "decision")]
    assert {"kind": "question", "value": {"value": "'a-b'"}}.items() <= decisions[
        -len(asked)
    ].items()
    # the answer is an example the greedy draft misses: the choice was made again
    outcome = _outcome(store, result.run_id)
    assert outcome.files["slugify.py"] in (GOOD, GOOD_TOO)
    assert "slugify('a - b') == 'a-b'" in outcome.tests["test_slugify_examples.py"]
    assert outcome.proof is not None and outcome.proof.questions[0].by == "human"
    data, md = _report(result.project_dir)
    [module] = data["modules"]  # type: ignore[index]
    assert module["proof"]["questions"][0]["answer"] == "'a-b'"
    assert module["mutation_score"] == module["proof"]["mutation"]["score"] is not None
    assert module["status"] == outcome.status
    assert "## Proof" in md and "answered: `'a-b'`" in md and "Mutation score:" in md


def test_with_yes_the_default_is_taken_and_recorded_as_an_assumption(run_workflow, store):
    human = ScriptedHuman()
    result = run_workflow(disagreeing().model(), human, auto=True)

    assert not any(isinstance(s, QuestionRequest) for s in human.shown)  # nobody is asked
    outcome = _outcome(store, result.run_id)
    assert outcome.files["slugify.py"] in (GOOD, GOOD_TOO)
    assert outcome.proof is not None
    first = outcome.proof.questions[0]
    assert first.call == "slugify('a - b')" and first.assumed and first.answer == "'a-b'"
    assert "slugify('a - b') -> 'a-b'" in outcome.proof.assumptions
    assert outcome.status == "weak"  # it passes, on an answer nobody gave
    _, md = _report(result.project_dir)
    assert "assumed (`--yes`: what most drafts return): `'a-b'`" in md
    assert "- Weak: 1 answer(s) assumed where the drafts disagree" in md


def test_an_answer_that_keeps_the_chosen_code_proves_it_again(run_workflow, store):
    human = ScriptedHuman(answers=[QuestionAnswer(value="'a---b'")])
    result = run_workflow(disagreeing().model(), human)

    outcome = _outcome(store, result.run_id)
    proves = [e for e in store.events(result.run_id, "node_end") if e.payload["node"] == "prove"]
    assert len(proves) >= 2  # proven again with the answer's example test
    assert outcome.proof is not None and outcome.proof.questions[0].answer == "'a---b'"
    assert "slugify('a - b') == 'a---b'" in outcome.tests["test_slugify_examples.py"]
    assert outcome.files["slugify.py"] == BUGGY  # the user's word: kept


QUESTION = ProofQuestion(
    call="f(-1)",
    choices=[
        QuestionChoice(value="0", drafts=2),
        QuestionChoice(value="!ValueError", drafts=1, chosen=True),
    ],
    default="0",
)


def test_the_presenters_ask_the_question_kind() -> None:
    request = request_for("m", QUESTION, 2, 3)
    assert request.question == "`f(-1)`: `0` (2 drafts) or `raises ValueError` (1 draft)? " + (
        "or type the expected value"
    )
    assert AutoHuman().answer(request).value == "0"
    out = io.StringIO()
    human = JsonHuman(JsonEvents(out), io.StringIO('{"value": ""}\n{"value": "!ValueError"}\n'))
    assert human.answer(request).value == "!ValueError"
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(line["event"], line["kind"]) for line in lines] == [
        ("question", "question"),
        ("invalid_answer", "question"),
    ]
    assert lines[0]["question"]["results"][1]["shown"] == "raises ValueError"
    assert lines[0]["question"]["default"] == {"value": "0"}


def test_the_terminal_takes_a_number_enter_or_a_typed_value(monkeypatch) -> None:
    request = request_for("m", QUESTION, 1, 3)
    console = Console(file=io.StringIO(), width=100)
    replies = iter(["2", "", "  [1, 2] "])
    monkeypatch.setattr("rich.prompt.Prompt.ask", lambda *a, **k: next(replies) or k["default"])
    assert _ask_question(console, request).value == "!ValueError"
    assert _ask_question(console, request).value == "0"  # Enter: the default (choice 1)
    assert _ask_question(console, request).value == "[1, 2]"
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    assert "raises ValueError (the chosen code)" in shown and "question 1/3" in shown


TWO_DASHES = 'def slugify(text):\n    return "-".join(text.lower().split()).replace("--", "-")\n'
"""Passes the weak tests, gives ``a--b`` for ``a - b``."""


def test_an_answer_no_draft_gives_draws_drafts_written_with_it(run_workflow, store):
    """The person types ``'a-b'``, which none of the drafts returns and the ladder is
    full: one more rung of drafts is written with the answer beside the request (the
    drafts before it never saw it), and the one that meets it ships."""
    world = disagreeing()
    world.spec_code = {"slugify": TWO_DASHES}
    world.samples = {"slugify": [TWO_DASHES]}
    world.code_when = {"slugify": ("- slugify('a - b') -> 'a-b'", GOOD)}
    human = ScriptedHuman(answers=[QuestionAnswer(value="'a-b'")])
    model = world.model()

    result = run_workflow(model, human, candidates=3)

    asked = [s for s in human.shown if isinstance(s, QuestionRequest)]
    assert asked and "'a-b'" not in asked[0].choices  # no draft gave the answer
    outcome = _outcome(store, result.run_id)
    assert outcome.files["slugify.py"] == GOOD and outcome.status == "passed"
    told = [c for c in model.calls if "The user's answers" in c.messages[-1].content]
    assert len(told) == 2  # one rung (two drafts) beyond the three of the ladder
    assert [c.settings.temperature for c in told] == [0.0, DIRECT_TEMPERATURE]  # greedy first
