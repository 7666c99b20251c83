"""Every branch of the workflow graph with the scripted FakeModel and the in-memory
toolchain (test_resume, test_cli and test_e2e run the graph on the real sandbox)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wf_world import BAD_1, BROKEN, BROKEN_2, EXTRA, GOOD, SLUGIFY, TESTS, ScriptedHuman, World

from codeproof.core.reports import ModuleOutcome
from codeproof.llm.fake import said
from codeproof.workflow.deps import RunOptions
from codeproof.workflow.models import (
    ClarifyAnswer,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
)
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import Event, RunStore


def node_ends(store: RunStore, run_id: str, node: str) -> list[Event]:
    return [e for e in store.events(run_id, "node_end") if e.payload["node"] == node]


def before_proof(store: RunStore, run_id: str, kind: str) -> list[Event]:
    """The events of ``kind`` before the first proof started (the choice's own)."""
    events = store.events(run_id)
    start = next(
        (e.seq for e in events if e.kind == "node_start" and e.payload["node"] == "prove"),
        events[-1].seq + 1,
    )
    return [e for e in events if e.kind == kind and e.seq < start]


def outcomes(store: RunStore, run_id: str) -> list[ModuleOutcome]:
    ends = node_ends(store, run_id, "finish")
    return [ModuleOutcome.model_validate(o) for o in ends[-1].payload["output"]["outcomes"]]


def report_json(out: Path) -> dict[str, object]:
    data: dict[str, object] = json.loads((out / "codeproof-report.json").read_text())
    return data


def test_clarify_then_success_first_try(run_workflow, store, tmp_path):
    # the analyst asks one question; the request states no example and nothing on
    # invalid input, so the intake asks about both too (ask before guessing)
    world = World(questions=[["Keep unicode letters?"]])
    said = ["no, ASCII only", 'slugify("Hello World") -> "hello-world"', "empty gives empty"]
    human = ScriptedHuman(clarify_answers=[ClarifyAnswer(answers=said)])
    model = world.model()

    result = run_workflow(model, human)

    assert result.status == "done"
    assert [type(s).__name__ for s in human.shown] == ["ClarifyRequest", "ModulesRequest"]
    asked = human.shown[0].questions
    assert asked[0] == "Keep unicode letters?" and "examples" in asked[1] and "empty" in asked[2]
    analyze_prompt = next(
        c.messages[1].content
        for c in model.calls
        if "precise specification" in c.messages[0].content
    )
    assert f"Q: Keep unicode letters?\nA: {said[0]}" in analyze_prompt
    assert f"A: {said[1]}" in analyze_prompt
    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 1
    # 4 designed + the example the user stated (in an answer), generated literally
    assert outcome.report is not None and outcome.report.passed == 5
    assert 'slugify("Hello World") == "hello-world"' in outcome.tests["test_slugify_examples.py"]
    out = Path(result.project_dir or "")
    assert (out / "slugify.py").read_text() == GOOD
    assert (out / "test_slugify.py").exists() and (out / "Dockerfile").exists()
    report = report_json(out)
    assert report["totals"]["passed"] == 1  # type: ignore[index]
    assert report["usage"]["calls"] == len(model.calls)  # type: ignore[index]


def test_proceed_on_assumptions_records_them_in_the_spec(run_workflow, store):
    world = World(questions=[["Unicode?"]], assumptions=["ASCII input only"])
    human = ScriptedHuman(clarify_answers=[ClarifyAnswer(proceed=True)])

    result = run_workflow(world.model(), human)

    spec_end = next(
        e for e in store.events(result.run_id, "node_end") if e.payload["node"] == "analyze"
    )
    assert "ASCII input only" in spec_end.payload["output"]["spec"]["assumptions"]
    decisions = store.events(result.run_id, "decision")
    assert decisions[0].payload["kind"] == "clarify"
    assert decisions[0].payload["value"]["proceed"] is True


class _RequotingWorld(World):
    """An analyst that rewrites the user's examples with single quotes."""

    def _spec(self, messages):  # type: ignore[no-untyped-def]
        spec = super()._spec(messages)
        examples = ["slugify('Don't stop') -> 'don-t-stop'", "slugify('A b') -> 'a-b'"]
        return spec.model_copy(update={"acceptance_examples": examples})


def test_the_users_quotes_are_put_back_in_the_specs_examples(run_workflow, store):
    # py-word-freq at 68dd645: the analyst re-quoted "Don't stop, DON'T!" as
    # 'Don't stop, DON'T!', broken code shown in every prompt
    request = 'a slugify function: slugify("Don\'t stop") returns "don-t-stop"'
    result = run_workflow(_RequotingWorld().model(), ScriptedHuman(), request=request, auto=True)

    spec_end = next(
        e for e in store.events(result.run_id, "node_end") if e.payload["node"] == "analyze"
    )
    assert spec_end.payload["output"]["spec"]["acceptance_examples"] == [
        "slugify(\"Don't stop\") -> 'don-t-stop'",
        "slugify('A b') -> 'a-b'",
    ]


class _RunawayWorld(World):
    """An analyst that lists far more examples than asked, all of its own."""

    def _spec(self, messages):  # type: ignore[no-untyped-def]
        spec = super()._spec(messages)
        examples = [f"slugify('a b', {n}) -> 'a-b'" for n in range(10)]
        return spec.model_copy(update={"acceptance_examples": [*examples, "slugify('X') -> 'x'"]})


def test_the_spec_keeps_the_users_examples_and_a_few_of_the_analysts(run_workflow, store):
    request = "a slugify function: slugify('X') returns 'x'"
    result = run_workflow(_RunawayWorld().model(), ScriptedHuman(), request=request, auto=True)

    [spec_end] = node_ends(store, result.run_id, "analyze")
    assert spec_end.payload["output"]["spec"]["acceptance_examples"] == [
        "slugify('a b', 0) -> 'a-b'",
        "slugify('a b', 1) -> 'a-b'",
        "slugify('a b', 2) -> 'a-b'",
        "slugify('X') -> 'x'",
    ]


class _AssumingWorld(World):
    """An analyst that assumes the input away (py-durations at f935ba3)."""

    def _spec(self, messages):  # type: ignore[no-untyped-def]
        spec = super()._spec(messages)
        assumed = ["The input string is always valid and non-empty.", "Text is ASCII."]
        return spec.model_copy(update={"assumptions": [*spec.assumptions, *assumed]})


def test_an_assumption_the_request_rules_out_is_not_in_the_spec(run_workflow, store):
    request = "a slugify function; it raises ValueError for an empty string"
    result = run_workflow(_AssumingWorld().model(), ScriptedHuman(), request=request, auto=True)

    [spec_end] = node_ends(store, result.run_id, "analyze")
    assumptions = spec_end.payload["output"]["spec"]["assumptions"]
    assert "Text is ASCII." in assumptions
    assert "The input string is always valid and non-empty." not in assumptions


def test_with_yes_no_model_guess_is_passed_off_as_accepted_by_the_user(run_workflow, store):
    # java-business-calendar: the clarify call, answered by nobody, assumed "the set of
    # holidays is not modified after the calendar is created" (the request says changes
    # must not matter), and the analysis was told the user had accepted it
    world = World(questions=[["Unicode?"]], assumptions=["the input is never modified"])
    model = world.model()

    result = run_workflow(model, ScriptedHuman(), auto=True)

    assert result.status == "done"
    assert not any("requirements analyst" in c.messages[0].content for c in model.calls)
    analyze_prompt = next(
        c.messages[1].content
        for c in model.calls
        if "precise specification" in c.messages[0].content
    )
    assert "the input is never modified" not in analyze_prompt
    assert "no example of a result was stated" in analyze_prompt  # codeproof's own reading
    [intake] = node_ends(store, result.run_id, "intake")
    assert intake.payload["output"]["intake_done"] is True
    assert not store.events(result.run_id, "decision")


def test_module_deselect_and_edit(run_workflow, store):
    world = World(modules=[SLUGIFY, EXTRA])

    def select(request: ModulesRequest) -> ModuleSelection:
        assert [m.name for m in request.modules] == ["slugify", "extra"]
        kept = request.modules[0].model_copy(update={"purpose": "Make URL slugs (edited)."})
        return ModuleSelection(modules=[kept])

    human = ScriptedHuman(selection=select)
    model = world.model()
    result = run_workflow(model, human)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.module.name == "slugify" and outcome.status == "passed"
    code_prompts = [c for c in model.calls if "expert python programmer" in said(c.messages)]
    assert all("Make URL slugs (edited)." in c.messages[1].content for c in code_prompts)
    assert not any("Module `extra`" in c.messages[1].content for c in model.calls)


def test_code_that_does_not_load_is_repaired_first(run_workflow, store):
    # a syntax error stops every test: one repair, no new drafts
    world = World(code={"slugify": BROKEN}, repairs={"slugify": [GOOD]})
    model = world.model()
    result = run_workflow(model, ScriptedHuman(), auto=True)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 2
    assert not node_ends(store, result.run_id, "draw")
    assert sum(c.messages[0].content.startswith("You fix") for c in model.calls) == 1


def test_repair_succeeds_on_attempt_3(run_workflow, store):
    world = World(code={"slugify": BROKEN}, repairs={"slugify": [BROKEN_2, GOOD]})
    result = run_workflow(world.model(), ScriptedHuman(), auto=True)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 3
    executes = node_ends(store, result.run_id, "execute")
    passed = [e.payload["output"]["work"]["report"]["passed"] for e in executes]
    assert passed == [0, 0, 4]


def test_a_spent_ladder_escalates_without_repairing_assertions(run_workflow, store):
    # every draft misreads the task the same way: assertions fail, nothing crashes
    world = World(code={"slugify": BAD_1}, repairs={"slugify": [GOOD]})
    human = ScriptedHuman(escalations=[EscalationDecision(action="continue")])
    model = world.model()

    result = run_workflow(model, human, auto=True, candidates=3, on_failure="ask")

    assert result.status == "done"
    [report] = [s for s in human.shown if isinstance(s, FailureReport)]
    assert report.attempts == 2 and not report.stuck  # the first draft, then one rung of two
    assert report.history[0].change.startswith("chose candidate 0 of 1")
    assert report.failing and report.likely_cause
    assert not any(c.messages[0].content.startswith("You fix") for c in model.calls)
    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "failed" and outcome.attempts == 2
    module_report = report_json(Path(result.project_dir or ""))["modules"][0]  # type: ignore[index]
    assert module_report["status"] == "failed"


def test_exhaustion_then_react_with_hint(run_workflow, store):
    world = World(code={"slugify": BAD_1}, hinted={"slugify": ("use re.sub", GOOD)})
    human = ScriptedHuman(escalations=[EscalationDecision(action="react", hint="use re.sub")])
    model = world.model()

    result = run_workflow(model, human, auto=True, candidates=1, on_failure="ask")

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 2
    [repair_prompt] = [c for c in model.calls if c.messages[0].content.startswith("You fix")]
    assert "use re.sub" in repair_prompt.messages[1].content


def test_identical_code_twice_is_stuck_and_escalates_early(run_workflow, store):
    world = World(code={"slugify": BROKEN}, repairs={"slugify": [BROKEN]})
    human = ScriptedHuman(escalations=[EscalationDecision(action="continue")])

    result = run_workflow(
        world.model(), human, auto=True, max_attempts=5, candidates=1, on_failure="ask"
    )

    [report] = [s for s in human.shown if isinstance(s, FailureReport)]
    assert report.stuck and report.attempts == 2
    assert "identical code" in report.likely_cause
    assert outcomes(store, result.run_id)[0].status == "failed"


def test_a_first_draft_that_passes_is_kept_without_drawing_more(run_workflow, store):
    model = World().model()
    result = run_workflow(model, ScriptedHuman(), auto=True, candidates=7)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 1
    assert not node_ends(store, result.run_id, "draw")
    # the choice asked for no plan and no inputs; the proof did, drawing drafts to compare
    scopes = [e.payload["scope"].split(":")[0] for e in store.events(result.run_id, "llm_call")]
    chosen = [e.payload["scope"] for e in before_proof(store, result.run_id, "llm_call")]
    assert not any(s.startswith(("plan", "inputs")) for s in chosen)
    assert {"plan", "inputs"} <= set(scopes)
    assert outcome.proof is not None and outcome.proof.drafts == 1  # every draft repeats it


def test_drafts_are_drawn_when_the_first_fails_and_the_best_is_kept(run_workflow, store):
    world = World(code={"slugify": BAD_1}, spec_code={"slugify": GOOD}, samples={"slugify": [GOOD]})
    result = run_workflow(world.model(), ScriptedHuman(), auto=True, candidates=3)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 2
    assert outcome.files["slugify.py"] == GOOD
    assert len(node_ends(store, result.run_id, "draw")) == 1
    # two distinct codes, each run once: the choice does not run the first draft again,
    # and the sampled draft that repeats the spec draft is not run twice
    tool_calls = before_proof(store, result.run_id, "tool_call")
    assert [c.payload["tool"] for c in tool_calls].count("run_tests") == 2


@pytest.mark.parametrize("candidates", [3, 7])
def test_rungs_are_drawn_until_a_draft_meets_the_stated_example(run_workflow, store, candidates):
    # every draft keeps the space but the one written with the edge-case approach hint
    # (the third spec draft, on the third rung); the user's example needs a hyphen
    world = World(
        code={"slugify": BAD_1},
        code_when={"slugify": ("Pay special attention to edge cases", GOOD)},
    )
    request = 'a slugify function: slugify("Hello World") -> "hello-world"'
    result = run_workflow(
        world.model(),
        ScriptedHuman(),
        request,
        auto=True,
        candidates=candidates,
        on_failure="continue",
    )

    [outcome] = outcomes(store, result.run_id)
    executes = node_ends(store, result.run_id, "execute")
    if candidates == 7:
        assert outcome.status == "passed" and outcome.files["slugify.py"] == GOOD
        assert len(executes) == 4  # the first draft, then three rungs of two
        assert "chose candidate 5 of 7" in executes[-1].payload["output"]["work"]["choice"]
    else:
        assert outcome.status == "failed" and len(executes) == 2
        assert outcome.files["slugify.py"] == BAD_1


LETTERS_ONLY = (
    'import re\n\n\ndef slugify(text):\n    return "-".join(re.findall("[a-z]+", text.lower()))\n'
)


@pytest.mark.parametrize("probe_inputs", [0, 4])
def test_drafts_that_split_on_proposed_inputs_draw_another_rung(run_workflow, store, probe_inputs):
    # the first draft fails; of the next two, both pass every test but one drops digits.
    # Only a proposed input ("a1 b2") tells them apart: then a third rung settles it.
    world = World(
        code={"slugify": BAD_1},
        spec_code={"slugify": LETTERS_ONLY},
        alt_code={"slugify": GOOD},
        samples={"slugify": [GOOD, GOOD, GOOD]},
        inputs={"slugify": 'slugify("a1 b2")\nslugify("")'},
    )
    result = run_workflow(
        world.model(), ScriptedHuman(), auto=True, candidates=5, probe_inputs=probe_inputs
    )

    [outcome] = outcomes(store, result.run_id)
    if probe_inputs:  # the drafts split on "a1 b2": it passes on the answer most drafts give
        assert outcome.status == "weak" and outcome.proof is not None
        assert outcome.proof.assumptions == ["slugify('a1 b2') -> 'a1-b2'"]
    else:  # nothing told the drafts apart, so nothing was asked
        assert outcome.status == "passed"
    draws = node_ends(store, result.run_id, "draw")
    proposed = draws[0].payload["output"]["work"]["inputs"]
    executes = node_ends(store, result.run_id, "execute")
    note = executes[-1].payload["output"]["work"]["choice"]
    if probe_inputs:
        assert proposed == ['slugify("a1 b2")', 'slugify("")']
        assert len(draws) == 2 and outcome.files["slugify.py"] == GOOD
        assert "2 proposed)" in note
    else:
        assert proposed == []
        assert len(draws) == 1 and outcome.files["slugify.py"] == LETTERS_ONLY
        assert "proposed" not in note


def test_react_with_hand_edited_code_runs_it_directly(run_workflow, store):
    world = World(code={"slugify": BAD_1})
    human = ScriptedHuman(
        escalations=[EscalationDecision(action="react", files={"slugify.py": GOOD})]
    )
    model = world.model()

    result = run_workflow(model, human, auto=True, candidates=1, on_failure="ask")

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.attempts == 2
    assert outcome.files["slugify.py"] == GOOD
    assert not any(c.messages[0].content.startswith("You fix") for c in model.calls)
    executes = node_ends(store, result.run_id, "execute")
    assert executes[-1].payload["output"]["work"]["history"][-1]["change"] == "edited by hand"


def test_react_with_an_edited_module_starts_the_module_over(run_workflow, store):
    world = World(
        code={"slugify": BAD_1},
        code_when={"slugify": ("Slugs, done right.", GOOD)},
    )
    edited = SLUGIFY.model_copy(update={"purpose": "Slugs, done right."})
    human = ScriptedHuman(escalations=[EscalationDecision(action="react", module=edited)])

    result = run_workflow(world.model(), human, auto=True, candidates=1, on_failure="ask")

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed" and outcome.module.purpose == "Slugs, done right."
    assert outcome.attempts == 2
    assert len(node_ends(store, result.run_id, "plan")) == 2
    assert len(node_ends(store, result.run_id, "design_tests")) == 2


def test_stop_skips_the_remaining_modules(run_workflow, store):
    world = World(modules=[SLUGIFY, EXTRA], code={"slugify": BAD_1})
    human = ScriptedHuman(escalations=[EscalationDecision(action="stop")])

    result = run_workflow(world.model(), human, candidates=1, on_failure="ask")

    assert result.status == "failed" and result.reason == "stopped by the user"
    assert [(o.module.name, o.status) for o in outcomes(store, result.run_id)] == [
        ("slugify", "failed"),
        ("extra", "skipped"),
    ]
    assert store.get_run(result.run_id).status == "failed"
    assert Path(result.project_dir or "", "codeproof-report.md").exists()


def test_retrieval_context_reaches_only_the_programmer(
    wf_settings, store, real_toolchains, tmp_path
):
    asked: list[str] = []

    def retrieve(spec, module):
        asked.append(module.name)
        return "RETRIEVED: use re.sub for runs"

    model = World().model()
    runner = Runner(wf_settings, store, model, real_toolchains, ScriptedHuman(), context=retrieve)
    result = runner.start("a slugify function", RunOptions(out_dir=str(tmp_path / "o"), auto=True))

    assert result.status == "done" and set(asked) == {"slugify"}
    with_context = [c for c in model.calls if "RETRIEVED: use re.sub" in c.messages[1].content]
    assert with_context and all(
        "expert python programmer" in said(c.messages) for c in with_context
    )


def test_security_scan_is_part_of_the_result(run_workflow, store):
    unsafe = GOOD + "\n\ndef evaluate(expression):\n    return eval(expression)\n"
    result = run_workflow(World(code={"slugify": unsafe}).model(), ScriptedHuman(), auto=True)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.status == "passed"
    assert any(f.tool == "bandit" and f.file == "slugify.py" for f in outcome.scan)
    report = report_json(Path(result.project_dir or ""))
    assert report["totals"]["findings"] >= 1  # type: ignore[index]


def test_the_file_the_request_names_is_the_module_built(run_workflow, store):
    # the analysis names the module after its function; the request names the file
    world = World(
        code={"slugger": GOOD}, tests={"slugger": TESTS.replace("slugify import", "slugger import")}
    )
    request = "Write slugger.py with a function slugify(text) that makes URL slugs."
    result = run_workflow(world.model(), ScriptedHuman(), request, auto=True)

    [outcome] = outcomes(store, result.run_id)
    assert outcome.module.name == "slugger" and outcome.status == "passed"
    assert set(outcome.files) == {"slugger.py"} and "test_slugger.py" in outcome.tests
    assert (Path(result.project_dir or "") / "slugger.py").read_text() == GOOD
