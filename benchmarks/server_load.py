"""``codeproof serve`` under load, with the scripted model: 20 concurrent clients on
loopback, each driving a whole run through its questions over SSE.

Prints (never asserts):

* lost and repeated events: every client compares the ids it received with the server's
  event log (half the clients drop their stream once and reconnect with Last-Event-ID);
* event latency p50/p95/max: from the moment an event is stored to the moment the client
  has it;
* server overhead per run: the same scripted run through the server (one client: create,
  stream, answer twice over HTTP, on one HTTP client kept across runs as an SDK keeps
  it) vs the CLI's runner in-process (``Runner.start`` with a scripted human),
  sequentially, ``--runs`` each; the ratio of the means, with the client in the server's
  process (it then competes for the interpreter lock) and in a process
  of its own (as an SDK or a browser is); also against the runner with the progress
  lines ``codeproof new`` prints when piped (the server streams its progress too).

The toolchain is a double that runs nothing (``--docker``: the real Python toolchain in
the sandbox), so the numbers are the server's own cost: HTTP, SSE, the event log, the
queue and the worker pool, on top of the workflow.

    .venv/bin/python benchmarks/server_load.py [--clients 20] [--runs 5] [--docker]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "server"))

from srv_world import (  # the tests' scripted world: model, toolchain double
    World,
    engine,
    live_server,
    scripted_toolchains,
    server_settings,
)
from wf_world import ScriptedHuman

from codeproof.commands.progress import ProgressLines
from codeproof.server.state import ServerState
from codeproof.toolchains.client import started_toolchains
from codeproof.workflow.deps import RunOptions
from codeproof.workflow.models import ClarifyAnswer
from codeproof.workflow.store import RunStore

WORLD = World(questions=[["Keep unicode letters?"]])
"""One clarifying question, the module list, the module passes its tests at once."""
MODES = ["values", "updates", "custom"]
PROGRESS = ["updates", "custom"]
"""What a client showing progress streams (the overhead runs); the load streams all."""
REQUEST = {"request": "a slugify function"}


def sse(lines: Any, received: list[tuple[int, str, Any, float]], drop_after: int | None) -> bool:
    """Read events into ``received``; True when the run's stream ended."""
    current: dict[str, Any] = {}
    count = 0
    for line in lines:
        if line == "":
            if current:
                received.append(
                    (int(current["id"]), current["event"], current.get("data"), time.time())
                )
                count += 1
                if current["event"] in ("end", "error"):
                    return True
                if drop_after is not None and count >= drop_after:
                    return False
            current = {}
        elif not line.startswith(":"):
            key, _, value = line.partition(": ")
            current[key] = json.loads(value) if key == "data" else value
    return False


def follow_run(
    http: httpx.Client,
    method: str,
    path: str,
    body: Any,
    drop_after: int | None,
    headers: dict[str, str],
) -> tuple[str, list[tuple[int, str, Any, float]]]:
    received: list[tuple[int, str, Any, float]] = []
    with http.stream(method, path, json=body, headers=headers) as response:
        response.raise_for_status()
        location = response.headers["location"]
        ended = sse(response.iter_lines(), received, drop_after)
    while not ended:
        last = str(received[-1][0])
        again_headers = {**headers, "Last-Event-ID": last}
        with http.stream("GET", location, headers=again_headers) as again:
            ended = sse(again.iter_lines(), received, None)
    return location.split("/")[-2], received


