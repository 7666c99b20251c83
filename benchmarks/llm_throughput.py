"""Throughput of the ``local`` provider against raw xllamacpp, and slot concurrency.

Prints (never asserts):

* prompt tok/s and generation tok/s through ``LocalChatModel.chat`` and through a raw
  ``xllamacpp.Server.handle_chat_completions`` call on the same loaded model and the
  same prompts; ratio provider/raw (goal >= 0.95);
* wall time of N generations run concurrently (N slots) vs one after the other, for
  N = 2 .. ``--slots``; ratio sequential/concurrent (> 1 means the slots overlap usefully)
  and the aggregate generation tok/s, which tells whether more ``llm.slots`` (and so more
  eval tasks at once) would raise throughput on this machine.

Every prompt starts with a unique run tag so llama.cpp's prefix cache cannot skip work.

    .venv/bin/python benchmarks/llm_throughput.py --model qwen2.5-coder-0.5b
    .venv/bin/python benchmarks/llm_throughput.py --model qwen2.5-coder-1.5b --slots 4 --reps 1
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

from codeproof.core.config import load_settings
from codeproof.llm.base import ChatSettings, Message
from codeproof.llm.local import LocalChatModel
from codeproof.llm.models import ModelManager

FILLER = "def add(a, b):\n    return a + b\n\n" * 40
GEN_PROMPT = "Count from 1 to 200, numbers separated by single spaces, nothing else."

Measure = Callable[[str, int], tuple[int, int, float]]


def _provider(model: LocalChatModel) -> Measure:
    def run(prompt: str, max_tokens: int) -> tuple[int, int, float]:
        t0 = time.perf_counter()
        reply = model.chat(
            [Message(role="user", content=prompt)], ChatSettings(max_tokens=max_tokens)
        )
        wall = time.perf_counter() - t0
        return reply.usage.prompt_tokens, reply.usage.completion_tokens, wall

    return run


def _raw(server: Any) -> Measure:
    def run(prompt: str, max_tokens: int) -> tuple[int, int, float]:
        body = {
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0.0,
        }
        t0 = time.perf_counter()
        reply = server.handle_chat_completions(body)
        wall = time.perf_counter() - t0
        usage = reply["usage"]
        return usage["prompt_tokens"], usage["completion_tokens"], wall

    return run


def _rates(
    measures: dict[str, Measure], reps: int, gen_tokens: int
) -> dict[str, tuple[float, float]]:
    """Median (prompt tok/s, generation tok/s) per measure, runs interleaved."""
    prompt: dict[str, list[float]] = {name: [] for name in measures}
    gen: dict[str, list[float]] = {name: [] for name in measures}
    for i in range(reps):
        for name, measure in measures.items():
            p, _, wall = measure(f"[{name}-{i}-{time.time_ns()}]\n{FILLER}\nSay ok.", 1)
            prompt[name].append(p / wall)
            _, c, wall = measure(f"[{name}-{i}-{time.time_ns()}] {GEN_PROMPT}", gen_tokens)
            gen[name].append(c / wall)
    return {n: (statistics.median(prompt[n]), statistics.median(gen[n])) for n in measures}


def _concurrency(model: LocalChatModel, n: int, gen_tokens: int) -> tuple[float, float, int]:
    """Wall time of ``n`` generations one after the other and all at once, tokens at once."""
    run = _provider(model)
    tokens: list[int] = []

    def one(tag: str) -> None:
        tokens.append(run(f"[{tag}-{time.time_ns()}] {GEN_PROMPT}", gen_tokens)[1])

    t0 = time.perf_counter()
    for i in range(n):
        one(f"seq-{n}-{i}")
    sequential = time.perf_counter() - t0
    threads = [threading.Thread(target=one, args=(f"par-{n}-{i}",)) for i in range(n)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    concurrent = time.perf_counter() - t0
    return sequential, concurrent, sum(tokens[n:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b", help="name, .gguf path or URL")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--gen-tokens", type=int, default=64)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--slots", type=int, default=2, help="measure 2 .. this many at once")
    args = parser.parse_args()

    settings = load_settings()
    model = LocalChatModel(
        model=args.model,
        resolve=ModelManager(settings.models_dir).resolve,
        ctx_size=2048 * max(2, args.slots),
        slots=max(2, args.slots),
        threads=args.threads,
    )
    t0 = time.perf_counter()
    model.start()
    print(f"model {args.model}: loaded in {time.perf_counter() - t0:.1f} s")
    provider, raw = _provider(model), _raw(model.server)
    provider("warm-up", 4)

    rates = _rates({"raw": raw, "provider": provider}, args.reps, args.gen_tokens)
    (raw_p, raw_g), (prov_p, prov_g) = rates["raw"], rates["provider"]
    print(f"prompt     tok/s  raw {raw_p:7.1f}  provider {prov_p:7.1f}  ratio {prov_p / raw_p:.3f}")
    print(f"generation tok/s  raw {raw_g:7.1f}  provider {prov_g:7.1f}  ratio {prov_g / raw_g:.3f}")

    for n in range(2, max(2, args.slots) + 1):
        sequential, concurrent, tokens = _concurrency(model, n, args.gen_tokens)
        print(
            f"{n} generations: sequential {sequential:.2f} s, concurrent {concurrent:.2f} s, "
            f"ratio {sequential / concurrent:.2f} ({tokens / concurrent:.1f} tok/s aggregate)"
        )
    model.close()


if __name__ == "__main__":
    main()
