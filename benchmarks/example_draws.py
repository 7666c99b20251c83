"""More drafts for the tasks single-shot gets wrong against the prompt's own examples.

For every task of a single-shot run (``--single DIR``, its ``results.jsonl``) whose answer
fails the hidden tests *and* misses an example stated in the prompt (the example tests
the pipeline generates, run in the toolchain sandbox), two arms draw ``--k`` drafts each:

* ``sampled``: the single mode's request, sampled (temperature 0.8, seeds 4 ..), the
  extra drafts the pipeline draws when every draft misses an example;
* ``reasoned``: a request that asks the model to work each example through by hand
  before writing the function (greedy first, then sampled), a draw that might read the
  task differently.

Every draft is run on the stated examples and scored on the hidden tests. Prints (never
asserts), per arm: tasks where some draft meets the examples, tasks where the first such
draft (what the pipeline's choice would take) passes the hidden tests, drafts meeting the
examples that still fail the hidden tests, and completion tokens. One JSON line per task
goes to ``--out`` (resumable). Python and JavaScript datasets.

    .venv/bin/python benchmarks/example_draws.py --single RUN_DIR --out draws.jsonl --k 3
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

from codeproof.choosing.examples import example_tests
from codeproof.core.config import Settings, load_settings
from codeproof.evaluation.datasets import Task, load_dataset
from codeproof.evaluation.extract import solution_from_reply
from codeproof.evaluation.pipeline import RAW_TEMPERATURE
from codeproof.evaluation.scoring import Scorer
from codeproof.evaluation.single import messages_for
from codeproof.evaluation.taskspec import module_for, spec_for
from codeproof.languages.registry import layout_for
from codeproof.llm.base import ChatModel, ChatSettings, Message
from codeproof.llm.registry import get_chat_model
from codeproof.sandbox.registry import limits_from_settings, open_session
from codeproof.toolchains.api import ToolchainAPI
from codeproof.toolchains.client import open_toolchain

REASONED = (
    "You are an expert {language} programmer. Before writing any code, read the comment "
    "carefully. Then take each example it gives, one at a time, and work out by hand, "
    "step by step, how its input becomes exactly the stated output; if your reading of "
    "the task gives a different output, your reading is wrong: re-read the comment and "
    "try again until every example comes out exactly. Keep this short. Finally reply "
    "with {what} in one ```{tag} code block."
)
WHAT = {
    "python": ("Python", "the complete function (with its `def` line and any imports it needs)"),
    "javascript": ("JavaScript", "the complete function (with its declaration line)"),
}

Draw = tuple[str, int]


def _sampled(model: ChatModel, task: Task, i: int) -> Draw:
    settings = ChatSettings(temperature=RAW_TEMPERATURE, seed=4 + i, max_tokens=1024)
    reply = model.chat(messages_for(task), settings)
    return solution_from_reply(task, reply.text), reply.usage.completion_tokens


def _reasoned(model: ChatModel, task: Task, i: int) -> Draw:
    temperature = 0.0 if i == 0 else RAW_TEMPERATURE
    settings = ChatSettings(temperature=temperature, seed=100 + i, max_tokens=1536)
    language, what = WHAT[task.language]
    system = REASONED.format(language=language, what=what, tag=task.language)
    messages = [Message(role="system", content=system), Message(role="user", content=task.prompt)]
    reply = model.chat(messages, settings)
    return solution_from_reply(task, reply.text), reply.usage.completion_tokens


ARMS = {"sampled": _sampled, "reasoned": _reasoned}


def _meets(toolchain: ToolchainAPI, task: Task, code: str) -> bool | None:
    """Whether ``code`` meets the prompt's examples (``None``: no example read)."""
    spec, module = spec_for(task), module_for(task)
    tests = example_tests(module, spec.acceptance_examples)
    if not tests:
        return None
    files = {layout_for(task.language).source_path(module.name): code}
    if task.language == "javascript" and "module.exports" not in code:
        files = {k: v + f"\nmodule.exports = {{ {task.entry_point} }};\n" for k, v in files.items()}
    report = toolchain.run_tests(files, tests, 60.0)
    return report.green and report.total > 0