def client_run(
    url: str,
    token: str | None,
    drop: bool,
    modes: list[str] = MODES,
    http: httpx.Client | None = None,
) -> dict[str, Any]:
    """One client's whole run: start, answer the clarifying question, accept the modules.

    ``wall`` runs from creating the thread to the end of the last stream. A client keeps
    one HTTP client across its runs, as an SDK does (``http``; one is made, untimed,
    when none is given: building one costs 50-120 ms here, most of it the TLS context).
    The modules' default answer is read from the stream's ``__interrupt__``, as a
    streaming client does; the thread's status is read after the wall.
    """
    headers = {"x-api-key": token} if token else {}
    own = http is None
    client = http or httpx.Client(base_url=url, timeout=600)
    runs: dict[str, list[tuple[int, str, Any, float]]] = {}
    try:
        started = time.perf_counter()
        tid = client.post("/threads", json={}, headers=headers).json()["thread_id"]
        steps: list[dict[str, Any]] = [
            {"input": REQUEST},
            {"command": {"resume": {"answers": ["ASCII only"]}}},
            {"command": {"resume": None}},  # the modules' default, filled in below
        ]
        for i, step in enumerate(steps):
            if i == 2:
                step = {"command": {"resume": pending_default(runs)}}
            body = {"assistant_id": "codeproof", "stream_mode": modes, **step}
            run_id, got = follow_run(
                client, "POST", f"/threads/{tid}/runs/stream", body, 6 if drop else None, headers
            )
            runs[run_id] = got
        wall = time.perf_counter() - started
        status = client.get(f"/threads/{tid}", headers=headers).json()["status"]
    finally:
        if own:
            client.close()
    return {"thread": tid, "runs": runs, "wall": wall, "status": status}


def pending_default(runs: dict[str, list[tuple[int, str, Any, float]]]) -> Any:
    """The default answer of the question the last run stopped at, from its stream."""
    last = list(runs.values())[-1]
    for _, event, data, _ in reversed(last):
        if event in ("updates", "values") and isinstance(data, dict) and "__interrupt__" in data:
            return data["__interrupt__"][0]["value"]["default"]
    raise SystemExit("the run stopped without a question in its stream")


def cli_run(settings: Any, shown: bool = False) -> float:
    """The same run through the CLI's runner, in-process, answered by a scripted human;
    ``shown``: with the progress lines ``codeproof new`` prints when its output is not a
    terminal (written to /dev/null), as the server streams its progress events."""
    eng = engine(settings, WORLD, TOOLCHAINS)
    human = ScriptedHuman(clarify_answers=[ClarifyAnswer(answers=["ASCII only"])])
    with RunStore(settings.runs_dir) as store, open(os.devnull, "w") as sink:
        lines = ProgressLines(sink)
        if shown:
            store.subscribe(lines.on_event)
        runner = eng.runner(store)
        runner.human = human
        options = RunOptions.from_settings(
            settings, out_dir=str(settings.projects_dir / f"cli-{time.time_ns()}")
        )
        started = time.perf_counter()
        result = runner.start("a slugify function", options)
        wall = time.perf_counter() - started
        lines.close()
    assert result.status == "done", result
    return wall


TOOLCHAINS: Any = scripted_toolchains


def overhead(home: Path, runs: int) -> tuple[list[float], list[float], list[float], list[float]]:
    """``(CLI, CLI showing its progress, server with the client in its process, server
    with the client in a process of its own)`` run walls. A client in the server's
    process competes with it for the interpreter lock; a real client (an SDK, a
    browser) runs elsewhere."""
    settings = server_settings(home / "overhead", runs_per_minute=1000)
    cli, shown = [], []
    for _ in range(runs):  # alternating: a drift of the machine hits both alike
        cli.append(cli_run(settings))
        shown.append(cli_run(settings, shown=True))
    state = ServerState.build(engine(settings, WORLD, TOOLCHAINS))
    with live_server(state) as url:
        with httpx.Client(base_url=url, timeout=600) as http:  # one, as an SDK keeps
            client_run(url, None, False, PROGRESS, http)  # warm-up (imports, connection)
            inside = [client_run(url, None, False, PROGRESS, http)["wall"] for _ in range(runs)]
        command = [sys.executable, __file__, "--client-of", url, "--runs", str(runs)]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"the client process failed: {done.stderr.strip()[-2000:]}")
        apart = [float(x) for x in json.loads(done.stdout.strip().splitlines()[-1])]
    return cli, shown, inside, apart


def client_process(url: str, runs: int) -> None:
    """The client side of :func:`overhead` as a process of its own: one warm-up run, then
    ``runs`` timed runs; prints their walls as a JSON list."""
    with httpx.Client(base_url=url, timeout=600) as http:
        client_run(url, None, False, PROGRESS, http)
        print(
            json.dumps([client_run(url, None, False, PROGRESS, http)["wall"] for _ in range(runs)])
        )


