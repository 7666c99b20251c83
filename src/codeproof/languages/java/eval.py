"""Java benchmark tasks (HumanEval-X): solution assembly and batch-compiled scoring."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence

from codeproof.languages.benchmarks import BenchTask
from codeproof.languages.clike import close_braces
from codeproof.languages.reading import definitions

_IMPORT_LINE = re.compile(r"^\s*import\s+[\w.*]+\s*;\s*$", re.MULTILINE)


_PACKAGE_LINE = re.compile(r"^\s*package\s+[\w.]+\s*;\s*$", re.MULTILINE)


def assemble(task: BenchTask, code: str) -> str:
    code = _PACKAGE_LINE.sub("", code)
    code = re.sub(r"\bpublic\s+(final\s+)?class\s+Solution\b", r"\1class Solution", code)
    imports = "\n".join(m.group(0).strip() for m in _IMPORT_LINE.finditer(task.prompt))
    if re.search(r"\bclass\s+Solution\b", code):
        return f"{imports}\n{code.strip()}\n"
    if not defines(code, task.entry_point):
        return close_braces(task.prompt + code, "java")
    # A method (or several) without the class: it replaces the prompt's open method.
    signatures = list(
        re.finditer(rf"^.*\b{re.escape(task.entry_point)}\s*\(", task.prompt, re.MULTILINE)
    )
    declared = signatures and defines(task.prompt, task.entry_point)  # not a prompt in words
    head = task.prompt[: signatures[-1].start()] if declared else f"{imports}\nclass Solution {{"
    own_imports = "\n".join(m.group(0).strip() for m in _IMPORT_LINE.finditer(code))
    methods = _IMPORT_LINE.sub("", code).strip()
    parts = [own_imports, head.rstrip(), textwrap.indent(methods, "    ")]
    return close_braces("\n".join(p for p in parts if p) + "\n", "java")


JAVA_BATCH_COMPILER = """
import java.io.*;
import java.nio.file.*;
import javax.tools.*;

/** codeproof: compile <dir>/Main.java for every directory argument in one JVM. */
public class BatchCompile {
    public static void main(String[] args) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        for (String dir : args) {
            ByteArrayOutputStream log = new ByteArrayOutputStream();
            int rc = javac.run(null, log, log, "-nowarn", "-encoding", "UTF-8", "-d", dir,
                    dir + "/Main.java");
            if (rc != 0) {
                Files.write(Paths.get(dir, "compile.err"), log.toByteArray());
            }
        }
    }
}
"""


class JavaScorer:
    """``class Solution`` and the test's ``public class Main`` in one ``Main.java``."""

    sandbox_image = "java"

    def files(self, task: BenchTask, solution: str) -> dict[str, str]:
        return {"Main.java": f"{solution.rstrip()}\n\n{task.test}\n"}

    def command(self) -> str:
        return (
            "if [ -f compile.err ]; then cat compile.err; exit 1; fi; "
            "exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto -cp . Main"
        )

    def prepare(self, dirs: Sequence[str]) -> tuple[dict[str, str], list[str] | None]:
        return {"BatchCompile.java": JAVA_BATCH_COMPILER}, [
            "java",
            "-XX:+UseSerialGC",
            "BatchCompile.java",
            *dirs,
        ]


def defines(code: str, entry_point: str) -> bool:
    """Whether ``code`` declares a method ``entry_point`` with a body."""
    return bool(definitions("java", code, entry_point))
