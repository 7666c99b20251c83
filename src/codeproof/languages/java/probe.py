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

from codeproof.languages.clike import JS_STRING, balanced_span, top_level_args
from codeproof.languages.values import split_example

MAX_CALLS = 40
PROBE_CLASS = "CodeproofProbe"

_NUMBER = re.compile(
    r"(?<![\w$])(?:0[xX][0-9a-fA-F_]+[lL]?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)"
    r"(?:[eE][+-]?\d+)?[lLfFdD]?)"
)
_LITERAL_WORDS = frozenset(
    {
        "true", "false", "null", "new", "Arrays", "asList", "List", "of", "ArrayList",
        "LinkedList", "Set", "HashSet", "LinkedHashSet", "Map", "HashMap", "entry",
        "Optional", "empty", "Collections", "emptyList", "emptyMap", "emptySet",
        "singletonList", "int", "long", "double", "float", "char", "boolean", "byte",
        "short", "String", "Integer", "Long", "Double", "Float", "Character", "Boolean",
        "Object", "MAX_VALUE", "MIN_VALUE",
    }
)  # fmt: skip
_WORD = re.compile(r"[A-Za-z_$][\w$]*")


def literal_arguments(args: str) -> bool:
    """Whether a Java argument list (with its parentheses) is made of literals only.

    An argument written ``[1, 2]`` or ``(1, 2)`` (a docstring's list or tuple, not Java)
    is not.
    """
    bare = _NUMBER.sub("0", JS_STRING.sub('""', args))
    if any(arg.startswith(("[", "(")) for arg in top_level_args(f"({bare[1:-1]})")):
        return False
    return set(_WORD.findall(bare)) <= _LITERAL_WORDS and "->" not in bare


_DECLARED = re.compile(r"(?:[\w$>\]]|\bnew)\s*$")
"""What precedes a method's name in its declaration (``int f(``, ``List<T> f(``) or a
constructor call, but not a call (``.f(``, ``(f(``, ``return f(``)."""


_CONSTRUCTED = re.compile(r"\bnew\s+([\w$.]+)\s*\((?:[^()]|\([^()]*\))*\)\s*\.\s*$")
"""A receiver ``new C(args).`` right before a call (constructor arguments with one level
of nested parentheses, e.g. ``Arrays.asList(1, 2)``)."""


def _constructed(receiver: str, args: str) -> str:
    """``new C(args).`` as a probe prefix; empty for a no-argument constructor (the
    probe program makes a fresh instance anyway) or non-literal arguments."""
    match = _CONSTRUCTED.search(receiver)
    if match is None:
        return ""
    ctor = match.group(0)[match.group(0).index("(") :].rstrip().rstrip(".").rstrip()
    if not ctor[1:-1].strip() or not literal_arguments(ctor):
        return ""
    return f"new {match.group(1)}{ctor}."


def java_calls(tests: Mapping[str, str], names: Collection[str]) -> list[str]:
    """Calls ``name(args)`` of ``names`` with literal arguments in Java test sources
    (``new C(args).name(args)`` on an instance built with literal arguments)."""
    found: list[str] = []
    for source in tests.values():
        for name in names:
            for match in re.finditer(rf"(?<![\w$]){re.escape(name)}\s*\(", source):
                before = source[max(match.start() - 40, 0) : match.start()]
                if _DECLARED.search(before) and not re.search(r"\breturn\s*$", before):
                    continue
                args = balanced_span(source, match.end() - 1)
                if args is not None and literal_arguments(args):
                    receiver = source[max(match.start() - 200, 0) : match.start()]
                    found.append(f"{_constructed(receiver, args)}{name}{args}")
    return list(dict.fromkeys(found))[:MAX_CALLS]


_RECEIVER = re.compile(
    r"^\s*(?:new\s+[\w$.]+\s*\(\s*\)\s*\.|[\w$]+(?:\s*\.\s*[\w$]+)*\s*\.)?\s*"
    r"(?P<name>[A-Za-z_$][\w$]*)\s*(?=\()"
)


def call_key(expression: str) -> str | None:
    """The probe key ``name(args)`` of ``s.name(args)``, ``new C().name(args)`` or
    ``C.name(args)``, and ``new C(args).name(args)`` when the constructor takes literal
    arguments (as :func:`java_calls` finds it); ``None`` for anything else."""
    match = _RECEIVER.match(expression)
    if match is not None:
        args = balanced_span(expression, match.end())
        if args is None or expression[match.end() + len(args) :].strip():
            return None
        return f"{match['name']}{args}"
    if not re.match(r"\s*new\s+[\w$.]+\s*\(", expression):
        return None
    opening = expression.index("(")
    ctor = balanced_span(expression, opening)
    after = expression[opening + len(ctor) :] if ctor is not None else ""
    called = re.match(r"\s*\.\s*([A-Za-z_$][\w$]*)\s*(?=\()", after)
    if ctor is None or called is None:
        return None
    args = balanced_span(after, called.end())
    if args is None or after[called.end() + len(args) :].strip():
        return None
    prefix = _constructed(expression[: opening + len(ctor)] + ".", args)
    return f"{prefix}{called.group(1)}{args}" if prefix else None