def load(home: Path, clients: int) -> dict[str, Any]:
    settings = server_settings(home / "load", runs_per_minute=1000)
    state = ServerState.build(engine(settings, WORLD, TOOLCHAINS))
    state.db.open()
    tokens = [state.tokens.create(f"client{i}")[1] for i in range(clients)]
    results: list[dict[str, Any]] = [{} for _ in range(clients)]
    with live_server(state) as url:

        def work(i: int) -> None:
            results[i] = client_run(url, tokens[i], drop=i % 2 == 0)

        started = time.perf_counter()
        threads = [threading.Thread(target=work, args=(i,)) for i in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - started
        lost = repeated = events = 0
        latencies: list[float] = []
        for result in results:
            for run_id, got in result["runs"].items():
                stored = {e.seq: e for e in state.events.read(run_id, 0, limit=1_000_000)}
                ids = [g[0] for g in got]
                counts = Counter(ids)
                repeated += sum(n - 1 for n in counts.values())
                lost += len(set(stored) - set(ids))
                events += len(ids)
                latencies += [recv - stored[i].ts for i, _, _, recv in got if i in stored]
    latencies.sort()
    return {
        "clients": clients,
        "workers": state.engine.workers,
        "threads_done": sum(1 for r in results if r.get("status") == "idle"),
        "runs": sum(len(r["runs"]) for r in results),
        "events": events,
        "lost": lost,
        "repeated": repeated,
        "p50_ms": 1000 * latencies[len(latencies) // 2],
        "p95_ms": 1000 * latencies[int(len(latencies) * 0.95)],
        "max_ms": 1000 * latencies[-1],
        "wall_s": wall,
        "client_wall_mean_s": statistics.mean(r["wall"] for r in results),
    }


def main() -> None:
    global TOOLCHAINS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--runs", type=int, default=5, help="sequential runs per side (overhead)")
    parser.add_argument("--docker", action="store_true", help="the real toolchain in the sandbox")
    parser.add_argument("--client-of", help=argparse.SUPPRESS)  # the overhead's client process
    args = parser.parse_args()
    if args.client_of:
        client_process(args.client_of, args.runs)
        return
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        if args.docker:
            settings = server_settings(home / "docker")
            TOOLCHAINS = started_toolchains(
                settings.model_copy(
                    update={"sandbox": settings.sandbox.model_copy(update={"backend": "docker"})}
                )
            )
        cli, shown, inside, apart = overhead(home, args.runs)
        print(f"overhead ({args.runs} sequential runs each, 3 API runs and 2 questions per run):")
        print(f"  CLI runner   mean {statistics.mean(cli):.3f} s  (min {min(cli):.3f})")
        print(
            f"  CLI runner showing its progress lines: mean {statistics.mean(shown):.3f} s "
            f"(min {min(shown):.3f}), ratio to the plain runner "
            f"{statistics.mean(shown) / statistics.mean(cli):.2f}x"
        )
        for label, served in (("in the server's process", inside), ("in its own process", apart)):
            print(
                f"  server, client {label}: mean {statistics.mean(served):.3f} s "
                f"(min {min(served):.3f}), ratio server/CLI "
                f"{statistics.mean(served) / statistics.mean(cli):.2f}x, "
                "to the CLI showing progress "
                f"{statistics.mean(served) / statistics.mean(shown):.2f}x"
            )
        result = load(home, args.clients)
        print(f"load: {result['clients']} concurrent clients, {result['workers']} workers")
        print(
            f"  {result['threads_done']} runs done, {result['runs']} API runs, "
            f"{result['events']} events received; lost {result['lost']}, "
            f"repeated {result['repeated']}"
        )
        print(
            f"  event latency p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms, "
            f"max {result['max_ms']:.1f} ms"
        )
        print(
            f"  wall {result['wall_s']:.1f} s; a client's run took "
            f"{result['client_wall_mean_s']:.1f} s "
            "on average (queued behind the workers)"
        )


if __name__ == "__main__":
    main()
