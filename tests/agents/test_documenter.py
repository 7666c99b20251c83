"""Signatures, passing-test examples and the generated docs."""

from __future__ import annotations

from codeproof.agents.documenter import document, passing_examples
from codeproof.core.reports import ModuleOutcome
from codeproof.core.types import Module, Spec, TestCase, TestReport
from codeproof.languages.signatures import examples, imports_of, signatures
from codeproof.llm.fake import FakeModel

PY_CODE = '''"""Adder."""


def add(a: int, b: int = 0) -> int:
    """Return the sum of a and b."""
    return a + b


def _private():
    pass


class Counter(Base):
    def __init__(self, start=0):
        self.n = start

    def bump(self) -> int:
        return self.n

    def _hidden(self):
        pass
'''

PY_TESTS = '''from adder import add


def test_positive():
    """Docstrings are not examples."""
    assert add(1, 2) == 3


def test_negative():
    assert add(-1, 1) == 0


def test_fails():
    assert add(2, 2) == 5
'''


def test_python_signatures() -> None:
    sigs = signatures({"adder.py": PY_CODE}, "python")
    assert [s.signature for s in sigs] == [
        "add(a: int, b: int=0) -> int",
        "class Counter(Base)",
        "Counter.__init__(self, start=0)",
        "Counter.bump(self) -> int",
    ]
    assert sigs[0].doc == "Return the sum of a and b." and sigs[0].file == "adder.py"
    assert signatures({"x.py": "def (:"}, "python") == []


def test_javascript_signatures_are_the_exported_ones() -> None:
    code = (
        "function add(a, b) {\n  return a + b;\n}\n"
        "const double = (x) => x * 2;\nconst inc = x => x + 1;\n"
        "function hidden() {}\nclass Stack {}\n"
        "module.exports = { add, twice: double, inc, Stack };\n"
    )
    sigs = signatures({"adder.js": code}, "javascript")
    assert [s.signature for s in sigs] == ["add(a, b)", "double(x)", "inc(x)", "class Stack"]


def test_java_signatures() -> None:
    code = (
        "import java.util.List;\n\npublic class Adder {\n  public Adder(int seed) {}\n"
        "  public static int add(int a, int b) { return a + b; }\n"
        "  public List<Integer> all() { return null; }\n  private void hidden() {}\n}\n"
    )
    sigs = [s.signature for s in signatures({"Adder.java": code}, "java")]
    assert sigs == [
        "public class Adder",
        "Adder(int seed)",
        "static int add(int a, int b)",
        "List<Integer> all()",
    ]


def test_examples_per_language() -> None:
    py = examples({"test_adder.py": PY_TESTS}, "python")
    assert [e.name for e in py] == ["test_positive", "test_negative", "test_fails"]
    assert py[0].code == "assert add(1, 2) == 3"
    js = examples(
        {
            "a.test.js": (
                "test('adds {braces}', () => {\n  assert.strictEqual(add('}', 1), '}1');\n});\n"
            )
        },
        "javascript",
    )
    assert [(e.name, e.code) for e in js] == [
        ("adds {braces}", "assert.strictEqual(add('}', 1), '}1');")
    ]
    java = examples(
        {
            "AdderTest.java": (
                "class AdderTest {\n"
                "  @Test\n"
                "  void adds() {\n"
                "    assertEquals(3, Adder.add(1, 2));\n"
                "  }\n"
                "}\n"
            )
        },
        "java",
    )
    assert [(e.name, e.code) for e in java] == [("adds", "assertEquals(3, Adder.add(1, 2));")]


def _outcome(status: str = "passed") -> ModuleOutcome:
    report = TestReport(
        total=3,
        passed=2,
        failed=1,
        tests=[
            TestCase(name="test_adder.test_positive", outcome="passed"),
            TestCase(name="test_adder.py::test_negative", outcome="passed"),
            TestCase(name="test_fails", outcome="failed", message="assert 4 == 5"),
        ],
    )
    return ModuleOutcome(
        module=Module(
            name="adder", purpose="Adds numbers.", language="python", public_interface="add"
        ),
        files={"adder.py": PY_CODE},
        tests={"test_adder.py": PY_TESTS},
        status=status,  # type: ignore[arg-type]
        attempts=2,
        report=report,
    )


