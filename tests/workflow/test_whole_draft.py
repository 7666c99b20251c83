"""Every module's first draft is its file of one call answering the whole request."""

from __future__ import annotations

from wf_world import BAD_1, GOOD, SLUGIFY, ScriptedHuman, World

from codeproof.core.types import Module
from codeproof.engine.state import Draft
from codeproof.llm.fake import said
from codeproof.workflow.store import RunStore

SHOUT = Module(
    name="shout",
    purpose="Shout.",
    language="python",
    public_interface="shout(text: str) -> str",
)
SHOUT_CODE = "def shout(text):\n    return text.upper() + '!'\n"
SHOUT_TESTS = "from shout import shout\n\n\ndef test_shout():\n    assert shout('a') == 'A!'\n"


def first_drafts(store: RunStore, run_id: str) -> dict[str, Draft]:
    """Each module's first draft, as its code branch wrote it."""
    drafts = {}
    for event in store.events(run_id, "node_end"):
        if event.payload["node"] == "write_code":
            [draft] = event.payload["output"]["candidates"]
            drafts[event.payload["module"]] = Draft.model_validate(draft)
    return drafts


def whole_calls(model: object) -> int:
    calls = getattr(model, "calls", [])
    return sum("Build the project the user describes" in said(c.messages) for c in calls)


def test_one_call_answers_the_request_and_each_module_starts_from_its_file(
    run_workflow, store
) -> None:
    """The whole reply's ``slugify.py`` (right) is the first draft, not the module's
    own greedy draft (wrong); ``shout``, which that reply left out, gets a call of its
    own."""
    world = World(
        modules=[SLUGIFY, SHOUT],
        code={"slugify": BAD_1, "shout": SHOUT_CODE},
        tests={"slugify": World().tests["slugify"], "shout": SHOUT_TESTS},
        whole={"slugify.py": GOOD, "README.md": "# slugs\n"},
    )
    model = world.model()
    result = run_workflow(model, ScriptedHuman(), auto=True, candidates=1)

    drafts = first_drafts(store, result.run_id)
    assert drafts["slugify"].files == {"slugify.py": GOOD}
    assert drafts["slugify"].note == "the whole request in one call, greedy"
    assert drafts["shout"].files == {"shout.py": SHOUT_CODE}
    assert drafts["shout"].note == "the user's words, greedy"
    assert whole_calls(model) == 1  # made once, at the first module
    direct = [c for c in model.calls if "Write exactly what the user asks" in said(c.messages)]
    assert ["Module `shout`" in said(c.messages) for c in direct] == [True]
    [whole] = [c for c in model.calls if "Build the project" in said(c.messages)]
    assert whole.messages[-1].content == "a slugify function"
    assert whole.settings.temperature == 0.0


def test_off_every_module_drafts_its_own(run_workflow, store) -> None:
    world = World(whole={"slugify.py": BAD_1})
    model = world.model()
    result = run_workflow(model, ScriptedHuman(), auto=True, candidates=1, whole_draft=False)

    assert whole_calls(model) == 0
    assert first_drafts(store, result.run_id)["slugify"].files == {"slugify.py": GOOD}
