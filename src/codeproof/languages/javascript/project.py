"""A finished Node.js project: Dockerfile, package.json and README text."""

from __future__ import annotations

import json
import re

from codeproof.core.types import Spec
from codeproof.languages.base import Project

DOCKERFILE = """\
FROM node:20-slim
WORKDIR /app
COPY . .
CMD ["node", "--test"]
"""


def package_name(title: str) -> str:
    """An npm package name from a title: lower case words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "codeproof-project"


def _extras(spec: Spec) -> dict[str, str]:
    package = {
        "name": package_name(spec.title),
        "version": "0.1.0",
        "private": True,
        "description": spec.summary,
        "scripts": {"test": "node --test"},
    }
    return {"package.json": json.dumps(package, indent=2) + "\n"}


PROJECT = Project(
    dockerfile=DOCKERFILE,
    extras=_extras,
    install="Requires Node.js 20+. There are no dependencies to install.",
    run_tests="node --test",
)
