"""Ctrl-C stops the model now: requests in flight end at their next token and raise
``KeyboardInterrupt``, later requests are refused, and nothing partial is cached."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from codeproof.commands.interrupt import ctrl_c_stops
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.cache import ResponseCache
from codeproof.llm.fake import FakeModel
from codeproof.llm.local import LocalChatModel

LONG = [Message(role="user", content="Write 300 numbered lines, each a new sentence about cats.")]
"""A reply that takes minutes on the 0.5B model (it is stopped long before)."""
LONG_SETTINGS = ChatSettings(temperature=0.0, max_tokens=3000)


def test_an_interrupted_model_refuses_new_requests_and_caches_nothing(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / "cache.sqlite3")
    fake = FakeModel(["first", "second"], cache=cache)
    assert fake.chat(LONG).text == "first"
    fake.interrupt()
    assert fake.interrupted
    with pytest.raises(KeyboardInterrupt):
        fake.chat([Message(role="user", content="another question")])
    assert len(fake.calls) == 1
    assert fake.chat(LONG).text == "first"  # what was answered before is still a hit


def test_ctrl_c_stops_leaves_an_ignored_sigint_ignored() -> None:
    fake = FakeModel([])
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with ctrl_c_stops(fake):
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_ctrl_c_stops_restores_the_handler_it_replaced() -> None:
    before = signal.getsignal(signal.SIGINT)
    with ctrl_c_stops(FakeModel([])):
        assert signal.getsignal(signal.SIGINT) is not before
    assert signal.getsignal(signal.SIGINT) is before


@pytest.mark.real_model
def test_a_reply_decoding_in_another_thread_stops_when_interrupted(
    small_local_model: LocalChatModel, small_model_path: Path, allow_model: None
) -> None:
    """The thread of the test designer (or an eval job) would otherwise decode to the end
    while the interrupted process waits for it."""
    model = LocalChatModel(  # the same loaded engine (the pool shares it), its own state
        model=small_local_model.model,
        resolve=lambda _: small_model_path,
        ctx_size=small_local_model.ctx_size,
        slots=small_local_model.slots,
    )
    outcome: list[BaseException | str] = []

    def call() -> None:
        try:
            outcome.append(model.chat(LONG, LONG_SETTINGS).text)
        except BaseException as exc:  # the outcome under test
            outcome.append(exc)

    worker = threading.Thread(target=call)
    worker.start()
    threading.Timer(1.0, model.interrupt).start()
    worker.join(timeout=120)
    model.close()
    assert not worker.is_alive()
    assert len(outcome) == 1 and isinstance(outcome[0], KeyboardInterrupt), outcome
    assert model.stats.snapshot().calls == 0  # no response recorded for the cut reply


CHILD = """
import json, os, signal, sys, threading
from pathlib import Path
from codeproof.commands.interrupt import ctrl_c_stops
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.local import LocalChatModel

path = Path(sys.argv[1])
model = LocalChatModel(model="small", resolve=lambda _: path, ctx_size=4096, slots=1)
model.start()
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
messages = [Message(role="user", content=sys.argv[2])]
try:
    with ctrl_c_stops(model):
        reply = model.chat(messages, ChatSettings(temperature=0.0, max_tokens=3000))
    print(json.dumps({"outcome": "returned", "tokens": reply.usage.completion_tokens}))
except KeyboardInterrupt:
    print(json.dumps({"outcome": "KeyboardInterrupt"}))
"""


@pytest.mark.real_model
def test_ctrl_c_while_the_main_thread_decodes_raises_at_once(small_model_path: Path) -> None:
    """Without the handler the signal lands in the decoder's callback, which ignores it
    ("Exception ignored in callback_wrapper_dict") and decodes to the end."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(small_model_path), LONG[0].content],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    last = done.stdout.strip().splitlines()[-1]
    assert json.loads(last) == {"outcome": "KeyboardInterrupt"}
    assert "Exception ignored" not in done.stderr


def _blocked_signals(tid: int) -> set[int]:
    """The signals thread ``tid`` of this process blocks (from /proc)."""
    status = Path(f"/proc/self/task/{tid}/status").read_text()
    mask = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("SigBlk:")), 16)
    return {n for n in range(1, 65) if mask >> (n - 1) & 1}


@pytest.mark.real_model
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads thread masks in /proc")
def test_the_llama_threads_never_receive_a_ctrl_c(small_model_path: Path) -> None:
    """Delivered to a thread of the starting server, a Ctrl-C hung the start for good
    (the CLI waited on it until killed): its threads block the stop signals, and the
    thread that loaded it blocks nothing new."""
    from codeproof.llm.llama_pool import POOL, EngineParams

    before = {int(t) for t in os.listdir("/proc/self/task")}
    mine = threading.get_native_id()
    blocked_before = _blocked_signals(mine)
    params = EngineParams(  # parameters no other test loads: a fresh server
        path=str(small_model_path), ctx_size=1536, slots=1, threads=1, speculative="none"
    )
    POOL.acquire(params)
    try:
        started = {int(t) for t in os.listdir("/proc/self/task")} - before
        assert started, "the server started no thread"
        for tid in started:
            assert {signal.SIGINT, signal.SIGTERM} <= _blocked_signals(tid), tid
        assert _blocked_signals(mine) == blocked_before
    finally:
        POOL.release(params)
