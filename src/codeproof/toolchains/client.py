"""The workflow's way to a toolchain: a synchronous facade over an MCP client session.

The MCP ``ClientSession`` (stdio transport, official SDK) lives in a background
thread running an event loop (an anyio blocking portal); every method of
:class:`ToolchainClient` is a blocking call into it, safe to make from several
threads at once. Usage::

    with open_toolchain(settings, language) as toolchain:
        prompt_part = toolchain.conventions()
        report = toolchain.run_tests({"calc.py": ...}, {"test_calc.py": ...})
"""

from __future__ import annotations

import json
import logging
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from contextlib import AbstractContextManager
from typing import Any, TextIO, TypeVar

import anyio
from anyio.abc import TaskStatus
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError
from mcp.types import (
    CONNECTION_CLOSED,
    REQUEST_TIMEOUT,
    CallToolResult,
    Implementation,
    TextContent,
)
from pydantic import BaseModel, ValidationError

from codeproof import __version__
from codeproof.core.config import Settings
from codeproof.core.errors import ToolchainError
from codeproof.core.lifecycle import Lifecycle
from codeproof.core.types import CheckReport, ProgramRun, TestReport
from codeproof.toolchains.api import StartedToolchain
from codeproof.toolchains.base import validate_files, validate_sources
from codeproof.toolchains.cache import cached_toolchains
from codeproof.toolchains.records import ToolCallRecord, summarize, truncate_values
from codeproof.toolchains.router import ResolvedServer, resolve, settings_env

logger = logging.getLogger(__name__)

START_TIMEOUT_S = 60.0
"""Seconds a server may take to start and answer ``initialize``."""
CALL_MARGIN_S = 180.0
"""Seconds added to a call's own timeout for the sandbox start and compilation."""

M = TypeVar("M", bound=BaseModel)


