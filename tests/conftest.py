"""Shared fixtures. Real model requests are forbidden unless a test opts in."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from codeproof.llm.guard import real_requests_allowed, set_real_requests_allowed


@pytest.fixture(autouse=True, scope="session")
def _forbid_real_model_requests() -> Iterator[None]:
    """No test reaches a real model unless it requests ``allow_model``."""
    set_real_requests_allowed(False)
    yield
    set_real_requests_allowed(True)


@pytest.fixture
def allow_model() -> Iterator[None]:
    """Allow real model requests for one test (mark it ``real_model``)."""
    before = real_requests_allowed()
    set_real_requests_allowed(True)
    yield
    set_real_requests_allowed(before)
