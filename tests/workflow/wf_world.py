"""A scripted world for workflow tests: a FakeModel answering each agent by its prompt.

Replies are chosen from the prompt (system prompt = which agent, ``Module `name``` =
which module), never from call order, so a resumed process gets the same answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from codeproof.core.types import Clarification, Module, Spec
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.fake import FakeModel, Sampled, said
from codeproof.workflow.models import (
    ClarifyAnswer,
    ClarifyRequest,
    EscalationDecision,
    FailureReport,
    ModuleSelection,
    ModulesRequest,
    QuestionAnswer,
    QuestionRequest,
)

GOOD = """import re


def slugify(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
"""
BAD_1 = "def slugify(text):\n    return text.lower()\n"
BAD_2 = "def slugify(text):\n    return text.lower().replace(' ', '-')\n"
BAD_3 = "def slugify(text):\n    return text.strip().lower().replace(' ', '-')\n"
BROKEN = "def slugify(text)\n    return text.lower()\n"  # a syntax error: nothing loads
BROKEN_2 = "def slugify(text):\n    return text.lower(\n"
TESTS = """from slugify import slugify


def test_spaces():
    assert slugify("Hello World") == "hello-world"


def test_strip():
    assert slugify("  a  ") == "a"


def test_runs():
    assert slugify("a--b!!c") == "a-b-c"


def test_lower():
    assert slugify("ABC") == "abc"
"""

SPEC = Spec(
    title="Slugify",
    summary="Turn text into a URL slug.",
    language="python",
    functional_requirements=["lowercase", "non-alphanumeric runs become one hyphen"],
    interfaces=["slugify(text: str) -> str"],
    acceptance_examples=['slugify("Hello World") -> "hello-world"'],
)
SLUGIFY = Module(
    name="slugify",
    purpose="Make slugs.",
    language="python",
    public_interface="slugify(text: str) -> str",
)
EXTRA = Module(
    name="extra",
    purpose="Something nobody needs.",
    language="python",
    public_interface="extra() -> None",
)


def fenced(path: str, code: str, summary: str | None = None) -> str:
    tail = f"\nSummary: {summary}\n" if summary else ""
    return f"File: {path}\n```python\n{code}```\n{tail}"


def _system(messages: Sequence[Message]) -> str:
    return said(messages)


def _user(messages: Sequence[Message]) -> str:
    return "\n".join(m.content for m in messages[1:])


def _module(messages: Sequence[Message]) -> str:
    found = re.search(r"Module `(\w+)`", _user(messages))
    return found.group(1) if found else ""


@dataclass
class World:
    """What each agent answers.

    Attributes:
        questions: Clarifying questions per round (rounds beyond the list are ready).
        assumptions: Assumptions the analyst states.
        modules: Proposed modules.
        code: Module -> the first draft (straight from the request, greedy), and every
            other draft unless the fields below say otherwise.
        spec_code: Module -> the drafts written from the spec and plan.
        alt_code: Module -> the spec drafts written with an approach hint (after the first).
        samples: Module -> the sampled drafts from the request, by seed (seed 1 first).
        repairs: Module -> successive repair codes; the repair number is taken from
            the count of earlier repairs listed in the prompt.
        hinted: Module -> (hint substring, code) answered when the prompt holds the hint.
        code_when: Module -> (substring, code) the programmer writes when the prompt holds it.
        inputs: Module -> the input designer's reply (edge-case calls, one per line).
        reads: The answer the judge reads in the request for any question (as shown,
            ``'a-b'``); empty: its reply names no answer.
    """

    questions: list[list[str]] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=lambda: ["ASCII input only"])
    modules: list[Module] = field(default_factory=lambda: [SLUGIFY])
    code: dict[str, str] = field(default_factory=lambda: {"slugify": GOOD})
    spec_code: dict[str, str] = field(default_factory=dict)
    alt_code: dict[str, str] = field(default_factory=dict)
    samples: dict[str, list[str]] = field(default_factory=dict)
    repairs: dict[str, list[str]] = field(default_factory=dict)
    hinted: dict[str, tuple[str, str]] = field(default_factory=dict)
    code_when: dict[str, tuple[str, str]] = field(default_factory=dict)
    tests: dict[str, str] = field(default_factory=lambda: {"slugify": TESTS})
    inputs: dict[str, str] = field(
        default_factory=lambda: {"slugify": 'slugify("")\nslugify("A  b")\nslugify("x-")'}
    )
    reads: str = ""
    whole: dict[str, str] | None = None
    """The files of the one call answering the whole request (``None``: every module's
    greedy code)."""

    def answer_whole(self, messages: list[Message]) -> str:
        files = self.whole
        if files is None:
            files = {f"{m.name}.py": self.code[m.name] for m in self.modules if m.name in self.code}
        return "\n".join(fenced(path, code) for path, code in files.items())

    def judge(self, messages: list[Message]) -> str:
        for line in _user(messages).splitlines():
            if self.reads and line[1:3] == ") " and line[3:] == self.reads:
                return line[0]
        return "unclear"

    def clarify(self, messages: list[Message]) -> Clarification:
        found = re.search(r"question round (\d+)", _user(messages))
        n = int(found.group(1)) if found else 1
        questions = self.questions[n - 1] if n <= len(self.questions) else []
        return Clarification(
            reply="A slug maker, nice.",
            ready=not questions,
            questions=questions,
            assumptions=self.assumptions,
        )

    def write(self, messages: list[Message], settings: ChatSettings) -> str:
        name = _module(messages)
        when = self.code_when.get(name)
        if when and when[0] in _user(messages):
            return fenced(f"{name}.py", when[1])
        if "Write exactly what the user asks" in _system(messages):  # from the request
            seed = settings.seed or 0
            samples = self.samples.get(name, [])
            code = samples[min(seed, len(samples)) - 1] if seed and samples else self.code[name]
            return fenced(f"{name}.py", code)
        spec = self.spec_code.get(name, self.code[name])
        alt = "Approach:" in _user(messages)
        return fenced(f"{name}.py", self.alt_code.get(name, spec) if alt else spec)

    def repair(self, messages: list[Message]) -> str:
        name, user = _module(messages), _user(messages)
        hint = self.hinted.get(name)
        if hint and hint[0] in user:
            return fenced(f"{name}.py", hint[1], "followed the hint")
        # the history lists the initial code and every earlier repair
        parts = user.split("Earlier attempts that did not work:\n", 1)
        block = parts[1].split("\n\n", 1)[0] if len(parts) > 1 else ""
        n = sum(1 for line in block.splitlines() if line.startswith("- "))
        codes = self.repairs.get(name, [GOOD])
        return fenced(f"{name}.py", codes[min(n, len(codes) - 1)], f"repair {n + 1}")

    def model(self) -> FakeModel:
        return FakeModel(rules=self.rules())

    def rules(self) -> list[tuple[Callable[[list[Message]], bool], Any]]:
        def starts(prefix: str) -> Callable[[list[Message]], bool]:
            return lambda messages: prefix in _system(messages)

        rules: list[tuple[Callable[[list[Message]], bool], Any]] = [
            (starts("Build the project the user describes"), self.answer_whole),
            (starts("You are a requirements analyst"), self.clarify),
            (starts("You turn a programming request"), lambda m: self._spec(m)),
            (
                starts("You split a specification"),
                {"modules": [m.model_dump() for m in self.modules]},
            ),
            (starts("You plan how to implement"), {"steps": ["write it", "test edge cases"]}),
            (
                starts("You write python tests"),
                lambda m: fenced(f"test_{_module(m)}.py", self.tests[_module(m)]),
            ),
            (
                starts("You are a tester"),
                lambda m: f"```python\n{self.inputs.get(_module(m), '')}\n```",
            ),
            (starts("You are an expert python programmer"), Sampled(self.write)),
            (starts("You fix python code"), self.repair),
            (starts("You read requests"), self.judge),
            (starts("You write short documentation"), {"summary": "Makes slugs.", "items": []}),
        ]
        return rules

    def _spec(self, messages: list[Message]) -> Spec:
        # one interface per proposed module: the planner asks for modules only then
        interfaces = [m.public_interface for m in self.modules] or SPEC.interfaces
        return SPEC.model_copy(update={"assumptions": [], "interfaces": interfaces})


@dataclass
class ScriptedHuman:
    """Answers interrupts from lists; records what it was shown."""

    clarify_answers: list[ClarifyAnswer] = field(default_factory=list)
    selection: Callable[[ModulesRequest], ModuleSelection] | None = None
    escalations: list[EscalationDecision] = field(default_factory=list)
    answers: list[QuestionAnswer] = field(default_factory=list)
    """Answers to the proof's questions, in order (none left: the default)."""
    shown: list[Any] = field(default_factory=list)

    def clarify(self, request: ClarifyRequest) -> ClarifyAnswer:
        """The next scripted answer; without one, proceed on the stated assumptions."""
        self.shown.append(request)
        return self.clarify_answers.pop(0) if self.clarify_answers else ClarifyAnswer(proceed=True)

    def select_modules(self, request: ModulesRequest) -> ModuleSelection:
        self.shown.append(request)
        if self.selection is None:
            return ModuleSelection(modules=request.modules)
        return self.selection(request)

    def escalate(self, report: FailureReport) -> EscalationDecision:
        self.shown.append(report)
        return self.escalations.pop(0)

    def answer(self, request: QuestionRequest) -> QuestionAnswer:
        self.shown.append(request)
        if self.answers:
            return self.answers.pop(0)
        return QuestionAnswer.model_validate(request.default)


BUGGY = 'def slugify(text):\n    return "-".join(text.lower().split())\n'
GOOD_TOO = (
    "import re\n\n\ndef slugify(text):\n"
    '    return "-".join(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)\n'
)
WEAK = """from slugify import slugify


def test_words():
    assert slugify("Hello World") == "hello-world"


def test_lower():
    assert slugify("ABC") == "abc"


def test_strip():
    assert slugify("  a  ") == "a"
"""


def disagreeing() -> World:
    """Drafts that disagree: the greedy draft joins words with hyphens, passes the weak
    designed tests, yet gives ``a---b`` for ``a - b``; the drafts written from the spec and
    sampled from the request replace runs of other characters, as the request says."""
    return World(
        code={"slugify": BUGGY},
        spec_code={"slugify": GOOD},
        samples={"slugify": [GOOD_TOO]},
        tests={"slugify": WEAK},
        inputs={"slugify": 'slugify("a - b")\nslugify("x,y")'},
    )
