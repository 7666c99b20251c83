"""Run a host process with a deadline, bounded output capture and group kill."""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from codeproof.sandbox._common import BoundedBuffer

_GRACE_S = 5.0
_CHUNK = 262144
_TICK_S = 0.05


@dataclass
class ProcessOutcome:
    """What a process did."""

    exit_code: int
    stdout: BoundedBuffer
    stderr: BoundedBuffer
    timed_out: bool


def run_process(
    argv: Sequence[str],
    *,
    timeout_s: float,
    limit: int,
    stdin: bytes | None = None,
    preexec: Callable[[], None] | None = None,
    pass_fds: Sequence[int] = (),
    cwd: str | None = None,
    env: dict[str, str] | None = None,
    on_timeout: Callable[[], None] | None = None,
) -> ProcessOutcome:
    """Run ``argv`` in a new session; SIGKILL its process group at the deadline.

    Output is read incrementally; at most ``limit`` bytes per stream are kept.
    A signal death is reported as ``128 + signal`` like a shell does.
    """
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=preexec,
        pass_fds=tuple(pass_fds),
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    writer = _start_writer(proc, stdin)
    out, err = BoundedBuffer(limit), BoundedBuffer(limit)
    deadline = time.monotonic() + timeout_s
    timed_out = _pump(proc, out, err, deadline)
    if timed_out:
        _kill_group(proc)
        if on_timeout is not None:
            on_timeout()
        _pump(proc, out, err, time.monotonic() + _GRACE_S)
    try:
        code = proc.wait(timeout=_GRACE_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    if writer is not None:
        writer.join(timeout=_GRACE_S)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()
    return ProcessOutcome(128 - code if code < 0 else code, out, err, timed_out)


def _start_writer(proc: subprocess.Popen[bytes], data: bytes | None) -> threading.Thread | None:
    if data is None or proc.stdin is None:
        return None
    pipe = proc.stdin

    def write() -> None:
        with contextlib.suppress(OSError):
            pipe.write(data)
        with contextlib.suppress(OSError):
            pipe.close()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


def _pump(
    proc: subprocess.Popen[bytes], out: BoundedBuffer, err: BoundedBuffer, deadline: float
) -> bool:
    """Read both pipes until EOF on both; True when the deadline passed first.

    Once the main process has exited, its group is killed so that background
    processes holding the pipes cannot keep the run open.
    """
    group_killed = False
    with selectors.DefaultSelector() as selector:
        for stream, buffer in ((proc.stdout, out), (proc.stderr, err)):
            if stream is not None and not stream.closed:
                selector.register(stream, selectors.EVENT_READ, buffer)
        while selector.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return True
            if not group_killed and proc.poll() is not None:
                _kill_group(proc)
                group_killed = True
            for key, _ in selector.select(timeout=min(remaining, _TICK_S)):
                chunk = os.read(key.fd, _CHUNK)
                if chunk:
                    key.data.feed(chunk)
                else:
                    selector.unregister(key.fileobj)
    return False


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
