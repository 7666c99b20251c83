"""The proof step of the engine, on the in-memory Python toolchain with a scripted model.

A slug maker whose greedy draft passes weak tests yet turns ``a - b`` into ``a---b``:
the proof draws more drafts, asks (by default) where they disagree, goes back to the
choice when the answer is not what the chosen code returns, measures the mutation
score, adds checks that kill survivors, and grades the proof.
"""

from __future__ import annotations

from codeproof.core.proof import ProofQuestion
from codeproof.core.types import Module, Spec
from codeproof.engine.answering import after_proof, answer
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.executing import execute
from codeproof.engine.loop import build, prepare, settle, start
from codeproof.engine.proving import prove, status_of
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

BUGGY = 'def slugify(text):\n    return "-".join(text.lower().split())\n'
GOOD = (
    "import re\n\n\ndef slugify(text):\n"
    '    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")\n'
)
GOOD_TOO = (  # another reading that agrees with GOOD (a distinct draft)
    "import re\n\n\ndef slugify(text):\n"
    '    return "-".join(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)\n'
)
WEAK_TESTS = """from slugify import slugify


def test_words():
    assert slugify("Hello World") == "hello-world"


def test_lower():
    assert slugify("ABC") == "abc"


def test_again():
    assert slugify("Hello World") == "hello-world"
"""
INPUTS = 'slugify("a - b")\nslugify("x,y")\nslugify("")\nslugify("--a--")'
SPEC = Spec(
    title="Slugify",
    summary="Runs of non-alphanumeric characters become one hyphen.",
    language="python",
    interfaces=["slugify(text: str) -> str"],
)
MODULE = Module(
    name="slugify", purpose="Make slugs.", language="python", public_interface="slugify(text)"
)


def _judge(reads: str):  # type: ignore[no-untyped-def]
    """A judge rule naming the letter of the answer ``reads`` (B when it is not offered)."""

    def reply(messages: list[object]) -> str:
        for line in said(messages).splitlines():  # type: ignore[arg-type]
            if line[1:3] == ") " and line[3:] == reads:
                return line[0]
        return "B"

    return (lambda m: "You read requests" in said(m), reply)


def _model(spec_code: str = GOOD) -> FakeModel:
    def system(prefix: str):  # type: ignore[no-untyped-def]
        return lambda m: prefix in said(m)

    fenced = "File: {path}\n```python\n{code}```\n"
    return FakeModel(
        rules=[
            _judge("'a-b'"),  # the request's words: runs become one hyphen
            (
                system("You write python tests"),
                fenced.format(path="test_slugify.py", code=WEAK_TESTS),
            ),
            (system("You are a tester"), f"```python\n{INPUTS}\n```"),
            (system("You plan how"), {"steps": ["Replace runs, strip hyphens."]}),
            (system("You are an expert python"), fenced.format(path="slugify.py", code=spec_code)),
        ]
    )


def _context(model: FakeModel, later: str = GOOD_TOO, **options: object) -> Context:
    """The greedy draft is ``BUGGY``; every later completion of the request is ``later``."""

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return {"slugify.py": BUGGY if index == 0 else later}

    return Context(
        spec=SPEC,
        module=MODULE,
        words="slugify(text): runs of non-alphanumeric characters become one hyphen",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(max_drafts=5, probe_inputs=4, **options),  # type: ignore[arg-type]
    )


def test_the_default_answer_sends_weak_green_code_back_to_the_choice() -> None:
    ctx = _context(_model())
    work = build(ctx)

    assert work.files in ({"slugify.py": GOOD}, {"slugify.py": GOOD_TOO})  # not the greedy one
    proof = work.proof
    assert proof is not None
    first = proof.questions[0]
    assert first.call == "slugify('a - b')" and first.by == "default" and first.assumed
    assert [(c.value, c.drafts, c.chosen) for c in first.choices] == [
        ("'a-b'", 2, False),
        ("'a---b'", 1, True),
    ]
    assert first.default == first.answer == "'a-b'"
    assert (
        "slugify('a - b') -> 'a-b'" in work.examples
        and work.answers[0] == work.examples[-len(work.answers)]
    )
    # the answers are example tests now, never set aside
    assert "slugify('a - b') == 'a-b'" in work.tests["test_slugify_examples.py"]
    assert work.report is not None and work.report.green
    mutation = proof.mutation
    assert mutation is not None and mutation.tested >= 3 and mutation.score is not None
    assert proof.drafts == 2 and proof.distinct_checks >= 3  # the greedy draft misses answers
    assert proof.drawn == len({tuple(sorted(d.files.items())) for d in work.drafts}) >= 2
    # green on an answer nobody gave: weak, and the report says which answer to check
    assert status_of(work) == "weak"
    assert any("slugify('a - b') -> 'a-b'" in w for w in proof.weaknesses)


