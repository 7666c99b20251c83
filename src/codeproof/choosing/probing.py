"""Compare candidates by what they *return*, not by what the tests expect (MBR-exec).

A small model's tests often expect wrong values, but the inputs they call the code with
are usually fine. Every call of the module's public functions with literal arguments in
the designed tests (and the generated example tests) becomes a probe; each candidate is
run on every probe in the sandbox, and a candidate scores one point for each probe on
which another candidate returns the same value (or raises the same exception type).
The candidate agreeing most with the others is the consensus reading of the task.

Python and JavaScript run a probe script; Java compiles a probe class
(:mod:`codeproof.languages.java.probe`). A language without a prober gives no outputs, and
the choice then rests on the tests alone (:mod:`codeproof.choosing.selection`).
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from codeproof.choosing.examples import interface_names
from codeproof.core.types import Module, ProgramRun
from codeproof.languages.java.probe import (
    PROBE_CLASS,
    example_met,
    java_calls,
    java_example_checks,
    java_program,
    uncompiled_calls,
)
from codeproof.languages.layout import layout_for
from codeproof.languages.tidy import JS_STRING, balanced_span

logger = logging.getLogger(__name__)

MAX_PROBES = 40
"""Probes per module (the first ones found, in test-file order)."""

PROBE_TIMEOUT_S = 30.0
"""Fixed budget of one candidate's probe run (start-up, compilation), besides
:data:`CALL_TIMEOUT_S` per call."""

CALL_TIMEOUT_S = 2.0
"""Each call is cut after this long (it then outputs ``!TimeoutError``); the run's budget
grows by as much per call, so that a correct but slow candidate on a few huge inputs is
not cut off as a whole (which would leave it without outputs)."""

MIN_SHARE = 0.5
"""A consensus output is returned by more than this share of the probed candidates."""

MARK = "@@codeproof-probe@@ "

RunProgram = Callable[[dict[str, str], list[str], float], ProgramRun]
"""``(files, command args, timeout) -> report``: one program run in the sandbox."""

Outputs = list[str] | None
"""One canonical output per probe, or ``None`` when the candidate could not be probed."""

_PY_SCRIPT = """\
import contextlib, io, json, signal, sys
sys.path.insert(0, ".")
CALLS = {calls}
def _canon(v):
    if isinstance(v, float):
        return float(f"{{v:.9g}}")
    if isinstance(v, (list, tuple)):
        return type(v)(_canon(x) for x in v)
    if isinstance(v, dict):
        return {{_canon(k): _canon(x) for k, x in v.items()}}
    return v
def _alarm(*_):
    raise TimeoutError
signal.signal(signal.SIGALRM, _alarm)
try:
    with contextlib.redirect_stdout(io.StringIO()):
        import {module} as _m
    ns = dict(vars(_m))
except BaseException as e:
    ns = None
    err = "!import " + type(e).__name__
for call in CALLS:
    if ns is None:
        out = err
    else:
        signal.alarm({limit_s})
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                out = repr(_canon(eval(call, dict(ns))))
        except BaseException as e:
            out = "!" + type(e).__name__
        finally:
            signal.alarm(0)
    sys.__stdout__.write({mark!r} + json.dumps(out[:400]) + "\\n")
"""

_JS_SCRIPT = """\
const vm = require('vm');
const CALLS = {calls};
const log = console.log;
let m, err = null;
console.log = () => {{}};
try {{ m = require('./{module}'); }} catch (e) {{ err = '!import ' + (e && e.name); }}
const names = typeof m === 'function' ? {{ [m.name]: m }} : m && typeof m === 'object' ? m : {{}};
globalThis.__codeproofNames = names;
const params = '{{' + Object.keys(names).join(', ') + '}}';
for (const call of CALLS) {{
  let out;
  if (err) out = err;
  else {{
    try {{
      // in this realm (arrays stay Arrays), cut after {limit_ms} ms like the other probes
      const code = '((' + params + ') => (' + call + '))(globalThis.__codeproofNames)';
      const v = vm.runInThisContext(code, {{ timeout: {limit_ms} }});
      out = v === undefined ? 'undefined' : JSON.stringify(v);
    }} catch (e) {{
      out = e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT' ? '!TimeoutError' : '!' + (e && e.name);
    }}
  }}
  log({mark!r} + JSON.stringify(String(out).slice(0, 400)));
}}
"""


def _literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def python_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls of ``names`` with literal arguments found in Python test sources."""
    found: list[str] = []
    for source in tests.values():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if isinstance(func, ast.Name):
                name = func.id
            elif isinstance(func, ast.Attribute):
                name = func.attr
            else:
                continue
            if name not in names or any(k.arg is None for k in node.keywords):
                continue
            if all(_literal(a) for a in [*node.args, *(k.value for k in node.keywords)]):
                call = ast.Call(func=ast.Name(id=name), args=node.args, keywords=node.keywords)
                found.append(ast.unparse(call))
    return list(dict.fromkeys(found))[:MAX_PROBES]


_JS_LITERAL_WORDS = frozenset({"true", "false", "null", "undefined", "NaN", "Infinity"})
_JS_KEY = re.compile(r"[A-Za-z_$][\w$]*\s*:")


