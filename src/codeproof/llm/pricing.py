"""Price table of well-known hosted models, in USD per million tokens.

Local models cost nothing. Unknown hosted models are priced 0 (and logged once at
debug level), because a wrong guess is worse than a visible zero.
"""

from __future__ import annotations

import logging

from codeproof.llm.base import Usage

logger = logging.getLogger(__name__)

#: (input, output) USD per 1M tokens, keyed by provider then model-name prefix.
#: The longest matching prefix wins, so dated snapshots ("gpt-4o-2024-08-06") match.
PRICES: dict[str, dict[str, tuple[float, float]]] = {
    "openai": {
        "gpt-4o": (2.50, 10.00),
        "gpt-4o-mini": (0.15, 0.60),
        "gpt-4.1": (2.00, 8.00),
        "gpt-4.1-mini": (0.40, 1.60),
        "gpt-4.1-nano": (0.10, 0.40),
        "o3-mini": (1.10, 4.40),
        "o4-mini": (1.10, 4.40),
    },
    "anthropic": {
        "claude-3-5-haiku": (0.80, 4.00),
        "claude-3-5-sonnet": (3.00, 15.00),
        "claude-3-7-sonnet": (3.00, 15.00),
        "claude-sonnet-4": (3.00, 15.00),
        "claude-opus-4": (15.00, 75.00),
        "claude-3-haiku": (0.25, 1.25),
    },
}


def price_per_million(provider: str, model: str) -> tuple[float, float]:
    """(input, output) price per million tokens; (0, 0) when unknown or local."""
    table = PRICES.get(provider, {})
    matches = [prefix for prefix in table if model.startswith(prefix)]
    if not matches:
        if table:
            logger.debug("no price known for %s model %r; counting 0", provider, model)
        return (0.0, 0.0)
    return table[max(matches, key=len)]


def cost_usd(provider: str, model: str, usage: Usage) -> float:
    """Cost of one call in USD."""
    inp, out = price_per_million(provider, model)
    return (usage.prompt_tokens * inp + usage.completion_tokens * out) / 1_000_000
