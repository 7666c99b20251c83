"""Assembly of the output project: sources, tests, docs, Dockerfile and the run report.

The project is written to a temporary sibling directory and renamed into place, so an
output directory is either complete or absent. An existing non-empty directory is only
replaced when it is a previous codeproof output (it holds ``codeproof-report.json``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from codeproof.core.errors import InputError
from codeproof.core.reports import (
    FailingTest,
    Finding,
    ModuleOutcome,
    ModuleReport,
    ProjectResult,
    RunReport,
    RunUsage,
)
from codeproof.core.types import Docs, Spec
from codeproof.languages import registry
from codeproof.workflow.proof_report import proof_cell, proof_section

logger = logging.getLogger(__name__)

REPORT_JSON = "codeproof-report.json"
REPORT_MD = "codeproof-report.md"


def build_report(
    report: RunReport | Mapping[str, Any], spec: Spec, outcomes: Sequence[ModuleOutcome]
) -> RunReport:
    """The run report with one line per outcome (per-module usage kept by name)."""
    base = report if isinstance(report, RunReport) else RunReport.model_validate(dict(report))
    usage: dict[str, RunUsage] = {m.name: m.usage for m in base.modules}
    modules = [ModuleReport.from_outcome(o, usage.get(o.module.name)) for o in outcomes]
    return base.model_copy(
        update={
            "modules": modules,
            "title": base.title or spec.title,
            "language": base.language or spec.language,
        }
    )


def _failing_line(f: FailingTest) -> str:
    return f"- `{f.name}`: {f.message}" if f.message else f"- `{f.name}`"


def _finding_line(f: Finding) -> str:
    where = f"{f.file}:{f.line}" if f.line else f.file
    return f"- `{where}` **{f.severity}** {f.tool} `{f.rule}`: {f.message}"


def render_report_md(report: RunReport) -> str:
    """The human-readable run report."""
    t, u = report.totals, report.usage
    lines = [
        f"# codeproof report: {report.title}",
        "",
        f"- Run: `{report.run_id or '-'}`",
        f"- Model: `{report.provider or '-'}/{report.model or '-'}`",
        f"- Language: {report.language or '-'}",
        f"- Started: {report.started_at or '-'}; finished: {report.finished_at or '-'}; "
        f"duration: {report.duration_s:.1f} s",
        "",
        "## Modules",
        "",
        "| Module | Status | Proof | Attempts | Tests passed | Findings | Test changes | Tokens |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for m in report.modules:
        lines.append(
            f"| `{m.name}` | {m.status} | {proof_cell(m)} | {m.attempts} | "
            f"{m.tests_passed}/{m.tests_total} | {len(m.findings)} | {len(m.test_changes)} | "
            f"{m.usage.total_tokens} |"
        )
    lines += [
        "",
        "## Totals",
        "",
        "| Modules | Passed | Weak | Failed | Skipped | Tests passed | Attempts | Findings |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| {t.modules} | {t.passed} | {t.weak} | {t.failed} | {t.skipped} | "
        f"{t.tests_passed}/{t.tests_total} | {t.attempts} | {t.findings} |",
        "",
        "## Model usage",
        "",
        "| Calls | Cache hits | Prompt tokens | Completion tokens | Latency (s) | Cost (USD) |",
        "| --- | --- | --- | --- | --- | --- |",
        f"| {u.calls} | {u.cache_hits} | {u.prompt_tokens} | {u.completion_tokens} | "
        f"{u.latency_s:.1f} | {u.cost_usd:.4f} |",
    ]
    lines += _details(
        "Failing tests",
        {m.name: [_failing_line(f) for f in m.failing] for m in report.modules},
    )
    lines += proof_section(report.modules)
    lines += _details(
        "Security findings",
        {m.name: [_finding_line(f) for f in m.findings] for m in report.modules},
    )
    lines += _details(
        "Test changes", {m.name: [f"- {c}" for c in m.test_changes] for m in report.modules}
    )
    if report.project is not None:
        lines += _project_lines(report.project)
    if report.retrieved:
        lines += ["", "## Retrieved context", "", "| Step | Module | Ref | Chunk | Symbol |"]
        lines.append("| --- | --- | --- | --- | --- |")
        lines += [
            f"| {c.step} | {c.module or '-'} | [{c.ref}] | `{c.where}` | {c.symbol} |"
            for c in report.retrieved
        ]
    return "\n".join(lines) + "\n"


def _project_lines(p: ProjectResult) -> list[str]:
    where = (
        f"on branch `{p.branch}`, commit `{p.commit[:12]}`" if p.branch
        else f"in place; replaced files backed up in `{p.backup_dir}`" if p.backup_dir
        else "in place"
    )  # fmt: skip
    state = f"written {where}" if p.applied else (p.reason or "not written")
    lines = ["", "## Changes to the project", "", f"`{p.root}`: {state}.", ""]
    lines += [f"- {c.action} `{c.path}` ({c.module})" for c in p.changes] or ["- none"]
    lines += [
        "",
        f"Existing tests: {p.existing_tests_passed_before} passed before the run, "
        f"{p.existing_tests_still_passing} of them pass after it; new tests in the "
        f"project: {p.new_tests_passed}/{p.new_tests_total} passed.",
    ]
    return lines


def _details(title: str, per_module: Mapping[str, list[str]]) -> list[str]:
    out = ["", f"## {title}", ""]
    shown = {name: items for name, items in per_module.items() if items}
    if not shown:
        return [*out, "None."]
    for name, items in shown.items():
        out += [f"### `{name}`", "", *items, ""]
    return out[:-1]


def project_files(
    spec: Spec, outcomes: Sequence[ModuleOutcome], docs: Docs, report: RunReport
) -> dict[str, str]:
    """Every file of the output project, path -> content."""
    language = registry.find(spec.language)
    template = language.project if language is not None else None
    generated: dict[str, str] = {
        "README.md": docs.readme,
        "docs/api.md": docs.api,
        REPORT_JSON: report.model_dump_json(indent=2) + "\n",
        REPORT_MD: render_report_md(report),
    }
    if template is not None:
        generated["Dockerfile"] = template.dockerfile
        generated.update(template.extras(spec))
    files: dict[str, str] = {}
    for outcome in outcomes:
        for path, content in [*outcome.files.items(), *outcome.tests.items()]:
            _add_module_file(files, generated, _safe_path(path), content, outcome.module.name)
    return {**files, **generated}


def _add_module_file(
    files: dict[str, str], generated: Mapping[str, str], path: str, content: str, module: str
) -> None:
    if path in generated:
        raise InputError(
            f"module {module!r} has a file {path!r}, which codeproof generates itself",
            hint="rename the module's file",
        )
    if path in files and files[path] != content:
        logger.warning(
            "module %r: %s already written by an earlier module; kept that", module, path
        )
        return
    files[path] = content


def _safe_path(path: str) -> str:
    rel = PurePosixPath(path.replace("\\", "/"))
    if rel.is_absolute() or not rel.parts or any(p in ("..", ".") for p in rel.parts):
        raise InputError(
            f"unsafe file path {path!r}", hint="use a relative path inside the project"
        )
    return rel.as_posix()


def is_codeproof_output(directory: Path) -> bool:
    """Whether ``directory`` holds a previous codeproof output."""
    marker = directory / REPORT_JSON
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("generator") == "codeproof"


def _check_target(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"{out_dir} exists and is not a directory", hint="choose another --out")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not is_codeproof_output(out_dir):
        raise InputError(
            f"{out_dir} is not empty and is not a previous codeproof output",
            hint="choose an empty or new directory for the output",
        )


def _write_tree(root: Path, files: Mapping[str, str]) -> None:
    for path, content in sorted(files.items()):
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def assemble_project(
    out_dir: Path,
    spec: Spec,
    outcomes: list[ModuleOutcome],
    docs: Docs,
    report: RunReport | Mapping[str, Any],
) -> Path:
    """Write the runnable output project atomically.

    Args:
        out_dir: Target directory: new, empty, or a previous codeproof output (replaced).
        spec: The run's specification.
        outcomes: Every module's final state, in build order.
        docs: README and API reference.
        report: The run report (or a dict of its fields); the module lines are rebuilt
            from ``outcomes``.

    Returns:
        ``out_dir``.

    Raises:
        InputError: ``out_dir`` is a file or a foreign non-empty directory, or a file
            path is unsafe or clashes with a generated file.
    """
    out_dir = Path(out_dir).absolute()
    files = project_files(spec, outcomes, docs, build_report(report, spec, outcomes))
    _check_target(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".tmp", dir=out_dir.parent))
    try:
        _write_tree(tmp, files)
        tmp.chmod(0o755)
        _swap_in(tmp, out_dir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    logger.info("assembled %d files in %s", len(files), out_dir)
    return out_dir


def _swap_in(tmp: Path, out_dir: Path) -> None:
    """Move ``tmp`` to ``out_dir``, replacing an empty or previous-output directory."""
    if out_dir.is_dir() and any(out_dir.iterdir()):
        old = out_dir.with_name(f".{out_dir.name}.old-{uuid.uuid4().hex[:8]}")
        os.replace(out_dir, old)
        try:
            os.replace(tmp, out_dir)
        except BaseException:
            os.replace(old, out_dir)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(tmp, out_dir)
