"""``codeproof doctor`` checks of the LLM layer: model file and provider reachability."""

from __future__ import annotations

import importlib.util

from codeproof.core.checks import CheckResult
from codeproof.core.config import Settings
from codeproof.core.errors import CodeproofError
from codeproof.llm.models import CATALOGUE, ModelManager


def check_model(settings: Settings) -> CheckResult:
    """The configured local model is present and its sha256 verified."""

    spec = settings.llm.model
    if settings.llm.provider != "local":
        return CheckResult("model", True, f"{spec} (served by {settings.llm.provider})")
    try:
        path = ModelManager(settings.models_dir).resolve(spec)
    except CodeproofError as exc:
        return CheckResult("model", False, exc.message, exc.hint)
    verified = "sha256 verified" if spec in CATALOGUE else "local file, no checksum"
    return CheckResult("model", True, f"{spec}: {path} ({verified})")


def check_provider(settings: Settings) -> CheckResult:
    """The configured provider can be used (local: runtime present; HTTP: endpoint answers)."""

    provider = settings.llm.provider
    if provider == "local":
        ok = importlib.util.find_spec("xllamacpp") is not None
        detail = "llama.cpp embedded (xllamacpp)" if ok else "xllamacpp is not installed"
        return CheckResult("provider", ok, detail, None if ok else "pip install xllamacpp")
    if provider == "openai":
        from codeproof.llm.openai_provider import OpenAIChatModel

        client = OpenAIChatModel(
            model=settings.llm.model, base_url=settings.llm.base_url, api_key=settings.llm.api_key
        )
        try:
            models = client.list_models(timeout_s=5.0)
        except CodeproofError as exc:
            return CheckResult("provider", False, exc.message, exc.hint)
        finally:
            client.close()
        return CheckResult("provider", True, f"{client.base_url} answers ({len(models)} models)")
    if provider == "anthropic":
        ok = importlib.util.find_spec("anthropic") is not None
        fix = None if ok else "pip install 'codeproof[anthropic]'"
        detail = "anthropic SDK installed" if ok else "anthropic SDK missing"
        return CheckResult("provider", ok, detail, fix)
    from codeproof.llm.registry import PROVIDERS

    return CheckResult(
        "provider",
        False,
        f"unknown provider {provider!r}",
        f"set llm.provider to one of: {', '.join(sorted(PROVIDERS))}",
    )
