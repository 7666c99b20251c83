"""Ctrl-C stops a command now, not when the model's replies in flight end.

Python delivers SIGINT to the main thread only. A reply decoded in a worker thread (the
test designer beside the programmer, the eval's jobs) keeps that thread, and with it the
process, busy for as long as the reply takes: 45 s and more on a small CPU. The handler
here also tells the model, which stops its requests in flight at their next token.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from codeproof.llm.provider import BaseChatModel


@contextmanager
def ctrl_c_stops(*models: BaseChatModel | None) -> Iterator[None]:
    """While inside, Ctrl-C interrupts ``models`` and then raises ``KeyboardInterrupt``
    as usual. Does nothing off the main thread or where SIGINT is ignored (a background
    job started without job control ignores it, and must keep doing so)."""
    chosen = [m for m in models if m is not None]
    installable = threading.current_thread() is threading.main_thread()
    if not installable or signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield
        return

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        for model in chosen:
            model.interrupt()
        if not any(model.decoding_here for model in chosen):  # else it raises at its next token
            signal.default_int_handler(signum, frame)

    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
