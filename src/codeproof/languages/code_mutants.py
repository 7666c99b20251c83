"""Code mutants: small faults put into a module's source, read with the syntax facade.

A test suite is as strong as the faults it notices. Each mutant changes one thing a
careless implementation gets wrong: an operator (``+``/``-``, ``and``/``or``), a
comparison's boundary (``<``/``<=``) or sense (``==``/``!=``), a constant (a number by
one, a boolean, a string emptied), a return value, a statement removed, or an edit of a
regular expression (:mod:`.regex_mutants`). The tests that pass on the chosen code and
fail on a mutant *kill* it (:mod:`codeproof.proof.mutation`).

Each language gives its node kinds and spellings as :class:`Rules`
(``languages/<name>/code_mutants.py``); the walk over the tree and the edits are shared.
Only code inside functions and methods is mutated (constants and patterns may also be
module-level); docstrings, imports, annotations and error messages are left alone. A
mutant that no longer parses is dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from codeproof.languages.regex_mutants import regex_variants
from codeproof.languages.syntax import Node, Tree, parse

ARITHMETIC = "arithmetic"
BOUNDARY = "boundary"
COMPARISON = "comparison"
LOGICAL = "logical"
NEGATION = "negation"
CONSTANT = "constant"
RETURN = "return value"
STATEMENT = "removed statement"
REGEX = "regex"

OPERATORS = (
    ARITHMETIC,
    BOUNDARY,
    COMPARISON,
    LOGICAL,
    NEGATION,
    CONSTANT,
    RETURN,
    STATEMENT,
    REGEX,
)
"""Every mutation operator, in the order reports list them."""

_BOOLEANS = frozenset({"true", "false"})
"""The boolean literal kinds (the same in every grammar read here)."""

SHOWN = 60
"""Characters of a changed snippet shown in a mutant's label."""


@dataclass(frozen=True)
class CodeMutant:
    """One mutant of a source file."""

    operator: str
    line: int
    before: str
    after: str
    source: str
    """The whole mutated source."""

    @property
    def label(self) -> str:
        """``line 3 (boundary): `n < 0` -> `n <= 0```."""
        return (
            f"line {self.line} ({self.operator}): `{_short(self.before)}` -> `{_short(self.after)}`"
        )


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN else flat[: SHOWN - 1] + "…"


@dataclass(frozen=True)
class RegexSite:
    """A literal holding a regular expression: where it is, its pattern, and how a new
    pattern is written in its place."""

    node: Node
    pattern: str
    render: Callable[[str], str]


Swap = tuple[tuple[str, str], ...]
"""``((operator, replacement), ...)`` for one operator token."""


def _never(node: Node) -> bool:
    return False


def _no_returns(node: Node) -> list[str]:
    return []


def _no_regex(tree: Tree) -> list[RegexSite]:
    return []


def _any_source(source: str) -> bool:
    return True


@dataclass(frozen=True)
class Rules:
    """How one language's tree is mutated.

    Attributes:
        grammar: The syntax facade's language name.
        functions: Kinds of function and method definitions (mutants go inside them).
        swaps: Operator token -> its replacements, for tokens directly under a node of a
            kind in ``operator_parents``.
        operator_parents: Kinds of binary, comparison, boolean, update and augmented
            assignment expressions.
        negations: Kinds of ``not x``/``!x``/``-x``, replaced by their operand.
        negation_tokens: The prefix tokens that make such a node a negation.
        numbers: Kinds of number literals.
        booleans: Boolean literal text -> the other one.
        strings: Kinds of string literals.
        empty_string: The empty string as the language writes it.
        filled_string: A non-empty string as the language writes it (for an empty one).
        returns: ``return statement -> replacement statements`` (type-aware where known).
        return_kind: Kind of a return statement.
        removable: Kinds of statements that may be removed.
        removed: What a removed statement becomes (``pass``, ``;``).
        skip: Nodes whose whole subtree is not mutated (docstrings, imports...).
        regex_sites: The literals of a tree that hold regular expressions.
        valid: An extra check of a mutated source (beyond parsing without errors).
    """

    grammar: str
    functions: frozenset[str]
    swaps: Mapping[str, Swap]
    operator_parents: frozenset[str]
    negations: frozenset[str]
    negation_tokens: frozenset[str]
    numbers: frozenset[str]
    booleans: Mapping[str, str]
    strings: frozenset[str]
    empty_string: str
    return_kind: str = "return_statement"
    returns: Callable[[Node], list[str]] = _no_returns
    removable: frozenset[str] = frozenset()
    removed: str = ";"
    skip: Callable[[Node], bool] = _never
    regex_sites: Callable[[Tree], list[RegexSite]] = _no_regex
    valid: Callable[[str], bool] = _any_source
    filled_string: str = '"x"'


