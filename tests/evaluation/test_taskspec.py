"""The spec a user would write from a benchmark prompt (JavaScript and Java prompts)."""

from __future__ import annotations

from codeproof.evaluation.datasets import Task
from codeproof.evaluation.taskspec import module_for, spec_for


def _task(prompt: str, language: str, entry: str = "f") -> Task:
    return Task(task_id="t", prompt=prompt, entry_point=entry, test="", language=language)


def test_javascript_prompt_is_read_as_code() -> None:
    # a scanner took the last line for the signature, and a string's "/*" for the start
    # of the docstring
    prompt = (
        'const SEP = "/*";\n/* Join the words.\n  >>> f(["a"], 2)\n  "a"\n  */\n'
        "const f = (\n  words,\n  times\n) => {\n"
    )
    spec = spec_for(_task(prompt, "javascript"))
    assert spec.interfaces == ["const f = ( words, times ) =>"]
    assert spec.summary == "Join the words."
    assert 'const SEP = "/*";' in spec.functional_requirements[-1]
    assert module_for(_task(prompt, "javascript")).public_interface == spec.interfaces[0]


def test_java_prompt_keeps_helpers_and_drops_imports_and_the_class_header() -> None:
    prompt = (
        "import java.util.*;\n\nclass Solution {\n    int twice(int x) { return 2 * x; }\n"
        "    /**\n     Count the words.\n     */\n"
        "    public int f(\n        List<String> words) {\n"
    )
    spec = spec_for(_task(prompt, "java"))
    assert spec.interfaces[0].startswith("class Solution { public int f( List<String> words) }")
    assert spec.summary == "Count the words."
    assert spec.functional_requirements[-1].endswith(
        "unchanged:\nint twice(int x) { return 2 * x; }"
    )
