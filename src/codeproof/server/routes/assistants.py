"""``/assistants``: the one assistant, graph ``codeproof``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from codeproof.core.errors import NotFoundError
from codeproof.server.auth import Principal
from codeproof.server.http import api_principal, server_state
from codeproof.server.protocol import GRAPH_ID, AssistantSearch, assistant, is_assistant

router = APIRouter(tags=["assistants"])
User = Annotated[Principal, Depends(api_principal)]


@router.post("/assistants/search")
def search_assistants(body: AssistantSearch, request: Request, _: User) -> list[dict[str, Any]]:
    """The assistants matching the search (the codeproof graph, when it matches)."""
    found = assistant(server_state(request).started)
    matches = (body.graph_id in (None, GRAPH_ID)) and (body.name in (None, GRAPH_ID))
    if body.metadata:
        matches = False
    return [found] if matches and body.offset == 0 else []


@router.get("/assistants/{assistant_id}")
def get_assistant(assistant_id: str, request: Request, _: User) -> dict[str, Any]:
    """The codeproof assistant, by its id or its graph id."""
    if not is_assistant(assistant_id):
        raise NotFoundError(f"no assistant {assistant_id!r}", hint="use 'codeproof'")
    return assistant(server_state(request).started)
