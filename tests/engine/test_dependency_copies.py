"""A draft that copies a dependency's class is held to the real one: the designed tests
then exercise what the user gets, so a draft relying on its copy's attributes fails them
and one that uses the dependency as built is chosen."""

from __future__ import annotations

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.drafting import fitted
from codeproof.engine.loop import build
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

STORE = Module(
    name="store",
    purpose="Holds stock.",
    language="python",
    public_interface="class Inventory\nInventory.add(sku, qty)",
)
STORE_PY = (
    "class Inventory:\n    def __init__(self):\n        self.stock = {}\n\n"
    "    def add(self, sku, qty):\n        self.stock[sku] = self.stock.get(sku, 0) + qty\n"
)
REPORT = Module(
    name="report",
    purpose="Counts the skus.",
    language="python",
    public_interface="report.count(inventory: Inventory) -> int",
)
COPY = (  # its own Inventory, with another attribute name
    "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n"
    "    def add(self, sku, qty):\n        self.items[sku] = qty\n\n\n"
    "def count(inventory):\n    return len(inventory.items)\n"
)
REAL = "def count(inventory):\n    return len(inventory.stock)\n"
TESTS = (  # the designer's imports: the real class, then the module under test
    "from store import Inventory\nfrom report import *  # noqa: F403\n\n\n"
    "def test_count():\n    inv = Inventory()\n    inv.add('a', 1)\n    inv.add('b', 2)\n"
    "    assert count(inv) == 2\n"
)
DESIGNED = f"File: test_report.py\n```python\n{TESTS}```\n"


def test_a_draft_copying_its_dependency_is_held_to_the_real_one() -> None:
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                f"File: test_report.py\n```python\n{TESTS}```\n",
            ),
            (lambda m: True, "no"),
        ]
    )
    ctx = Context(
        spec=Spec(title="Stock", summary="Stock and its count.", language="python"),
        module=REPORT,
        words="store.py and report.py: count(inventory) counts the skus.",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=lambda m, index, greedy: {"report.py": COPY if index == 0 else REAL},
        options=EngineOptions(max_drafts=3, probe_inputs=0, proof=False),
        dependencies=[STORE],
        dependency_files={"store.py": STORE_PY},
    )
    work = build(ctx)
    assert work.files == {"report.py": REAL}
    assert work.drafts[0].files["report.py"].startswith("from store import Inventory\n")


def test_a_name_the_module_declares_is_never_taken_from_a_dependency() -> None:
    # an own request: reading.py states describe(); the chosen temperature.py defined a
    # describe of its own, and reading.py's became "from temperature import describe"
    temperature = Module(
        name="temperature",
        purpose="Converts.",
        language="python",
        public_interface="to_fahrenheit(c: float) -> float",
    )
    reading = Module(
        name="reading",
        purpose="Describes a reading.",
        language="python",
        public_interface="describe(c: float) -> str",
    )
    deps = {
        "temperature.py": "def to_fahrenheit(c):\n    return c * 9 / 5 + 32\n\n\n"
        "def describe(c):\n    return str(c)\n"
    }
    own = (
        "from temperature import to_fahrenheit\n\n\n"
        "def describe(c):\n    return f'{c} C ({to_fahrenheit(c)} F)'\n\n\n"
        "def to_fahrenheit_copy(c):\n    return c\n"
    )
    ctx = Context(
        spec=Spec(title="Temperatures", summary="Converts and describes.", language="python"),
        module=reading,
        words="temperature.py converts; reading.py has describe(c).",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: FakeModel(),
        direct=lambda m, index, greedy: {},
        options=EngineOptions(max_drafts=1, probe_inputs=0, proof=False),
        dependencies=[temperature],
        dependency_files=deps,
    )
    assert fitted(ctx, {"reading.py": own}) == {"reading.py": own}
    copied = own.replace("def to_fahrenheit_copy", "def to_fahrenheit")
    assert fitted(ctx, {"reading.py": copied})["reading.py"].count("def ") == 1
