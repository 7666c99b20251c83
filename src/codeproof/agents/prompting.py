"""Small helpers shared by the agents' prompts (rendering specs, files, lists)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from codeproof.core.types import QA, Module, Spec
from codeproof.languages.fences import render_file
from codeproof.languages.layout import Layout
from codeproof.llm.base import Message


def bullets(items: Iterable[str], *, prefix: str = "- ") -> str:
    """One line per non-empty item."""
    return "\n".join(f"{prefix}{item.strip()}" for item in items if item.strip())


def section(title: str, body: str) -> str:
    """``Title:\\nbody`` or an empty string when ``body`` is empty."""
    return f"{title}:\n{body}" if body.strip() else ""


def join_sections(*parts: str) -> str:
    """Non-empty parts separated by blank lines."""
    return "\n\n".join(p for p in parts if p.strip())


def render_answers(answers: Iterable[QA]) -> str:
    """The clarifying questions and answers, one pair per two lines."""
    return "\n".join(f"Q: {qa.question.strip()}\nA: {qa.answer.strip()}" for qa in answers)


def render_spec(spec: Spec, *, examples: bool = True) -> str:
    """The specification as compact text for a prompt."""
    return join_sections(
        f"Task: {spec.title}\n{spec.summary}",
        section("Requirements", bullets(spec.functional_requirements)),
        section("Interfaces", bullets(spec.interfaces)),
        section("Constraints", bullets(spec.constraints)),
        section("Examples", bullets(spec.acceptance_examples)) if examples else "",
        section("Assumptions", bullets(spec.assumptions)),
    )


def render_module(module: Module) -> str:
    """What a module is for and what it exposes."""
    return join_sections(
        f"Module `{module.name}`: {module.purpose}",
        section("Public interface", module.public_interface),
    )


def clip(text: str, limit: int, *, tail: bool = False) -> str:
    """At most ``limit`` characters of ``text`` (the head, or the tail)."""
    if len(text) <= limit:
        return text
    return "...\n" + text[-limit:] if tail else text[:limit] + "\n..."


def render_files(files: Mapping[str, str], layout: Layout, *, limit: int = 6000) -> str:
    """Files in the reply format, each clipped to ``limit`` characters."""
    return "\n\n".join(
        render_file(path, clip(content, limit), layout) for path, content in files.items()
    )


def conversation(system: str, user: str) -> list[Message]:
    """A system message and a user message."""
    return [Message(role="system", content=system), Message(role="user", content=user)]
