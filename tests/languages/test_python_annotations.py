"""Prose in a return annotation is cut so that the module compiles (py-word-freq)."""

from __future__ import annotations

from codeproof.languages.python.annotations import drop_prose_annotations
from codeproof.languages.python.tidy import fix_source

COPIED = """import re

def word_frequencies(text: str, top: int = None) -> list of (word, count) tuples:
    return re.findall(r"[a-z]+", text)

class Counter:
    async def most(self, n) -> a dict of str -> int:
        return {}

def top_word(text: str) -> str or None:
    return None
"""


def test_return_annotations_that_do_not_parse_are_cut_and_the_rest_kept() -> None:
    fixed = fix_source(COPIED, "textstats.py")
    compile(fixed, "textstats.py", "exec")
    assert "def word_frequencies(text: str, top: int = None):\n" in fixed
    assert "    async def most(self, n):\n" in fixed
    assert "def top_word(text: str) -> str or None:" in fixed  # it parses: kept
    assert 'return re.findall(r"[a-z]+", text)' in fixed


def test_other_syntax_errors_and_sources_that_compile_are_left_alone() -> None:
    broken = "def f(x) -> int:\n    return x +\n"
    assert drop_prose_annotations(broken) == broken
    fine = "def f(x) -> list[int]:\n    return [x]\n"
    assert drop_prose_annotations(fine) == fine
    header = "def f(x -> y):\n    return x\n"  # no closing parenthesis before the arrow
    assert drop_prose_annotations(header) == header
