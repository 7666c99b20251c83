"""Shared fixtures. Real model requests are forbidden unless a test opts in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from codeproof.llm.guard import real_requests_allowed, set_real_requests_allowed

if TYPE_CHECKING:
    from codeproof.llm.local import LocalChatModel


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


DOCKER_FIXTURES = frozenset(
    {
        "real_toolchains",
        "docker_ready",
        "make_scorer",
        "docker_daemon",
        "python_toolchain",
        "javascript_toolchain",
        "java_toolchain",
    }
)
"""Fixtures that need the Docker sandbox: their tests are marked ``docker``."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test using a Docker fixture ``docker`` (the fast lane deselects them)."""
    for item in items:
        if DOCKER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.docker)


SMALL_MODEL = "qwen2.5-coder-0.5b"


@pytest.fixture(scope="session")
def small_model_path() -> Path:
    """Path of the pulled 0.5B GGUF (``make test`` pulls it); skips when absent."""
    from codeproof.core.config import load_settings
    from codeproof.core.errors import ModelNotFoundError
    from codeproof.llm.models import ModelManager

    try:
        return ModelManager(load_settings().models_dir).resolve(SMALL_MODEL)
    except ModelNotFoundError:
        pytest.skip(f"{SMALL_MODEL} not pulled: run `codeproof models pull {SMALL_MODEL}`")


@pytest.fixture(scope="session")
def small_local_model(small_model_path: Path) -> Iterator[LocalChatModel]:
    """ONE started local provider (0.5B, 4096 tokens a slot, 2 slots, no cache) for real tests.

    Requests still need the ``allow_model`` fixture.
    """
    from codeproof.llm.local import LocalChatModel

    model = LocalChatModel(
        model=SMALL_MODEL, resolve=lambda _: small_model_path, ctx_size=8192, slots=2
    )
    model.start()
    yield model
    model.close()


@pytest.fixture(scope="session")
def shared_benchmarks() -> Path:
    """The shared benchmark data (``shared/benchmarks``); a test needing it fails with one
    line saying where it was looked for and how to point at it."""
    from codeproof.core.errors import InputError
    from codeproof.evaluation.datasets import find_data_dir

    try:
        return find_data_dir()
    except InputError:
        pytest.fail(
            "this test reads HumanEval-X from shared/benchmarks, which is not beside the "
            "checkout or the working directory: put it there, or point at it with "
            "CODEPROOF_EVALUATION__DATA_DIR (codeproof eval --data-dir)",
            pytrace=False,
        )
