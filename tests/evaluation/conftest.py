"""Fixtures of the evaluation tests: a Docker-backed scorer, tiny datasets."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from codeproof.core.config import Settings, load_settings
from codeproof.evaluation.datasets import Task, load_jsonl
from codeproof.evaluation.scoring import Scorer
from codeproof.sandbox.docker_backend import DockerSandbox
from codeproof.sandbox.registry import limits_from_settings, open_session

TINY_TASKS = [
    {
        "task_id": "tiny/add",
        "prompt": 'def add(a: int, b: int) -> int:\n    """Return a + b.\n    >>> add(2, 3)\n'
        '    5\n    """\n',
        "entry_point": "add",
        "test": "def check(candidate):\n    assert candidate(2, 3) == 5\n"
        "    assert candidate(-1, 1) == 0\n",
        "canonical_solution": "    return a + b\n",
    },
    {
        "task_id": "tiny/is_even",
        "prompt": 'def is_even(n: int) -> bool:\n    """True when n is even.\n'
        '    >>> is_even(4)\n    True\n    """\n',
        "entry_point": "is_even",
        "test": "def check(candidate):\n    assert candidate(4) is True\n"
        "    assert candidate(7) is False\n    assert candidate(0) is True\n",
        "canonical_solution": "    return n % 2 == 0\n",
    },
]


@pytest.fixture(scope="session")
def eval_settings() -> Settings:
    return load_settings()


@pytest.fixture(scope="session")
def docker_ready(eval_settings: Settings) -> Settings:
    """Settings forcing the Docker backend; skips only when no daemon answers."""
    if not DockerSandbox(eval_settings).available():
        pytest.skip("no Docker daemon reachable")
    return eval_settings.model_copy(
        update={"sandbox": eval_settings.sandbox.model_copy(update={"backend": "docker"})}
    )


@pytest.fixture
def make_scorer(docker_ready: Settings) -> Iterator[Callable[..., Scorer]]:
    """Scorers on the Docker sandbox, closed at teardown."""
    scorers: list[Scorer] = []

    def make(timeout_s: float = 20.0) -> Scorer:
        scorer = Scorer(
            lambda language, limits: open_session(docker_ready, language, limits),
            timeout_s=timeout_s,
            limits=limits_from_settings(docker_ready),
        )
        scorers.append(scorer)
        return scorer

    yield make
    for scorer in scorers:
        scorer.close()


@pytest.fixture
def tiny_dataset(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in TINY_TASKS) + "\n")
    return path


@pytest.fixture
def tiny_tasks(tiny_dataset: Path) -> list[Task]:
    return load_jsonl(tiny_dataset)
