"""The answers ``--yes`` took without asking, in the run's summary and the CLI's last lines:
a range compressor "passed" with ``compress([1, 2]) -> '1'`` among them, and only the
report said so."""

from __future__ import annotations

import io

from rich.console import Console

from codeproof.commands.workflow_run import _print_assumed
from codeproof.core.proof import Proof, ProofQuestion, QuestionChoice
from codeproof.workflow.store import Event, RunInfo
from codeproof.workflow.summary import summarize


def _question(call: str, values: list[tuple[str, int, int]], answer: str) -> ProofQuestion:
    choices = [QuestionChoice(value=v, drafts=d, tests=t, chosen=i == 0)
               for i, (v, d, t) in enumerate(values)]  # fmt: skip
    return ProofQuestion(call=call, choices=choices, default=answer, answer=answer, by="default")


def test_the_summary_and_the_cli_name_every_answer_assumed() -> None:
    proof = Proof(
        strength="strong",
        questions=[
            _question("compress([1, 2])", [("'1'", 2, 0), ("'1-2'", 0, 1)], "'1'"),
            _question("compress([4, 5])", [("'4,5'", 1, 0), ("'4-5'", 2, 0)], "'4-5'"),
            ProofQuestion(call="compress([])", choices=[], default="''", answer="''", by="human"),
        ],
    )
    assert proof.assumptions == ["compress([4, 5]) -> '4-5'"]  # splits make the code weak
    assert proof.kept_choices == ["compress([1, 2]) -> '1'"]  # kept over a test: not weak
    outcome = {
        "module": {"name": "ranges"},
        "status": "weak",
        "report": {"total": 3, "passed": 3},
        "proof": proof.model_dump(mode="json"),
    }
    run = RunInfo(id="r", request="x", status="done", created=0, updated=0, out_dir=".")
    event = Event(run_id="r", seq=1, ts=0.0, kind="node_end",
                  payload={"node": "finish", "output": {"outcomes": [outcome]}})  # fmt: skip
    [line] = summarize(run, [event]).modules
    assert line.assumed == ["compress([4, 5]) -> '4-5'", "compress([1, 2]) -> '1'"]

    out = io.StringIO()
    _print_assumed(Console(file=out, width=100), line.name, line.assumed)
    shown = out.getvalue()
    assert "ranges: 2 answer(s) assumed without asking; check:" in shown
    assert "compress([1, 2]) -> '1'" in shown
    empty = io.StringIO()
    _print_assumed(Console(file=empty), "ranges", [])
    assert empty.getvalue() == ""
