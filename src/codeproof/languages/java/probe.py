"""Java's part of choosing by outputs: probes found in JUnit tests, the probe program,
and Java literals read as the values the probe prints.

A probe is a call of the module's interface with literal arguments (numbers, strings,
characters, ``Arrays.asList``/``List.of``, arrays...). The probe program calls each on a
fresh instance of the module's class (``new Half().half(3)``; a static method is reached
through the instance too) and prints the result as JSON, so that outputs compare across
candidates and against the tests' expected literals (:func:`java_value`). A call on an
instance built with literal constructor arguments (``new Account(100).deposit(5)``)
keeps its constructor: a class without a no-argument constructor is probed too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence

from codeproof.languages.syntax import Call, Node, parse, parse_expression
from codeproof.languages.values import Raised, raised_error, split_example

MAX_CALLS = 40
PROBE_CLASS = "CodeproofProbe"
BROKEN = frozenset(
    {"CompileError", "NoSuchMethodError", "NoSuchFieldError", "NoClassDefFoundError"}
)
"""Outputs of code that is broken whatever the input: a call that does not compile
against it (``!CompileError``, :func:`codeproof.choosing.probing.probe`), a method or
class missing at run time."""


def _constant_call(call: Call) -> bool:
    return all(arg.constant() for arg in call.args)


def literal_arguments(args: str) -> bool:
    """Whether a Java argument list (with its parentheses) is made of constants only (no
    variable, no lambda); an argument written ``[1, 2]`` or ``(1, 2)`` (a docstring's
    list or tuple, not Java) is not."""
    node = parse_expression("java", f"f{args}")
    call = node.as_call() if node is not None else None
    return call is not None and _constant_call(call)


def _constructed(receiver: Node | None) -> str | None:
    """``new C(args).`` as a probe prefix; empty for no receiver or a no-argument
    constructor (the probe program makes a fresh instance anyway); ``None`` for a
    constructor with non-constant arguments."""
    if receiver is None or receiver.kind != "object_creation_expression":
        return ""
    kind, args = receiver.field("type"), receiver.field("arguments")
    if kind is None or args is None or receiver.field("body") is not None:
        return None
    if not args.named_children:
        return ""
    if not all(arg.constant() for arg in args.named_children):
        return None
    return f"new {kind.text}{args.text}."


def java_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls ``name(args)`` of ``names`` with constant arguments in Java test sources
    (``new C(args).name(args)`` on an instance built with constant arguments)."""
    found: list[str] = []
    for source in tests.values():
        for call in parse("java", source).calls(names):
            if _constant_call(call):
                prefix = _constructed(call.receiver) or ""
                found.append(f"{prefix}{call.name}{call.arguments.text}")
    return list(dict.fromkeys(found))[:MAX_CALLS]


def _named(receiver: Node) -> bool:
    """``s``, ``this``, ``Solution``, ``a.b``: a receiver that only names an object."""
    if receiver.kind in ("identifier", "this"):
        return True
    owner = receiver.field("object")
    return receiver.kind == "field_access" and owner is not None and _named(owner)


def call_key(expression: str) -> str | None:
    """The probe key ``name(args)`` of ``s.name(args)``, ``new C().name(args)`` or
    ``C.name(args)``, and ``new C(args).name(args)`` when the constructor takes constant
    arguments (as :func:`java_calls` finds it); ``None`` for anything else."""
    node = parse_expression("java", expression)
    call = node.as_call() if node is not None else None
    if call is None:
        return None
    key = f"{call.name}{call.arguments.text}"
    if call.receiver is None or _named(call.receiver):
        return key
    if call.receiver.kind != "object_creation_expression":
        return None
    prefix = _constructed(call.receiver)
    return None if prefix is None else prefix + key


CANON = """\
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\\\') b.append('\\\\').append(c);
            else if (c < 0x20) b.append(String.format("\\\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String canon(Object v) {
        if (v == null) return "null";
        if (v instanceof CharSequence || v instanceof Character) return quote(v.toString());
        if (v instanceof Boolean) return v.toString();
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return quote(Double.toString(d));
            return new BigDecimal(d).round(new MathContext(9)).stripTrailingZeros().toString();
        }
        if (v instanceof Number) return v.toString();
        if (v instanceof Optional) {
            Optional<?> o = (Optional<?>) v;
            return "{\\"Optional\\":" + (o.isPresent() ? canon(o.get()) : "null") + "}";
        }
        List<String> items = new ArrayList<>();
        if (v.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(v); i++) items.add(canon(Array.get(v, i)));
        } else if (v instanceof Iterable) {
            for (Object x : (Iterable<?>) v) items.add(canon(x));
            if (v instanceof Set) Collections.sort(items);
        } else if (v instanceof Map) {
            TreeMap<String, String> entries = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                Object k = e.getKey();
                entries.put(k instanceof String ? (String) k : canon(k), canon(e.getValue()));
            }
            for (Map.Entry<String, String> e : entries.entrySet())
                items.add(quote(e.getKey()) + ":" + e.getValue());
            return "{" + String.join(",", items) + "}";
        } else {
            return quote(v.toString());
        }
        return "[" + String.join(",", items) + "]";
    }
"""
"""The probe's ``quote`` and ``canon`` methods (Java): a value as canonical JSON text (also
used by generated checks that compare a result the way the probe prints it).
"""


