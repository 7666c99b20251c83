"""The one settings object of codeproof.

Precedence, highest first: explicit overrides (CLI flags) > environment variables
``CODEPROOF_*`` (nested keys joined by ``__``, e.g. ``CODEPROOF_LLM__PROVIDER``) >
``codeproof.toml`` in the working directory > ``~/.config/codeproof/config.toml`` >
defaults. Every key is documented in ``docs/configuration.md``.

This is the only module that reads environment variables.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from codeproof.core.errors import ConfigError

PROJECT_CONFIG_NAME = "codeproof.toml"
PROVIDER_KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
"""Conventional API-key variables used when ``llm.api_key`` is not set."""


def _default_home() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "codeproof"


def user_config_path() -> Path:
    """Path of the per-user configuration file."""
    xdg = os.environ.get("XDG_CONFIG_HOME")
    base = Path(xdg) if xdg else Path.home() / ".config"
    return base / "codeproof" / "config.toml"


class _Section(BaseModel):
    """A settings section; unknown keys are errors (typos must not pass silently)."""

    model_config = ConfigDict(extra="forbid")


class LLMSettings(_Section):
    """Model provider settings."""

    provider: str = "local"
    model: str = "qwen2.5-coder-1.5b"
    base_url: str | None = None
    api_key: str | None = None
    temperature: float = Field(0.0, ge=0.0)
    max_tokens: int = Field(1024, ge=1)
    timeout_s: float = Field(300.0, gt=0)
    max_retries: int = Field(3, ge=0)
    cache: bool = True
    # local (embedded llama.cpp) only
    threads: int | None = Field(None, ge=1)
    slots: int = Field(2, ge=1)
    ctx_size: int = Field(8192, ge=512)
    speculative: Literal["none", "ngram"] = "ngram"
    """Speculative decoding of the local model: ``ngram`` drafts tokens from the context
    (measured on this machine: BENCHMARKS.md, speed levers)."""


class SandboxSettings(_Section):
    """Sandbox settings (limits apply per session)."""

    backend: Literal["auto", "docker", "bubblewrap", "unsafe-local"] = "auto"
    timeout_s: float = 60.0
    memory: str = "512m"
    cpus: float = 1.0
    pids: int = 256
    output_limit: int = 1_000_000
    disk: str = "256m"
    debian_mirror: str | None = None
    warm: bool = True
    """Toolchain servers start each call's fresh session ahead of the call (one idle
    spare per language and limits): a Docker container start per test run is off the
    critical path. ``false`` starts each session when its call comes."""
    cache: bool = True
    """Identical test and program runs (same files, arguments, image, limits and
    toolchain code) are answered from the result cache; runs that timed out or came
    close to a limit are never kept (``codeproof.toolchains.cache``)."""


class ToolchainServer(_Section):
    """How to start one toolchain MCP server, and (for a language codeproof has no
    package for) where its modules and tests go."""

    command: list[str]
    env: dict[str, str] = Field(default_factory=dict)
    source_path: str = "{module}.txt"
    """Where a module's source goes (``{module}`` is replaced), e.g. ``{module}.go``."""
    test_path: str = "test_{module}.txt"
    """Where its tests go, e.g. ``{module}_test.go``."""
    fence: str = ""
    """The fence tag models write for the language (default: its name)."""


class WorkflowSettings(_Section):
    """Workflow settings."""

    max_attempts: int = 5
    on_failure: Literal["ask", "continue", "stop"] = "ask"
    max_clarify_rounds: int = 3
    candidates: int = Field(default=7, ge=1)
    """The most drafts the evidence ladder may write per module. The first draft answers
    the user's words as one call would; more are drawn, two at a time, only while the
    evidence is against the current choice (a stated example missed, a crash, failing
    tests). 1: never more than the first."""
    probe_inputs: int = Field(default=10, ge=0, le=40)
    """Edge-case inputs the input designer proposes once drafts are drawn, on which the
    drafts' outputs are compared besides the tests' own inputs (0: the tests' inputs only)."""
    whole_draft: bool = True
    """Each module's first draft is its file of one greedy call answering the whole
    request, as one call would (a module that call left out gets a call of its own): the
    pipeline starts from what one call gives. Off: every module's first draft is its own
    call, written from the planned module. Not used with ``--project`` or retrieval."""


class ProofSettings(_Section):
    """The proof of each module's tests: mutation analysis, added checks, questions
    (docs/proof.md). The same settings serve ``codeproof new`` and ``codeproof eval``."""

    enabled: bool = True
    """Measure the tests' strength; off, no module is reported ``passed``, only ``weak``."""
    mutants: int = Field(default=40, ge=0)
    """Code mutants run at most per module (spread over the operators)."""
    budget_s: float = Field(default=120.0, ge=0)
    """The time box of one module's mutation analysis (sandbox runs of mutants)."""
    questions: int = Field(default=3, ge=0)
    """Questions on the drafts' disagreements per module at most (``--yes``: assumed)."""
    read_defaults: bool = True
    """A question's default is the answer a short model call reads in the request, where
    it names one in two orders; off, it is what most drafts give."""
    drafts: int = Field(default=3, ge=1)
    """Drafts whose outputs the proof compares: green code from fewer gets one more rung
    of drafts first (1: never)."""

    def engine_options(self) -> dict[str, Any]:
        """These settings as ``codeproof.engine.context.EngineOptions`` fields."""
        return {
            "proof": self.enabled,
            "mutants": self.mutants,
            "proof_budget_s": self.budget_s,
            "questions": self.questions,
            "read_defaults": self.read_defaults,
            "proof_drafts": self.drafts,
        }


