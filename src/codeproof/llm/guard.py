"""A process-wide switch that forbids real model requests.

Tests switch real requests off for the whole session (see ``tests/conftest.py``) so
that nothing reaches a model by accident; a test that needs a real model opts in with
the ``allow_model`` fixture. Every real provider calls
:func:`ensure_real_requests_allowed` before each request. The CLI leaves the switch
on (the default).
"""

from __future__ import annotations

import threading

from codeproof.core.errors import ModelRequestForbiddenError

_lock = threading.Lock()
_allowed = True


def set_real_requests_allowed(allowed: bool) -> None:
    """Allow or forbid real model requests in this process."""
    global _allowed
    with _lock:
        _allowed = allowed


def real_requests_allowed() -> bool:
    """Whether real model requests are currently allowed."""
    with _lock:
        return _allowed


def ensure_real_requests_allowed(provider: str) -> None:
    """Raise if real model requests are forbidden.

    Raises:
        ModelRequestForbiddenError: Real requests are switched off.
    """
    if not real_requests_allowed():
        raise ModelRequestForbiddenError(
            "a real model request was made while real requests are forbidden",
            provider=provider,
            hint="use FakeModel in this test, or request the `allow_model` fixture and mark "
            "the test `real_model`",
        )