@dataclass(frozen=True)
class _Edit:
    operator: str
    start: int
    end: int
    text: str
    shown: Node
    """The node whose text is shown before and after the edit."""


def mutate(rules: Rules, source: str) -> list[CodeMutant]:
    """Every mutant of ``source`` that still parses, in source order (none when the
    source itself does not parse)."""
    tree = parse(rules.grammar, source)
    if tree.has_error:
        return []
    sites = rules.regex_sites(tree)
    patterns = {(s.node.start, s.node.end) for s in sites}
    edits = list(_regex_edits(sites))
    for node in _candidates(rules, tree.root):
        if (node.start, node.end) not in patterns:
            edits += _edits(rules, node)
    out: list[CodeMutant] = []
    seen = {source}
    for edit in edits:
        mutated = source[: edit.start] + edit.text + source[edit.end :]
        if mutated in seen or parse(rules.grammar, mutated).has_error or not rules.valid(mutated):
            continue
        seen.add(mutated)
        shown = edit.shown
        offset = edit.start - shown.start
        after = shown.text[:offset] + edit.text + shown.text[offset + edit.end - edit.start :]
        out.append(CodeMutant(edit.operator, shown.span.start_line, shown.text, after, mutated))
    return out


def _candidates(rules: Rules, root: Node) -> Iterator[Node]:
    """Nodes that may be mutated: not in a skipped subtree; inside a function unless a
    constant."""
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, inside = stack.pop()
        if rules.skip(node):
            continue
        inside = inside or node.kind in rules.functions
        if inside or node.kind in rules.numbers or node.kind in _BOOLEANS:
            yield node
        stack.extend((child, inside) for child in reversed(node.children))


def _edits(rules: Rules, node: Node) -> list[_Edit]:
    kind = node.kind
    if kind in rules.operator_parents:
        return _swaps(rules, node)
    if kind in rules.negations:
        return _negation(rules, node)
    if kind in rules.numbers:
        return [_Edit(CONSTANT, node.start, node.end, t, node) for t in _numbers(node)]
    if kind in _BOOLEANS and node.text in rules.booleans:
        return [_Edit(CONSTANT, node.start, node.end, rules.booleans[node.text], node)]
    if kind in rules.strings:
        return _string(rules, node)
    if kind == rules.return_kind:
        return [_Edit(RETURN, node.start, node.end, t, node) for t in rules.returns(node)]
    if kind in rules.removable:
        return [_Edit(STATEMENT, node.start, node.end, rules.removed, node)]
    return []


def _swaps(rules: Rules, node: Node) -> list[_Edit]:
    out = []
    for child in node.children:
        if child.named:
            continue
        for operator, text in rules.swaps.get(child.text, ()):
            out.append(_Edit(operator, child.start, child.end, text, node))
    return out


def _negation(rules: Rules, node: Node) -> list[_Edit]:
    tokens = [c for c in node.children if not c.named]
    operands = node.named_children
    if len(tokens) != 1 or tokens[0].text not in rules.negation_tokens or len(operands) != 1:
        return []
    return [_Edit(NEGATION, node.start, node.end, operands[0].text, node)]


def _numbers(node: Node) -> list[str]:
    text = node.text
    digits = text.rstrip("lL")
    suffix = text[len(digits) :]
    if digits.isdigit():
        number = int(digits)
        values = [number + 1] if number == 0 else [number + 1, number - 1]
        return [f"{v}{suffix}" for v in values]
    ok, value = node.value()
    if ok and isinstance(value, float) and digits.replace(".", "", 1).isdigit():
        return ["1.0" if value == 0 else "0.0"]
    return []


def _string(rules: Rules, node: Node) -> list[_Edit]:
    ok, value = node.value()
    if not ok or not isinstance(value, str):
        return []
    text = rules.empty_string if value else rules.filled_string
    return [_Edit(CONSTANT, node.start, node.end, text, node)]


def _regex_edits(sites: list[RegexSite]) -> Iterator[_Edit]:
    for site in sites:
        for _, pattern in regex_variants(site.pattern):
            yield _Edit(REGEX, site.node.start, site.node.end, site.render(pattern), site.node)


def inside(node: Node, kinds: frozenset[str]) -> bool:
    """Whether ``node`` is within a node of one of ``kinds``."""
    return any(a.kind in kinds for a in node.ancestors())