def _describe(exc: BaseException) -> str:
    """The messages of an exception, task-group exception groups flattened."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(_describe(inner) for inner in exc.exceptions)
    if isinstance(exc, MCPError):
        return exc.message
    return str(exc) or type(exc).__name__


def _text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, TextContent))


class ToolchainClient(Lifecycle):
    """Synchronous client of one language's toolchain MCP server.

    Args:
        settings: Settings (server registry in ``settings.toolchains``, sandbox settings
            handed to built-in servers).
        language: Language name or alias (``python``, ``js``, ``java``, a configured one).

    Raises:
        UnknownLanguageError: No server is configured for ``language``.
    """

    def __init__(self, settings: Settings, language: str) -> None:
        self.server: ResolvedServer = resolve(settings, language)
        self.language = self.server.language
        self.calls: list[ToolCallRecord] = []
        self._env = {**(settings_env(settings) if self.server.builtin else {}), **self.server.env}
        self._default_timeout_s = settings.sandbox.timeout_s
        self._lock = threading.RLock()
        self._portal_cm: AbstractContextManager[BlockingPortal] | None = None
        self._portal: BlockingPortal | None = None
        self._session: ClientSession | None = None
        self._serving: Future[None] | None = None
        self._stop: anyio.Event | None = None
        self._errlog: TextIO | None = None
        self._conventions: str | None = None

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> None:
        """Start the server process and open the MCP session (idempotent).

        Raises:
            ToolchainError: The server cannot be started or does not answer.
        """
        with self._lock:
            if self._serving is not None and not self._serving.done():
                return
            self._shutdown()
            # The server's stderr, quoted in errors; lives until _shutdown closes it.
            self._errlog = tempfile.TemporaryFile(  # noqa: SIM115
                "w+", encoding="utf-8", errors="replace"
            )
            self._portal_cm = start_blocking_portal(name=f"toolchain-{self.language}")
            self._portal = self._portal_cm.__enter__()
            try:
                self._serving, self._session = self._portal.start_task(
                    self._serve, self._errlog, name=f"mcp-{self.language}"
                )
            except Exception as exc:  # any failure to start is the server's
                detail = self._server_stderr()
                self._shutdown()
                raise ToolchainError(
                    f"cannot start the toolchain server {' '.join(self.server.command)!r}: "
                    f"{_describe(exc)}{detail}",
                    language=self.language,
                    hint=self._start_hint(),
                ) from exc

    def close(self) -> None:
        """Stop the server and the background thread (idempotent)."""
        with self._lock:
            self._shutdown()

    async def _serve(self, errlog: TextIO, *, task_status: TaskStatus[ClientSession]) -> None:
        params = StdioServerParameters(
            command=self.server.command[0], args=self.server.command[1:], env=self._env
        )
        stop = anyio.Event()
        self._stop = stop
        info = Implementation(name="codeproof", version=__version__)
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, client_info=info) as session,
        ):
            with anyio.fail_after(START_TIMEOUT_S):
                await session.initialize()
            task_status.started(session)
            await stop.wait()

    def _shutdown(self) -> None:
        portal, serving, stop = self._portal, self._serving, self._stop
        if portal is not None and stop is not None and serving is not None and not serving.done():
            try:
                portal.call(stop.set)
                serving.result(timeout=START_TIMEOUT_S)
            except Exception as exc:  # the server may already be gone; nothing to keep
                logger.debug("toolchain %s stopped with %r", self.language, exc)
        if self._portal_cm is not None:
            try:
                self._portal_cm.__exit__(None, None, None)
            except Exception as exc:
                logger.debug("toolchain %s portal closed with %r", self.language, exc)
        if self._errlog is not None:
            self._errlog.close()
        self._portal_cm = self._portal = self._session = None
        self._serving = self._stop = None
        self._errlog = None

    def _server_stderr(self, limit: int = 1_500) -> str:
        log = self._errlog
        if log is None or log.closed:
            return ""
        try:
            log.seek(0)
            text = log.read().strip()
        except (OSError, ValueError):
            return ""
        return f"; server stderr: {text[-limit:]}" if text else ""

    def _start_hint(self) -> str:
        if self.server.builtin:
            return "run `codeproof doctor`; check that codeproof is installed in this Python"
        return f"check the command of [toolchains.{self.language}] in codeproof.toml"

    # -- calls -------------------------------------------------------------------------

    def _connected(self) -> tuple[BlockingPortal, ClientSession]:
        self.start()  # also restarts a server that exited
        portal, session = self._portal, self._session
        if portal is None or session is None:
            raise ToolchainError("the toolchain client is closed", language=self.language)
        return portal, session

    def _call(self, tool: str, arguments: dict[str, Any], timeout_s: float) -> CallToolResult:
        portal, session = self._connected()
        started = time.monotonic()

        async def call() -> CallToolResult:
            return await session.call_tool(tool, arguments, read_timeout_seconds=timeout_s)

        try:
            result = portal.call(call)
        except (MCPError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            error = self._transport_error(tool, exc, timeout_s)
            self._record(tool, arguments, f"error: {error.message}", False, started)
            raise error from exc
        if result.is_error:
            message = _text_of(result) or "the tool reported an error"
            self._record(tool, arguments, f"error: {message}", False, started)
            raise ToolchainError(
                message,
                language=self.language,
                hint="check the sandbox with `codeproof doctor`",
            )
        return result

    def _transport_error(self, tool: str, exc: Exception, timeout_s: float) -> ToolchainError:
        if isinstance(exc, MCPError) and exc.code == REQUEST_TIMEOUT:
            # A hung server is not trusted with the next call: start a fresh one then.
            self.close()
            return ToolchainError(
                f"{tool} got no answer within {timeout_s:g} s; the server was stopped",
                language=self.language,
                hint="raise sandbox.timeout_s, or check the sandbox with `codeproof doctor`",
            )
        with self._lock:
            alive = self._serving is not None and not self._serving.done()
        detail = self._server_stderr()
        if not alive or (isinstance(exc, MCPError) and exc.code == CONNECTION_CLOSED):
            self.close()
            return ToolchainError(
                f"the toolchain server exited during {tool}{detail}",
                language=self.language,
                hint="retry (the next call starts a new server); if it persists run "
                "`codeproof doctor`",
            )
        return ToolchainError(
            f"{tool} failed: {exc}{detail}",
            language=self.language,
            hint="run `codeproof doctor`",
        )

    def _record(
        self, tool: str, arguments: dict[str, Any], result: str, ok: bool, started: float
    ) -> None:
        record = ToolCallRecord(
            tool=tool,
            arguments=truncate_values(arguments),
            result=result,
            ok=ok,
            duration_s=round(time.monotonic() - started, 3),
        )
        with self._lock:
            self.calls.append(record)

    def _typed(self, tool: str, arguments: dict[str, Any], model: type[M], timeout_s: float) -> M:
        started = time.monotonic()
        result = self._call(tool, arguments, timeout_s)
        try:
            if result.structured_content is not None:
                value = model.model_validate(result.structured_content)
            else:  # servers without structured output return the JSON as text
                value = model.model_validate(json.loads(_text_of(result)))
        except (ValueError, ValidationError) as exc:
            self._record(tool, arguments, "error: unexpected result", False, started)
            raise ToolchainError(
                f"{tool} returned a result that is not a {model.__name__}: {exc}",
                language=self.language,
                hint="the server does not follow codeproof's toolchain schema (docs/mcp.md)",
            ) from exc
        self._record(tool, arguments, summarize(value), True, started)
        return value

    def run_tests(
        self, files: dict[str, str], tests: dict[str, str], timeout_s: float | None = None
    ) -> TestReport:
        """Run ``tests`` against ``files`` in the sandbox.

        Raises:
            InputError: A path is invalid or no test is given.
            ToolchainError: The server failed, crashed or did not answer in time.
        """
        validate_sources(files, tests)
        arguments: dict[str, Any] = {"files": files, "tests": tests}
        if timeout_s is not None:
            arguments["timeout_s"] = timeout_s
        budget = (timeout_s or self._default_timeout_s) + CALL_MARGIN_S
        return self._typed("run_tests", arguments, TestReport, budget)

    def check(self, files: dict[str, str]) -> CheckReport:
        """Compile/lint ``files`` in the sandbox.

        Raises:
            InputError: A path is invalid.
            ToolchainError: The server failed, crashed or did not answer in time.
        """
        validate_files(files)
        budget = self._default_timeout_s + CALL_MARGIN_S
        return self._typed("check", {"files": files}, CheckReport, budget)

    def run(
        self,
        files: dict[str, str],
        command_args: list[str],
        stdin: str | None = None,
        timeout_s: float | None = None,
    ) -> ProgramRun:
        """Run a program of ``files`` with ``command_args`` (after the runtime, e.g.
        ``["main.py", "--n", "3"]`` for Python, ``["Main", "3"]`` for Java).

        Raises:
            InputError: A path is invalid.
            ToolchainError: The server failed, crashed or did not answer in time.
        """
        validate_files(files)
        arguments: dict[str, Any] = {"files": files, "command_args": command_args}
        if stdin is not None:
            arguments["stdin"] = stdin
        if timeout_s is not None:
            arguments["timeout_s"] = timeout_s
        budget = (timeout_s or self._default_timeout_s) + CALL_MARGIN_S
        return self._typed("run", arguments, ProgramRun, budget)

    def conventions(self) -> str:
        """The server's ``conventions://`` resource text (cached after the first read).

        Raises:
            ToolchainError: The server offers no conventions resource or failed.
        """
        if self._conventions is not None:
            return self._conventions
        portal, session = self._connected()

        async def read() -> str | None:
            listed = await session.list_resources()
            for resource in listed.resources:
                if str(resource.uri).startswith("conventions://"):
                    contents = await session.read_resource(str(resource.uri))
                    return "\n".join(
                        item.text for item in contents.contents if hasattr(item, "text")
                    )
            return None

        try:
            text = portal.call(read)
        except (MCPError, anyio.BrokenResourceError, anyio.ClosedResourceError) as exc:
            raise self._transport_error("conventions", exc, START_TIMEOUT_S) from exc
        if text is None:
            raise ToolchainError(
                "the server offers no conventions:// resource",
                language=self.language,
                hint="add a conventions://<language> resource to the server (docs/mcp.md)",
            )
        self._conventions = text
        return text


def open_toolchain(settings: Settings, language: str) -> ToolchainClient:
    """A started :class:`ToolchainClient` (close it, or use it as a context manager).

    Raises:
        UnknownLanguageError: No server is configured for ``language``.
        ToolchainError: The server cannot be started.
    """
    client = ToolchainClient(settings, language)
    client.start()
    return client


def started_toolchains(settings: Settings) -> Callable[[str], StartedToolchain]:
    """Language -> a started MCP toolchain client, as ``codeproof new``, ``serve`` and
    ``eval`` use it: identical runs are answered from the result cache
    (:mod:`codeproof.toolchains.cache`, ``sandbox.cache``), and then no server starts."""
    return cached_toolchains(settings, lambda language: open_toolchain(settings, language))