def javascript_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls of ``names`` whose arguments are literals (no identifiers) in JS tests."""
    found: list[str] = []
    for source in tests.values():
        for name in names:
            for match in re.finditer(rf"(?<![\w.$]){re.escape(name)}\s*\(", source):
                args = balanced_span(source, match.end() - 1)
                if args is None:
                    continue
                bare = _JS_KEY.sub("", JS_STRING.sub("''", args))  # object keys are not names
                words = set(re.findall(r"[A-Za-z_$][\w$]*", bare))
                if words <= _JS_LITERAL_WORDS:
                    found.append(f"{name}{args}")
    return list(dict.fromkeys(found))[:MAX_PROBES]


@dataclass(frozen=True)
class _Prober:
    calls: Callable[[Mapping[str, str], Collection[str]], list[str]]
    program: Callable[[Sequence[str], str], str]
    """``(calls, module source stem) -> probe program source``."""
    path: str
    command: tuple[str, ...] = ()
    """The run's arguments (default: the probe file itself)."""
    uncompiled: Callable[[str, Sequence[str]], set[int]] | None = None
    """``(compiler output, calls) -> indices of the calls that did not compile``."""


def _template(template: str) -> Callable[[Sequence[str], str], str]:
    def render(calls: Sequence[str], stem: str) -> str:
        return template.format(
            calls=json.dumps(list(calls)),
            module=stem,
            mark=MARK,
            limit_s=int(CALL_TIMEOUT_S),
            limit_ms=int(CALL_TIMEOUT_S * 1000),
        )

    return render


PROBERS: dict[str, _Prober] = {
    "python": _Prober(python_calls, _template(_PY_SCRIPT), "_codeproof_probe.py"),
    "javascript": _Prober(javascript_calls, _template(_JS_SCRIPT), "_codeproof_probe.js"),
    "java": _Prober(
        java_calls,
        lambda calls, stem: java_program(calls, stem, MARK),
        f"{PROBE_CLASS}.java",
        (PROBE_CLASS,),
        uncompiled_calls,
    ),
}


def probe_calls(module: Module, tests: Mapping[str, str]) -> list[str]:
    """The probes of ``module`` found in ``tests`` (empty for languages without a prober)."""
    prober = PROBERS.get(module.language)
    return prober.calls(tests, interface_names(module)) if prober else []


def probe(run: RunProgram, module: Module, files: dict[str, str], calls: Sequence[str]) -> Outputs:
    """Run one candidate on every probe; ``None`` if it could not be run or read.

    In a compiled language, calls that do not compile against the candidate (a literal of
    another type than its signature's) are dropped, their output ``!CompileError``, and
    the rest run again once.
    """
    prober = PROBERS.get(module.language)
    if prober is None or not calls or not files:
        return None
    stem = layout_for(module.language).source_path(module.name).rsplit(".", 1)[0]
    outputs, report = _probe_run(run, prober, files, calls, stem)
    if outputs is None and prober.uncompiled is not None:
        bad = prober.uncompiled(report.stderr + report.stdout, calls)
        kept = [call for i, call in enumerate(calls) if i not in bad]
        if bad and kept:
            some, report = _probe_run(run, prober, files, kept, stem)
            if some is not None:
                got = iter(some)
                return ["!CompileError" if i in bad else next(got) for i in range(len(calls))]
    if outputs is None:
        logger.info("probe: no outputs (exit %s)", report.exit_code)
    return outputs


def _probe_run(
    run: RunProgram, prober: _Prober, files: dict[str, str], calls: Sequence[str], stem: str
) -> tuple[Outputs, ProgramRun]:
    program = prober.program(calls, stem)
    command = list(prober.command or (prober.path,))
    budget = PROBE_TIMEOUT_S + CALL_TIMEOUT_S * len(calls)
    report = run({**files, prober.path: program}, command, budget)
    outputs = [
        json.loads(line[len(MARK) :])
        for line in report.stdout.splitlines()
        if line.startswith(MARK)
    ]
    if len(outputs) != len(calls):
        return None, report
    return [str(o) for o in outputs], report


@dataclass(frozen=True)
class _ExampleReader:
    checks: Callable[[Sequence[str], Collection[str]], list[tuple[str, object]]]
    """``(examples, interface names) -> [(probe call, expected value)]``."""
    met: Callable[[object, str], bool]
    """``(expected value, probe output) -> whether the example is met``."""


EXAMPLE_READERS: dict[str, _ExampleReader] = {
    "java": _ExampleReader(java_example_checks, example_met),
}
"""Languages whose stated examples are checked through probes (Python's and JavaScript's
become generated test files instead, :mod:`codeproof.choosing.examples`)."""


def example_checks(module: Module, examples: Sequence[str]) -> list[tuple[str, object]]:
    """The examples checked by probing: ``(probe call, expected value)``."""
    reader = EXAMPLE_READERS.get(module.language)
    return reader.checks(examples, interface_names(module)) if reader else []


def examples_met(
    module: Module,
    outputs: Outputs,
    calls: Sequence[str],
    checks: Sequence[tuple[str, object]],
) -> int:
    """How many ``checks`` a candidate's probe ``outputs`` (on ``calls``) meet."""
    reader = EXAMPLE_READERS.get(module.language)
    if reader is None or outputs is None:
        return 0
    return sum(
        call in calls and reader.met(expected, outputs[calls.index(call)])
        for call, expected in checks
    )


def agreement(outputs: Sequence[Outputs]) -> list[int]:
    """Per candidate: probes on which each other candidate returns the same output."""
    scores = []
    for i, mine in enumerate(outputs):
        score = 0
        if mine is not None:
            for j, theirs in enumerate(outputs):
                if j != i and theirs is not None:
                    score += sum(a == b for a, b in zip(mine, theirs, strict=True))
        scores.append(score)
    return scores
