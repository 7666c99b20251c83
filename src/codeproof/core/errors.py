"""The exception tree of codeproof.

Every error carries data (a ``hint`` telling the user how to fix it, and
subsystem-specific fields such as ``provider`` or ``status_code``). Third-party
exceptions are converted at the boundary with ``raise ... from`` so that callers
never classify errors by message substrings.

::

    CodeproofError                    base; .hint, .exit_code
    ├── UserError                     the user can fix it (exit 2, one line, no traceback)
    │   ├── ConfigError               bad configuration value or file
    │   ├── InputError                bad request / argument / dataset (.status_code 422)
    │   │   ├── NotFoundError         no such thread/run for this user (404)
    │   │   ├── ConflictError         the thread is busy or not in the right state (409)
    │   │   └── PayloadTooLargeError  a request or body over its limit (413)
    │   ├── AuthError                 missing or unknown credentials (401), CSRF (403)
    │   ├── RateLimitError            too many runs for this user (429)
    │   ├── ModelNotFoundError        unknown model name or missing GGUF file
    │   └── UnknownLanguageError      no toolchain configured for a language
    └── RuntimeFailure                something outside the user's input failed (exit 1)
        ├── LLMError                  .provider
        │   ├── ProviderUnreachableError   endpoint down / connection refused
        │   ├── AuthenticationError        bad or missing API key (.status_code)
        │   ├── ProviderTimeoutError       request took too long
        │   ├── ContextLengthError         prompt + output exceed the context window
        │   ├── ProviderResponseError      any other provider-side error (.status_code)
        │   ├── ModelRequestForbiddenError a real model was used where tests forbid it
        │   └── StructuredOutputError      reply failed validation after the re-ask (.raw)
        ├── ModelIntegrityError       sha256 mismatch or truncated weights (.path)
        ├── DownloadError             model download failed (.url)
        ├── SandboxError              .backend
        │   └── SandboxUnavailableError    no usable backend / daemon / image
        ├── ToolchainError            MCP toolchain server failed (.language)
        ├── ScanError                 a security scanner could not run (.tool)
        ├── RetrievalError            the retrieval index or embedder failed (.index_dir)
        └── WorkflowError             a run cannot continue (.run_id)
"""

from __future__ import annotations


class CodeproofError(Exception):
    """Base of every codeproof error.

    Args:
        message: What went wrong, one line.
        hint: How to fix it, one line (optional).
    """

    exit_code: int = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        if self.hint:
            return f"{self.message} (fix: {self.hint})"
        return self.message


class UserError(CodeproofError):
    """An error the user can fix by changing input, flags or configuration."""

    exit_code = 2


class ConfigError(UserError):
    """A configuration value or file is invalid."""


class InputError(UserError):
    """A request, argument or data file is invalid.

    ``status_code`` is the HTTP status the server answers with.
    """

    status_code: int = 422


class NotFoundError(InputError):
    """No such thread or run, or one that belongs to another user (never told apart)."""

    status_code = 404


class ConflictError(InputError):
    """The thread or run is not in a state that allows the request."""

    status_code = 409


class PayloadTooLargeError(InputError):
    """A request text or body is over its configured limit."""

    status_code = 413


class AuthError(UserError):
    """Missing, unknown or revoked credentials (401), or a failed CSRF check (403)."""

    def __init__(self, message: str, *, hint: str | None = None, status_code: int = 401) -> None:
        super().__init__(message, hint=hint)
        self.status_code = status_code


class RateLimitError(UserError):
    """A user created too many runs (per minute or at once)."""

    status_code = 429

    def __init__(self, message: str, *, retry_after_s: int, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.retry_after_s = retry_after_s


class ModelNotFoundError(UserError):
    """A model name is unknown or its weights are not present."""

    def __init__(self, message: str, *, model: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.model = model


class UnknownLanguageError(UserError):
    """No toolchain is configured for the requested language."""

    def __init__(self, language: str, known: list[str]) -> None:
        super().__init__(
            f"no toolchain for language {language!r}",
            hint=f"use one of: {', '.join(sorted(known))}, or add [toolchains.{language}] "
            "to codeproof.toml",
        )
        self.language = language
        self.known = known


class RuntimeFailure(CodeproofError):
    """Something outside the user's input failed."""

    exit_code = 1


class NoGrammarError(RuntimeFailure):
    """Code of a language was to be parsed, and no syntax grammar provides that language."""

    def __init__(self, language: str, known: list[str]) -> None:
        super().__init__(
            f"no syntax grammar for language {language!r}",
            hint=f"loaded: {', '.join(sorted(known)) or 'none'}; a language provides one as "
            "GRAMMAR in codeproof.languages.<name>.syntax",
        )
        self.language = language
        self.known = known


class LLMError(RuntimeFailure):
    """A model provider failed."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        hint: str | None = None,
        status_code: int | None = None,
    ) -> None:
        super().__init__(f"[{provider}] {message}", hint=hint)
        self.provider = provider
        self.status_code = status_code


class ProviderUnreachableError(LLMError):
    """The provider's endpoint could not be reached."""


class AuthenticationError(LLMError):
    """The provider rejected the credentials."""


class ProviderTimeoutError(LLMError):
    """The provider did not answer in time."""


class ContextLengthError(LLMError):
    """The prompt and requested output do not fit the model's context window."""


class ProviderResponseError(LLMError):
    """The provider answered with an error not covered by a more specific class."""


class ModelRequestForbiddenError(LLMError):
    """A real model request was made while real requests are switched off (tests)."""


class StructuredOutputError(LLMError):
    """The model's reply did not validate against the schema, even after a re-ask."""

    def __init__(self, message: str, *, provider: str, raw: str, schema: str) -> None:
        super().__init__(
            message,
            provider=provider,
            hint="retry, use a larger model, or simplify the request",
        )
        self.raw = raw
        self.schema = schema


class ModelIntegrityError(RuntimeFailure):
    """Model weights failed verification (size or sha256)."""

    def __init__(self, message: str, *, path: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.path = path


class DownloadError(RuntimeFailure):
    """Downloading model weights failed."""

    def __init__(self, message: str, *, url: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.url = url


class SandboxError(RuntimeFailure):
    """The sandbox failed to run something (not the code's own failure)."""

    def __init__(self, message: str, *, backend: str, hint: str | None = None) -> None:
        super().__init__(f"[sandbox:{backend}] {message}", hint=hint)
        self.backend = backend


class SandboxUnavailableError(SandboxError):
    """No sandbox backend (or image) is usable."""


class ToolchainError(RuntimeFailure):
    """A toolchain MCP server failed or answered unexpectedly."""

    def __init__(self, message: str, *, language: str, hint: str | None = None) -> None:
        super().__init__(f"[toolchain:{language}] {message}", hint=hint)
        self.language = language


class ScanError(RuntimeFailure):
    """A security scanner could not run (not a finding in the scanned code)."""

    def __init__(self, message: str, *, tool: str, hint: str | None = None) -> None:
        super().__init__(f"[scan:{tool}] {message}", hint=hint)
        self.tool = tool


class RetrievalError(RuntimeFailure):
    """The retrieval index or the embedding model failed (not the user's input)."""

    def __init__(self, message: str, *, index_dir: str | None = None, hint: str | None = None):
        super().__init__(message, hint=hint)
        self.index_dir = index_dir


class WorkflowError(RuntimeFailure):
    """A workflow run cannot continue; it stays resumable."""

    def __init__(self, message: str, *, run_id: str | None = None, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.run_id = run_id
