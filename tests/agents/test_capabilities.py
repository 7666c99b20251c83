"""The capability scan: network access and file deletion in generated code."""

from __future__ import annotations

from codeproof.engine.scan import scan_module
from codeproof.languages.capabilities import scan_capabilities


def found(files: dict[str, str]) -> set[tuple[str, int | None, str, str]]:
    return {(f.file, f.line, f.rule, f.message) for f in scan_capabilities(files)}


PY = """import shutil, os
import urllib.request as ur
import requests


def tidy(path, d):
    ur.urlopen("http://example.invalid/beacon")
    shutil.rmtree(path)
    os.remove(path)
    requests.post("http://example.invalid", timeout=3)
    path.unlink()
    return d.get("key")
"""


def test_python_network_and_deletion() -> None:
    assert found({"a.py": PY}) == {
        ("a.py", 2, "network-access", "import urllib.request: network access"),
        ("a.py", 3, "network-access", "import requests: network access"),
        ("a.py", 7, "network-access", "ur.urlopen(): network access"),
        ("a.py", 8, "file-deletion", "shutil.rmtree(): deletes a directory tree"),
        ("a.py", 9, "file-deletion", "os.remove(): deletes files"),
        ("a.py", 10, "network-access", "requests.post(): network access"),
        ("a.py", 11, "file-deletion", "path.unlink(): deletes files"),
    }  # d.get() is no network call


def test_javascript_network_and_deletion() -> None:
    js = (
        'const http = require("http");\nimport net from "node:net";\n'
        'fetch("http://x");\nfs.rmSync(dir, { recursive: true });\nfs.readFileSync(f);\n'
    )
    assert found({"a.js": js}) == {
        ("a.js", 1, "network-access", "import http: network access"),
        ("a.js", 2, "network-access", "import node:net: network access"),
        ("a.js", 3, "network-access", "fetch(): network access"),
        ("a.js", 4, "file-deletion", "fs.rmSync(): deletes a directory tree"),
    }


def test_java_network_and_deletion() -> None:
    java = (
        "import java.net.URL;\nclass A {\n  void f(java.nio.file.Path p) throws Exception {\n"
        '    new URL("http://x").openConnection();\n    Files.delete(p);\n  }\n}\n'
    )
    assert found({"A.java": java}) == {
        ("A.java", 1, "network-access", "import java.net.URL: network access"),
        ("A.java", 4, "network-access", ".openConnection(): network access"),
        ("A.java", 4, "network-access", "URL(): network access"),
        ("A.java", 5, "file-deletion", "Files.delete(): deletes files"),
    }


def test_plain_code_has_no_findings() -> None:
    clean = {"a.py": "import math\n\ndef f(x):\n    return math.sqrt(x)\n", "b.txt": "rm -rf /"}
    assert scan_capabilities(clean) == []


def test_the_module_scan_includes_capabilities_for_every_language() -> None:
    py = scan_module({"a.py": PY}, "python")
    assert {"bandit", "capabilities"} <= {f.tool for f in py}
    js = scan_module({"a.js": 'fetch("http://x");\n'}, "javascript")
    assert [(f.tool, f.rule) for f in js] == [("capabilities", "network-access")]
