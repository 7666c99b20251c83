"""A request that does not fit the model's context ends a step, never the module: the
engine keeps the best attempt so far (a HumanEval task ended in an error, and so with no
answer at all, when one later request of 4,745 tokens did not fit a 4,096-token slot)."""

from __future__ import annotations

from codeproof.core.errors import ContextLengthError
from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.loop import build
from codeproof.llm.base import ChatModel, Message
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

FIRST = 'def slugify(text):\n    return "-".join(text.lower().split())\n'
TESTS = (
    "from slugify import slugify\n\n\n"
    "def test_words():\n    assert slugify('Hello World') == 'hello-world'\n\n\n"
    "def test_runs():\n    assert slugify('a - b') == 'a-b'\n"
)
MODULE = Module(
    name="slugify", purpose="Make slugs.", language="python", public_interface="slugify(text)"
)
SPEC = Spec(
    title="Slugify",
    summary="Runs of non-alphanumeric characters become one hyphen.",
    language="python",
    interfaces=["slugify(text: str) -> str"],
)


def _too_long(messages: list[Message]) -> str:
    raise ContextLengthError("request (4745 tokens) exceeds the context", provider="fake")


def test_steps_whose_requests_do_not_fit_leave_the_best_attempt() -> None:
    tests = f"File: test_slugify.py\n```python\n{TESTS}```\n"
    model = FakeModel(
        rules=[
            (lambda m: "You write python tests" in said(m), tests),
            (lambda m: True, _too_long),  # the plan, inputs, programmer, repairer
        ]
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        if index:
            _too_long([])
        return {"slugify.py": FIRST}

    ctx = Context(
        spec=SPEC,
        module=MODULE,
        words="slugify(text): runs of non-alphanumeric characters become one hyphen",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(max_drafts=7, probe_inputs=4),
    )
    work = build(ctx)

    assert work.files == {"slugify.py": FIRST} and work.verdict == "failed"
    assert work.report is not None and work.report.passed == 1
    assert [d.source for d in work.drafts] == ["direct"]  # no rung drew anything
    assert work.rung * ctx.options.rung >= ctx.options.max_drafts  # and the rungs ran out
