"""A worked example told in words decides between drafts: its grounded test counts as the
user's example, so a draft that fails it is not chosen over one that meets it, whatever
the designed tests say; an ungrounded transcription counts for nothing."""

from __future__ import annotations

from codeproof.core.errors import ContextLengthError
from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.drafting import worked_tests
from codeproof.engine.loop import build, prepare
from codeproof.llm.base import ChatModel, Message
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

LAST = (
    "class Tally:\n    def add(self, n):\n        self.t = n\n\n"
    "    def total(self):\n        return self.t\n"
)
SUM = (
    "class Tally:\n    def __init__(self):\n        self.t = 0\n\n"
    "    def add(self, n):\n        self.t += n\n\n    def total(self):\n        return self.t\n"
)
DESIGNED = (  # a wrong designed test: it holds the last number, not the sum
    "from tally import Tally\n\n\ndef test_total():\n"
    "    t = Tally()\n    t.add(1)\n    t.add(3)\n    assert t.total() == 3\n"
)
WORKED = (
    "from tally import Tally\n\n\ndef test_worked():\n"
    "    t = Tally()\n    t.add(2)\n    t.add(5)\n    assert t.total() == {total}\n"
)
MODULE = Module(
    name="tally",
    purpose="Sums numbers.",
    language="python",
    public_interface="class Tally: add(n), total()",
)
SPEC = Spec(title="Tally", summary="Sums the numbers added.", language="python")
RULES = "Write tally.py with a class Tally: add(n) adds a number, total() gives the sum."
EXAMPLE = "Example: after add(2) and add(5), total() is 7."


def _too_long(messages: list[Message]) -> str:
    raise ContextLengthError("does not fit", provider="fake")


def _fenced(path: str, code: str) -> str:
    return f"File: {path}\n```python\n{code}```\n"


def _context(words: str, worked_total: int) -> tuple[Context, FakeModel]:
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                _fenced("test_tally.py", DESIGNED),
            ),
            (
                lambda m: "You turn the user's worked examples" in said(m),
                _fenced("test_tally_worked_examples.py", WORKED.format(total=worked_total)),
            ),
            (lambda m: True, _too_long),  # plan, inputs, programmer: no more than the drafts
        ]
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return {"tally.py": LAST if index == 0 else SUM}  # greedy keeps the last number

    example = [EXAMPLE] if EXAMPLE in words else []
    ctx = Context(
        spec=SPEC,
        module=MODULE,
        words=words,
        worked=example,
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(max_drafts=3, probe_inputs=0, proof=False),
    )
    return ctx, model


def test_the_worked_example_decides_against_the_designed_test() -> None:
    ctx, model = _context(f"{RULES}\n\n{EXAMPLE}", worked_total=7)
    work = build(ctx)
    assert work.files == {"tally.py": SUM}
    assert "test_tally_worked_examples.py" in work.tests
    assert any(c.messages[0].content.startswith("You turn") for c in model.calls)


def test_without_the_example_the_designed_test_decides() -> None:
    ctx, model = _context(RULES, worked_total=7)
    work = build(ctx)
    assert work.files == {"tally.py": LAST}
    assert not any(c.messages[0].content.startswith("You turn") for c in model.calls)


def test_a_transcription_with_a_value_of_its_own_is_dropped() -> None:
    ctx, _ = _context(f"{RULES}\n\n{EXAMPLE}", worked_total=8)  # 8 is not in the example
    assert worked_tests(ctx, prepare(ctx)) == {}
    ctx, _ = _context(f"{RULES}\n\n{EXAMPLE}", worked_total=7)
    assert list(worked_tests(ctx, prepare(ctx))) == ["test_tally_worked_examples.py"]


# -- a worked example of a module that uses another one ---------------------------------

STORE = Module(
    name="store",
    purpose="Holds stock.",
    language="python",
    public_interface="class Inventory\nInventory.add(sku, qty)\nInventory.items() -> list",
)
STORE_PY = (
    "class Inventory:\n    def __init__(self):\n        self.stock = {}\n\n"
    "    def add(self, sku, qty):\n        self.stock[sku] = self.stock.get(sku, 0) + qty\n\n"
    "    def items(self):\n        return sorted(self.stock.items())\n"
)
REPORT = Module(
    name="report",
    purpose="Lists the stock.",
    language="python",
    public_interface="report.lines(inventory: Inventory) -> str",
)
UNSORTED = "def lines(inventory):\n    return ' '.join(s for s, q in inventory.stock.items())\n"
SORTED = "def lines(inventory):\n    return ' '.join(s for s, q in inventory.items())\n"
READ_AS_A_METHOD = (  # what the transcriber wrote: the class from report, lines() a method
    "from report import Inventory\n\n\ndef test_worked():\n    inv = Inventory()\n"
    "    inv.add('b', 1)\n    inv.add('a', 2)\n    assert inv.lines() == 'a b'\n"
)
STOCK_EXAMPLE = "For example, after inv.add('b', 1) and inv.add('a', 2), lines(inv) is 'a b'."


def test_a_transcription_the_interface_rules_out_is_fitted_and_then_decides() -> None:
    model = FakeModel(
        rules=[
            (lambda m: "You write python tests" in said(m), _fenced("test_report.py", "")),
            (
                lambda m: "You turn the user's worked examples" in said(m),
                _fenced("test_report_worked_examples.py", READ_AS_A_METHOD),
            ),
            (lambda m: True, _too_long),
        ]
    )
    ctx = Context(
        spec=Spec(title="Stock", summary="Stock and its report.", language="python"),
        module=REPORT,
        words=f"store.py and report.py.\n\n{STOCK_EXAMPLE}",
        worked=[STOCK_EXAMPLE],
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=lambda m, index, greedy: {"report.py": UNSORTED if index == 0 else SORTED},
        options=EngineOptions(max_drafts=3, probe_inputs=0, proof=False),
        dependencies=[STORE],
        dependency_files={"store.py": STORE_PY},
    )
    test = worked_tests(ctx, prepare(ctx))["test_report_worked_examples.py"]
    assert "from store import Inventory" in test and "lines(inv) == 'a b'" in test
    assert build(ctx).files == {"report.py": SORTED}
