"""Embeddings from any OpenAI-compatible ``/embeddings`` endpoint (OpenAI, Ollama, vLLM,
llama.cpp server, LM Studio), through the ``openai`` SDK.

The endpoint and key default to the chat model's (``llm.base_url``, ``llm.api_key``);
``retrieval.embedding_base_url`` and ``retrieval.embedding_api_key`` override them.
The dimension is learned from the first reply. SDK errors become codeproof errors at
this boundary, by exception class.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import openai

from codeproof.core.config import Settings
from codeproof.core.errors import (
    AuthenticationError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)

PROVIDER = "openai-embeddings"
DEFAULT_BASE_URL = "https://api.openai.com/v1"


class OpenAIEmbedder:
    """Vectors from ``POST {base_url}/embeddings``.

    Args:
        model: The embedding model name sent to the server.
        base_url: The API root.
        api_key: The key (a placeholder is sent when none is set: local servers
            accept any).
        timeout_s: Per-request timeout.
        batch_size: Texts per request.
        max_retries: The SDK's retries of a failed request.
    """

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 120.0,
        batch_size: int = 32,
        max_retries: int = 2,
    ) -> None:
        self.model = model
        self.base_url = (base_url or DEFAULT_BASE_URL).rstrip("/")
        self._api_key = api_key or "not-needed"
        self.timeout_s = timeout_s
        self.batch_size = batch_size
        self.max_retries = max_retries
        self._dimension: int | None = None
        self._client: openai.OpenAI | None = None
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> OpenAIEmbedder:
        r = settings.retrieval
        return cls(
            model=r.embedding_model,
            base_url=r.embedding_base_url or settings.llm.base_url,
            api_key=r.embedding_api_key or settings.llm.api_key,
            timeout_s=settings.llm.timeout_s,
            batch_size=r.batch_size,
            max_retries=settings.llm.max_retries,
        )

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self.embed(["dimension probe"])
        assert self._dimension is not None
        return self._dimension

    def _get_client(self) -> openai.OpenAI:
        with self._lock:
            if self._client is None:
                self._client = openai.OpenAI(
                    api_key=self._api_key,
                    base_url=self.base_url,
                    timeout=self.timeout_s,
                    max_retries=self.max_retries,
                )
            return self._client

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        out: list[list[float]] = []
        for start in range(0, len(texts), self.batch_size):
            batch = list(texts[start : start + self.batch_size])
            with self._errors():
                reply = self._get_client().embeddings.create(model=self.model, input=batch)
            vectors = [list(d.embedding) for d in sorted(reply.data, key=lambda d: d.index)]
            if len(vectors) != len(batch):
                raise ProviderResponseError(
                    f"{len(vectors)} embeddings for {len(batch)} texts",
                    provider=PROVIDER,
                    hint=f"check that {self.base_url} serves an embedding model",
                )
            out.extend(vectors)
        if out:
            self._dimension = len(out[0])
        return out

    @contextmanager
    def _errors(self) -> Iterator[None]:
        where = self.base_url
        try:
            yield
        except openai.APITimeoutError as exc:
            raise ProviderTimeoutError(
                f"no embeddings from {where} in {self.timeout_s:g} s",
                provider=PROVIDER,
                hint="raise llm.timeout_s or check the server",
            ) from exc
        except openai.APIConnectionError as exc:
            raise ProviderUnreachableError(
                f"cannot reach {where}",
                provider=PROVIDER,
                hint="start the server or fix retrieval.embedding_base_url",
            ) from exc
        except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
            raise AuthenticationError(
                f"{where} rejected the key",
                provider=PROVIDER,
                hint="set retrieval.embedding_api_key (or llm.api_key)",
                status_code=exc.status_code,
            ) from exc
        except openai.APIStatusError as exc:
            raise ProviderResponseError(
                f"{where} answered {exc.status_code}: {exc.message}",
                provider=PROVIDER,
                hint=f"check that {self.model!r} is an embedding model the server has",
                status_code=exc.status_code,
            ) from exc
        except openai.OpenAIError as exc:
            raise ProviderResponseError(
                f"embedding request to {where} failed: {exc}",
                provider=PROVIDER,
                hint="check the server",
            ) from exc

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None
