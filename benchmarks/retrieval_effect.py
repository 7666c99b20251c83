"""The effect of retrieval: ``codeproof new --project`` on a library the model cannot
know, with retrieval on vs off (``--no-retrieval``), scored by hidden tests.

Each request (``retrieval_data/requests.json``) runs twice through the real CLI on a
fresh git copy of ``retrieval_data/quillwort`` (a made-up library with docs and tests),
with the real model (default ``qwen2.5-coder-1.5b``), ``--yes``, one candidate, two
attempts and no clarifying round (to keep the cost down); then the request's
hidden test runs in the sandbox against the project as the run left it (the new branch).
A run passes when the hidden test passes. Prints, never asserts.

``--agent-only`` measures the programmer alone, far cheaper: the request becomes a spec
and one module (its ``interface``), the programmer writes it once with the project's
grounding (MiniLM index of the project, as ``--project`` builds it) and once without,
the file is placed in the project as ``--project`` places it, and the hidden test runs.

    nice -n 10 .venv/bin/python benchmarks/retrieval_effect.py [--only ID] [--agent-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from codeproof.core.config import load_settings
from codeproof.toolchains.client import open_toolchain

DATA = Path(__file__).parent / "retrieval_data"
CODEPROOF = str(Path(sys.executable).parent / "codeproof")
FIND = """import importlib
import pkgutil

import quillwort


def find(name):
    for info in pkgutil.iter_modules(quillwort.__path__):
        module = importlib.import_module(f"quillwort.{info.name}")
        if hasattr(module, name):
            return getattr(module, name)
    raise AssertionError(f"no function {name} in the quillwort package")


"""


CONFTEST = "import pathlib\nimport sys\n\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"


def git(root: Path, *args: str) -> str:
    ident = ["-c", "user.name=bench", "-c", "user.email=bench@localhost"]
    done = subprocess.run(["git", "-C", str(root), *ident, *args], capture_output=True, text=True)
    return done.stdout.strip()


def fresh_project(tmp: Path) -> Path:
    root = tmp / "quillwort"
    shutil.copytree(DATA / "quillwort", root)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "quillwort")
    return root


def run(request: dict[str, str], retrieval: bool, args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        root = fresh_project(tmp)
        env = {
            **os.environ,
            "CODEPROOF_RETRIEVAL__INDEX_DIR": str(tmp / "index"),
            "CODEPROOF_WORKFLOW__MAX_CLARIFY_ROUNDS": "0",  # --yes assumes anyway
        }
        cmd = [
            CODEPROOF, "new", request["request"], "--project", str(root), "--yes",
            "--out", str(tmp / "out"), "--candidates", str(args.candidates),
            "--max-attempts", str(args.max_attempts), "--model", args.model,
        ]  # fmt: skip
        if not retrieval:
            cmd.append("--no-retrieval")
        started = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - started
        report_path = tmp / "out" / "codeproof-report.json"
        report = json.loads(report_path.read_text()) if report_path.is_file() else {}
        project = report.get("project") or {}
        hidden = score(root, request["hidden"])
        return {
            "id": request["id"],
            "retrieval": retrieval,
            "exit": done.returncode,
            "applied": bool(project.get("applied")),
            "modules_passed": report.get("totals", {}).get("passed", 0),
            "hidden_passed": hidden,
            "cited": len(report.get("retrieved", [])),
            "wall_s": round(wall, 1),
            "tail": done.stderr.strip().splitlines()[-1:] if done.returncode else [],
        }


def agent_run(request: dict[str, str], grounder: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The programmer alone, with or without grounding, scored by the hidden test."""
    from codeproof.agents.programmer import write_code
    from codeproof.core.types import Module, ModulePlan, Spec
    from codeproof.llm.registry import get_chat_model
    from codeproof.toolchains.registry import get_toolchain
    from codeproof.workflow.project import load_project

    name = request["interface"].split("(", 1)[0]
    spec = Spec(title=name, summary=request["request"], language="python",
                interfaces=[request["interface"]])  # fmt: skip
    module = Module(name=name, purpose=request["request"], language="python",
                    public_interface=request["interface"])  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp_name:
        root = fresh_project(Path(tmp_name))
        project = load_project(root)
        context = None
        cited = 0
        if grounder is not None:
            grounding = grounder.ground("code", spec, module)
            cited = len(grounding.citations)
            context = lambda s, m: grounding.text  # noqa: E731
        settings = load_settings(llm={"model": args.model})
        model = get_chat_model(settings)
        model.start()
        started = time.perf_counter()
        try:
            (draft,) = write_code(
                model, spec, module, ModulePlan(steps=[f"Implement {request['interface']}."]),
                get_toolchain("python").conventions, context=context, max_tokens=400,
            )  # fmt: skip
        finally:
            model.close()
        wall = time.perf_counter() - started
        files = {f.path: f.content for f in draft.files}
        for path, content in project.placed(files, {Path(p).stem for p in files}).items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(content)
        return {
            "id": request["id"], "retrieval": grounder is not None, "cited": cited,
            "hidden_passed": score(root, request["hidden"]), "wall_s": round(wall, 1),
        }  # fmt: skip


def agent_grounder(tmp: Path) -> Any:
    from codeproof.retrieval.embedders.minilm import MiniLMEmbedder
    from codeproof.retrieval.grounding import IndexGrounder
    from codeproof.retrieval.index import Index
    from codeproof.retrieval.sources import Limits

    index = Index(tmp / "index", "lancedb", MiniLMEmbedder(), Limits())
    index.add(DATA / "quillwort", kind="code", name="quillwort")
    return IndexGrounder(index, k=6, budget=6000)


def score(root: Path, hidden: str) -> bool:
    """The hidden test against the project's files as the run left them (sandbox)."""
    sources = {
        p.relative_to(root).as_posix(): p.read_text()
        for p in root.rglob("*.py")
        if ".git" not in p.parts and "tests" not in p.parts
    }
    sources["conftest.py"] = (
        "import sys, pathlib\nsys.path.insert(0, str(pathlib.Path(__file__).parent))\n"
    )
    with open_toolchain(load_settings(), "python") as client:
        report = client.run_tests(sources, {"test_hidden.py": FIND + hidden})
    return report.green


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--candidates", type=int, default=1)
    parser.add_argument("--max-attempts", type=int, default=2)
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--out", type=Path, default=None, help="write the rows as JSON")
    parser.add_argument("--agent-only", action="store_true", help="the programmer alone")
    args = parser.parse_args()
    requests = json.loads((DATA / "requests.json").read_text())
    if args.only:
        requests = [r for r in requests if r["id"] in args.only]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        grounder = agent_grounder(Path(tmp)) if args.agent_only else None
        for request in requests:
            for retrieval in (True, False):
                if args.agent_only:
                    row = agent_run(request, grounder if retrieval else None, args)
                else:
                    row = run(request, retrieval, args)
                rows.append(row)
                print(json.dumps(row), flush=True)
    for retrieval in (True, False):
        mine = [r for r in rows if r["retrieval"] is retrieval]
        passed = sum(1 for r in mine if r["hidden_passed"])
        label = "on " if retrieval else "off"
        print(f"retrieval {label}: {passed}/{len(mine)} hidden tests passed")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