def _chosen(question: ProofQuestion) -> str:
    return next(c.value for c in question.choices if c.chosen)


def test_human_answers_the_chosen_code_gives_keep_it_and_prove_again() -> None:
    ctx = _context(_model(spec_code=BUGGY))  # the spec draft repeats the greedy one
    work = start(ctx, prepare(ctx))
    work = prove(ctx, settle(execute(ctx, work), "finish"))
    assert [q.call for q in work.pending] == ["slugify('a - b')"]  # one per split of drafts

    rounds = 0
    while True:
        while work.pending:
            work = answer(ctx, work, _chosen(work.pending[0]), "human")
        step = after_proof(work)
        if step != "prove":
            break
        assert work.reprove and work.files == {"slugify.py": BUGGY}
        work, rounds = prove(ctx, work), rounds + 1

    assert step == "finish" and work.files == {"slugify.py": BUGGY} and rounds >= 1
    assert work.proof is not None and 1 <= len(work.proof.questions) <= 3
    assert all(q.by == "human" and not q.assumed for q in work.proof.questions)
    assert work.answers[0] == "slugify('a - b') -> 'a---b'"
    assert "slugify('a - b') == 'a---b'" in work.tests["test_slugify_examples.py"]


def test_a_typed_answer_is_read_as_a_literal_or_else_as_a_string() -> None:
    ctx = _context(_model())
    work = start(ctx, prepare(ctx))
    work = prove(ctx, settle(execute(ctx, work), "finish"))
    question = work.pending[0]

    typed = answer(ctx, work, "a_b", "human")  # not a Python literal: a string

    assert typed.examples[-1] == f'{question.call} -> "a_b"'
    assert typed.files is None and after_proof(typed) in ("ask", "execute")


def test_without_the_proof_the_status_says_so() -> None:
    ctx = _context(_model(), proof=False)
    work = build(ctx)
    assert work.proof is not None and work.proof.strength == "unmeasured"
    assert work.proof.weaknesses == [
        "the proof is turned off",
        "0 distinct check(s) in the kept tests (at least 3 needed)",
    ]
    assert status_of(work) == "weak"


def test_no_check_of_the_proof_sits_at_a_stated_example_s_input() -> None:
    # py-durations: every draft raised ValueError for parse_duration("1h30m"), which the
    # request states is 5400, and the proof added that error as a check "by agreement"
    also_buggy = 'def slugify(text):\n    return "-".join(text.lower().split(" "))\n'
    stated = 'slugify("a - b") -> "a-b"'

    chosen = (  # its mutant '"---"' -> '""' gives "ab" for "a - b", and passes WEAK_TESTS
        'def slugify(text):\n    text = text.lower().replace(" - ", "---")\n'
        '    return "-".join(text.split())\n'
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return {"slugify.py": chosen if index == 0 else also_buggy}

    model = _model(spec_code=chosen)
    ctx = Context(
        spec=SPEC,
        module=MODULE,
        words=f"slugify(text): runs of non-alphanumeric characters become one hyphen: {stated}",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        examples=[stated],
        options=EngineOptions(max_drafts=5, probe_inputs=4, questions=0),
    )
    work = build(ctx)
    assert work.proof is not None and work.proof.mutation is not None
    assert work.report is not None and not work.report.green  # no draft meets the example
    assert work.files == {"slugify.py": chosen} and work.proof.mutation.tested
    assert all("a - b" not in check.call for check in work.proof.added)


def test_the_request_s_reading_outvotes_drafts_sharing_a_misreading() -> None:
    also_buggy = 'def slugify(text):\n    return "-".join(text.lower().split(" "))\n'

    def run(read: bool) -> tuple[object, list[ProofQuestion]]:
        work = build(_context(_model(spec_code=GOOD), later=also_buggy, read_defaults=read))
        assert work.proof is not None
        return work.files, work.proof.questions

    files, asked = run(read=True)
    first = asked[0]
    assert first.call == "slugify('a - b')" and first.read and first.assumed
    assert first.choices[0].value == "'a---b'" and first.choices[0].drafts == 2  # the majority
    assert first.default == first.answer == "'a-b'"
    assert files == {"slugify.py": GOOD}

    files, asked = run(read=False)  # the majority decides without the reading
    assert asked[0].answer == "'a---b'" and not asked[0].read
    assert files != {"slugify.py": GOOD}
