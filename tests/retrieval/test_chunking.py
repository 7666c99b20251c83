"""Chunking: code by symbol (tree-sitter), docs by heading, Q&A and issues as records."""

from __future__ import annotations

from retrieval_doubles import FIXTURES

from codeproof.retrieval.chunking import CHUNKERS, chunk
from codeproof.retrieval.models import Chunk, Document


def by_symbol(chunks: list[Chunk]) -> dict[str, Chunk]:
    return {c.symbol: c for c in chunks}


def test_python_by_symbol_with_signatures_docstrings_and_lines() -> None:
    text = (FIXTURES / "project" / "tidepool" / "ledger.py").read_text()
    chunks = by_symbol(chunk(Document("tidepool/ledger.py", text, "python")))
    assert list(chunks) == [
        "ledger", "Sighting", "Ledger", "Ledger.__init__", "Ledger.log", "Ledger.tally",
        "Ledger.pools_with",
    ]  # fmt: skip
    log = chunks["Ledger.log"]
    assert (log.kind, log.start_line, log.end_line) == ("method", 23, 29)
    assert log.signature == "def log(self, pool: str, creature: str, count: int = 1) -> Sighting"
    assert log.text.startswith("def log(") and "counts must be positive" in log.text
    ledger = chunks["Ledger"]  # the class chunk is its API: docstring and member signatures
    assert ledger.kind == "class"
    assert '"""All sightings, in the order they were logged."""' in ledger.text
    assert "    def tally(self, creature: str) -> int" in ledger.text
    assert "return sum(" not in ledger.text
    sighting = chunks["Sighting"]  # decorators belong to the chunk, not the signature
    assert sighting.text.startswith("@dataclass(frozen=True)")
    assert sighting.signature == "class Sighting"
    module = chunks["ledger"]
    assert module.kind == "module"
    assert "The ledger of sightings" in module.text and "class Ledger" in module.text


def test_javascript_functions_arrows_classes_and_jsdoc() -> None:
    source = """/** Add two numbers. */
export function add(a, b) {
  return a + b;
}

const half = (x) => x / 2;

export class Pool extends Base {
  /** How deep it is. */
  depth(at) { return at * 2; }
}
"""
    chunks = by_symbol(chunk(Document("lib/pool.js", source, "javascript")))
    assert list(chunks) == ["pool", "add", "half", "Pool", "Pool.depth"]
    add = chunks["add"]
    assert add.text.startswith("/** Add two numbers. */") and add.start_line == 1
    assert add.signature == "export function add(a, b)"
    assert chunks["half"].signature == "const half = (x)"
    assert chunks["Pool"].text.splitlines()[1:] == ["    depth(at)"]
    assert chunks["Pool.depth"].kind == "method"


def test_java_classes_methods_and_javadoc() -> None:
    source = """package sea;

/** A pool. */
public class Pool {
    /** Makes one. */
    public Pool(int depth) {
        this.depth = depth;
    }

    public int depth() { return depth; }

    interface Visitor { void visit(Pool p); }
}
"""
    found = chunk(Document("Pool.java", source, "java"))
    chunks = by_symbol(found)
    assert [c.symbol for c in found] == [
        "Pool",
        "Pool",
        "Pool.Pool",
        "Pool.depth",
        "Pool.Visitor",
        "Pool.Visitor.visit",
    ]  # fmt: skip  (module and class share the name)
    ctor = chunks["Pool.Pool"]
    assert ctor.text == "/** Makes one. */\npublic Pool(int depth) {\n    this.depth = depth;\n}"
    assert (ctor.start_line, ctor.end_line) == (5, 8)
    assert chunks["Pool.Visitor.visit"].signature == "void visit(Pool p)"


def test_a_file_without_definitions_is_cut_into_windows() -> None:
    script = "\n".join(f"print({i})" for i in range(130))
    chunks = chunk(Document("run.py", script, "python"))
    assert [(c.start_line, c.end_line) for c in chunks] == [(1, 60), (61, 120), (121, 130)]


def test_markdown_by_heading_path_and_fenced_code_is_no_heading() -> None:
    text = (FIXTURES / "docs" / "guide.md").read_text()
    chunks = chunk(Document("guide.md", text, "markdown", title="guide.md"))
    assert [c.symbol for c in chunks] == [
        "Tidepool guide",
        "Tidepool guide > Installing",
        "Tidepool guide > Counting creatures",
        "Tidepool guide > Counting creatures > Per pool",
    ]
    counting = chunks[2]
    assert "# a heading inside code is not a heading" in counting.text
    assert (counting.start_line, counting.end_line) == (9, 17)


def test_html_by_heading_without_scripts_or_navigation() -> None:
    text = (FIXTURES / "docs" / "api.html").read_text()
    chunks = chunk(Document("api.html", text, "html"))
    assert [c.symbol for c in chunks] == [
        "Class Ledger", "Class Ledger > log", "Class Ledger > tally"
    ]  # fmt: skip
    joined = "\n".join(c.text for c in chunks)
    assert "pathtoroot" not in joined and "Overview" not in joined and "color" not in joined
    log = chunks[1]
    assert "public Sighting log(String pool, String creature, int count)" in log.text
    assert log.start_line == 13  # its <h3>
    assert 'int n = ledger.tally("crab");\nSystem.out.println(n);' in chunks[2].text


def test_a_long_section_is_cut_at_paragraphs() -> None:
    paragraphs = "\n\n".join(f"Paragraph {i} " + "word " * 80 for i in range(20))
    chunks = chunk(Document("long.md", f"# Long\n\n{paragraphs}\n", "markdown"))
    assert len(chunks) > 3
    assert all(len(c.text) <= 2200 for c in chunks)
    assert all(c.symbol == "Long" for c in chunks)
    starts = [c.start_line for c in chunks]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_records_keep_their_kind() -> None:
    qa = chunk(Document("Posts.xml#1", "Question: q\n\nAnswer: a", "qa", title="q", line=3))
    assert [(c.kind, c.start_line, c.symbol) for c in qa] == [("qa", 3, "q")]
    issue = chunk(Document("i.json#2", "Issue #2: t\n\nbody", "issue", title="#2 t"))
    assert issue[0].kind == "issue"


def test_unknown_formats_fall_back_to_windows() -> None:
    assert "go" not in CHUNKERS
    chunks = chunk(Document("main.go", "package main\nfunc main() {}\n", "go"))
    assert [(c.kind, c.start_line, c.end_line) for c in chunks] == [("module", 1, 2)]
