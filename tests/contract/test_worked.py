"""Worked examples told in words: found in the request, owned by one module, and their
tests kept only when every value is written in the passage."""

from __future__ import annotations

import pytest

from codeproof.choosing.examples import is_example_test
from codeproof.contract.worked import marked, passages, ungrounded, worked_examples
from codeproof.core.types import Module
from codeproof.languages.javascript.tidy import fix_tests
from codeproof.languages.registry import layout_for

QUEUE = Module(
    name="ticket_queue",
    purpose="a queue of support tickets",
    language="python",
    public_interface="class TicketQueue: push(ticket, urgency), pop(), size()",
)
REPORT = Module(
    name="digest",
    purpose="a text digest of a queue",
    language="python",
    public_interface="def digest(queue) -> str",
    depends_on=["ticket_queue"],
)

REQUEST = """Write ticket_queue.py with a class TicketQueue: push(ticket, urgency) adds a
ticket, pop() takes the most urgent one (the oldest first among equals), size() counts.

Example: after push("T-1", 2), push("T-2", 5) and push("T-3", 5), pop() returns "T-2"
and size() is 2.

Also write digest.py: digest(queue) lists the tickets, most urgent first. For example,
after push("A", 1) and push("B", 3), digest(queue) gives:

```
B (3)
A (1)
```

Rules: urgency is 1 to 5. An example without values is not one: for example, any ticket.
"""


def test_a_passage_runs_from_its_cue_to_the_end_of_its_paragraph_and_its_block() -> None:
    found = passages(REQUEST)
    assert len(found) == 2
    assert found[0].startswith("Example: after push(") and found[0].endswith("size() is 2.")
    assert " ".join(found[1].split()).startswith("For example, after push(")
    assert "B (3)\nA (1)" in found[1]


def test_each_passage_belongs_to_the_module_whose_names_it_uses() -> None:
    modules = [QUEUE, REPORT]
    assert worked_examples(REQUEST, QUEUE, modules) == [passages(REQUEST)[0]]
    assert worked_examples(REQUEST, REPORT, modules) == [passages(REQUEST)[1]]  # the later


def test_a_passage_of_read_examples_only_is_left_to_the_readers() -> None:
    module = Module(name="m", purpose="", language="python", public_interface="def twice(x)")
    read = "Doubles numbers.\n\nFor example, twice(2) returns 4 and twice(5) returns 10.\n"
    unread = "Doubles numbers.\n\nFor example, twice of 2 is 4, so twice(twice(1)) is 4.\n"
    assert worked_examples(read, module, [module]) == []
    assert len(worked_examples(unread, module, [module])) == 1


GOOD_PY = """from ticket_queue import TicketQueue


def test_the_worked_example():
    queue = TicketQueue()
    queue.push("T-1", 2)
    queue.push("T-2", 5)
    queue.push("T-3", 5)
    assert queue.pop() == "T-2"
    assert queue.size() == 2
"""


def test_a_test_using_only_the_passages_values_is_grounded() -> None:
    said = passages(REQUEST)[0]
    assert ungrounded(GOOD_PY, "python", said, {"ticket_queue"}) == []


def test_a_value_the_passage_does_not_write_is_not_grounded() -> None:
    said = passages(REQUEST)[0]
    invented = GOOD_PY.replace("queue.size() == 2", "queue.size() == 4") + (
        '\n\ndef test_more():\n    assert TicketQueue().pop() == "none"\n'
    )
    assert ungrounded(invented, "python", said, {"ticket_queue"}) == ["4", '"none"']


@pytest.mark.parametrize(
    ("language", "source", "said"),
    [
        (
            "javascript",
            'const { Cart } = require("./basket");\n'
            'test("the example", () => {\n  const c = new Cart();\n'
            '  c.add("tea", 250, 2);\n  expect(c.total()).toBe(500);\n});\n',
            'Example: after add("tea", 250, 2), total() is 500.',
        ),
        (
            "java",
            "import java.time.LocalDate;\nclass PlannerTest {\n  @Test\n  void example() {\n"
            "    assertEquals(LocalDate.of(2025, 1, 6), Planner.next(LocalDate.of(2025, 1, 3)));"
            "\n  }\n}\n",
            "For example, the day after Friday 2025-01-03 is Monday 2025-01-06.",
        ),
    ],
    ids=["javascript", "java"],
)
def test_grounding_reads_each_language_with_its_grammar(
    language: str, source: str, said: str
) -> None:
    assert ungrounded(source, language, said, {"basket"}) == []
    assert ungrounded(source.replace("500", "501").replace("6)", "7)"), language, said, {}) != []


