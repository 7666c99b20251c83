"""Structured outputs of the agents (pydantic models shared by agents and workflow)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class QA(BaseModel):
    """A clarifying question and the user's answer."""

    question: str
    answer: str


class Clarification(BaseModel):
    """Intake: either ready to proceed, or questions for the user."""

    reply: str = Field(description="One or two sentences engaging with the request.")
    ready: bool = Field(description="True when the request is clear enough to specify.")
    questions: list[str] = Field(default_factory=list, description="At most 3 questions.")
    assumptions: list[str] = Field(
        default_factory=list, description="What will be assumed if the user says proceed."
    )


class Spec(BaseModel):
    """The structured requirements specification."""

    title: str
    summary: str
    language: str = Field(description="python, javascript or java")
    functional_requirements: list[str] = Field(default_factory=list)
    interfaces: list[str] = Field(
        default_factory=list, description="Signatures, CLI usage or API endpoints."
    )
    constraints: list[str] = Field(default_factory=list)
    acceptance_examples: list[str] = Field(
        default_factory=list, description="Concrete input -> expected output examples."
    )
    assumptions: list[str] = Field(default_factory=list)


class Module(BaseModel):
    """One unit of work; modules are built in dependency order."""

    name: str = Field(description="Identifier-safe module name, e.g. 'slugify'.")
    purpose: str
    language: str
    depends_on: list[str] = Field(default_factory=list)
    public_interface: str = Field(description="The functions/classes other code uses.")


class ModuleList(BaseModel):
    """Modules proposed for a spec."""

    modules: list[Module]


class ModulePlan(BaseModel):
    """The steps to build one module."""

    steps: list[str]


class SourceFile(BaseModel):
    """A file path (relative, per the toolchain conventions) and its content."""

    path: str
    content: str


class CodeDraft(BaseModel):
    """The programmer's output."""

    files: list[SourceFile]
    notes: str = ""


class TestDraft(BaseModel):
    """The test designer's output (written without seeing the code)."""

    __test__ = False

    files: list[SourceFile]
    notes: str = ""


class RepairResult(BaseModel):
    """The repairer's output."""

    files: list[SourceFile] = Field(description="Full new content of changed source files.")
    test_files: list[SourceFile] = Field(
        default_factory=list,
        description="Changed test files; only when a test contradicts the spec.",
    )
    test_change_reason: str | None = Field(
        default=None, description="Why the test contradicts the spec (required with test_files)."
    )
    change_summary: str = Field(description="What this attempt changed and why.")


class Docs(BaseModel):
    """Documentation generated at the end."""

    readme: str
    api: str