_PROGRAM = """\
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.*;
import java.util.concurrent.*;

public class {probe} {{
    static String quote(String s) {{
        StringBuilder b = new StringBuilder("\\"");
        for (char c : s.toCharArray()) {{
            if (c == '"' || c == '\\\\') b.append('\\\\').append(c);
            else if (c < 0x20) b.append(String.format("\\\\u%04x", (int) c));
            else b.append(c);
        }}
        return b.append('"').toString();
    }}

    static String canon(Object v) {{
        if (v == null) return "null";
        if (v instanceof CharSequence || v instanceof Character) return quote(v.toString());
        if (v instanceof Boolean) return v.toString();
        if (v instanceof Double || v instanceof Float) {{
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return quote(Double.toString(d));
            return new BigDecimal(d).round(new MathContext(9)).stripTrailingZeros().toString();
        }}
        if (v instanceof Number) return v.toString();
        if (v instanceof Optional) {{
            Optional<?> o = (Optional<?>) v;
            return "{{\\"Optional\\":" + (o.isPresent() ? canon(o.get()) : "null") + "}}";
        }}
        List<String> items = new ArrayList<>();
        if (v.getClass().isArray()) {{
            for (int i = 0; i < Array.getLength(v); i++) items.add(canon(Array.get(v, i)));
        }} else if (v instanceof Iterable) {{
            for (Object x : (Iterable<?>) v) items.add(canon(x));
            if (v instanceof Set) Collections.sort(items);
        }} else if (v instanceof Map) {{
            TreeMap<String, String> entries = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {{
                Object k = e.getKey();
                entries.put(k instanceof String ? (String) k : canon(k), canon(e.getValue()));
            }}
            for (Map.Entry<String, String> e : entries.entrySet())
                items.add(quote(e.getKey()) + ":" + e.getValue());
            return "{{" + String.join(",", items) + "}}";
        }} else {{
            return quote(v.toString());
        }}
        return "[" + String.join(",", items) + "]";
    }}

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
    return _PROGRAM.format(probe=PROBE_CLASS, calls="\n".join(lines), mark=json.dumps(mark))


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


def _number(text: str) -> tuple[bool, object]:
    raw = text.replace("_", "")
    if re.fullmatch(r"-?0[xX][0-9a-fA-F]+[lL]?", raw):
        return True, int(raw.rstrip("lL"), 16)
    if re.fullmatch(r"-?\d+[lL]?", raw):
        return True, int(raw.rstrip("lL"))
    if re.fullmatch(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?", raw):
        return True, float(raw.rstrip("fFdD"))
    return False, None


_SEQUENCE = re.compile(
    r"^(?:Arrays\s*\.\s*asList|List\s*\.\s*of|Collections\s*\.\s*(?:emptyList|singletonList)"
    r"|new\s+(?:ArrayList|LinkedList)\s*(?:<[^()]*>)?)\s*(?=\()"
)
_ARRAY = re.compile(r"^new\s+[\w$]+\s*(?:\[\s*\])+\s*(?=\{)")
_OPTIONAL = re.compile(r"^Optional\s*\.\s*(?:of|ofNullable|empty)\s*(?=\()")


def _items(span: str) -> tuple[bool, list[object]]:
    values = []
    for arg in top_level_args(f"({span[1:-1]})") if len(span) > 2 else []:
        ok, value = java_value(arg)
        if not ok:
            return False, []
        values.append(value)
    return True, values


def java_value(text: str) -> tuple[bool, object]:
    """A Java literal expression as the value the probe program prints it as.

    Numbers, strings, characters, booleans, ``null``, lists (``Arrays.asList``,
    ``List.of``, ``new ArrayList<>(...)``), arrays (``new int[]{...}``) and
    ``Optional``; ``(False, None)`` for anything else (sets and maps included).
    """
    text = text.strip()
    if text in {"true", "false", "null"}:
        return True, {"true": True, "false": False, "null": None}[text]
    if JS_STRING.fullmatch(text):
        body = text[1:-1].replace("\\'", "'")
        try:
            return True, json.loads(f'"{body}"')
        except ValueError:
            return False, None
    ok, number = _number(re.sub(r"^-\s+", "-", text))
    if ok:
        return ok, number
    for pattern in (_SEQUENCE, _ARRAY, _OPTIONAL):
        match = pattern.match(text)
        span = balanced_span(text, match.end()) if match else None
        if match is None or span is None or text[match.end() + len(span) :].strip():
            continue
        ok, items = _items(span)
        if not ok:
            return False, None
        if pattern is _OPTIONAL:
            return len(items) <= 1, {"Optional": items[0] if items else None}
        if pattern is _SEQUENCE and text.startswith("new") and items:
            copied = items[0] if len(items) == 1 and isinstance(items[0], list) else None
            return (True, copied) if copied is not None else (False, None)
        return True, items
    return False, None


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
        ok, value = displayed_value(split[1])
        if ok and literal_arguments(key[key.index("(") :]):
            checks.append((key, value))
    return checks


def example_met(expected: object, output: str) -> bool:
    """Whether a probe's printed output is the example's expected value.

    A present ``Optional`` meets the value it holds: docstrings show ``f(x) -> -9`` for
    a method returning ``Optional<Integer>``.
    """
    ok, got = output_value(output)
    held = got.get("Optional") if isinstance(got, dict) and list(got) == ["Optional"] else None
    if held is not None and not isinstance(expected, dict):
        got = held
    return ok and same_value(expected, got)
