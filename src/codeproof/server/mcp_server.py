"""codeproof as an MCP server: tools to start a run, read its status and pending
question, answer it, continue it, and fetch its project files and report.

Served over stdio (``codeproof mcp serve``, as one user) and over streamable HTTP on the
API's app under ``/mcp``, where the caller is identified by the same API tokens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import ToolAnnotations
from pydantic import Field
from starlette.types import ASGIApp, Receive, Scope, Send

from codeproof import __version__
from codeproof.core.errors import AuthError, CodeproofError
from codeproof.llm.structured import json_schema_of
from codeproof.server import project
from codeproof.server.http import error_body, status_of
from codeproof.server.protocol import GRAPH_ID, PROGRESS_MODES, RunCreate
from codeproof.server.state import ServerState
from codeproof.server.status import thread_status
from codeproof.workflow.models import DECISION_TYPES

INSTRUCTIONS = (
    "codeproof turns a programming request into a project whose code passed tests run in "
    "a sandbox. Call start_run, then poll run_status: when it shows a question, answer it "
    "with answer (the question says its kind, choices and default; answer_schema is the "
    "JSON schema of the answer). When the status is done, fetch project_files and report."
)

ThreadId = Annotated[str, Field(description="The thread id start_run returned.")]


@dataclass
class McpEndpoint:
    """The MCP server and its streamable HTTP endpoint (authenticated)."""

    server: MCPServer
    session_manager: StreamableHTTPSessionManager
    asgi: ASGIApp


class _Tools:
    """The tool bodies; ``user`` resolves the caller of each call."""

    def __init__(self, state: ServerState, stdio_user: str | None) -> None:
        self.state = state
        self.stdio_user = stdio_user

    def user(self, ctx: Context) -> str:
        headers = ctx.headers if ctx.request_context.request is not None else None
        if headers is None:
            if self.stdio_user is None:
                raise AuthError("no caller to serve")
            return self.stdio_user
        return self.state.auth.api(headers).user

    def start_run(
        self, ctx: Context, request: str, lang: str | None, options: dict[str, Any] | None
    ) -> dict[str, Any]:
        body = RunCreate(
            assistant_id=GRAPH_ID,
            input={"request": request, "lang": lang, "options": options or {}},
            stream_mode=PROGRESS_MODES,
        )
        run = self.state.service.create_run(self.user(ctx), None, body)
        return {"thread_id": run.thread_id, "run_id": run.id, "status": run.status}

    def run_status(self, ctx: Context, thread_id: str) -> dict[str, Any]:
        user = self.user(ctx)
        thread = self.state.threads.get_thread(user, thread_id)
        status = thread_status(self.state.service, thread)
        question = status.get("question")
        if question is not None:
            schema = json_schema_of(DECISION_TYPES[question["kind"]])
            status["answer_schema"] = schema
        return status

    def answer(self, ctx: Context, thread_id: str, answer: dict[str, Any]) -> dict[str, Any]:
        body = RunCreate(
            assistant_id=GRAPH_ID, command={"resume": answer}, stream_mode=PROGRESS_MODES
        )
        run = self.state.service.create_run(self.user(ctx), thread_id, body)
        return {"thread_id": run.thread_id, "run_id": run.id, "status": run.status}

    def continue_run(self, ctx: Context, thread_id: str) -> dict[str, Any]:
        body = RunCreate(assistant_id=GRAPH_ID, stream_mode=PROGRESS_MODES)
        run = self.state.service.create_run(self.user(ctx), thread_id, body)
        return {"thread_id": run.thread_id, "run_id": run.id, "status": run.status}

    def _root(self, ctx: Context, thread_id: str) -> Any:
        self.state.threads.get_thread(self.user(ctx), thread_id)
        info = self.state.service.run_info(thread_id)
        return project.assembled(info.out_dir if info else None, thread_id)

    def project_files(self, ctx: Context, thread_id: str) -> dict[str, str]:
        return project.read_files(self._root(ctx, thread_id))

    def report(self, ctx: Context, thread_id: str) -> dict[str, Any]:
        return project.report_json(self._root(ctx, thread_id))


def _tool_error(exc: CodeproofError) -> ToolError:
    return ToolError(str(exc))


def build_server(state: ServerState, stdio_user: str | None = None) -> MCPServer:
    """The MCP server over ``state`` (stdio: every call is ``stdio_user``'s)."""
    tools = _Tools(state, stdio_user)
    server: MCPServer = MCPServer(
        "codeproof",
        title="codeproof",
        instructions=INSTRUCTIONS,
        version=__version__,
        log_level="WARNING",
    )

    def guarded(call: Any) -> Any:
        try:
            return call()
        except CodeproofError as exc:
            raise _tool_error(exc) from exc

    def start_run(
        request: Annotated[str, Field(description="What to build, in plain words.")],
        ctx: Context,
        lang: Annotated[str | None, Field(description="python, javascript or java.")] = None,
        options: Annotated[
            dict[str, Any] | None,
            Field(description="yes, modules, max_attempts, on_failure, candidates."),
        ] = None,
    ) -> dict[str, Any]:
        return guarded(lambda: tools.start_run(ctx, request, lang, options))  # type: ignore[no-any-return]

    def run_status(thread_id: ThreadId, ctx: Context) -> dict[str, Any]:
        return guarded(lambda: tools.run_status(ctx, thread_id))  # type: ignore[no-any-return]

    def answer(
        thread_id: ThreadId,
        answer: Annotated[dict[str, Any], Field(description="The answer (see answer_schema).")],
        ctx: Context,
    ) -> dict[str, Any]:
        return guarded(lambda: tools.answer(ctx, thread_id, answer))  # type: ignore[no-any-return]

    def continue_run(thread_id: ThreadId, ctx: Context) -> dict[str, Any]:
        return guarded(lambda: tools.continue_run(ctx, thread_id))  # type: ignore[no-any-return]

    def project_files(thread_id: ThreadId, ctx: Context) -> dict[str, str]:
        return guarded(lambda: tools.project_files(ctx, thread_id))  # type: ignore[no-any-return]

    def report(thread_id: ThreadId, ctx: Context) -> dict[str, Any]:
        return guarded(lambda: tools.report(ctx, thread_id))  # type: ignore[no-any-return]

    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    writes = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
    server.add_tool(
        start_run,
        name="start_run",
        title="Start a run",
        annotations=writes,
        description="Start building a request; returns its thread id.",
    )
    server.add_tool(
        run_status,
        name="run_status",
        title="Run status",
        annotations=reads,
        description="Status, modules, tests, and the pending question with its "
        "kind, choices, default and answer_schema.",
    )
    server.add_tool(
        answer,
        name="answer",
        title="Answer the question",
        annotations=writes,
        description="Answer the pending question; the run continues.",
    )
    server.add_tool(
        continue_run,
        name="continue_run",
        title="Continue a run",
        annotations=writes,
        description="Continue a run that stopped on an error or a cancel.",
    )
    server.add_tool(
        project_files,
        name="project_files",
        title="Project files",
        annotations=reads,
        description="The finished project: path -> content.",
    )
    server.add_tool(
        report,
        name="report",
        title="Run report",
        annotations=reads,
        description="The run report: modules, tests, attempts, findings, usage.",
    )
    return server


class _Authenticated:
    """Refuses an MCP request without valid credentials before the transport sees it."""

    def __init__(self, app: ASGIApp, state: ServerState) -> None:
        self.app = app
        self.state = state

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        try:
            self.state.auth.api(headers)
        except AuthError as exc:
            data = json.dumps(error_body(exc)).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": status_of(exc),
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": data})
            return
        await self.app(scope, receive, send)


def build_mcp(state: ServerState) -> McpEndpoint:
    """The MCP server with its streamable HTTP endpoint for the app (stateless: any
    request may go to any process)."""
    server = build_server(state)
    server.streamable_http_app(
        streamable_http_path="/mcp",
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    manager = server.session_manager
    return McpEndpoint(server, manager, _Authenticated(StreamableHTTPASGIApp(manager), state))
