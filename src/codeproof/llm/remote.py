"""What the providers behind a vendor SDK (``openai``, ``anthropic``) share.

Both SDKs are built alike: a client class taking ``api_key``, ``base_url``, ``timeout``
and ``max_retries``, and the same exception family (a timeout is a connection error;
status errors carry ``status_code`` and have authentication/permission subclasses).
:class:`SdkSpec` names one SDK's pieces and its fix hints; :class:`RemoteChatModel`
owns the client's lifecycle and converts the SDK's exceptions into
:mod:`codeproof.core.errors` at the boundary, by exception class, never by message text.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from codeproof.core.errors import (
    AuthenticationError,
    LLMError,
    ProviderResponseError,
    ProviderTimeoutError,
    ProviderUnreachableError,
)
from codeproof.llm.base import ChatSettings
from codeproof.llm.cache import ResponseCache
from codeproof.llm.provider import BaseChatModel


class SdkClient(Protocol):
    """The part of an SDK client the lifecycle needs."""

    def close(self) -> None: ...


class StatusError(Protocol):
    """An SDK exception for an HTTP error reply."""

    status_code: int
    message: str


ClientT = TypeVar("ClientT", bound=SdkClient)
ClientT_co = TypeVar("ClientT_co", bound=SdkClient, covariant=True)
StatusT = TypeVar("StatusT", bound=StatusError)


class ClientFactory(Protocol[ClientT_co]):
    """An SDK client class, called with the options codeproof sets."""

    def __call__(
        self, *, api_key: str | None, base_url: str, timeout: float, max_retries: int
    ) -> ClientT_co: ...


@dataclass(frozen=True)
class ErrorHints:
    """One-line fixes per failure kind; ``{base_url}`` is replaced by the endpoint."""

    timeout: str
    unreachable: str
    auth: str
    status: str
    other: str


@dataclass(frozen=True)
class SdkSpec(Generic[ClientT, StatusT]):
    """One vendor SDK as a provider uses it.

    Attributes:
        provider: Provider name reported in responses and errors.
        default_base_url: API root when ``llm.base_url`` is not set.
        client: The SDK's client class.
        error: Base class of every exception the SDK raises.
        timeout_error: Request timed out (a subclass of ``connection_error``).
        connection_error: Endpoint not reachable.
        status_error: Error reply with an HTTP status.
        auth_errors: Status errors meaning the key was rejected (401, 403).
        hints: Fixes shown to the user.
        placeholder_key: Key sent when none is configured (``None``: send none).
    """

    provider: str
    default_base_url: str
    client: ClientFactory[ClientT]
    error: type[Exception]
    timeout_error: type[Exception]
    connection_error: type[Exception]
    status_error: type[StatusT]
    auth_errors: tuple[type[Exception], ...]
    hints: ErrorHints
    placeholder_key: str | None = None


class RemoteChatModel(BaseChatModel, Generic[ClientT, StatusT]):
    """Base of the providers that reach a model through a vendor SDK's HTTP client.

    Subclasses set :attr:`sdk`, implement the request hooks of :class:`BaseChatModel`
    and wrap every SDK call in :meth:`_sdk_errors`.

    Args:
        model: Model name sent to the server.
        base_url: API root; the SDK's public endpoint when ``None``.
        api_key: API key; :attr:`SdkSpec.placeholder_key` when ``None``.
        timeout_s: Per-request timeout.
        slots: Concurrency the server offers.
        defaults, cache, max_retries, retry_wait_s: See :class:`BaseChatModel`.
    """

    sdk: SdkSpec[ClientT, StatusT]

    def __init__(
        self,
        *,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        timeout_s: float = 300.0,
        slots: int = 2,
        defaults: ChatSettings | None = None,
        cache: ResponseCache | None = None,
        max_retries: int = 3,
        retry_wait_s: float = 0.5,
    ) -> None:
        super().__init__(
            name=self.sdk.provider,
            model=model,
            slots=slots,
            defaults=defaults,
            cache=cache,
            max_retries=max_retries,
            retry_wait_s=retry_wait_s,
        )
        self.base_url = (base_url or self.sdk.default_base_url).rstrip("/")
        self._api_key = api_key or self.sdk.placeholder_key
        self.timeout_s = timeout_s
        self._client: ClientT | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            if self._client is None:
                self._client = self.sdk.client(
                    api_key=self._api_key,
                    base_url=self.base_url,
                    timeout=self.timeout_s,
                    max_retries=0,  # retries are ours (tenacity), with our error policy
                )

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    @property
    def client(self) -> ClientT:
        """The SDK client (opened on first use)."""
        self.start()
        assert self._client is not None
        return self._client

    @contextmanager
    def _sdk_errors(self) -> Iterator[None]:
        """Raise the codeproof error for any SDK exception of the block (``from`` it)."""
        try:
            yield
        except self.sdk.error as exc:
            raise self.convert_error(exc) from exc

    def convert_error(self, exc: Exception) -> LLMError:
        """The codeproof error for an SDK exception, chosen by its class."""
        url, hints, errors = self.base_url, self.sdk.hints, self.sdk
        if isinstance(exc, errors.timeout_error):
            return ProviderTimeoutError(
                f"no answer from {url} in time", provider=self.name, hint=self._hint(hints.timeout)
            )
        if isinstance(exc, errors.connection_error):
            return ProviderUnreachableError(
                f"cannot reach {url}", provider=self.name, hint=self._hint(hints.unreachable)
            )
        if isinstance(exc, errors.status_error):
            return self._status_error(exc)
        return ProviderResponseError(
            f"unexpected reply from {url}: {exc}", provider=self.name, hint=self._hint(hints.other)
        )

    def _status_error(self, exc: StatusT) -> LLMError:
        if isinstance(exc, self.sdk.auth_errors):
            return AuthenticationError(
                f"{self.base_url} rejected the API key",
                provider=self.name,
                status_code=exc.status_code,
                hint=self._hint(self.sdk.hints.auth),
            )
        specific = self._specific_status_error(exc)
        if specific is not None:
            return specific
        return ProviderResponseError(
            f"{self.base_url} answered HTTP {exc.status_code}: {exc.message}",
            provider=self.name,
            status_code=exc.status_code,
            hint=self._hint(self.sdk.hints.status),
        )

    def _specific_status_error(self, exc: StatusT) -> LLMError | None:
        """A provider-specific error for a status reply, or ``None`` for the generic one."""
        return None

    def _hint(self, template: str) -> str:
        return template.format(base_url=self.base_url)