class EvaluationSettings(_Section):
    """``codeproof eval`` settings."""

    data_dir: Path | None = None
    """The shared benchmark directory; default: ``shared/benchmarks`` beside the checkout."""
    task_timeout_s: float = Field(default=20.0, gt=0)
    """Time limit of one task's hidden test when scoring."""


class ServerSettings(_Section):
    """``codeproof serve`` settings (HTTP API, web page, MCP over HTTP)."""

    host: str = "127.0.0.1"
    port: int = Field(default=8123, ge=0, le=65535)
    workers: int | None = Field(default=None, ge=1)
    """Runs executing at once; ``None``: one per model slot (``llm.slots``)."""
    require_auth: bool = False
    """Ask for an API token even while none was created (then every request fails)."""
    max_request_chars: int = Field(default=20_000, ge=1)
    max_body_bytes: int = Field(default=2_000_000, ge=1024)
    runs_per_minute: int = Field(default=30, ge=1)
    """Runs one user may create per minute (answers included)."""
    max_active_runs: int = Field(default=4, ge=1)
    """Runs of one user pending or running at once."""
    session_hours: float = Field(default=12.0, gt=0)
    """Lifetime of a web page session."""
    eval_dirs: list[Path] = Field(default_factory=list)
    """``codeproof eval`` output directories (or folders of them) the eval page shows."""


class RetrievalSettings(_Section):
    """The retrieval index (``codeproof index``, ``codeproof search``) and agent grounding."""

    index_dir: Path | None = None
    """Where the index lives; default: ``<home>/index``."""
    enabled: bool = True
    """Ground the planner, programmer and repairer in the index when it holds a source
    (or with ``--project``); ``--no-retrieval`` turns it off for one run."""
    store: str = "lancedb"
    """The store implementation (``lancedb``; ``memory`` keeps nothing on disk)."""
    embedder: str = "minilm"
    """``minilm`` (all-MiniLM-L6-v2, int8 ONNX, local) or ``openai`` (any
    OpenAI-compatible ``/embeddings`` endpoint)."""
    embedding_model: str = "text-embedding-3-small"
    """The model name sent to an ``openai`` embedder."""
    embedding_base_url: str | None = None
    """The ``openai`` embedder's endpoint (default: ``llm.base_url``)."""
    embedding_api_key: str | None = None
    """The ``openai`` embedder's key (default: ``llm.api_key``)."""
    batch_size: int = Field(default=32, ge=1, le=1024)
    """Texts per embedding call."""
    top_k: int = Field(default=6, ge=1, le=50)
    """Chunks given to an agent per step."""
    max_context_chars: int = Field(default=6000, ge=500)
    """The budget of retrieved text in one prompt."""
    max_file_bytes: int = Field(default=400_000, ge=1000)
    """Larger files are skipped when indexing."""


class Settings(BaseSettings):
    """All codeproof settings. Build with :func:`load_settings`."""

    model_config = SettingsConfigDict(
        env_prefix="CODEPROOF_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_default=True,
    )

    home: Path = Field(default_factory=_default_home)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "WARNING"
    llm: LLMSettings = Field(default_factory=LLMSettings)
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    toolchains: dict[str, ToolchainServer] = Field(default_factory=dict)
    workflow: WorkflowSettings = Field(default_factory=WorkflowSettings)
    proof: ProofSettings = Field(default_factory=ProofSettings)
    evaluation: EvaluationSettings = Field(default_factory=EvaluationSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)

    @property
    def models_dir(self) -> Path:
        """Where assembled or downloaded GGUF files live."""
        return self.home / "models"

    @property
    def cache_db(self) -> Path:
        """SQLite file of the LLM response cache."""
        return self.home / "cache.sqlite3"

    @property
    def index_dir(self) -> Path:
        """Where the retrieval index lives."""
        return self.retrieval.index_dir or self.home / "index"

    @property
    def runs_dir(self) -> Path:
        """Where workflow runs (checkpoints, audit trail) are stored."""
        return self.home / "runs"

    @property
    def projects_dir(self) -> Path:
        """Where the server writes the projects of its runs (one folder per thread)."""
        return self.home / "projects"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return (
            init_settings,
            env_settings,
            TomlConfigSettingsSource(settings_cls, toml_file=Path.cwd() / PROJECT_CONFIG_NAME),
            TomlConfigSettingsSource(settings_cls, toml_file=user_config_path()),
        )


def _drop_none(overrides: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in overrides.items():
        if isinstance(value, dict):
            nested = _drop_none(value)
            if nested:
                out[key] = nested
        elif value is not None:
            out[key] = value
    return out


def load_settings(**overrides: Any) -> Settings:
    """Load settings from every source.

    Args:
        **overrides: Highest-precedence values (CLI flags), nested as dicts, e.g.
            ``llm={"provider": "openai"}``. ``None`` values are ignored so that unset
            flags do not mask lower sources.

    Raises:
        ConfigError: A source holds an invalid value or malformed TOML.
    """
    try:
        settings = Settings(**_drop_none(overrides))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            f"invalid setting {where!r}: {first['msg']}",
            hint=f"fix it in {PROJECT_CONFIG_NAME}, {user_config_path()} or CODEPROOF_* "
            "(see docs/configuration.md)",
        ) from exc
    except ValueError as exc:  # malformed TOML (tomllib.TOMLDecodeError is a ValueError)
        raise ConfigError(
            f"cannot read configuration: {exc}",
            hint=f"check the TOML syntax of {PROJECT_CONFIG_NAME} or {user_config_path()}",
        ) from exc
    if settings.llm.api_key is None and settings.llm.provider in PROVIDER_KEY_VARIABLES:
        # The provider's conventional variable, for users who already have it set.
        settings.llm.api_key = os.environ.get(PROVIDER_KEY_VARIABLES[settings.llm.provider])
    return settings
