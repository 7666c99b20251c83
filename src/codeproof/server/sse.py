"""Server-sent events from the stream event log.

Each event goes out as ``id: <n>``, ``event: <mode>``, ``data: <json>``; a reader starts
after the ``Last-Event-ID`` it was given, reads what is stored, then waits to be woken
(a comment line every 15 s keeps proxies from closing an idle stream). The stream
closes after the run's ``end`` or ``error`` event.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Collection

import anyio

from codeproof.server.events import TERMINAL, EventLog, StreamEvent

KEEPALIVE_S = 15.0
ALWAYS = frozenset({"metadata", "end", "error"})


def last_event_id(header: str | None) -> int:
    """The number in a ``Last-Event-ID`` header (0 when absent or not ours)."""
    if header and header.strip().isdigit():
        return int(header.strip())
    return 0


def frame(event: StreamEvent) -> bytes:
    data = json.dumps(event.data, separators=(",", ":"), default=str)
    return f"id: {event.seq}\nevent: {event.event}\ndata: {data}\n\n".encode()


async def follow(
    log: EventLog, run_id: str, after: int = 0, keepalive_s: float = KEEPALIVE_S
) -> AsyncIterator[StreamEvent | None]:
    """Every event of ``run_id`` after ``after`` until a terminal one; ``None`` when idle
    for ``keepalive_s``."""
    last = after
    while True:
        waiter = log.notifier.waiter(run_id)  # before reading: no wake-up is missed
        try:
            batch = await anyio.to_thread.run_sync(log.read, run_id, last)
            for event in batch:
                last = event.seq
                yield event
                if event.event in TERMINAL:
                    return
            if batch:
                continue
            try:
                await asyncio.wait_for(waiter.wait(), keepalive_s)
            except TimeoutError:
                yield None
        finally:
            log.notifier.drop(run_id, waiter)


async def sse_body(
    log: EventLog,
    run_id: str,
    modes: Collection[str],
    after: int,
    on_close: Callable[[bool], None] | None = None,
) -> AsyncIterator[bytes]:
    """The SSE body of a run's stream, only the requested modes (ids keep their gaps).

    ``on_close(finished)`` is called when the body ends or the client goes away.
    """
    finished = False
    try:
        async for event in follow(log, run_id, after):
            if event is None:
                yield b": keep-alive\n\n"
            elif event.event in modes or event.event in ALWAYS:
                yield frame(event)
            if event is not None and event.event in TERMINAL:
                finished = True
    finally:
        if on_close is not None:
            on_close(finished)


async def wait_end(log: EventLog, run_id: str) -> StreamEvent:
    """The run's terminal event, once it is there."""
    async for event in follow(log, run_id):
        if event is not None and event.event in TERMINAL:
            return event
    raise RuntimeError("unreachable: follow() ends only after a terminal event")