def _first_right(arm: dict[str, Any]) -> bool:
    return next((h for m, h in zip(arm["met"], arm["hidden"], strict=True) if m), False)


def summarize(rows: list[dict[str, Any]]) -> None:
    print(f"{len(rows)} tasks single-shot fails while missing a stated example")
    for name in ARMS:
        arms = [r[name] for r in rows]
        met = sum(any(a["met"]) for a in arms)
        first = sum(_first_right(a) for a in arms)
        drafts = sum(sum(a["met"]) for a in arms)
        wrong = sum(
            sum(m and not h for m, h in zip(a["met"], a["hidden"], strict=True)) for a in arms
        )
        tokens = sum(sum(a["tokens"]) for a in arms)
        print(
            f"{name:9} some draft meets the examples: {met}; the first such passes the hidden "
            f"tests: {first}; drafts meeting the examples {drafts}, {wrong} of them wrong; "
            f"completion tokens {tokens} ({tokens / max(len(rows), 1):.0f} per task)"
        )
    for a, b in (("sampled", "reasoned"), ("reasoned", "sampled")):
        only = [r["task_id"] for r in rows if _first_right(r[a]) and not _first_right(r[b])]
        print(f"only {a}: {only}")


def _settings(args: argparse.Namespace) -> Settings:
    llm = {"model": args.model, "slots": 4, "threads": 2, "cache": False, "ctx_size": 16384}
    evaluation = {"data_dir": Path(args.data_dir)} if args.data_dir else {}
    return load_settings(llm=llm, evaluation=evaluation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--single", type=Path, required=True, help="a single-shot run dir")
    parser.add_argument("--out", type=Path, required=True, help="JSON lines, one per task")
    parser.add_argument("--dataset", default="humaneval")
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--k", type=int, default=3, help="drafts per arm")
    args = parser.parse_args()
    settings = _settings(args)
    tasks = {
        t.task_id: t for t in load_dataset(args.dataset, data_dir=settings.evaluation.data_dir)
    }
    runs = [json.loads(line) for line in (args.single / "results.jsonl").open()]
    failed = [r for r in runs if r["mode"] == "single" and not r["passed"]]
    rows = [json.loads(line) for line in args.out.open()] if args.out.exists() else []
    done = {r["task_id"] for r in rows}
    scorer = Scorer(
        lambda language, limits: open_session(settings, language, limits),
        timeout_s=settings.evaluation.task_timeout_s,
        limits=limits_from_settings(settings),
    )
    model = get_chat_model(settings)
    language = next(iter(tasks.values())).language
    with (
        model,
        scorer,
        open_toolchain(settings, language) as toolchain,
        ThreadPoolExecutor(4) as pool,
    ):
        for run in failed:
            task = tasks[run["task_id"]]
            if task.task_id in done or _meets(toolchain, task, run["final_code"]) is not False:
                continue
            row: dict[str, Any] = {"task_id": task.task_id}
            for name, arm in ARMS.items():
                drawn = list(pool.map(partial(arm, model, task), range(args.k)))
                codes = [code for code, _ in drawn]
                hidden = [s.passed for s in scorer.score([(task, code) for code in codes])]
                met = [bool(_meets(toolchain, task, code)) for code in codes]
                tokens = [t for _, t in drawn]
                row[name] = {"met": met, "hidden": hidden, "tokens": tokens, "codes": codes}
            with args.out.open("a") as out:
                out.write(json.dumps(row) + "\n")
            rows.append(row)
            print(task.task_id, {n: (row[n]["met"], row[n]["hidden"]) for n in ARMS}, flush=True)
    summarize(rows)


if __name__ == "__main__":
    main()
