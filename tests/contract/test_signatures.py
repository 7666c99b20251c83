"""The declaring part of an interface text: return annotations blanked, offsets kept."""

from __future__ import annotations

import pytest

from codeproof.contract.worked import interface_words
from codeproof.core.signatures import declaring_part
from codeproof.core.types import Module


@pytest.mark.parametrize(
    ("interface", "kept"),
    [
        ("f(text: str) -> list of (word, count) tuples", "f(text: str)"),
        (
            "add(name, qty) -> None; remove(name) -> dict(a), size(x)",
            "add(name, qty) ; remove(name) , size(x)",
        ),
        ("get(n) -> Map<String, Integer>, put(k, v)", "get(n) , put(k, v)"),
        ("pair() -> Tuple[int, str], last(xs)", "pair() , last(xs)"),
        ("class Cart:\n  total() -> int", "class Cart:\n  total()"),
        ("no returns here(x)", "no returns here(x)"),
    ],
)
def test_return_annotations_are_blanked(interface: str, kept: str) -> None:
    blanked = declaring_part(interface)
    assert len(blanked) == len(interface)
    assert " ".join(blanked.split()) == " ".join(kept.split())


def test_a_return_types_prose_is_not_a_name_the_module_defines() -> None:
    module = Module(
        name="textstats",
        purpose="word counts",
        language="python",
        public_interface="totals(rows) -> mapping from (name, total) pairs",
    )
    assert interface_words(module) == {"totals", "textstats"}
