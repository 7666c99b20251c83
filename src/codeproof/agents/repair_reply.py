"""A repair reply read: the changed sources, test changes (only with a reason), and a
one-line summary (:mod:`codeproof.agents.repairer`)."""

from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Collection, Mapping
from pathlib import PurePosixPath

from codeproof.agents.prompting import clip
from codeproof.core.types import Module, RepairResult, SourceFile
from codeproof.languages import registry
from codeproof.languages.fences import code_blocks, pick_unlabelled, prose
from codeproof.languages.layout import Layout

logger = logging.getLogger(__name__)

_SUMMARY = re.compile(r"^\W*summary\b\W*:?\s*(?P<text>.+)$", re.IGNORECASE | re.MULTILINE)
_REASON = re.compile(r"^\W*reason\b\W*:?\s*(?P<text>.+)$", re.IGNORECASE | re.MULTILINE)


def main_path(files: Mapping[str, str], module: Module, layout: Layout) -> str:
    default = layout.source_path(module.name)
    if default in files or not files:
        return default
    return next(iter(files))


def parse_repair(
    reply: str,
    module: Module,
    files: Mapping[str, str],
    tests: Mapping[str, str],
    layout: Layout,
    *,
    frozen: Collection[str] = (),
) -> RepairResult:
    """Split a repair reply into source changes, test changes, reason and summary; files
    at ``frozen`` paths (the modules it uses) are never changed."""
    blocks = code_blocks(reply, layout)
    sources: dict[str, str] = {}
    test_files: dict[str, str] = {}
    for block in blocks:
        if block.path is None:
            continue
        path = _known_path(block.path, {**files, **tests})
        if path in frozen or PurePosixPath(path).name in {PurePosixPath(f).name for f in frozen}:
            logger.info("repair: dropped a change of %s, a module it uses", path)
            continue
        (test_files if layout.is_test_path(path) else sources)[path] = block.code
    main = main_path(files, module, layout)
    if main not in sources:
        chosen = pick_unlabelled([b for b in blocks if b.path is None], layout, tests=False)
        if chosen is not None:
            sources[main] = chosen.code
    text = prose("\n".join(_not_a_label(_outside_blocks(reply))))
    reason = _line(_REASON, reply)
    summary = _line(_SUMMARY, reply) or clip(text, 300) or _default_summary(sources, files)
    if test_files and not reason:
        logger.info("repair: dropped test changes without a reason: %s", sorted(test_files))
        summary += " (test changes dropped: no reason given)"
        test_files = {}
    tidy = registry.language_for(layout.language).editing.fix_source
    return RepairResult(
        files=[SourceFile(path=p, content=tidy(c, p)) for p, c in sources.items()],
        test_files=[SourceFile(path=p, content=c) for p, c in test_files.items()],
        test_change_reason=reason if test_files else None,
        change_summary=summary,
    )


def _known_path(path: str, known: Mapping[str, str]) -> str:
    """``path`` as the run knows it (the model may add or drop directories)."""
    if path in known:
        return path
    name = PurePosixPath(path).name
    matches = [k for k in known if PurePosixPath(k).name == name]
    return matches[0] if len(matches) == 1 else name


def _line(pattern: re.Pattern[str], reply: str) -> str | None:
    outside = _outside_blocks(reply)
    match = pattern.search(outside)
    return match.group("text").strip() if match else None


def _outside_blocks(reply: str) -> str:
    """The reply's lines outside fenced blocks (line structure kept)."""
    out: list[str] = []
    fence: str | None = None
    for line in reply.splitlines():
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fence = None if fence is not None else stripped[:3]
            continue
        if fence is None:
            out.append(line)
    return "\n".join(out)


_LABEL = re.compile(
    r"^\W*(?:(?:file|filename|path|code|updated|fixed)\b[\w ]*:?\s*)?[\w./-]+\.\w+\W*$",
    re.IGNORECASE,
)
"""A line that only names a file (``File: add.py``, ``**add.py**``, ``add.py:``)."""


def _not_a_label(text: str) -> list[str]:
    return [line for line in text.splitlines() if not _LABEL.match(line.strip())]


def _default_summary(sources: Mapping[str, str], before: Mapping[str, str]) -> str:
    """What changed, counted in lines (the reply said nothing but its code)."""
    if not sources:
        return "the reply held no code"
    parts = []
    for path in sorted(sources):
        old, new = before.get(path, "").splitlines(), sources[path].splitlines()
        diff = list(difflib.unified_diff(old, new, lineterm="", n=0))
        added = sum(1 for d in diff if d.startswith("+") and not d.startswith("+++"))
        removed = sum(1 for d in diff if d.startswith("-") and not d.startswith("---"))
        parts.append(f"{path} (+{added}/-{removed} lines)" if diff else f"{path} (unchanged)")
    return "rewrote " + ", ".join(parts)
