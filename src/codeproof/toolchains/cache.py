"""Identical sandbox runs answered from a result cache.

A test run or a program run of the same files, with the same arguments, in the same
sandbox image and limits, by the same toolchain code, gives the same result: an
identical rerun of ``codeproof new`` (whose model calls the response cache answers)
then needs no sandbox at all, and no toolchain server is started until a call misses.

What is never cached:

* runs of a toolchain server configured in ``[toolchains.<name>]`` (codeproof cannot
  tell when its code or image changes);
* a run that timed out, or that took longer than the shortest time limit inside it
  (one test's limit, one probe call's limit): under load such a limit may be hit, and
  a rerun should not inherit that;
* errors (the server failed or did not answer): they raise, as without the cache.

The key is the sha256 of the toolchain's identity (codeproof's version and the source
of its toolchain, sandbox and language packages, the image recipe, the sandbox limits)
and the call (tool, files, tests or arguments, stdin, time limit). ``sandbox.cache =
false`` (or ``--no-cache`` in the eval commands) turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from codeproof import __version__
from codeproof.core.config import Settings
from codeproof.core.sqlite import LazyDatabase
from codeproof.core.types import ProgramRun, TestReport
from codeproof.languages import registry
from codeproof.languages.base import CALL_TIMEOUT_S
from codeproof.toolchains.api import StartedToolchain
from codeproof.toolchains.base import per_test_limit_s
from codeproof.toolchains.records import ToolCallRecord, summarize, truncate_values
from codeproof.toolchains.router import resolve

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sandbox_results (
    key TEXT PRIMARY KEY,
    tool TEXT NOT NULL,
    result TEXT NOT NULL,
    created REAL NOT NULL
)
"""

_CODE_PACKAGES = ("toolchains", "sandbox", "languages")
"""codeproof's packages whose source decides what a sandbox run returns."""

_SETTINGS_IGNORED = frozenset({"warm", "cache", "debian_mirror"})
"""Sandbox settings that do not change a run's result."""

R = TypeVar("R", TestReport, ProgramRun)


