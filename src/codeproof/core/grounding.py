"""Retrieved context given to an agent, and where each piece of it comes from."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Citation(BaseModel):
    """A retrieved chunk given to an agent: where it is and which step used it."""

    ref: int
    """Its number in the prompt (``[1]``)."""
    step: str
    """``modules``, ``plan``, ``code`` or ``repair``."""
    module: str = ""
    source: str
    path: str
    start_line: int
    end_line: int
    symbol: str = ""
    score: float = 0.0
    url: str = ""

    @property
    def where(self) -> str:
        return f"{self.source}:{self.path}:{self.start_line}-{self.end_line}"


class Grounding(BaseModel):
    """Retrieved context for one agent step: the prompt section and what it cites."""

    text: str = ""
    citations: list[Citation] = Field(default_factory=list)