def test_the_lines_loading_a_module_are_read_per_language() -> None:
    python = (
        "import pytest\nfrom adder import add, sub\nimport adder as a\nfrom adderx import y\n\n\n"
        "def test_a():\n    from adder import q\n"
    )
    assert imports_of({"test_a.py": python}, "adder", "python") == [
        "from adder import add, sub",
        "import adder as a",
    ]
    js = (
        "const test = require('node:test');\nconst { add } = require('./adder');\n"
        "const other = require('./adderx');\n"
    )
    tests = {"a.test.js": js, "b.test.js": "const { add } = require('./adder');\n"}
    assert imports_of(tests, "adder", "javascript") == ["const { add } = require('./adder');"]
    assert imports_of({"AdderTest.java": "import java.util.*;\n"}, "Adder", "java") == []


def test_passing_examples_only() -> None:
    names = [e.name for e in passing_examples(_outcome())]
    assert sorted(names) == ["test_negative", "test_positive"]
    assert passing_examples(_outcome().model_copy(update={"report": None})) == []


def test_document_builds_readme_and_api(spec: Spec) -> None:
    notes = {
        "summary": "Adds two numbers.",
        "items": [
            {"name": "add", "description": "Sums a and b."},
            {"name": "bump", "description": " "},
        ],
    }
    model = FakeModel([notes])
    docs = document(model, spec, [_outcome()])
    assert docs.readme.startswith("# Adder\n")
    assert "assert add(1, 2) == 3" in docs.readme and "add(-1, 1) == 0" in docs.readme
    assert "```python\nfrom adder import add\n\n" in docs.readme  # the usage runs as shown
    assert "add(2, 2) == 5" not in docs.readme  # a failing test is no example
    assert "| `adder` | passed | 2/3 | 2 |" in docs.readme
    assert "python -m pytest" in docs.readme and "docker build" in docs.readme
    assert "### `add(a: int, b: int=0) -> int`\n\nSums a and b." in docs.api
    assert "### `Counter.bump(self) -> int`" in docs.api
    assert "Adds two numbers." in docs.api
    assert "return a + b" in model.calls[0].messages[-1].content


def test_document_falls_back_to_purpose_and_warns_on_failures(spec: Spec) -> None:
    docs = document(FakeModel(["bad", "bad"]), spec, [_outcome("failed")])
    assert "Adds numbers." in docs.api
    assert "Return the sum of a and b." in docs.api  # the docstring describes add
    assert "not every test passed" in docs.readme


def test_javascript_signatures_read_parameters_and_skip_what_is_not_top_level_code() -> None:
    # a scanner cut parameters at the first ")" and read functions in comments and bodies
    code = (
        "// function old(x) {}\n"
        "function pad(s, width = max(1, 2), fill = ')') {\n"
        "  function inner(y) { return y; }\n  return s;\n}\n"
        "const twice = function (x) { return x * 2; };\n"
    )
    sigs = signatures({"pad.js": code}, "javascript")
    assert [s.signature for s in sigs] == ["pad(s, width = max(1, 2), fill = ')')", "twice(x)"]


def test_java_signatures_keep_type_parameters_and_their_own_class() -> None:
    code = (
        "public class Box {\n  public static <T> List<T> wrap(\n      T item) { return null; }\n"
        "  public static class Inner {\n    public int size() { return 0; }\n  }\n"
        '  String help = """\n    public int fake(int x) {\n    """;\n}\n'
    )
    sigs = [(s.name, s.signature) for s in signatures({"Box.java": code}, "java")]
    assert sigs == [
        ("Box", "public class Box"),
        ("Box.wrap", "static <T> List<T> wrap(T item)"),
        ("Inner.size", "int size()"),
    ]


def test_examples_take_the_test_bodies_not_options_or_annotations() -> None:
    js = examples(
        {"a.test.js": "test('slow {x}', { timeout: 5 }, () => {\n  assert.ok(f(1));\n});\n"},
        "javascript",
    )
    assert [(e.name, e.code) for e in js] == [("slow {x}", "assert.ok(f(1));")]
    java = examples(
        {
            "T.java": 'class T {\n  @Test\n  @DisplayName("a { b")\n  void named() {\n'
            "    assertTrue(f());\n  }\n}\n"
        },
        "java",
    )
    assert [(e.name, e.code) for e in java] == [("named", "assertTrue(f());")]