class ResultCache(LazyDatabase):
    """A thread-safe, process-safe (SQLite WAL) key -> JSON result store."""

    SCHEMA = _SCHEMA

    def get(self, key: str) -> str | None:
        """The stored result (JSON), or ``None``."""
        row = self.one("SELECT result FROM sandbox_results WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    def put(self, key: str, tool: str, result: str) -> None:
        """Store (or replace) a result."""
        self.write(
            "INSERT OR REPLACE INTO sandbox_results (key, tool, result, created) "
            "VALUES (?, ?, ?, ?)",
            (key, tool, result, time.time()),
        )

    def __len__(self) -> int:
        row = self.one("SELECT COUNT(*) FROM sandbox_results")
        return int(row[0]) if row else 0


def _digest(doc: Any) -> str:
    blob = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@functools.cache
def code_digest() -> str:
    """sha256 of codeproof's toolchain, sandbox and language packages (:func:`tree_digest`)."""
    return tree_digest(Path(__file__).resolve().parent.parent, _CODE_PACKAGES)


def tree_digest(root: Path, packages: Sequence[str]) -> str:
    """sha256 of the files of ``packages`` under ``root``, with their paths: every file
    but Python's byte-code caches, whatever the language a file serves (a language
    package holds a runner in its own language, a template, a grammar)."""
    h = hashlib.sha256(__version__.encode())
    for package in packages:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                h.update(str(path.relative_to(root)).encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def identity(settings: Settings, language: str) -> str | None:
    """What decides the results of ``language``'s toolchain, or ``None`` when its
    results are not cached (a configured server, a language without a sandbox image)."""
    server = resolve(settings, language)
    found = registry.find(server.language)
    if not server.builtin or found is None or found.image is None:
        return None
    sandbox = settings.sandbox.model_dump(exclude=set(_SETTINGS_IGNORED))
    return _digest(
        {
            "code": code_digest(),
            "language": found.name,
            "image": found.image.digest,
            "sandbox": sandbox,
        }
    )


def settled(result: TestReport | ProgramRun, timeout_s: float) -> bool:
    """Whether a rerun would give ``result`` again: it did not time out, and it took less
    time than the shortest limit inside it (one test's, or one probe call's), so no
    limit can have been hit under load."""
    if result.timed_out:
        return False
    inner = per_test_limit_s(timeout_s)
    if isinstance(result, ProgramRun):
        inner = min(inner, CALL_TIMEOUT_S)
    return result.duration_s < inner


class CachedToolchain:
    """A toolchain client whose identical calls are answered from a :class:`ResultCache`.

    The real client is started by ``start`` on the first call the cache cannot answer;
    a rerun whose every call is cached starts no server and no sandbox.

    Args:
        start: Starts the real client (e.g. an MCP toolchain client).
        cache: Where results are kept.
        identity: :func:`identity` of the toolchain.
        default_timeout_s: The time limit of a call that gives none (``sandbox.timeout_s``).
    """

    def __init__(
        self,
        start: Callable[[], StartedToolchain],
        cache: ResultCache,
        identity: str,
        default_timeout_s: float,
    ) -> None:
        self._start = start
        self._cache = cache
        self._identity = identity
        self._default_timeout_s = default_timeout_s
        self._inner: StartedToolchain | None = None
        self._seen = 0
        self._lock = threading.RLock()
        self.calls: list[ToolCallRecord] = []

    def _client(self) -> StartedToolchain:
        with self._lock:
            if self._inner is None:
                self._inner = self._start()
                self._seen = len(self._inner.calls)
            return self._inner

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        """As the real client's ``run_tests``; an identical earlier run answers."""
        limit = timeout_s or self._default_timeout_s
        call = {"files": files, "tests": tests, "timeout_s": limit}
        return self._answer(
            "run_tests", call, TestReport, lambda c: c.run_tests(files, tests, timeout_s)
        )

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun:
        """As the real client's ``run``; an identical earlier run answers."""
        limit = timeout_s or self._default_timeout_s
        call = {"files": files, "command_args": command_args, "stdin": stdin, "timeout_s": limit}
        return self._answer(
            "run", call, ProgramRun,
            lambda c: c.run(files, command_args, stdin=stdin, timeout_s=timeout_s),
        )  # fmt: skip

    def conventions(self) -> str:
        """The toolchain's conventions text (cached like a run: it depends on its code)."""
        key = _digest({"toolchain": self._identity, "tool": "conventions"})
        known = self._cache.get(key)
        if known is not None:
            return str(json.loads(known))
        text = str(self._client().conventions())
        self._cache.put(key, "conventions", json.dumps(text))
        return text

    def close(self) -> None:
        """Close the real client, if it was started."""
        with self._lock:
            inner, self._inner = self._inner, None
        if inner is not None:
            inner.close()

    def _answer(
        self,
        tool: str,
        call: dict[str, Any],
        kind: type[R],
        make: Callable[[StartedToolchain], R],
    ) -> R:
        key = _digest({"toolchain": self._identity, "tool": tool, **call})
        started = time.monotonic()
        known = self._cache.get(key)
        if known is not None:
            result = kind.model_validate_json(known)
            record = ToolCallRecord(
                tool=tool,
                arguments=truncate_values(call),  # as the real client records them
                result=summarize(result),
                ok=True,
                duration_s=round(time.monotonic() - started, 3),
                cached=True,
            )
            with self._lock:
                self.calls.append(record)
            return result
        client = self._client()
        try:
            result = make(client)
        finally:
            self._take_records(client)
        if settled(result, float(call["timeout_s"])):
            self._cache.put(key, tool, result.model_dump_json())
        return result

    def _take_records(self, client: StartedToolchain) -> None:
        with self._lock:
            fresh = list(client.calls)[self._seen :]
            self._seen += len(fresh)
            self.calls.extend(fresh)


def cached_toolchains(
    settings: Settings, start: Callable[[str], StartedToolchain]
) -> Callable[[str], StartedToolchain]:
    """``start`` (language -> a started client), with identical runs answered from the
    result cache when ``sandbox.cache`` is on and the language's results can be cached."""
    if not settings.sandbox.cache:
        return start
    cache = ResultCache(settings.cache_db)

    def make(language: str) -> StartedToolchain:
        key = identity(settings, language)
        if key is None:
            return start(language)
        return CachedToolchain(lambda: start(language), cache, key, settings.sandbox.timeout_s)

    return make
