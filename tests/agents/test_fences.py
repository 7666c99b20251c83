"""Parsing code out of model replies."""

from __future__ import annotations

import pytest

from codeproof.languages.fences import (
    clean_path,
    code_blocks,
    extract_blocks,
    pick_unlabelled,
    prose,
    strip_prose,
)
from codeproof.languages.registry import layout_for

PY = layout_for("python")


def test_path_on_the_line_before_the_block() -> None:
    reply = "Here it is.\n\nFile: adder.py\n```python\ndef add(a, b):\n    return a + b\n```\nDone."
    [block] = extract_blocks(reply)
    assert block.path == "adder.py"
    assert block.lang == "python"
    assert block.code == "def add(a, b):\n    return a + b\n"
    assert block.closed


@pytest.mark.parametrize(
    "info",
    [
        "python adder.py",
        "python:adder.py",
        'python title="adder.py"',
        "adder.py",
        "py file=adder.py",
    ],
)
def test_path_in_the_fence_info(info: str) -> None:
    [block] = extract_blocks(f"```{info}\nx = 1\n```")
    assert block.path == "adder.py"


@pytest.mark.parametrize(
    "label", ["**adder.py**", "`adder.py`:", "### adder.py", "Save as adder.py."]
)
def test_path_in_a_label_with_markup(label: str) -> None:
    [block] = extract_blocks(f"{label}\n```python\nx = 1\n```")
    assert block.path == "adder.py"


def test_path_in_a_comment_on_the_first_line() -> None:
    [block] = extract_blocks("```js\n// adder.js\nmodule.exports = {};\n```")
    assert block.path == "adder.js"
    assert block.code.startswith("// adder.js\n")


def test_block_without_path_and_prose_label() -> None:
    [block] = extract_blocks("Here is the implementation in Python:\n```python\nx = 1\n```")
    assert block.path is None


def test_several_files_with_prose_between() -> None:
    reply = (
        "First the module.\nFile: a.py\n```python\nA = 1\n```\n"
        "And its tests:\nFile: test_a.py\n```python\ndef test_a():\n    assert True\n```\nBye"
    )
    blocks = extract_blocks(reply)
    assert [b.path for b in blocks] == ["a.py", "test_a.py"]
    assert prose(reply) == "First the module. File: a.py And its tests: File: test_a.py Bye"


def test_a_following_block_does_not_take_the_previous_closing_fence_as_label() -> None:
    blocks = extract_blocks("File: a.py\n```python\nA = 1\n```\n```python\nB = 2\n```")
    assert [b.path for b in blocks] == ["a.py", None]


def test_missing_closing_fence_runs_to_the_end() -> None:
    [block] = extract_blocks("File: a.py\n```python\ndef f():\n    return 1\n")
    assert not block.closed
    assert block.code == "def f():\n    return 1\n"


def test_longer_fence_contains_shorter_fences() -> None:
    [block] = extract_blocks("````markdown\n```python\nx\n```\n````")
    assert block.code == "```python\nx\n```\n"


def test_unfenced_reply_drops_leading_prose() -> None:
    [block] = code_blocks("Sure! Here you go:\n\ndef add(a, b):\n    return a + b\n", PY)
    assert block.code == "def add(a, b):\n    return a + b\n"
    assert strip_prose("const x = 1;", "javascript") == "const x = 1;\n"


def test_other_language_and_shell_blocks_are_ignored() -> None:
    reply = "```bash\npip install x\n```\n```js\nconst a = 1;\n```\n```python\nA = 1\n```"
    assert [b.code for b in code_blocks(reply, PY)] == ["A = 1\n"]


def test_paths_of_other_languages_are_ignored() -> None:
    reply = "File: package.json\n```\n{}\n```\nFile: a.py\n```\nA = 1\n```"
    assert [b.path for b in code_blocks(reply, PY)] == ["a.py"]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("./a.py", "a.py"),
        ("src/a.py", "src/a.py"),
        ("`a.py`", "a.py"),
        ("../a.py", None),
        ("/etc/a.py", None),
        ("C:/a.py", None),
        ("a//b.py", "a/b.py"),
        ("noext", None),
    ],
)
def test_clean_path(raw: str, clean: str | None) -> None:
    assert clean_path(raw) == clean


def test_pick_unlabelled_prefers_the_largest_block_of_the_wanted_kind() -> None:
    blocks = code_blocks(
        "```python\nprint(add(1, 2))\n```\n```python\ndef add(a, b):\n    return a + b\n```\n"
        "```python\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(0, 0) == 0\n```",
        PY,
    )
    chosen = pick_unlabelled(blocks, PY, tests=False)
    assert chosen is not None and chosen.code.startswith("def add")
    chosen = pick_unlabelled(blocks, PY, tests=True)
    assert chosen is not None and chosen.code.startswith("def test_add")


def test_a_prose_only_reply_has_no_code() -> None:
    assert code_blocks("I cannot do that, sorry.", PY) == []
