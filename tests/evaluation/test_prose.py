"""Tasks stated in words and an example call, with no declaration of the function."""

from __future__ import annotations

import pytest

from codeproof.evaluation.datasets import Task
from codeproof.evaluation.extract import solution_from_reply
from codeproof.evaluation.prose import called_as, words_of
from codeproof.evaluation.taskspec import module_for, spec_for

WORDS = "Remove the first and last occurrence of a given character from the string."
DOCSTRING = f'"""\n{WORDS}\nassert remove_occ("hello", "l") == "heo"\n"""\n'


def _task(prompt: str, language: str = "python", entry: str = "remove_occ") -> Task:
    return Task(task_id="t", prompt=prompt, entry_point=entry, test="", language=language)


@pytest.mark.parametrize(
    "prompt",
    [DOCSTRING, f'{WORDS}\nassert remove_occ("hello", "l") == "heo"\n'],
    ids=["docstring", "plain text"],
)
def test_the_words_are_the_spec_and_the_call_is_the_interface(prompt: str) -> None:
    spec = spec_for(_task(prompt))
    # a declaration-shaped reading took a quote mark or the first sentence for the
    # signature and replaced the description with "Implement remove_occ."
    assert spec.summary.startswith(WORDS)
    [interface] = spec.interfaces
    assert interface.startswith("remove_occ(...) with 2 positional arguments")
    assert '`remove_occ("hello", "l")`' in interface
    assert spec.acceptance_examples == ['remove_occ("hello", "l") -> "heo"']
    module = module_for(_task(prompt))
    assert module.name == "remove_occ" and module.public_interface == interface
    assert module.purpose.startswith(WORDS)


def test_a_call_inside_another_expression_still_gives_the_arity() -> None:
    words = "Find the shared elements.\nassert set(shared((3, 4, 5), (5, 7, 4))) == set((4, 5))"
    assert called_as(words, "shared").startswith("shared(...) with 2 positional arguments")
    assert called_as("Find the shared elements.", "shared").startswith(
        "shared(...): its parameters are not stated"
    )


def test_markers_around_the_words_are_dropped() -> None:
    assert words_of("/**\n * Sum it.\n * sum([1, 2]) -> 3\n */\n") == "Sum it.\nsum([1, 2]) -> 3"
    assert words_of("# Sum it.\n# sum([1]) -> 1\n") == "Sum it.\nsum([1]) -> 1"


def test_a_declared_prompt_is_still_read_as_code() -> None:
    prompt = 'def remove_occ(s: str, ch: str) -> str:\n    """Remove it."""\n'
    assert spec_for(_task(prompt)).interfaces == ["def remove_occ(s: str, ch: str) -> str:"]


def test_a_reply_to_words_is_the_whole_program() -> None:
    reply = "```python\ndef remove_occ(s, ch):\n    return s\n```"
    plain = solution_from_reply(_task(f"{WORDS}\n"), reply)
    assert plain == "def remove_occ(s, ch):\n    return s\n"  # the words are not Python
    kept = solution_from_reply(_task(DOCSTRING), reply)
    assert kept.startswith(DOCSTRING.rstrip()) and kept.endswith("return s\n")
    compile(kept, "t", "exec")


def test_a_java_method_for_words_goes_into_the_class_solution() -> None:
    reply = "```java\npublic int twice(int x) {\n    return 2 * x;\n}\n```"
    words = "/* Double it: twice(2) returns 4. */\n"
    solution = solution_from_reply(_task(words, "java", "twice"), reply)
    assert solution.strip().startswith("class Solution {") and "Double it" not in solution
    assert solution.count("{") == solution.count("}")


def test_an_assert_wrapping_the_call_is_an_acceptance_example_as_written() -> None:
    statement = "assert set(shared((3, 4, 5), (5, 7, 4))) == set((4, 5))"
    spec = spec_for(_task(f'"""\nFind the shared elements.\n{statement}\n"""\n', entry="shared"))
    assert spec.acceptance_examples == [statement]
