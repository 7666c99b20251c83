"""Every draft of a stored request-benchmark run, scored on the hidden acceptance tests.

Answers "was a better draft there, and not chosen?" for each pipeline run that kept its
event log (`codeproof eval-requests --out DIR` keeps `DIR/<id>/pipeline/events.jsonl`).
Each module's drafts are put in the shipped project in place of that module's files
(the other modules as shipped) and the acceptance tests run in the sandbox. Prints
(never asserts), per request: the shipped checks, and per module the drafts written,
the most checks any draft reaches and how many drafts reach it.

    .venv/bin/python benchmarks/request_drafts.py eval-results/req-java --ids java-lru-cache

``--clean`` scores each draft after the language's clean-up as the code is now (what a
clean-up written since the run would have made of its drafts).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

from codeproof.core.config import load_settings
from codeproof.evaluation.request_cases import RequestCase, find_requests_dir, load_requests
from codeproof.languages.registry import language_for, layout_for
from codeproof.toolchains.client import open_toolchain


def drafts_by_module(events: Path) -> dict[str, list[tuple[str, dict[str, str]]]]:
    """Module -> its distinct drafts (``source#index``, files), in the order written."""
    found: dict[str, dict[str, tuple[str, dict[str, str]]]] = {}
    for line in events.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("event") != "node_end" or not event.get("module"):
            continue
        work = (event.get("output") or {}).get("work") or {}
        for draft in work.get("drafts") or []:
            key = json.dumps(sorted(draft["files"].items()))
            label = f"{draft.get('source')}#{draft.get('index')}"
            found.setdefault(event["module"], {}).setdefault(key, (label, draft["files"]))
    return {module: list(drafts.values()) for module, drafts in found.items()}


def shipped(project: Path, language: str) -> dict[str, str]:
    """The project's source files (its own tests left out, as the benchmark scores it)."""
    layout = layout_for(language)
    files = {}
    for path in project.rglob("*"):
        relative = path.relative_to(project).as_posix()
        if path.is_file() and layout.owns(relative) and not layout.is_test_path(relative):
            files[relative] = path.read_text(encoding="utf-8", errors="replace")
    return files


def results(run_dir: Path) -> Iterator[dict[str, object]]:
    for line in (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines():
        yield json.loads(line)


def run_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments of a script reading a stored run: its folder, ``--ids``, the
    requests' folder and the acceptance tests' time limit."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("run_dir", type=Path)
    parser.add_argument("--requests-dir", type=Path, default=None)
    parser.add_argument("--ids", default="")
    parser.add_argument("--timeout", type=float, default=60.0)
    return parser


def cases_of(args: argparse.Namespace) -> dict[str, RequestCase]:
    """The requests ``args.ids`` names (every one when none is named), by id."""
    wanted = [i for i in args.ids.split(",") if i]
    return {c.id: c for c in load_requests(find_requests_dir(args.requests_dir), wanted or None)}


def main() -> None:
    parser = run_parser(__doc__)
    parser.add_argument(
        "--clean",
        action="store_true",
        help="score each draft after the language's clean-up as it is now (fix_source)",
    )
    args = parser.parse_args()
    cases = cases_of(args)
    pipeline = {str(r["id"]): r for r in results(args.run_dir) if r["mode"] == "pipeline"}
    settings = load_settings()
    with ExitStack() as stack:
        toolchains: dict[str, object] = {}
        for request_id, result in pipeline.items():
            case = cases.get(request_id)
            events = args.run_dir / request_id / "pipeline" / "events.jsonl"
            if case is None or not events.is_file():
                continue
            language = case.meta.language
            if language not in toolchains:
                toolchains[language] = stack.enter_context(open_toolchain(settings, language))
            toolchain = toolchains[language]
            base = shipped(args.run_dir / request_id / "pipeline" / "project", language)
            print(f"{request_id}: shipped {result['passed']}/{case.meta.checks} checks")
            for module, drafts in drafts_by_module(events).items():
                scores = []
                for label, files in drafts:
                    if args.clean:
                        fix = language_for(language).editing.fix_source
                        files = {path: fix(text, path) for path, text in files.items()}
                    report = toolchain.run_tests(  # type: ignore[attr-defined]
                        {**base, **files}, dict(case.acceptance), args.timeout
                    )
                    scores.append((report.passed, label))
                best = max(score for score, _ in scores)
                reaching = [label for score, label in scores if score == best]
                listed = ", ".join(f"{label} {score}" for score, label in scores)
                print(f"  {module}: {len(drafts)} drafts; best {best} ({len(reaching)}): {listed}")


if __name__ == "__main__":
    main()
