"""A finished Python project: Dockerfile, extra files and README text."""

from __future__ import annotations

from codeproof.core.types import Spec
from codeproof.languages.base import Project

DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /app
RUN python -m pip install --no-cache-dir pytest
COPY . .
CMD ["python", "-m", "pytest", "-q"]
"""


def _extras(spec: Spec) -> dict[str, str]:
    return {"requirements-dev.txt": "pytest\n"}


PROJECT = Project(
    dockerfile=DOCKERFILE,
    extras=_extras,
    install="Requires Python 3.11+. The code has no third-party dependencies; the tests "
    "need pytest:\n\n```bash\npython -m pip install pytest\n```",
    run_tests="python -m pytest",
)
