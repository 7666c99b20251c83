"""``codeproof eval-pair``: join a single-shot run and a pipeline run into one comparison."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from codeproof.evaluation.pairing import pair_runs

console = Console()


def eval_pair_command(
    single_dir: Annotated[
        Path, typer.Argument(help="The --out directory of a run with single-shot results.")
    ],
    pipeline_dir: Annotated[
        Path, typer.Argument(help="The --out directory of a run with pipeline results.")
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Where the paired run goes (new, empty, or an earlier pairing)."
        ),
    ],
) -> None:
    """Pair two runs' results on the tasks both finished; write the summary and report."""
    paired = pair_runs(single_dir, pipeline_dir, out)
    comparison = paired.summary.comparison
    if comparison is not None:
        console.print(
            f"{comparison.paired_tasks} task(s) paired: single-shot "
            f"{100 * comparison.single_pass_at_1:.1f}%, pipeline "
            f"{100 * comparison.pipeline_pass_at_1:.1f}%, difference "
            f"{comparison.difference_points:+.1f} points (95% CI "
            f"{comparison.ci95_low_points:+.1f} to {comparison.ci95_high_points:+.1f}, "
            f"McNemar p={comparison.mcnemar_p_value:.3g})",
            highlight=False,
        )
    pipeline = paired.summary.modes.get("pipeline")
    if pipeline is not None and pipeline.green is not None:
        console.print(
            f"pipeline green precision {_percent(pipeline.green_precision)} "
            f"(correct among {pipeline.green} green), green recall "
            f"{_percent(pipeline.green_recall)} (green among correct)",
            highlight=False,
        )
    if paired.unpaired:
        console.print(
            f"[yellow]{paired.unpaired} pipeline result(s) have no single-shot result of the "
            "same task and are left out[/]",
            highlight=False,
        )
    console.print(f"[dim]{paired.out_dir}[/]", highlight=False, soft_wrap=True)


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def register(app: typer.Typer) -> None:
    app.command("eval-pair")(eval_pair_command)
