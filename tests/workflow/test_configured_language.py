"""A language added in codeproof.toml only ([toolchains.<name>], no language package):
the analyst, planner, test designer and programmer work with it, and its server runs
the tests (here the fake toolchain server, which reports every test as passed)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from wf_world import ScriptedHuman

from codeproof.core.config import load_settings
from codeproof.core.types import Module, Spec
from codeproof.languages import registry
from codeproof.llm.base import Message
from codeproof.llm.fake import FakeModel, said
from codeproof.toolchains.client import ToolchainClient
from codeproof.toolchains.router import languages
from codeproof.workflow.deps import RunOptions, ToolchainLike
from codeproof.workflow.runner import Runner
from codeproof.workflow.store import RunStore

FAKE = str(Path(__file__).parents[1] / "toolchains" / "fake_toolchain_server.py")
GREET = Module(name="greet", purpose="Greets.", language="textlang", public_interface="greet(n)")


@pytest.fixture
def textlang() -> Iterator[object]:
    settings = load_settings(
        toolchains={
            "textlang": {
                "command": [sys.executable, FAKE, "text"],
                "source_path": "{module}.tl",
                "test_path": "{module}_test.tl",
                "fence": "tl",
            }
        }
    )
    registry.add_configured(settings)
    try:
        yield settings
    finally:
        registry.discard("textlang")


def _first(messages: list[Message], prefix: str) -> bool:
    return prefix in said(messages)


def test_a_configured_language_is_planned_written_and_tested(textlang, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings = textlang
    spec = Spec(
        title="Greeter",
        summary="Greets people.",
        language="textlang",
        functional_requirements=["greet(n) says hello to n"],
        interfaces=["greet(n)"],
    )
    model = FakeModel(
        rules=[
            (
                lambda m: _first(m, "You write textlang tests"),
                "File: greet_test.tl\n```tl\nexpect greet(1)\n```\n",
            ),
            (  # the whole-request call: its block's path is not read as one of a
                # configured language's files, so the module gets a call of its own
                lambda m: _first(m, "Build the project the user describes"),
                "File: greet.tl\n```tl\nsay hello world\n```\n",
            ),
            (
                lambda m: _first(m, "You are an expert textlang"),
                "File: greet.tl\n```tl\nsay hello\n```\n",
            ),
            (
                lambda m: _first(m, "You write short documentation"),
                {"summary": "Greets.", "items": []},
            ),
        ]
    )
    assert "textlang" in languages(settings) and registry.layout_for("textlang").owns("a.tl")

    def factory(language: str) -> ToolchainLike:
        client = ToolchainClient(settings, language)
        client.start()
        return client

    options = RunOptions(out_dir=str(tmp_path / "out"), auto=True, language="textlang")
    with RunStore(tmp_path / "runs") as store:
        human = ScriptedHuman()
        runner = Runner(settings, store, model, factory, human)
        result = runner.start("a greeter", options, spec=spec, modules=[GREET])
        [finish] = [
            e for e in store.events(result.run_id, "node_end") if e.payload["node"] == "finish"
        ]
    assert result.status == "done"
    [outcome] = finish.payload["output"]["outcomes"]
    # its tests pass, but without code mutants for the language the proof is unmeasured
    assert outcome["status"] == "weak" and outcome["report"]["passed"] == 1
    assert outcome["proof"]["strength"] == "unmeasured"
    assert outcome["proof"]["weaknesses"][0].startswith("no code mutants for textlang")
    assert outcome["files"] == {"greet.tl": "say hello\n"}
    assert outcome["tests"] == {"greet_test.tl": "expect greet(1)\n"}
    assert (tmp_path / "out" / "greet.tl").read_text() == "say hello\n"
