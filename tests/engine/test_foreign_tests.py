"""A module's designed tests that test only another module's names are dropped, and a
name only a module built apart declares is not imported."""

from __future__ import annotations

from codeproof.core.types import Module, Spec
from codeproof.engine.context import Context, EngineOptions
from codeproof.engine.loop import prepare, start
from codeproof.engine.state import Work
from codeproof.languages.syntax import parse
from codeproof.llm.fake import FakeModel, said
from inproc import memory_python_toolchain

READING_TESTS = """from temperature import to_fahrenheit
from reading import describe


def test_to_fahrenheit():
    assert to_fahrenheit(32) == 0.0


def test_describe():
    assert describe(0) == "0.0 C (32.0 F)"


def test_kelvin():
    assert kelvin(0) == 273.15
"""

TEMPERATURE_TESTS = """from temperature import to_fahrenheit, describe


def test_to_fahrenheit():
    assert to_fahrenheit(0) == 32.0


def test_describe():
    assert describe(0) == '0.0 C (32.0 F)'
"""


def _module(name: str, interface: str, deps: list[str] | None = None) -> Module:
    return Module(
        name=name, purpose="p", language="python", public_interface=interface, depends_on=deps or []
    )


def _started(module: Module, designed: str, code: str, **known: list[Module]) -> Work:
    """The work of ``module`` once its tests are designed (as ``designed``) and its
    first draft (``code``) written; ``known``: its dependencies and other modules."""
    path = f"test_{module.name}.py"
    model = FakeModel(
        rules=[
            (
                lambda m: "You write python tests" in said(m),
                f"File: {path}\n```python\n{designed}```\n",
            )
        ]
    )
    ctx = Context(
        spec=Spec(title="T", summary="Temperatures.", language="python"),
        module=module,
        words="to_fahrenheit(celsius); describe(celsius) returns '0.0 C (32.0 F)' for 0",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: model,
        direct=lambda m, index, greedy: {f"{module.name}.py": code},
        options=EngineOptions(),
        **known,
    )
    return start(ctx, prepare(ctx))


def test_the_engine_drops_designed_tests_of_a_dependency_or_another_module() -> None:
    """Session 40's own request: reading's designed tests restated temperature's with
    wrong values, and failed every draft of reading."""
    code = "from temperature import to_fahrenheit\n\n\ndef describe(celsius):\n    return ''\n"
    work = _started(
        _module("reading", "describe(celsius)", ["temperature"]),
        READING_TESTS,
        code,
        dependencies=[_module("temperature", "to_fahrenheit(celsius)")],
        others=[_module("kelvins", "kelvin(celsius)")],
    )
    [source] = work.designed.values()
    assert [case.name for case in parse("python", source).tests()] == ["test_describe"]
    assert work.test_changes == [
        "dropped 2 designed test(s) of other modules: test_to_fahrenheit, test_kelvin"
    ]


def test_a_module_built_before_another_does_not_import_its_names() -> None:
    """temperature's tests imported and tested ``describe``, which ``reading`` (built
    after it) declares: the import failed the whole file on every draft."""
    work = _started(
        _module("temperature", "to_fahrenheit(celsius)"),
        TEMPERATURE_TESTS,
        "def to_fahrenheit(c):\n    return round(c * 9 / 5 + 32, 1)\n",
        others=[_module("reading", "describe(celsius)", ["temperature"])],
    )
    [source] = work.designed.values()
    assert source.splitlines()[0] == "from temperature import to_fahrenheit"
    assert [case.name for case in parse("python", source).tests()] == ["test_to_fahrenheit"]
