"""Decoding loops are seen in the reply's end; programs and tests that repeat a shape
on purpose are not (every prefix of the project's own sources is read as a reply)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.local import LocalChatModel
from codeproof.llm.loops import (
    COUNT_BLOCKS,
    COUNT_LONG_CHARS,
    COUNT_LONG_LINES,
    LoopWatch,
    counting,
    loop_start,
    looping,
)

ROOT = Path(__file__).resolve().parents[2]

COUNTING = "".join(
    f"        assertEquals(LocalDate.of(2024, 3, {4 + i}), "
    f"calendar.addBusinessDays(LocalDate.of(2024, 3, 1), {i + 1}));\n"
    for i in range(24)
)
TWO_LINES = "".join(
    f"        sheet.log(LocalDate.now(), {30 - i});\n"
    f"        assertEquals({30 - i} * 2000, sheet.grossPayCents(2000));\n"
    for i in range(24)
)
DURATIONS = "".join(  # a 1.5B test design of py-durations at f935ba3: 63 lines of this
    f"    assert format_duration({n}) == '1h {(n - 3600) // 60}m"
    + (f" {n % 10}s'" if n % 10 else "'")
    + "\n"
    for n in range(3660, 3723)
)
"""The expected values change shape every tenth line: no piece repeats, the calls count."""
WORDS = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
)
GRID = "GRID = [\n" + "".join(f"    [{i}, 3, 0, 0, 7, 0, 0, 0, {i}],\n" for i in range(9)) + "]\n"
MONTHS = "".join(f"    {{{m}, {d}}},\n" for m, d in enumerate([31, 28, 31, 30] * 3, 1))
NUMBERED_TESTS = "".join(
    f"    @Test\n    void adds{i}() {{\n"
    f"        assertEquals({i + 1}, Adder.add({i}, 1));\n    }}\n\n"
    for i in range(COUNT_BLOCKS - 1)
)
NAMES_COUNT = "".join(  # only the test's name counts (period doubled: two places count)
    f"def test_find_zero_sign_changes_{i}():\n    assert find_zero([1, -1, 0, 1]) == 0\n\n"
    for i in range(COUNT_BLOCKS + 5)
)
GROWING_LIST = "".join(  # a 1.5B spec's examples, 2,048 tokens of this
    '    "new BusinessCalendar(Set.of('
    + ", ".join(f"LocalDate.of(2024, 3, {d})" for d in range(1, n + 1))
    + ')) -> true",\n'
    for n in range(1, 14)
)
GROWING_TABLE = "".join(  # a test's inputs growing row by row, within reason
    f"    assert total([{', '.join(str(i) for i in range(1, n + 1))}]) == {n * (n + 1) // 2}\n"
    for n in range(1, 7)
)
SAME_TEST = (  # the inventory report's test design at 7781283, 1,536 tokens of this
    "def test_to_csv_remove_one_sku_with_zero_quantity_and_zero_stock():\n"
    "    inventory = Inventory()\n    inventory.add('A-1', 1, 10)\n"
    "    inventory.remove('A-1', 1)\n"
    "    assert to_csv(inventory) == 'sku,quantity,unit_price,value\\nB-2,2,1.50,3.00'\n\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "    order = {'apple': 1" + "0" * 300,
        "x = 1\n" + "    assert f(1) == 2\n" * 20,
        "def f():\n" + "        return g(x)" * 30,
        COUNTING,
        TWO_LINES,
        "import x\n\n" + SAME_TEST * 4,
        GROWING_LIST,
        DURATIONS,
        "".join(f"assert f({n}, 'x') == {n * n}\n" for n in range(100, 40, -3)),
    ],
    ids=[
        "zeros",
        "one-line",
        "no-newline",
        "counting-line",
        "counting-block",
        "same-test",
        "growing-list",
        "counting-calls",
        "counting-down",
    ],
)
def test_a_loop_is_seen(text: str) -> None:
    assert looping(text)


@pytest.mark.parametrize(
    "text",
    [
        GRID,
        MONTHS,
        NUMBERED_TESTS,
        NAMES_COUNT,
        "x" * 200,
        "# " + "-" * 78 + "\n",
        COUNTING[:1500],
        "import x\n\n" + SAME_TEST * 3,
        GROWING_TABLE,
        GROWING_LIST[: GROWING_LIST.index("7))")],
        "".join(DURATIONS.splitlines(keepends=True)[:29]),
        "".join(f"        case {n}: return '{w}';\n" for n, w in enumerate(WORDS.split(), 1)),
        "".join(f"assert f({n * n}) == '{'ab'[n % 2] * (n % 5)}'\n" for n in range(1, 26)),
    ],
    ids=[
        "grid",
        "months",
        "numbered-tests",
        "names-count",
        "short-run",
        "rule",
        "counting-under-20",
        "3-same",
        "growing-table",
        "growing-6-lines",
        "counting-29-lines",
        "twenty-cases",
        "not-one-step",
    ],
)
def test_a_repeated_shape_within_reason_is_not_a_loop(text: str) -> None:
    assert not looping(text)


@pytest.mark.slow  # every line end of ~370 files: 45 s on 2 cores
def test_no_prefix_of_the_projects_sources_is_a_loop() -> None:
    files = sorted((ROOT / "src" / "codeproof").rglob("*.py"))
    files += sorted((ROOT / "benchmarks" / "requests").rglob("*.*"))
    checked = 0
    for path in files:
        if path.suffix not in (".py", ".js", ".java", ".md", ".json"):
            continue
        text = path.read_text(encoding="utf-8")
        ends = [i + 1 for i, c in enumerate(text) if c == "\n"]
        flagged = [end for end in ends if looping(text[:end])]
        line = text[: flagged[0]].count("\n") if flagged else 0
        assert not flagged, f"{path.relative_to(ROOT)}: a loop seen at line {line}"
        checked += 1
    assert checked > 250


def test_the_watch_stops_at_the_loop_and_stays_stopped() -> None:
    watch = LoopWatch()
    pieces = ["def f():\n", "    return 1", *(["0"] * 400)]
    stopped_at = next(i for i, piece in enumerate(pieces) if watch.add(piece))
    assert 250 < stopped_at < 270  # the loop is plain after 256 repeats of "0"
    assert watch.add("anything") and watch.looped


def test_the_watch_sees_a_growing_list_when_a_line_ends() -> None:
    watch = LoopWatch()
    pieces = [GROWING_LIST[i : i + 3] for i in range(0, len(GROWING_LIST), 3)]
    stopped_at = next(i for i, piece in enumerate(pieces) if watch.add(piece))
    seen = "".join(pieces[: stopped_at + 1])
    assert seen.count("\n") == 7  # the seventh line grows by the piece a sixth time
    assert "LocalDate.of(2024, 3, 8)" not in seen


TEST_TABLE = "".join(  # a Java test design of the eval runs: one more element per row
    f"        assertEquals(List.of({', '.join(str(i * i) for i in range(n))}), tri({n}));\n"
    for n in range(1, 13)
)


def test_growing_lines_are_a_loop_in_a_structured_reply_only() -> None:
    code, structured = LoopWatch(growth=False), LoopWatch()
    assert not any([code.add(line + "\n") for line in TEST_TABLE.splitlines()])
    assert any([structured.add(line + "\n") for line in TEST_TABLE.splitlines()])


AND = "('and', 1)"
WORD_FREQ = "".join(  # a 1.5B test design of py-word-freq at 086b212: 19 lines, 141 s
    f"    assert word_frequencies('the cat and the hat', top={n}) == "
    f"[('the', 2), {', '.join([AND] * (n + 8))}]\n"
    for n in range(1, 20)
)


def test_long_counting_lines_are_a_loop_sooner_in_any_reply() -> None:
    lines = WORD_FREQ.splitlines(keepends=True)
    code = LoopWatch(growth=False)
    stopped = next(i for i, line in enumerate(lines, 1) if code.add(line))
    assert COUNT_LONG_LINES <= stopped < len(lines)
    assert len("".join(lines[:stopped])) >= COUNT_LONG_CHARS
    assert not counting("".join(lines[: COUNT_LONG_LINES - 1]))  # too few lines
    short = "".join(f"    assert f({n}) == {n * n}\n" for n in range(1, 25))
    assert not counting(short)  # as many lines, short ones: thirty are needed


WRAP_HEAD = (  # a 1.5B test design of wrap.js at 8248f1c: R10 to R26, cut at 1,536 tokens
    "const { wrapText } = require('./wrap');\n\n"
    "test('R1: wrapText(\"the quick brown fox\", 10) returns two lines', () => {\n"
    "  assert.deepStrictEqual(wrapText('the quick brown fox', 10), ['the quick', 'brown fox']);\n"
    "});\n\n"
)
WRAP_COUNTING = "".join(
    f"test('R{n}: wrapText(\"the quick brown fox\", {90 + n}) is one line', () => {{\n"
    f"  assert.deepStrictEqual(wrapText('the quick brown fox', {90 + n}), "
    "['the quick brown fox']);\n});\n"
    for n in range(10, 27)
)


def test_counting_blocks_of_lines_are_a_loop_in_any_reply() -> None:
    lines = (WRAP_HEAD + WRAP_COUNTING).splitlines(keepends=True)
    code = LoopWatch(growth=False)
    stopped = next(i for i, line in enumerate(lines, 1) if code.add(line))
    seen = "".join(lines[:stopped])
    assert f"R{10 + COUNT_BLOCKS - 1}:" in seen and f"R{10 + COUNT_BLOCKS}:" not in seen
    assert loop_start(seen) == len(WRAP_HEAD)  # the loop is the run of counting blocks
    fewer = WRAP_HEAD + "".join(WRAP_COUNTING.splitlines(keepends=True)[: 3 * (COUNT_BLOCKS - 1)])
    assert not looping(fewer)


def _chunk(text: str, n: int) -> dict[str, Any]:
    timings = {"cache_n": 4, "prompt_n": 10, "predicted_n": n}
    return {"choices": [{"delta": {"content": text}, "finish_reason": None}], "timings": timings}


class StreamingServer:
    """llama.cpp's ``handle_chat_completions`` as the local provider calls it."""

    def __init__(self, chunks: list[dict[str, Any]]) -> None:
        self.chunks = chunks
        self.sent = 0
        self.bodies: list[dict[str, Any]] = []

    def handle_chat_completions(self, body: dict[str, Any], callback: Any = None) -> None:
        self.bodies.append(body)
        for chunk in self.chunks:
            self.sent += 1
            if callback(chunk):
                return