def test_worked_tests_are_marked_as_the_users_examples() -> None:
    js = 'test("the example", () => {\n  expect(1).toBe(1);\n});\n'
    titled = marked(js, "javascript")
    assert titled.startswith('test("spec example (worked) 1: the example"')
    assert is_example_test("spec example (worked) 1: the example")
    assert marked(GOOD_PY, "python") == GOOD_PY  # names are marked by the file's name
    python = layout_for("python").worked_test_path
    java = layout_for("java").worked_test_path
    assert python is not None and java is not None
    assert is_example_test(f"{python('ticket_queue').removesuffix('.py')}.test_any_name")
    assert is_example_test(f"{java('planner').removesuffix('.java')}.example()")
    assert not is_example_test("test_ticket_queue.test_any_name")
    assert not is_example_test("PlannerTest.example()")


def test_a_passage_using_two_modules_is_the_later_ones() -> None:
    """py-inventory-report at 7aee175: "after inv.add(...), to_csv(inv) gives" went to
    the store, whose parameters (sku, qty) the CSV header also names; its test could not
    import to_csv, which the later report module defines."""
    methods = "Shelf.put(book: str, copies: int)\nShelf.copies(book: str)"
    store = Module(name="shelf", purpose="", language="python", public_interface=methods)
    listing = Module(name="listing", purpose="", language="python",
                     public_interface="render(shelf) -> str", depends_on=["shelf"])  # fmt: skip
    words = 'For example, after s.put("Emma", 2), render(s) gives "book,copies\\nEmma,2".'
    assert worked_examples(words, store, [store, listing]) == []
    assert worked_examples(words, listing, [store, listing]) == passages(words)


def test_what_a_javascript_test_requires_is_not_a_value_of_the_example() -> None:
    # js-cart at 639a211: the exact transcription was dropped for require('node:test'),
    # which the JavaScript test fixer adds to every test file that lacks it
    said = 'Example: after cart.addItem("pen", 150, 2), cart.total(10) is 270.'
    body = (
        "const { Cart } = require('./cart');\n\n"
        "test('Example 1', () => {\n  const cart = new Cart();\n"
        '  cart.addItem("pen", 150, 2);\n  assert.strictEqual(cart.total(10), 270);\n});\n'
    )
    fixed = fix_tests(body, "cart.worked-examples.test.js", "cart", [])
    assert "require('node:test')" in fixed and "require('node:assert/strict')" in fixed
    assert ungrounded(fixed, "javascript", said, {"cart"}) == []
    imported = "import { Cart } from './cart';\nimport test from 'node:test';\n" + body
    assert ungrounded(imported, "javascript", said, {"cart"}) == []
    assert ungrounded(fixed.replace("270", "271"), "javascript", said, {"cart"}) == ["271"]
    assert ungrounded('const x = "node:test";\n', "javascript", said, {}) == ['"node:test"']


def test_a_cue_without_its_comma_or_after_a_semicolon_starts_a_passage() -> None:
    words = (
        "Any other action throws an Error and leaves the order as it was; for example "
        'new Order().ship() throws "cannot ship an order that is pending". '
        'order.can(action) tells whether an action is allowed: new Order().can("pay") '
        "returns true.\n\nFor instance new Order() has no history but 'pending'.\n\n"
        "Prices, for example 5, are in cents.\n"
    )
    found = passages(words)
    assert len(found) == 2
    assert found[0].startswith("for example new Order().ship()")
    assert found[0].endswith('new Order().can("pay") returns true.')
    assert found[1].startswith("For instance new Order()")
