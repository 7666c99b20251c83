"""The llama.cpp servers loaded in this process (through ``xllamacpp``), shared.

Loaded servers live in a small process-wide pool keyed by (path, parameters), so every
provider object, agent and test in the process shares one copy; the last release
unloads it.
"""

from __future__ import annotations

import logging
import os
import secrets
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import xllamacpp

from codeproof.core.errors import ProviderResponseError

logger = logging.getLogger(__name__)

PROVIDER = "local"


def physical_cores() -> int:
    """Physical cores this process may run on (hyper-threads not counted)."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    cores: set[tuple[str, str]] = set()
    for cpu in cpus:
        topo = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology")
        try:
            package = (topo / "physical_package_id").read_text().strip()
            core = (topo / "core_id").read_text().strip()
        except OSError:
            return len(cpus)
        cores.add((package, core))
    return len(cores) or os.cpu_count() or 1


SPECULATIVE: dict[str, Any] = {
    "none": None,
    "ngram": xllamacpp.common_speculative_type.COMMON_SPECULATIVE_TYPE_NGRAM_SIMPLE,
}
"""Speculative decoding without a draft model: ``ngram`` proposes the tokens that followed
the last few tokens earlier in the context (code copies its signature, docstring and
names, so many proposals are accepted)."""


@dataclass(frozen=True)
class EngineParams:
    """Everything that determines one loaded llama.cpp server."""

    path: str
    ctx_size: int
    slots: int
    threads: int
    speculative: str = "none"


@dataclass(frozen=True)
class Engine:
    """One loaded server and the key guarding its loopback HTTP endpoint."""

    server: Any
    api_key: str


class _Pool:
    """Process-wide loaded servers, reference counted."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: dict[EngineParams, Engine] = {}
        self._refs: dict[EngineParams, int] = {}

    def acquire(self, params: EngineParams) -> Engine:
        """The engine for ``params``, loading it on first use."""
        with self._lock:
            if params not in self._engines:
                self._engines[params] = _load(params)
            self._refs[params] = self._refs.get(params, 0) + 1
            return self._engines[params]

    def release(self, params: EngineParams) -> None:
        """Drop one reference; the last one unloads the model."""
        with self._lock:
            refs = self._refs.get(params, 0) - 1
            if refs > 0:
                self._refs[params] = refs
            else:
                self._refs.pop(params, None)
                self._engines.pop(params, None)

    def loaded(self) -> list[EngineParams]:
        """Parameters of the engines loaded now."""
        with self._lock:
            return list(self._engines)


POOL = _Pool()


def _load(params: EngineParams) -> Engine:
    logger.info(
        "loading %s (ctx %d, %d slots, %d threads, speculative: %s)",
        params.path,
        params.ctx_size,
        params.slots,
        params.threads,
        params.speculative,
    )
    p = xllamacpp.CommonParams()
    p.model.path = params.path
    p.n_ctx = params.ctx_size
    p.n_parallel = params.slots
    p.cpuparams.n_threads = params.threads
    p.cpuparams_batch.n_threads = params.threads
    p.cache_prompt = True
    p.cont_batching = True
    kind = SPECULATIVE[params.speculative]
    if kind is not None:
        p.speculative.types = [kind]
    p.hostnames = ["127.0.0.1"]
    p.port = 0
    key = secrets.token_urlsafe(24)
    p.api_keys = [key]  # the embedded HTTP endpoint only answers holders of the key
    p.verbosity = 3 if logger.isEnabledFor(logging.DEBUG) else 1  # 1: errors only
    try:
        with _signals_kept_from_new_threads():
            server = xllamacpp.Server(p)
        return Engine(server, key)
    except (RuntimeError, ValueError) as exc:
        raise ProviderResponseError(
            f"llama.cpp could not load {params.path}: {exc}",
            provider=PROVIDER,
            hint="check that the file is a GGUF model (codeproof models pull --verify NAME)",
        ) from exc


STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals Python's handlers act on (Ctrl-C, a stop from the server's supervisor)."""


@contextmanager
def _signals_kept_from_new_threads() -> Iterator[None]:
    """Block :data:`STOP_SIGNALS` in this thread while the server starts its threads.

    A thread inherits its creator's signal mask, so llama.cpp's threads (the decoding
    loop, the HTTP listener) never receive them: delivered to one of those threads while
    the server was starting, a Ctrl-C broke a system call there and the start waited
    forever (2 of 8 tries with the 0.5B model). A signal that arrives meanwhile is
    delivered to this thread when the mask is restored, a few seconds late at worst.
    """
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
