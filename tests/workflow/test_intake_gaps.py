"""What intake assumes under --yes when the request leaves the contract open."""

from __future__ import annotations

from types import SimpleNamespace

from codeproof.workflow.deps import RunOptions
from codeproof.workflow.nodes import intake

NO_EXAMPLE = "no example of a result was stated"


def _assumed(request: str) -> list[str]:
    deps = SimpleNamespace(options=RunOptions(auto=True, out_dir="out"))
    update = intake(deps, {"request": request})  # type: ignore[arg-type]
    return list(update["assumptions"])


def test_a_request_without_any_example_gets_the_assumption() -> None:
    assumed = _assumed("a class LruCache with put(key, value) and get(key); get raises KeyError")
    assert any(NO_EXAMPLE in a for a in assumed)


def test_a_worked_example_counts_as_a_stated_example() -> None:
    # java-lru-cache states its example as a sequence of calls, which no `call -> result`
    # reads: the run recorded "no example of a result was stated" all the same
    request = (
        "a class LruCache with put(key, value), get(key) and keys(); get raises KeyError.\n\n"
        'Example: with capacity 2, put("a", 1), put("b", 2), get("a"), put("c", 3) evicts '
        '"b", so keys() is [a, c].'
    )
    assert _assumed(request) == []


def test_an_example_stated_by_its_input_alone_counts() -> None:
    # js-slugify: "a Node.js module (CommonJS)" made `module` a second stated name, so the
    # examples stated by their input were not read
    request = (
        "I need slugify.js, a Node.js module (CommonJS) exporting slugify(title). "
        'For "Hello, World!" the output should be "hello-world". It throws a TypeError '
        "when title is not a string."
    )
    assert _assumed(request) == []
