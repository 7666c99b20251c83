"""Structured replies: closing the JSON a reply wrote before a decoding loop, naming a reply
kind in words."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel

from codeproof.llm import structured
from codeproof.llm.structured import closed_prefix

NESTED = '{"a": "x, y", "b": ["p", "q\\", r\\\\", {"k": [1, 2]}, "z'


@pytest.mark.parametrize(
    ("end", "expected"),
    [
        (len(NESTED), {"a": "x, y", "b": ["p", 'q", r\\', {"k": [1, 2]}]}),
        (NESTED.index('{"k'), {"a": "x, y", "b": ["p", 'q", r\\']}),
        (NESTED.index("2]"), {"a": "x, y", "b": ["p", 'q", r\\', {"k": [1]}]}),
        (NESTED.index('"b"'), {"a": "x, y"}),
    ],
    ids=["whole-elements", "before-the-object", "inside-the-list", "first-member"],
)
def test_the_prefix_ends_at_the_last_whole_element_and_is_closed(
    end: int, expected: object
) -> None:
    closed = closed_prefix(NESTED, end)
    assert closed is not None and json.loads(closed) == expected


def test_a_comma_inside_a_string_is_no_boundary() -> None:
    assert closed_prefix('{"a": "x, y, z', 100) is None


def test_a_complete_value_is_returned_as_it_stands() -> None:
    assert closed_prefix('```json\n{"a": [1, 2]}\n``` and more', 100) == '{"a": [1, 2]}'


def test_nothing_whole_before_the_end_is_none() -> None:
    assert closed_prefix('{"a": [1, 2], "b": 3}', 3) is None


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("SpecReply", "spec reply"),
        ("ModulePlan", "module plan"),
        ("Clarification", "clarification"),
        ("JSONPatch", "JSON patch"),
        ("Step2Plan", "step2 plan"),
    ],
)
def test_a_reply_schema_is_named_in_words(name: str, words: str) -> None:
    assert structured.reply_name(type(name, (BaseModel,), {})) == words