_PROGRAM = """\
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.*;
import java.util.concurrent.*;

public class {probe} {{
{canon}

    static List<Callable<Object>> calls() {{
        List<Callable<Object>> calls = new ArrayList<>();
{calls}
        return calls;
    }}

    public static void main(String[] args) {{
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        ExecutorService pool = Executors.newCachedThreadPool(r -> {{
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        }});
        for (Callable<Object> call : calls()) {{
            String got;
            Future<String> future = pool.submit(() -> canon(call.call()));
            try {{
                got = future.get(2, TimeUnit.SECONDS);
            }} catch (TimeoutException e) {{
                future.cancel(true);
                got = "!TimeoutError";
            }} catch (ExecutionException e) {{
                got = "!" + e.getCause().getClass().getSimpleName();
            }} catch (Throwable e) {{
                got = "!" + e.getClass().getSimpleName();
            }}
            out.println({mark} + quote(got.length() > 400 ? got.substring(0, 400) : got));
        }}
        out.flush();
        System.exit(0);
    }}
}}
"""


def java_program(calls: Sequence[str], class_name: str, mark: str) -> str:
    """The probe program: each call on a fresh ``class_name`` instance, one marked line each."""
    lines = [_call_line(class_name, call) for call in calls]
    return _PROGRAM.format(
        probe=PROBE_CLASS, calls="\n".join(lines), mark=json.dumps(mark), canon=CANON.rstrip()
    )


_PROBE_LINE = re.compile(rf"\b{PROBE_CLASS}\.java:(\d+)")


def uncompiled_calls(output: str, calls: Sequence[str]) -> set[int]:
    """Indices of the calls that javac's ``output`` reports errors on (one call per line
    of :func:`java_program`)."""
    first = java_program(calls, "X", "").splitlines().index(_call_line("X", calls[0])) + 1
    lines = {int(n) for n in _PROBE_LINE.findall(output)}
    return {i for i in range(len(calls)) if first + i in lines}


def _call_line(class_name: str, call: str) -> str:
    target = call if call.startswith("new ") else f"new {class_name}().{call}"
    return f"        calls.add(() -> (Object) ({target}));"


_OPTIONAL = frozenset({"of", "ofNullable", "empty"})


def _optional(node: Node) -> tuple[bool, object]:
    """``Optional.of(x)``/``Optional.empty()`` as the probe prints it."""
    call = node.as_call()
    if call is None or call.receiver is None or call.receiver.text != "Optional":
        return False, None
    if call.name not in _OPTIONAL or len(call.args) > 1:
        return False, None
    ok, value = call.args[0].value() if call.args else (True, None)
    return (True, {"Optional": value}) if ok else (False, None)


def java_value(text: str) -> tuple[bool, object]:
    """A Java literal expression as the value the probe program prints it as.

    Numbers, strings, characters, booleans, ``null``, lists (``Arrays.asList``,
    ``List.of``, ``new ArrayList<>(...)``), arrays (``new int[]{...}``) and
    ``Optional``; ``(False, None)`` for anything else (sets and maps included).
    """
    node = parse_expression("java", text)
    if node is None:
        return False, None
    ok, value = node.value()
    return (ok, value) if ok else _optional(node)


def output_value(output: str) -> tuple[bool, object]:
    """A probe's printed JSON as a Python value (``(False, None)`` for exceptions)."""
    if output.startswith("!"):
        return False, None
    try:
        return True, json.loads(output)
    except ValueError:
        return False, None


def same_value(expected: object, got: object, delta: float = 0.0) -> bool:
    """Equal values, floats compared to 9 significant digits (or within ``delta``)."""
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(
            same_value(a, b, delta) for a, b in zip(expected, got, strict=True)
        )
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(
            same_value(expected[k], got[k], delta) for k in expected
        )
    numbers = (int, float)
    if isinstance(expected, numbers) and isinstance(got, numbers):
        if isinstance(expected, bool) or isinstance(got, bool):
            return expected is got
        if abs(expected - got) <= delta:
            return True
        return float(f"{expected:.9g}") == float(f"{got:.9g}")
    return expected == got


def displayed_value(text: str) -> tuple[bool, object]:
    """A result as a Java example shows it: a literal (:func:`java_value`) or what
    ``toString`` prints (``[1, 4, 2]``, ``Optional[a]``, ``Optional.empty``)."""
    text = text.strip()
    ok, value = java_value(text)
    if ok:
        return ok, value
    if text == "Optional.empty":
        return True, {"Optional": None}
    optional = re.fullmatch(r"Optional\[(.*)\]", text, re.DOTALL)
    if optional:
        ok, inner = displayed_value(optional[1])
        return True, {"Optional": inner if ok else optional[1]}
    try:
        return True, json.loads(text)
    except ValueError:
        return False, None


def java_example_checks(
    examples: Sequence[str], names: Collection[str]
) -> list[tuple[str, object]]:
    """``(probe call, expected value)`` of the examples that call the interface with
    literal arguments (``new Solution().f(1) -> [1, 2]``) and show a readable result."""
    checks = []
    for example in examples:
        split = split_example(example)
        key = call_key(split[0]) if split else None
        if split is None or key is None or key.split("(", 1)[0] not in names:
            continue
        error = raised_error(split[1])
        ok, value = (True, Raised(error)) if error else displayed_value(split[1])
        if ok and literal_arguments(key[key.index("(") :]):
            checks.append((key, value))
    return checks


def example_met(expected: object, output: str) -> bool:
    """Whether a probe's printed output is the example's expected value.

    A present ``Optional`` meets the value it holds: docstrings show ``f(x) -> -9`` for
    a method returning ``Optional<Integer>``.
    """
    if isinstance(expected, Raised):
        return expected.met_by(output)
    ok, got = output_value(output)
    held = got.get("Optional") if isinstance(got, dict) and list(got) == ["Optional"] else None
    if held is not None and not isinstance(expected, dict):
        got = held
    return ok and same_value(expected, got)
