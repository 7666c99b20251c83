"""The documenter: README and API reference of the output project.

Everything checkable is derived from the artefacts: signatures are read from the code
(:mod:`codeproof.languages.signatures`) and usage examples are the bodies of tests that
PASSED. The model only writes short descriptions (small JSON, no code).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from codeproof.agents.prompting import bullets, clip, conversation, join_sections, section
from codeproof.core.errors import StructuredOutputError
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Docs, Spec
from codeproof.languages import registry
from codeproof.languages.base import Project
from codeproof.languages.reading import Example, Signature
from codeproof.languages.registry import layout_for
from codeproof.languages.signatures import examples, imports_of, signatures
from codeproof.llm.base import ChatModel

logger = logging.getLogger(__name__)

MAX_EXAMPLES = 3

DESCRIBE_SYSTEM = """You write short documentation for a code module.
"summary": one or two sentences on what the module does.
"items": for each listed signature, its name and one sentence on what it does.
Plain sentences only, no code."""


class ItemNote(BaseModel):
    """A description of one public name."""

    name: str
    description: str


class ModuleNotes(BaseModel):
    """What the model writes about one module."""

    summary: str = Field(description="One or two sentences.")
    items: list[ItemNote] = Field(default_factory=list)


def document(model: ChatModel, spec: Spec, modules: list[ModuleOutcome]) -> Docs:
    """Write the README and the API reference of a run's modules."""
    notes = {o.module.name: describe(model, o) for o in modules}
    return Docs(readme=render_readme(spec, modules, notes), api=render_api(modules, notes))


def describe(model: ChatModel, outcome: ModuleOutcome) -> ModuleNotes:
    """The model's descriptions of a module (its purpose when the model fails)."""
    fallback = ModuleNotes(summary=outcome.module.purpose)
    sigs = signatures(outcome.files, outcome.module.language)
    if not outcome.files:
        return fallback
    code = "\n\n".join(clip(c, 2500) for c in outcome.files.values())
    user = join_sections(
        f"Module `{outcome.module.name}`: {outcome.module.purpose}",
        section("Signatures", bullets(s.signature for s in sigs)),
        section("Code", code),
    )
    try:
        notes = model.generate(conversation(DESCRIBE_SYSTEM, user), ModuleNotes)
    except StructuredOutputError as exc:
        logger.warning("document: no valid description of %s (%s)", outcome.module.name, exc)
        return fallback
    summary = notes.summary.strip() or outcome.module.purpose
    return ModuleNotes(summary=summary, items=[i for i in notes.items if i.description.strip()])


def passing_examples(outcome: ModuleOutcome, limit: int = MAX_EXAMPLES) -> list[Example]:
    """Bodies of tests that passed in the module's final report, shortest first."""
    if outcome.report is None:
        return []
    passed = {_case_name(t.name) for t in outcome.report.tests if t.outcome == "passed"}
    found = [
        ex
        for ex in examples(outcome.tests, outcome.module.language)
        if _case_name(ex.name) in passed
    ]
    return sorted(found, key=lambda ex: len(ex.code))[:limit]


def _case_name(name: str) -> str:
    """Normalize a test name across reporters: ``test_x.py::test_a[1]`` -> ``test_a``."""
    base = name.split("[", 1)[0].strip()
    base = re.sub(r"\(\)$", "", base)
    return re.split(r"::|\.|/|#", base)[-1].strip() if not re.search(r"\s", base) else base


def _imports_of(outcome: ModuleOutcome) -> list[str]:
    """The test files' lines that load the module (they make the examples runnable)."""
    found = imports_of(outcome.tests, outcome.module.name, outcome.module.language)
    return ["\n".join(found)] if found else []


def _status_table(modules: Sequence[ModuleOutcome]) -> str:
    rows = ["| Module | Status | Tests passed | Attempts |", "| --- | --- | --- | --- |"]
    for o in modules:
        tests = f"{o.report.passed}/{o.report.total}" if o.report else "-"
        rows.append(f"| `{o.module.name}` | {o.status} | {tests} | {o.attempts} |")
    return "\n".join(rows)


