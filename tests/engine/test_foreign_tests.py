"""A module's designed tests that test only another module's names are dropped."""

from __future__ import annotations

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.loop import prepare, start
from codeproof.languages.syntax import parse
from codeproof.llm.base import ChatModel
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

DESIGNED = """from temperature import to_fahrenheit
from reading import describe


def test_to_fahrenheit():
    assert to_fahrenheit(32) == 0.0


def test_describe():
    assert describe(0) == "0.0 C (32.0 F)"


def test_kelvin():
    assert kelvin(0) == 273.15
"""


def _module(name: str, interface: str, deps: list[str] | None = None) -> Module:
    return Module(
        name=name,
        purpose="p",
        language="python",
        public_interface=interface,
        depends_on=deps or [],
    )


def test_the_engine_drops_designed_tests_of_a_dependency_or_another_module() -> None:
    """Session 40's own request: reading's designed tests restated temperature's with
    wrong values, and failed every draft of reading."""
    spec = Spec(title="T", summary="Temperatures.", language="python")
    reading = _module("reading", "describe(celsius)", ["temperature"])
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                f"File: test_reading.py\n```python\n{DESIGNED}```\n",
            )
        ]
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        code = "from temperature import to_fahrenheit\n\n\ndef describe(celsius):\n"
        return {"reading.py": code + "    return f'{celsius:.1f} C'\n"}

    ctx = Context(
        spec=spec,
        module=reading,
        words="describe(celsius) returns '0.0 C (32.0 F)' for 0",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(),
        dependencies=[_module("temperature", "to_fahrenheit(celsius)")],
        others=[_module("kelvins", "kelvin(celsius)")],
    )
    work = start(ctx, prepare(ctx))

    [source] = work.designed.values()
    assert [case.name for case in parse("python", source).tests()] == ["test_describe"]
    assert work.test_changes == [
        "dropped 2 designed test(s) of other modules: test_to_fahrenheit, test_kelvin"
    ]


def test_a_module_built_before_another_does_not_import_its_names() -> None:
    """temperature's tests imported and tested ``describe``, which ``reading`` (built
    after it) declares: the import failed the whole file on every draft."""
    spec = Spec(title="T", summary="Temperatures.", language="python")
    designed = (
        "from temperature import to_fahrenheit, describe\n\n\n"
        "def test_to_fahrenheit():\n    assert to_fahrenheit(0) == 32.0\n\n\n"
        "def test_describe():\n    assert describe(0) == '0.0 C (32.0 F)'\n"
    )
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                f"File: test_temperature.py\n```python\n{designed}```\n",
            )
        ]
    )

    def direct(m: ChatModel, index: int, greedy: bool) -> dict[str, str]:
        return {"temperature.py": "def to_fahrenheit(c):\n    return round(c * 9 / 5 + 32, 1)\n"}

    ctx = Context(
        spec=spec,
        module=_module("temperature", "to_fahrenheit(celsius)"),
        words="to_fahrenheit(celsius) rounds to one decimal",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=direct,
        options=EngineOptions(),
        others=[_module("reading", "describe(celsius)", ["temperature"])],
    )
    work = start(ctx, prepare(ctx))

    [source] = work.designed.values()
    assert source.splitlines()[0] == "from temperature import to_fahrenheit"
    assert [case.name for case in parse("python", source).tests()] == ["test_to_fahrenheit"]
