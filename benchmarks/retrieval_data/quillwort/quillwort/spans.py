"""Spans of time counted in ticks (64 ticks make one second)."""

from __future__ import annotations

from dataclasses import dataclass

TICKS_PER_SECOND = 64


@dataclass(frozen=True, order=True)
class Span:
    """A non-negative duration in ticks."""

    ticks: int

    @classmethod
    def from_seconds(cls, seconds: float) -> Span:
        """The span of ``seconds``, rounded to the nearest tick."""
        return cls(round(seconds * TICKS_PER_SECOND))

    def seconds(self) -> float:
        return self.ticks / TICKS_PER_SECOND

    def to_beats(self, bpm: int) -> float:
        """How many beats of a ``bpm`` tempo fit in the span."""
        return self.seconds() * bpm / 60

    def __add__(self, other: Span) -> Span:
        return Span(self.ticks + other.ticks)
