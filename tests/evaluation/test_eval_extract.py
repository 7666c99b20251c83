"""Code extraction from replies and assembly into complete solutions."""

from __future__ import annotations

import pytest

from codeproof.evaluation.datasets import Task
from codeproof.evaluation.extract import assemble, extract_code, solution_from_reply

PY = Task(
    task_id="p",
    prompt='from typing import List\n\n\ndef f(xs: List[int]) -> int:\n    """Sum."""\n',
    entry_point="f",
    test="",
)
JS = Task(
    task_id="j",
    prompt="const helper = (x) => {\n  return x;\n}\n\n/* Sum.\n  function f is great */\n"
    "const f = (xs) => {\n",
    entry_point="f",
    test="",
    language="javascript",
)
JAVA = Task(
    task_id="java",
    prompt="import java.util.*;\nimport java.lang.*;\n\nclass Solution {\n    /**\n"
    "    f(Arrays.asList(1)) -> 1\n     */\n    public int f(List<Integer> xs) {\n",
    entry_point="f",
    test="",
    language="java",
)


def test_fenced_block_defining_the_entry_point_wins() -> None:
    reply = "Sure:\n```python\nprint('demo')\n```\nand\n```python\ndef f(xs):\n    return 1\n```"
    assert extract_code(reply, PY) == "def f(xs):\n    return 1"
    assert extract_code("no fences\n", PY) == "no fences"
    assert extract_code("```\nx = 1\n```\n```py\nlonger = 2 + 2\n```", PY) == "longer = 2 + 2"


def test_python_whole_function_keeps_prompt_imports() -> None:
    code = solution_from_reply(PY, "```python\ndef f(xs):\n    return sum(xs)\n```")
    namespace: dict[str, object] = {}
    exec(code, namespace)
    assert namespace["f"]([1, 2]) == 3  # type: ignore[operator]
    assert code.startswith(PY.prompt.rstrip())


@pytest.mark.parametrize("body", ["return sum(xs)", "    return sum(xs)\n", "\n\n  return sum(xs)"])
def test_python_body_is_appended_and_indented(body: str) -> None:
    code = assemble(PY, body)
    namespace: dict[str, object] = {}
    exec(code, namespace)
    assert namespace["f"]([4, 5]) == 9  # type: ignore[operator]


def test_python_empty_completion_is_the_prompt() -> None:
    assert assemble(PY, "") == PY.prompt


def test_javascript_body_gets_its_closing_brace() -> None:
    assert assemble(JS, "  return xs.length;") == JS.prompt + "  return xs.length;\n}\n"
    assert assemble(JS, "  return '}';\n}") == JS.prompt + "  return '}';\n}"


def test_javascript_whole_function_keeps_helpers_unless_redefined() -> None:
    arrow = assemble(JS, "const f = (xs) => {\n  return helper(xs.length);\n}")
    assert arrow.startswith("const helper = (x) =>")
    assert arrow.endswith("const f = (xs) => {\n  return helper(xs.length);\n}\n")
    both = assemble(JS, "const helper = (y) => y;\nfunction f(xs) { return helper(0); }")
    assert both == "const helper = (y) => y;\nfunction f(xs) { return helper(0); }\n"


def test_javascript_variable_named_like_the_function_is_a_body() -> None:
    task = JS.model_copy(update={"entry_point": "f"})
    assert assemble(task, "  let f = 1\n  return f\n}").startswith(JS.prompt)


def test_java_body_method_and_class_forms() -> None:
    body = assemble(JAVA, "        return xs.size();")
    assert body == JAVA.prompt + "        return xs.size();\n}\n}\n"
    method = assemble(JAVA, "public int f(List<Integer> xs) {\n    return 0;\n}")
    assert method.startswith("import java.util.*;\nimport java.lang.*;\n\nclass Solution {")
    assert method.rstrip().endswith("}\n}") and method.count("public int f(") == 1
    whole = assemble(
        JAVA, "package x.y;\nimport java.util.*;\npublic class Solution {\n  public int f() {}\n}"
    )
    assert "package" not in whole
    assert "\nclass Solution {" in whole and "public class Solution" not in whole
    assert whole.startswith("import java.util.*;\nimport java.lang.*;")


def test_python_example_usage_is_dropped_from_whole_functions() -> None:
    reply = (
        "```python\nimport math\n\nLIMIT = 3\n\n\ndef f(xs):\n    print('inside stays')\n"
        "    return len(xs)\n\n\n# Test\nprint(f([1, 2]))\nassert f([]) == 1\n"
        "if __name__ == '__main__':\n    f(None)\n```"
    )
    code = solution_from_reply(PY, reply)
    assert "print('inside stays')" in code and "LIMIT = 3" in code and "import math" in code
    assert "print(f(" not in code and "assert f(" not in code and "__main__" not in code
    broken = "def f(xs):\n    return (\nprint(1)"
    assert broken in assemble(PY, broken)  # unparsable code is left as it is


def test_braces_and_definitions_are_read_from_code() -> None:
    # a scanner counted the regex literal's "{" (one "}" too many) and took a call
    # followed by a block, "if (f(...)) {", for a definition of f
    body = "  return xs.join('').replace(/\\{/g, '').length;"
    assert assemble(JS, body) == JS.prompt + body + "\n}\n"
    java_body = "        if (f(xs.subList(1, xs.size())) > 0) {\n            return 1;\n        }"
    assert assemble(JAVA, java_body) == JAVA.prompt + java_body + "\n}\n}\n"
