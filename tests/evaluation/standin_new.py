"""A stand-in for ``codeproof new REQUEST --yes --json --out DIR`` (request benchmark tests).

It prints JSON event lines as the real command does (``llm_call``s, then ``result``),
writes a project with the files of ``--files`` plus an own test file and a
``codeproof-report.json``, and records its arguments in ``argv.json``. With ``--sleep``
it waits first (Ctrl-C ends it without a result, as it pauses a real run).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path


def _emit(record: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=Path, required=True)
    parser.add_argument("--sleep", type=float, default=0.0)
    parser.add_argument("--module-status", default="passed")
    parser.add_argument("command", choices=["new"])
    parser.add_argument("request")
    parser.add_argument("--yes", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--provider")
    parser.add_argument("--model")
    args = parser.parse_args()
    _emit({"event": "node_start", "node": "intake"})
    _emit({"event": "llm_call", "prompt_tokens": 100, "completion_tokens": 40, "cached": False})
    _emit({"event": "llm_call", "prompt_tokens": 7, "completion_tokens": 3, "replayed": True})
    try:
        time.sleep(args.sleep)
    except KeyboardInterrupt:
        print("paused", file=sys.stderr)
        return 130
    _emit({"event": "llm_call", "prompt_tokens": 200, "completion_tokens": 60, "cached": True})
    args.out.mkdir(parents=True)
    for path in args.files.iterdir():
        shutil.copy(path, args.out / path.name)
    (args.out / "test_own.py").write_text("import missing_module\n")  # left out by the scorer
    (args.out / "argv.json").write_text(json.dumps(sys.argv[1:]))
    modules = [
        {"name": path.stem, "status": args.module_status, "tests_passed": 3, "tests_total": 4}
        for path in sorted(args.files.iterdir())
    ]
    report = {"generator": "codeproof", "modules": modules}
    (args.out / "codeproof-report.json").write_text(json.dumps(report))
    status = "done" if args.module_status == "passed" else "failed"
    _emit({"event": "result", "run": {"status": status}, "modules": modules})
    return 0 if status == "done" else 1


if __name__ == "__main__":
    sys.exit(main())
