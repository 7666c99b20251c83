"""A handler for :class:`codeproof.toolchains.memory.MemoryToolchain` that runs the
*scripted, trusted* Python of orchestration tests in this process (never model output).

``run_tests`` imports the source files as modules and calls every ``test_*`` function of
the test files, naming results as pytest's JUnit report does (``test_mod.test_fn``);
``run`` (a probe program) runs the script with this interpreter in a temporary directory.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import traceback
import types
from pathlib import Path, PurePosixPath

from codeproof.core.types import Module, ProgramRun, Spec, TestCase, TestReport
from codeproof.engine.context import Context, EngineOptions
from codeproof.languages.python.toolchain import CONVENTIONS
from codeproof.llm.fake import FakeModel
from codeproof.toolchains.memory import MemoryToolchain, ToolRequest

_LOCK = threading.Lock()


def _message(exc: BaseException) -> str:
    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return detail or type(exc).__name__


def _load(sources: dict[str, str]) -> dict[str, types.ModuleType]:
    """The source files as modules (a module that fails to load raises)."""
    modules: dict[str, types.ModuleType] = {}
    for path, code in sources.items():
        name = PurePosixPath(path).stem
        module = types.ModuleType(name)
        modules[name] = module
        sys.modules[name] = module
        exec(compile(code, path, "exec"), module.__dict__)
    return modules


def _run_file(path: str, code: str) -> list[TestCase]:
    stem = PurePosixPath(path).stem
    namespace: dict[str, object] = {"__name__": stem}
    try:
        exec(compile(code, path, "exec"), namespace)
    except BaseException as exc:  # a collection error: the file's tests do not run
        return [TestCase(name=stem, outcome="error", message=_message(exc))]
    cases = []
    for name, value in list(namespace.items()):
        if name.startswith("test") and callable(value):
            try:
                value()
            except BaseException as exc:
                cases.append(
                    TestCase(name=f"{stem}.{name}", outcome="failed", message=_message(exc))
                )
            else:
                cases.append(TestCase(name=f"{stem}.{name}", outcome="passed"))
    return cases


def run_tests(files: dict[str, str], tests: dict[str, str]) -> TestReport:
    """Every ``test_*`` function of ``tests`` against ``files``, in this process."""
    with _LOCK:
        before = dict(sys.modules)
        try:
            try:
                _load(files)
            except BaseException as exc:  # the code does not load: every file errors
                cases = [
                    TestCase(name=PurePosixPath(p).stem, outcome="error", message=_message(exc))
                    for p in tests
                ]
            else:
                cases = [case for path, code in tests.items() for case in _run_file(path, code)]
        finally:
            for name in set(sys.modules) - set(before):
                del sys.modules[name]
            sys.modules.update(before)
    passed = sum(c.outcome == "passed" for c in cases)
    failed = sum(c.outcome == "failed" for c in cases)
    errors = sum(c.outcome == "error" for c in cases)
    return TestReport(total=len(cases), passed=passed, failed=failed, errors=errors, tests=cases)


def run_program(files: dict[str, str], args: list[str], timeout_s: float | None) -> ProgramRun:
    """``python3 <args>`` in a temporary directory holding ``files``."""
    with tempfile.TemporaryDirectory() as tmp:
        for path, code in files.items():
            target = Path(tmp, path)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(code)
        done = subprocess.run(
            [sys.executable, *args],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=timeout_s or 30,
            check=False,
        )
    return ProgramRun(exit_code=done.returncode, stdout=done.stdout, stderr=done.stderr)


def python_handler(request: ToolRequest) -> TestReport | ProgramRun:
    """Answers the memory toolchain's requests by running trusted Python here."""
    if request.tool == "run_tests":
        return run_tests(request.files, request.tests)
    return run_program(request.files, request.args, request.timeout_s)


def memory_python_toolchain() -> MemoryToolchain:
    """A Python toolchain double with the real conventions text."""
    return MemoryToolchain(python_handler, language="python", conventions=CONVENTIONS)


def python_context(name: str, interface: str) -> Context:
    """An engine context of one Python module on :func:`memory_python_toolchain`, with a
    scripted model that answers nothing (for steps that make no model call)."""
    return Context(
        spec=Spec(title=name, summary="", language="python"),
        module=Module(name=name, purpose="", language="python", public_interface=interface),
        words="",
        toolchain=memory_python_toolchain(),
        model_for=lambda scope: FakeModel(),
        direct=lambda m, i, greedy: {},
        options=EngineOptions(),
    )