def _local(monkeypatch: pytest.MonkeyPatch, server: StreamingServer) -> LocalChatModel:
    monkeypatch.setattr(LocalChatModel, "start", lambda self: None)
    monkeypatch.setattr(LocalChatModel, "server", property(lambda self: server))
    return LocalChatModel(model="m", resolve=lambda spec: ROOT / "m.gguf")


ASK = [Message(role="user", content="Write the tests.")]


def test_the_local_provider_stops_a_looping_reply(
    monkeypatch: pytest.MonkeyPatch, allow_model: None
) -> None:
    chunks = [_chunk("assert f(1" if i == 0 else "0", i + 1) for i in range(1000)]
    server = StreamingServer(chunks)
    reply = _local(monkeypatch, server).chat(ASK, ChatSettings(max_tokens=1000))
    assert server.sent < 300  # stopped, not decoded to the limit
    assert server.bodies[0]["stream"] and server.bodies[0]["timings_per_token"]
    assert reply.text.startswith("assert f(1000") and len(reply.text) == server.sent + 9
    assert reply.finish_reason == "length"
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (14, server.sent)
    assert reply.usage.cached_prompt_tokens == 4


def test_the_local_provider_returns_a_normal_reply_whole(
    monkeypatch: pytest.MonkeyPatch, allow_model: None
) -> None:
    last = {
        "choices": [{"delta": {}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 14, "completion_tokens": 3},
    }
    server = StreamingServer([_chunk("def ", 1), _chunk("f(): ", 2), _chunk("pass", 3), last])
    reply = _local(monkeypatch, server).chat(ASK, ChatSettings(max_tokens=100))
    assert (reply.text, reply.finish_reason) == ("def f(): pass", "stop")
    assert (reply.usage.prompt_tokens, reply.usage.completion_tokens) == (14, 3)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("def f():\n    return 1" + "0" * 300, len("def f():\n    return 1")),
        ("x = 1\n" + GROWING_LIST, len("x = 1\n")),
        ("import x\n" + COUNTING, len("import x\n")),
        ("import x\n\n" + SAME_TEST * 4, len("import x\n\n")),
        ("def test_f():\n" + DURATIONS, len("def test_f():\n")),
    ],
    ids=["zeros", "growing-list", "counting-line", "same-test", "counting-calls"],
)
def test_the_loop_starts_where_its_repetition_does(text: str, start: int) -> None:
    found = loop_start(text)
    assert found is not None
    # the loop may take in the line end before it, or leave out its first copies
    assert start - 2 <= found <= start + 200
    assert loop_start(text[:found]) is None


