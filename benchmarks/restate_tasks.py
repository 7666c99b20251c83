"""HumanEval tasks stated another common way: words and one ``assert`` line, no signature.

Each Python task whose docstring has an example becomes a JSONL record in the HumanEval
layout whose prompt is a docstring holding the description (the docstring without its
examples) and the first example as ``assert f(args) == expected``: no ``def`` line, no
parameter names, no types, no imports. The hidden test and entry point are unchanged, so
``codeproof eval --dataset FILE`` scores both modes on it as on HumanEval. This is how many
users (and MBPP-style datasets) state a task; the pipeline must not do worse on it than one
call.

    .venv/bin/python benchmarks/restate_tasks.py --out restated.jsonl
    codeproof eval --dataset restated.jsonl --mode both --interleave --jobs 1 --limit 20
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from codeproof.contract.examples import examples_of, parameters
from codeproof.evaluation.datasets import Task, load_dataset
from codeproof.evaluation.taskspec import _description
from codeproof.languages import registry
from codeproof.languages.values import split_example


def restated(task: Task) -> dict[str, str] | None:
    """The task in words and one assert line, or ``None`` when its docstring has no
    example that reads as ``call == value``."""
    benchmarks = registry.language_for(task.language).benchmarks
    assert benchmarks is not None
    _, signature, docstring = benchmarks.prompt_parts(task)
    examples = examples_of(docstring, task.entry_point, parameters(signature))
    for example in examples:
        split = split_example(example)
        if split is None or split[1].startswith("raises "):
            continue
        call, expected = split
        description = _description(docstring)
        prompt = f'"""\n{description}\nassert {call} == {expected}\n"""\n'
        return {
            "task_id": f"{task.task_id}/restated",
            "prompt": prompt,
            "entry_point": task.entry_point,
            "test": task.test,
            "language": task.language,
        }
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="humaneval")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    records = [r for r in map(restated, load_dataset(args.dataset)) if r is not None]
    args.out.write_text("".join(json.dumps(r) + "\n" for r in records))
    print(f"{len(records)} task(s) written to {args.out}")


if __name__ == "__main__":
    main()
