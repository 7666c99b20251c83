"""The evaluation page draws pass@1, attempts, latency and token plots from ``codeproof
eval`` output directories."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from srv_world import World, engine, server_settings

from codeproof.evaluation.results import ResultStore, RunInfo, TaskResult
from codeproof.server.app import create_app
from codeproof.server.state import ServerState


def eval_dir(root: Path) -> Path:
    out = root / "humaneval-both"
    info = RunInfo(
        dataset="humaneval",
        provider="local",
        model="qwen2.5-coder-0.5b",
        modes=["single", "pipeline"],
        limit=3,
        sample_seed=0,
        max_attempts=5,
        task_ids=["HumanEval/0", "HumanEval/1", "HumanEval/2"],
    )
    store = ResultStore(out)
    store.prepare(info, resume=False)
    for i, task in enumerate(info.task_ids):
        for mode in info.modes:
            store.append(
                TaskResult(
                    task_id=task,
                    mode=mode,  # type: ignore[arg-type]
                    language="python",
                    passed=(mode == "pipeline" or i == 0),
                    status="ok",
                    wall_s=1.0 + i,
                    prompt_tokens=100,
                    completion_tokens=50 * (i + 1),
                )
            )
    (root / "not-an-eval").mkdir()
    return out


def test_eval_pages(tmp_path):
    root = tmp_path / "evals"
    path = eval_dir(root)
    settings = server_settings(tmp_path / "home", eval_dirs=[str(root)])
    state = ServerState.build(engine(settings, World()))
    with TestClient(create_app(state, mcp=False), base_url="http://127.0.0.1") as client:
        listing = client.get("/ui/eval").text
        assert str(path) in listing and "qwen2.5-coder-0.5b" in listing
        assert "not-an-eval" not in listing
        page = client.get("/ui/eval/0").text
        assert page.count("<svg") == 4
        assert "pass@1 by mode" in page and "Latency CDF" in page and "Tokens per task" in page
        assert "0.333" in page and "1.000" in page  # pass@1 single and pipeline
        assert client.get("/ui/eval/7").status_code == 404
