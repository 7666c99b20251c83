"""An identical rerun asks the model exactly what the first run asked: every call of it
can be answered from the response cache, leaving only the sandbox's time."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from wf_world import BAD_1, GOOD, ScriptedHuman, World

from codeproof.llm.cache import cache_key, cacheable
from codeproof.llm.fake import FakeModel
from codeproof.workflow.deps import RunOptions
from codeproof.workflow.runner import Runner

REQUEST = 'Write a Python function slugify(text): slugify("Hello World") -> "hello-world".'


def _asked(model: FakeModel) -> Counter[str]:
    """What the model was asked, as cache keys (concurrent calls come in any order)."""
    return Counter(cache_key("fake", "m", c.messages, c.settings, c.schema) for c in model.calls)


def test_an_identical_rerun_makes_only_calls_the_cache_answers(
    wf_settings, store, memory_toolchains, tmp_path: Path
) -> None:
    # the first draft is wrong, so the run draws more drafts (sampled ones too), proves
    # the choice and documents it: every kind of call the engine makes
    world = World(code={"slugify": BAD_1}, samples={"slugify": [GOOD, GOOD]})
    models = [world.model(), world.model()]
    for n, model in enumerate(models):
        options = RunOptions(out_dir=str(tmp_path / f"out{n}"), auto=True)
        result = Runner(wf_settings, store, model, memory_toolchains, ScriptedHuman()).start(
            REQUEST, options
        )
        assert result.status == "done"
    first, second = (_asked(m) for m in models)
    assert sum(first.values()) >= 8  # intake, spec, modules, tests, drafts, plan, inputs, docs
    assert first == second
    assert all(cacheable(c.settings) for c in models[0].calls)  # greedy or seeded