def test_a_reply_in_no_loop_has_no_loop_start() -> None:
    assert loop_start(GRID) is None and loop_start(NUMBERED_TESTS) is None


class Examples(BaseModel):
    title: str
    examples: list[str] = []


def test_the_local_provider_watches_growing_lines_in_structured_replies_only(
    monkeypatch: pytest.MonkeyPatch, allow_model: None
) -> None:
    table = [_chunk(line + "\n", i + 1) for i, line in enumerate(TEST_TABLE.splitlines())]
    code = StreamingServer(table)
    _local(monkeypatch, code).chat(ASK, ChatSettings(max_tokens=1000))
    assert code.sent == len(table)  # a test table is code, not a loop

    head = '{"title": "tri", "examples": [\n  "tri(0) -> []",\n'
    lines = [f'  "tri({n}) -> [{", ".join(["1"] * n)}]",\n' for n in range(1, 30)]
    spec = StreamingServer([_chunk(text, i + 1) for i, text in enumerate([head, *lines])])
    kept = _local(monkeypatch, spec).generate(ASK, Examples, ChatSettings(max_tokens=1000))
    assert spec.sent < 12 and len(spec.bodies) == 1  # stopped in the loop, not asked again
    assert kept == Examples(title="tri", examples=["tri(0) -> []"])
