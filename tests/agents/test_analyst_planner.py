"""Analyst and planner with a scripted model."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from codeproof.agents.analyst import analyze, clarify
from codeproof.agents.planner import extract_modules, order_modules, plan_module
from codeproof.core.errors import InputError
from codeproof.core.types import QA, Module, Spec
from codeproof.llm.fake import FakeModel


def _questions(n: int) -> dict[str, object]:
    return {"reply": "Nice.", "ready": False, "questions": [f"q{i}?" for i in range(n)]}


def test_clarify_caps_questions_and_shows_answers() -> None:
    model = FakeModel([_questions(5)])
    answers = [QA(question="Language?", answer="Python")]
    result = clarify(model, "make a parser", answers, round=1, max_rounds=3)
    assert result.questions == ["q0?", "q1?", "q2?"]
    assert not result.ready
    prompt = model.calls[0].messages[-1].content
    assert "make a parser" in prompt and "A: Python" in prompt


def test_clarify_last_round_asks_nothing() -> None:
    result = clarify(FakeModel([_questions(2)]), "x", [], round=3, max_rounds=3)
    assert result.ready and result.questions == []


def test_clarify_ready_without_questions_when_model_lists_none() -> None:
    result = clarify(FakeModel([{"reply": "ok", "ready": False}]), "x", [], round=1, max_rounds=3)
    assert result.ready


def test_clarify_proceeds_when_the_model_gives_no_valid_json() -> None:
    model = FakeModel(["not json", "still not json"])
    result = clarify(model, "x", [], round=1, max_rounds=3)
    assert result.ready and result.questions == []
    assert len(model.calls) == 2  # the shared re-ask happened
    assert {c.settings.max_tokens for c in model.calls if c.settings} == {384}  # small budget


SPEC = {
    "title": " Adder ",
    "summary": "Adds.",
    "language": "Python 3",
    "functional_requirements": ["adds", "adds", " "],
    "interfaces": ["add(a, b)"],
    "acceptance_examples": ["add(1, 2) -> 3"],
    "assumptions": ["ints only"],
}


def test_analyze_normalizes_the_spec() -> None:
    spec = analyze(FakeModel([SPEC]), "add", [], language=None, assumptions=["no floats"])
    assert spec.title == "Adder"
    assert spec.language == "python"
    assert spec.functional_requirements == ["adds"]
    assert spec.assumptions == ["no floats", "ints only"]


def test_analyze_drops_the_example_form_copied_as_an_example() -> None:
    copied = {**SPEC, "acceptance_examples": ["call -> expected result", "add(1, 2) -> 3"]}
    model = FakeModel([copied])
    spec = analyze(model, "add", [], language=None, assumptions=[])
    assert spec.acceptance_examples == ["add(1, 2) -> 3"]
    assert 'at least 3 examples "call -> expected result"' in model.calls[0].messages[0].content


def test_analyze_keeps_the_language_the_user_chose() -> None:
    model = FakeModel([SPEC])
    spec = analyze(model, "add", [], language="JS", assumptions=[])
    assert spec.language == "javascript"
    assert '"javascript" (fixed by the user)' in model.calls[0].messages[0].content


def _mod(name: str, deps: list[str] | None = None) -> dict[str, object]:
    return {
        "name": name,
        "purpose": f"{name} things",
        "language": "python",
        "depends_on": deps or [],
        "public_interface": f"{name}()",
    }


@pytest.fixture
def big_spec(spec: Spec) -> Spec:
    """A spec with six interfaces (room for up to six modules)."""
    names = ["parse", "render", "main", "load", "save", "check"]
    return spec.model_copy(update={"interfaces": [f"{n}(x: str) -> str" for n in names]})


def test_extract_modules_orders_by_dependencies(big_spec: Spec) -> None:
    model = FakeModel([{"modules": [_mod("cli", ["core"]), _mod("core", ["util"]), _mod("util")]}])
    assert [m.name for m in extract_modules(model, big_spec)] == ["util", "core", "cli"]


def test_one_interface_is_one_module_without_asking(spec: Spec) -> None:
    model = FakeModel([])
    [module] = extract_modules(model, spec)
    assert (module.name, module.public_interface) == ("add", "add(a: int, b: int) -> int")
    assert model.calls == []


def test_more_modules_than_interfaces_become_one_module(spec: Spec) -> None:
    java = spec.model_copy(
        update={
            "language": "java",
            "interfaces": [
                "public class RomanNumerals",
                "static String toRoman(int n)",
            ],
        }
    )
    model = FakeModel([{"modules": [_mod("to_roman"), _mod("from_roman"), _mod("numerals")]}])
    [module] = extract_modules(model, java)
    assert module.name == "roman_numerals"
    assert "static String toRoman(int n)" in module.public_interface


def test_extract_modules_repairs_what_the_model_got_wrong(big_spec: Spec) -> None:
    proposal = [
        _mod("Parse Input", ["ghost"]),
        _mod("json"),
        _mod("json"),
        _mod("a", ["b"]),
        _mod("b", ["a", "b"]),
        _mod("test_helpers"),
    ]
    modules = extract_modules(FakeModel([{"modules": proposal}]), big_spec)
    names = [m.name for m in modules]
    assert names[:3] == ["parse_input", "json_mod", "json_mod_2"]
    assert set(names) == {"parse_input", "json_mod", "json_mod_2", "a", "b", "mod_test_helpers"}
    assert modules[0].depends_on == []
    by_name = {m.name: m for m in modules}
    for position, m in enumerate(modules):  # every dependency comes first
        assert all(names.index(d) < position for d in m.depends_on)
    assert not (by_name["a"].depends_on and by_name["b"].depends_on)  # cycle broken
    assert "b" not in by_name["b"].depends_on


def test_extract_modules_falls_back_to_one_module(big_spec: Spec) -> None:
    [module] = extract_modules(FakeModel([{"modules": []}]), big_spec)
    assert module.name == "parse"
    assert module.language == "python"
    assert "render(x: str) -> str" in module.public_interface


def _module(name: str, deps: list[str] | None = None) -> Module:
    return Module.model_validate(_mod(name, deps))


@pytest.mark.parametrize(
    ("modules", "problem"),
    [
        ([_module("a", ["b"]), _module("b", ["a"])], "cycle"),
        ([_module("a", ["zzz"])], "unknown module"),
        ([_module("a"), _module("a")], "used twice"),
        ([_module("my-mod")], "not an identifier"),
        ([_module("random")], "shadows"),
        ([], "no modules"),
    ],
)
def test_order_modules_strict_rejects_bad_user_edits(modules: list[Module], problem: str) -> None:
    with pytest.raises(InputError, match=problem):
        order_modules(modules)


def test_order_modules_forces_the_spec_language() -> None:
    [module] = order_modules([_module("adder")], language="java")
    assert module.language == "java"


def test_plan_module_cleans_steps_and_falls_back(spec: Spec, module: Module) -> None:
    steps = [" a ", "", *[f"s{i}" for i in range(12)]]
    plan = plan_module(FakeModel([{"steps": steps}]), spec, module)
    assert plan.steps[0] == "a" and len(plan.steps) == 8
    fallback = plan_module(FakeModel(["nope", "nope"]), spec, module)
    assert fallback.steps and "add(a: int, b: int) -> int" in fallback.steps[0]


def test_spec_lists_are_bounded_in_the_schema_constrained_decoding_uses() -> None:
    from codeproof.core.types import SPEC_LIST_MAX, Spec

    schema = Spec.model_json_schema()["properties"]["acceptance_examples"]
    assert schema["maxItems"] == SPEC_LIST_MAX
    with pytest.raises(ValidationError):
        Spec(title="t", summary="s", language="python", acceptance_examples=["x"] * 25)


def test_the_analyst_is_asked_for_a_shorter_example_list_than_a_spec_holds() -> None:
    from codeproof.agents.analyst import ANALYST_EXAMPLES_MAX
    from codeproof.core.types import SPEC_LIST_MAX

    model = FakeModel([SPEC])
    analyze(model, "add", [], language=None, assumptions=[])
    [call] = model.calls
    assert call.schema is not None
    schema = call.schema["properties"]["acceptance_examples"]
    assert schema["maxItems"] == ANALYST_EXAMPLES_MAX < SPEC_LIST_MAX
