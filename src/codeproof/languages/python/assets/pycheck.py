"""Check Python files inside the sandbox: py_compile, then ruff when it is installed.

Part of codeproof. Usage: ``python3 pycheck.py FILE...``. Prints one JSON object:
``{"diagnostics": [{file, line, column, message, code, source}], "notes": [...]}``.
"""

import importlib.util
import json
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile

Diagnostic = dict[str, object]

# Ruff's default rule set, pinned so that results do not change with the ruff version.
RUFF_RULES = "E4,E7,E9,F"


def compile_diagnostics(paths: list[str]) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    scratch = tempfile.mkdtemp()
    for path in paths:
        try:
            py_compile.compile(path, cfile=scratch + "/check.pyc", doraise=True)
        except py_compile.PyCompileError as exc:
            error = exc.exc_value
            found.append(
                {
                    "file": path,
                    "line": getattr(error, "lineno", None),
                    "column": getattr(error, "offset", None),
                    "message": f"{exc.exc_type_name}: {getattr(error, 'msg', None) or error}",
                    "code": None,
                    "source": "py_compile",
                }
            )
    return found


def ruff_command() -> list[str] | None:
    executable = shutil.which("ruff")
    if executable:
        return [executable]
    if importlib.util.find_spec("ruff") is not None:
        return [sys.executable, "-m", "ruff"]
    return None


def ruff_diagnostics(paths: list[str], notes: list[str]) -> list[Diagnostic]:
    if not paths:
        return []
    command = ruff_command()
    if command is None:
        notes.append("ruff is not installed in the sandbox image; only py_compile was run")
        return []
    args = ["check", "--output-format=json", "--no-cache", "--isolated", "--exit-zero"]
    args += ["--select", RUFF_RULES]
    done = subprocess.run(command + args + paths, capture_output=True, text=True, check=False)
    try:
        findings = json.loads(done.stdout or "[]")
    except ValueError:
        notes.append("ruff failed: " + (done.stderr or done.stdout).strip()[:500])
        return []
    found: list[Diagnostic] = []
    for item in findings:
        location = item.get("location") or {}
        filename = item.get("filename") or ""
        found.append(
            {
                "file": os.path.relpath(filename) if filename else "",
                "line": location.get("row"),
                "column": location.get("column"),
                "message": item.get("message") or "",
                "code": item.get("code"),
                "source": "ruff",
            }
        )
    return found


def main(paths: list[str]) -> None:
    notes: list[str] = []
    compiled = compile_diagnostics(paths)
    broken = {item["file"] for item in compiled}
    # A file that does not compile gets its syntax error from py_compile only.
    linted = ruff_diagnostics([path for path in paths if path not in broken], notes)
    diagnostics = compiled + linted
    json.dump({"diagnostics": diagnostics, "notes": notes}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
