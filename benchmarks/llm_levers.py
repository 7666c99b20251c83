"""Speed levers of the local model, on and off, in one run (ratios, not timed asserts).

For the first N HumanEval prompts it asks what the engine asks (the single-shot
completion, greedy) with n-gram speculative decoding off and on, one configuration after
the other in the same process, and reports per configuration: wall time, completion
tokens per second, draft tokens proposed and accepted, and prompt tokens reused from the
prompt cache. A second pass with the same prompts shows the prompt cache's share.

    python benchmarks/llm_levers.py --model qwen2.5-coder-1.5b --tasks 8
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from codeproof.core.config import load_settings
from codeproof.evaluation.datasets import load_dataset
from codeproof.evaluation.single import messages_for
from codeproof.llm.base import ChatSettings
from codeproof.llm.guard import set_real_requests_allowed
from codeproof.llm.local import LocalChatModel
from codeproof.llm.models import ModelManager


@dataclass
class Row:
    config: str
    wall_s: float = 0.0
    completion: int = 0
    prompt: int = 0
    cached: int = 0
    drafted: int = 0
    accepted: int = 0

    def line(self) -> str:
        rate = self.completion / self.wall_s if self.wall_s else 0.0
        share = f"{self.accepted / self.drafted:.0%}" if self.drafted else "-"
        reuse = f"{self.cached / self.prompt:.0%}" if self.prompt else "-"
        return (
            f"| {self.config} | {self.wall_s:.1f} | {self.completion} | {rate:.2f} | "
            f"{self.drafted} | {share} | {reuse} |"
        )


def measure(model: LocalChatModel, config: str, tasks: int, passes: int) -> list[Row]:
    rows = []
    prompts = [messages_for(t) for t in load_dataset("humaneval")[:tasks]]
    for n in range(passes):
        row = Row(f"{config}, pass {n + 1}")
        for messages in prompts:
            started = time.perf_counter()
            reply = model.chat(messages, ChatSettings(temperature=0.0, max_tokens=512))
            row.wall_s += time.perf_counter() - started
            u = reply.usage
            row.completion += u.completion_tokens
            row.prompt += u.prompt_tokens
            row.cached += u.cached_prompt_tokens
            row.drafted += u.draft_tokens
            row.accepted += u.draft_accepted
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--tasks", type=int, default=8)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    set_real_requests_allowed(True)
    manager = ModelManager(load_settings().models_dir)
    rows: list[Row] = []
    for speculative in ("none", "ngram"):
        model = LocalChatModel(
            model=args.model,
            resolve=manager.resolve,
            ctx_size=4096,
            slots=1,
            threads=args.threads,
            speculative=speculative,
        )
        try:
            rows += measure(model, f"speculative={speculative}", args.tasks, args.passes)
        finally:
            model.close()
    header = ("configuration", "wall s", "tokens", "tok/s", "drafted", "accepted", "reused")
    print("| " + " | ".join(header) + " |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for row in rows:
        print(row.line())
    base, fast = rows[0], rows[args.passes]
    if fast.wall_s:
        print(f"\nngram / none wall time, first pass: {fast.wall_s / base.wall_s:.2f}")


if __name__ == "__main__":
    main()