def _usage(outcome: ModuleOutcome, notes: ModuleNotes) -> str:
    lang = layout_for(outcome.module.language)
    shown = passing_examples(outcome)
    code = "\n\n".join([*_imports_of(outcome), *(ex.code for ex in shown)])
    blocks = f"```{lang.fence_tag}\n{code}\n```" if shown else ""
    if outcome.status == "weak" and not (outcome.report and outcome.report.total):
        warning = (
            "> Status: **weak** — no test of its own was left to run (every designed test "
            "was set aside; see the Proof section of codeproof-report.md); use with care."
        )
    elif outcome.status == "weak":
        warning = (
            "> Status: **weak** — its tests pass, but they are weak evidence "
            "(see the Proof section of codeproof-report.md); use with care."
        )
    elif outcome.status != "passed":
        warning = f"> Status: **{outcome.status}** — not every test passed; use with care."
    else:
        warning = ""
    return join_sections(
        f"### `{outcome.module.name}`",
        notes.summary,
        warning,
        f"Examples (from passing tests):\n\n{blocks}" if blocks else "",
    )


def _heading(title: str, body: str) -> str:
    return f"## {title}\n\n{body.strip()}" if body.strip() else ""


def _project(language: str) -> Project | None:
    found = registry.find(language)
    return found.project if found is not None else None


def _tests_howto(language: str) -> str:
    project = _project(language)
    command = project.run_tests if project is not None else ""
    return (
        f"```bash\n{command}\n```\n\nOr in Docker:\n\n```bash\n"
        "docker build -t codeproof-project .\ndocker run --rm codeproof-project\n```"
    )


def render_readme(
    spec: Spec, modules: Sequence[ModuleOutcome], notes: Mapping[str, ModuleNotes]
) -> str:
    """The README: what, status, install, usage with passing-test examples, tests."""
    files = [p for o in modules for p in [*o.files, *o.tests]]
    project = _project(spec.language)
    usage = [_usage(o, notes.get(o.module.name, ModuleNotes(summary=""))) for o in modules]
    body = join_sections(
        f"# {spec.title}",
        spec.summary,
        _heading("Status", _status_table(modules)),
        _heading("Features", bullets(spec.functional_requirements)),
        _heading("Install", project.install if project is not None else ""),
        _heading("Usage", "\n\n".join(usage)),
        _heading("Running the tests", _tests_howto(spec.language)),
        _heading("Files", bullets(f"`{p}`" for p in files)),
        _heading("Assumptions", bullets(spec.assumptions)),
        "See `docs/api.md` for the API reference and `codeproof-report.md` for how this "
        "project was generated and verified.",
    )
    return body + "\n"


def _api_module(outcome: ModuleOutcome, notes: ModuleNotes) -> str:
    described = {i.name.split(".")[-1].split("(")[0].strip(): i.description for i in notes.items}
    entries = []
    for sig in signatures(outcome.files, outcome.module.language):
        text = described.get(sig.name.split(".")[-1]) or sig.doc
        entries.append(_api_entry(sig, text))
    return join_sections(
        f"## `{outcome.module.name}` ({outcome.module.language}, {outcome.status})",
        notes.summary,
        f"Files: {', '.join(f'`{p}`' for p in outcome.files) or '-'}",
        "\n\n".join(entries) or "_No public signatures found._",
    )


def _api_entry(sig: Signature, description: str) -> str:
    return join_sections(f"### `{sig.signature}`", description.strip())


def render_api(modules: Sequence[ModuleOutcome], notes: Mapping[str, ModuleNotes]) -> str:
    """The API reference: per module, every public signature with a description."""
    parts = [
        _api_module(o, notes.get(o.module.name, ModuleNotes(summary=o.module.purpose)))
        for o in modules
    ]
    return join_sections("# API reference", *parts) + "\n"
