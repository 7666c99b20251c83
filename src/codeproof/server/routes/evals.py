"""The eval results page: pass@1, latency and token plots of ``codeproof eval`` output
directories (``server.eval_dirs``: run directories, or folders holding some)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from codeproof.core.errors import InputError, NotFoundError
from codeproof.evaluation.report import FIGURES, figures
from codeproof.evaluation.results import RUN_FILE, ResultStore, load_run_info
from codeproof.evaluation.stats import summarize
from codeproof.server.http import server_state
from codeproof.server.routes.web import Page, page

router = APIRouter(include_in_schema=False)

ROWS = (
    ("tasks", "tasks", "d"),
    ("pass@1 (hidden tests)", "pass_at_1", ".3f"),
    ("success rate (own tests green)", "success_rate", ".3f"),
    ("latency mean (s)", "latency_mean_s", ".1f"),
    ("latency median (s)", "latency_median_s", ".1f"),
    ("tokens per task", "tokens_per_task", ".0f"),
    ("tokens per solved task", "tokens_per_solved_task", ".0f"),
    ("cost (USD)", "cost_usd", ".4f"),
)


def eval_dirs(roots: list[Path]) -> list[Path]:
    """The evaluation run directories under the configured roots, in a stable order."""
    found: list[Path] = []
    for root in roots:
        if (root / RUN_FILE).is_file():
            found.append(root)
        elif root.is_dir():
            found.extend(sorted(p for p in root.iterdir() if (p / RUN_FILE).is_file()))
    return list(dict.fromkeys(found))


def _cell(value: Any, fmt: str) -> str:
    return "–" if value is None else format(value, fmt)


@router.get("/ui/eval", response_class=HTMLResponse)
def eval_list(request: Request, user: Page) -> Response:
    dirs = eval_dirs(server_state(request).settings.server.eval_dirs)
    runs = []
    for index, path in enumerate(dirs):
        try:
            info = load_run_info(path)
        except InputError as exc:
            runs.append({"index": index, "path": str(path), "error": exc.message})
            continue
        runs.append({"index": index, "path": str(path), "info": info, "error": None})
    return page(request, "evals.html", {"runs": runs})


@router.get("/ui/eval/{index}", response_class=HTMLResponse)
def eval_page(index: int, request: Request, user: Page) -> Response:
    dirs = eval_dirs(server_state(request).settings.server.eval_dirs)
    if not 0 <= index < len(dirs):
        raise NotFoundError(f"no evaluation {index}", hint="see /ui/eval")
    path = dirs[index]
    info = load_run_info(path)
    results = ResultStore(path).load()
    summary = summarize(results)
    modes = list(summary.modes)
    rows = [
        (label, [_cell(getattr(summary.modes[m], key), fmt) for m in modes])
        for label, key, fmt in ROWS
    ]
    plots = figures(summary, results) if modes else {}
    context = {
        "path": str(path),
        "info": info,
        "modes": modes,
        "rows": rows,
        "plots": [(FIGURES[k], Markup(svg)) for k, svg in plots.items()],  # our own escaped SVG
        "tasks": len({r.task_id for r in results}),
    }
    return page(request, "eval.html", context)
