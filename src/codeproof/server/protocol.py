"""Request bodies and response shapes of the LangGraph Platform API subset.

Field names follow what the official ``langgraph-sdk`` sends and expects. Options the
platform has and codeproof does not (webhooks, schedules, breakpoints, forks from a
checkpoint) are refused with a 422 that names them, never silently ignored.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from codeproof.llm.structured import json_schema_of
from codeproof.workflow.models import DECISION_TYPES

GRAPH_ID = "codeproof"
ASSISTANT_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "codeproof:assistant:codeproof"))
StreamMode = Literal["values", "updates", "custom"]
STREAM_MODES: tuple[StreamMode, ...] = ("values", "updates", "custom")
PROGRESS_MODES: list[StreamMode] = ["updates", "custom"]
"""What the web page and the MCP tools stream: each step and progress, not whole states."""
UNSUPPORTED_RUN_FIELDS = (
    "interrupt_before",
    "interrupt_after",
    "webhook",
    "checkpoint",
    "checkpoint_id",
    "after_seconds",
    "feedback_keys",
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


class RunOptionsIn(BaseModel):
    """``input.options``: the options of ``codeproof new`` a client may set."""

    model_config = ConfigDict(extra="forbid")

    yes: bool = False
    modules: list[str] = Field(default_factory=list, max_length=50)
    max_attempts: int | None = Field(default=None, ge=1, le=20)
    on_failure: Literal["ask", "continue", "stop"] | None = None
    candidates: int | None = Field(default=None, ge=1, le=10)


class RunInput(BaseModel):
    """A run's input: the request, its language, and the CLI's options."""

    model_config = ConfigDict(extra="forbid")

    request: str
    lang: str | None = None
    options: RunOptionsIn = Field(default_factory=RunOptionsIn)


class CommandIn(BaseModel):
    """``command``: only ``resume`` (the answer to the pending question) is supported."""

    model_config = ConfigDict(extra="forbid")

    resume: Any = None


class RunCreate(_Body):
    """Body of ``POST /threads/{id}/runs[/stream|/wait]`` and ``/runs[/stream|/wait]``."""

    assistant_id: str
    input: dict[str, Any] | None = None
    command: CommandIn | None = None
    stream_mode: StreamMode | list[StreamMode] = "values"
    stream_subgraphs: bool = False
    stream_resumable: bool = False
    metadata: dict[str, Any] | None = None
    config: dict[str, Any] | None = None
    context: dict[str, Any] | None = None
    multitask_strategy: Literal["reject"] | None = None
    if_not_exists: Literal["create", "reject"] | None = None
    on_disconnect: Literal["cancel", "continue"] | None = None
    on_completion: Literal["delete", "keep"] | None = None
    durability: Literal["sync", "async", "exit"] | None = None
    interrupt_before: Any = None
    interrupt_after: Any = None
    webhook: Any = None
    checkpoint: Any = None
    checkpoint_id: Any = None
    after_seconds: Any = None
    feedback_keys: Any = None

    def modes(self) -> list[StreamMode]:
        modes = [self.stream_mode] if isinstance(self.stream_mode, str) else self.stream_mode
        return list(dict.fromkeys(modes)) or ["values"]


class ThreadCreate(_Body):
    thread_id: str | None = None
    metadata: dict[str, Any] | None = None
    if_exists: Literal["raise", "do_nothing"] = "raise"


class ThreadSearch(_Body):
    metadata: dict[str, Any] | None = None
    status: Literal["idle", "busy", "interrupted", "error"] | None = None
    ids: list[str] | None = None
    limit: int = Field(default=10, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)


class AssistantSearch(_Body):
    graph_id: str | None = None
    name: str | None = None
    metadata: dict[str, Any] | None = None
    limit: int = Field(default=10, ge=1, le=1000)
    offset: int = Field(default=0, ge=0)


class HistoryRequest(_Body):
    limit: int = Field(default=10, ge=1, le=1000)
    before: dict[str, Any] | str | None = None


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def assistant(created: float) -> dict[str, Any]:
    """The one assistant: the codeproof graph."""
    return {
        "assistant_id": ASSISTANT_ID,
        "graph_id": GRAPH_ID,
        "name": GRAPH_ID,
        "description": "Turns a request into a project proven by tests run in a sandbox; "
        "input {request, lang?, options?}; questions surface as interrupts.",
        "config": {},
        "context": {},
        "metadata": {},
        "version": 1,
        "created_at": iso(created),
        "updated_at": iso(created),
    }


def is_assistant(assistant_id: str) -> bool:
    return assistant_id in (ASSISTANT_ID, GRAPH_ID)


def interrupt_json(interrupt_id: str, value: dict[str, Any]) -> dict[str, Any]:
    """An interrupt as the protocol shows it, with the JSON schema of the answer."""
    schema = DECISION_TYPES.get(str(value.get("kind")))
    out: dict[str, Any] = {"value": value, "id": interrupt_id}
    if schema is not None:
        out["response_schema"] = json_schema_of(schema)
    return out
