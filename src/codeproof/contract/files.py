"""The source files a request names, each with the words that speak of it.

"Write a Python module roman.py with to_roman and from_roman" names ``roman.py``; the
sentences from one file named to the next say what that file holds. One sentence may
introduce several files ("a module temperature.py with to_fahrenheit(celsius) ..., and
a module reading.py with describe(celsius) ..."): then each clause, from a file it
introduces to the next, is that file's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from codeproof.languages.layout import Layout
from codeproof.languages.registry import find as find_language

_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*([A-Za-z_][\w]*)\.([A-Za-z]{1,5}))(?![\w/])")
_SENTENCES = re.compile(r"(?<=[.!?;:])\s+(?=\S)|\n+")
_MODULE = re.compile(
    r"\bmodules?\s+(?:(?:called|named)\s+`?([A-Za-z_]\w*)|`([A-Za-z_]\w*)`)", re.IGNORECASE
)
"""A module named in words: "a module called text_utils", "the module `geometry`"."""
PROSE = frozenset(
    {"a", "an", "the", "on", "in", "at", "by", "with", "from", "to", "as", "once", "each"}
    | {"after"}
)
"""Words after "called" that are prose, not a name: "a method called on each item"."""
_WORD = re.compile(r"[\w$]+|[,;]")
_FILLERS = frozenset(
    {"a", "an", "the", "module", "modules", "file", "files", "class", "new", "second"}
    | {"another", "separate", "small", "third", "last"}
)
"""Words between a coordinator and the file it introduces: "and a second module b.py"."""
_COORDINATORS = frozenset({",", ";", "and", "plus", "then", "also", "finally"})
"""What introduces a further file within a sentence, unlike "built on b.py" or "using
b.py", which speak of a file while saying what another holds."""


@dataclass(frozen=True)
class StatedFile:
    """A source file the request names, and what the request says in its sentences."""

    path: str
    stem: str
    text: str
    intro: str = ""
    """The sentences (or clauses) that name the file first (``store.py defines a class
    Inventory...``): the names they state are this file's, whatever later sentences
    mention."""
    uses: tuple[str, ...] = ()
    """The stems of the stated files its clauses speak of as used ("..., using
    temperature.py", "built on pricing.js"), not as further files ("money.py and
    split.py")."""


@dataclass(frozen=True)
class _Mention:
    start: int
    path: str
    stem: str


def stated_files(words: str, layout: Layout) -> list[StatedFile]:
    """The source files of ``layout``'s language the request names, in the order named
    (test files excluded), each with the sentences that speak of it: those that name it
    first, and the ones after them up to the next file named. A sentence that goes on to
    introduce a file no sentence of its own speaks of ("..., and a module reading.py with
    describe(celsius)") gives it the clause from there on. A file only mentioned
    ("cart.js exports a class Cart, built on pricing.js, with addItem...") gets those
    sentences only when no sentence of its own speaks of it."""
    sentences = [s for s in _SENTENCES.split(words) if s.strip()]
    mentions_in = [_mentions(s, layout) for s in sentences]
    leading = {found[0].path for found in mentions_in if found}
    order: dict[str, str] = {}
    chunks: dict[str, list[str]] = {}
    intros: dict[str, list[str]] = {}
    mentions: dict[str, list[str]] = {}
    uses: dict[str, list[str]] = {}
    owner: str | None = None
    for sentence, found in zip(sentences, mentions_in, strict=True):
        if not found:
            if owner is not None:
                chunks[owner].append(sentence)
            continue
        for path, clause, used in _clauses(sentence, found, leading, set(order)):
            chunks.setdefault(path, []).append(clause)
            intros.setdefault(path, []).append(clause)
            uses.setdefault(path, []).extend(used)
            owner = path
        for mention in found:
            order.setdefault(mention.path, mention.stem)
            mentions.setdefault(mention.path, []).append(sentence)
    return [
        StatedFile(
            path,
            stem,
            " ".join(chunks.get(path) or mentions[path]),
            " ".join(intros.get(path, [])),
            tuple(dict.fromkeys(order[u] for u in uses.get(path, []) if u != path)),
        )
        for path, stem in order.items()
    ]


def _clauses(
    sentence: str, found: list[_Mention], leading: set[str], named: set[str]
) -> list[tuple[str, str, list[str]]]:
    """``(path, clause, used)`` for each part of ``sentence`` that speaks of one file:
    the whole of it for its first file named, unless it goes on to introduce a file that
    is named nowhere before and has no sentence of its own (:func:`_introduction`), whose
    clause starts at the words introducing it. ``used`` are the paths the clause speaks
    of as used."""
    introduced = [_introduction(sentence[: m.start]) for m in found]
    cuts: list[tuple[int, _Mention]] = [(0, found[0])]
    seen = set(named) | {found[0].path}
    for mention, start in zip(found[1:], introduced[1:], strict=True):
        if mention.path not in seen | leading and start is not None:
            cuts.append((start, mention))
        seen.add(mention.path)
    ends = [start for start, _ in cuts[1:]] + [len(sentence)]
    spoken = list(zip(found, introduced, strict=True))
    return [
        (
            cut.path,
            sentence[start:end].strip(" ,;"),
            [m.path for m, at in spoken if start <= m.start < end and at is None],
        )
        for (start, cut), end in zip(cuts, ends, strict=True)
    ]


def _introduction(before: str) -> int | None:
    """Where the words ``before`` a file's name start to introduce it as a further file
    of the sentence ("..., and a module reading.py"), or ``None`` where they speak of it
    as something another file uses ("built on pricing.js")."""
    words = list(_WORD.finditer(before.lower()))
    while words and (words[-1].group() in _FILLERS or find_language(words[-1].group())):
        words.pop()
    if words and words[-1].group() in _COORDINATORS:
        return words[-1].start()
    return None


def _mentions(sentence: str, layout: Layout) -> list[_Mention]:
    """The files of ``layout``'s language ``sentence`` names, in order: by their file
    name (``store.py``) or, where a module is a file of its own name (not in Java, whose
    files are named after their class), in words ("a module called text_utils", "the
    module `geometry`")."""
    files = [
        _Mention(m.start(), m.group(1), m.group(2))
        for m in _FILE.finditer(sentence)
        if layout.owns(m.group(1))
        and not layout.is_test_path(m.group(1))
        and m.group(1).lower() not in layout.product_names
    ]
    modules = [] if layout.class_files else _modules_named(sentence, layout)
    return sorted([*files, *modules], key=lambda m: m.start)


def _modules_named(sentence: str, layout: Layout) -> list[_Mention]:
    found = ((m.start(), m.group(1) or m.group(2)) for m in _MODULE.finditer(sentence))
    return [_Mention(at, layout.source_path(s), s) for at, s in found if s not in PROSE]
