"""Clean-up of model-written Java: class named after its file, no package, imports added."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePosixPath


def rename_java_class(source: str, expected: str) -> str:
    """Rename the file's public class to ``expected`` (the file name) when it differs."""
    match = re.search(r"\bpublic\s+(?:final\s+|abstract\s+)*class\s+(\w+)", source)
    if not match or match.group(1) == expected:
        return source
    return re.sub(rf"\b{re.escape(match.group(1))}\b", expected, source)


def _rename_duplicates_java(source: str) -> str:
    seen: dict[str, int] = {}

    def rename(match: re.Match[str]) -> str:
        name = match.group(2)
        seen[name] = seen.get(name, 0) + 1
        return match.group(0) if seen[name] == 1 else f"{match.group(1)}{name}{seen[name]}("

    return re.sub(r"(@Test\b[^;{]*?\bvoid\s+)(\w+)\s*\(", rename, source, flags=re.DOTALL)


_C_SKIP = re.compile(r"//[^\n]*|/\*.*?\*/|'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"", re.DOTALL)


def _drop_unfinished_java_tail(source: str) -> str:
    """Cut a test class that stopped mid-statement (token limit) after its last complete
    statement or block, and close what is open. A file whose braces balance is never
    touched."""
    depth, parens, cut, i = 0, 0, None, 0
    while i < len(source):
        skip = _C_SKIP.match(source, i)
        if skip:
            i = skip.end()
            continue
        char = source[i]
        parens += (char == "(") - (char == ")")
        depth += (char == "{") - (char == "}")
        if depth >= 1 and parens == 0 and char in ";}":
            cut = (i + 1, depth)
        i += 1
    if depth == 0 or cut is None:
        return source
    end, open_blocks = cut
    closing = "".join("\n" + "    " * level + "}" for level in range(open_blocks - 1, -1, -1))
    return source[:end] + closing + "\n"


_JAVA_UTIL = """Arrays List ArrayList LinkedList Map HashMap TreeMap LinkedHashMap Set HashSet
TreeSet LinkedHashSet Optional Collections Iterator Deque ArrayDeque Queue PriorityQueue Stack
Objects Comparator StringJoiner Random BitSet Scanner"""


JAVA_PACKAGES: dict[str, frozenset[str]] = {
    "java.util": frozenset(_JAVA_UTIL.split()),
    "java.util.stream": frozenset({"Collectors", "Stream", "IntStream", "LongStream"}),
    "java.util.function": frozenset(
        {"Function", "BiFunction", "Predicate", "BiPredicate", "Supplier", "Consumer"}
    ),
    "java.math": frozenset({"BigInteger", "BigDecimal", "RoundingMode", "MathContext"}),
}
"""Standard classes small models use without importing them, by package."""


def add_java_imports(source: str) -> str:
    """Add ``import <package>.*;`` for the standard classes a Java file uses but does not
    import (``Arrays`` in a test, ``Collectors`` in a solution); strings and comments are
    not read, and a class the file declares itself is not imported."""
    code = _C_SKIP.sub(" ", source)
    words = set(re.findall(r"\b[A-Z]\w*\b", code))
    declared = set(re.findall(r"\b(?:class|interface|enum|record)\s+(\w+)", code))
    imported = set(re.findall(r"^\s*import\s+(?:static\s+)?([\w.]+(?:\.\*)?)\s*;", code, re.M))
    head = []
    for package, names in JAVA_PACKAGES.items():
        used = (words & names) - declared
        if (
            used
            and f"{package}.*" not in imported
            and not {f"{package}.{n}" for n in used} <= imported
        ):
            head.append(f"import {package}.*;")
    return _with_imports(source, head)


_JAVA_PACKAGE = re.compile(r"^[ \t]*package\s+[\w.]+\s*;[ \t]*\n?", re.MULTILINE)


def tidy_java_source(source: str) -> str:
    """A generated Java file in the default package (the toolchain's convention: a
    ``package com.example;`` line makes the tests fail to find the class), with the
    standard imports it forgot (:func:`add_java_imports`)."""
    return add_java_imports(_JAVA_PACKAGE.sub("", source, count=1))


def _with_imports(source: str, head: Sequence[str]) -> str:
    if not head:
        return source
    package = re.search(r"^\s*package\s+[\w.]+\s*;\s*$", source, re.M)
    at = package.end() if package else 0
    return source[:at] + ("\n" if at else "") + "\n".join(head) + "\n" + source[at:]


def fix_java_tests(source: str, module: str, dependencies: Sequence[str]) -> str:
    """Cut an unfinished tail, de-duplicate test names and add missing JUnit 5 and
    standard library imports."""
    text = _rename_duplicates_java(_drop_unfinished_java_tail(source))
    head = []
    if "@Test" in text and "org.junit.jupiter.api.Test" not in text:
        head.append("import org.junit.jupiter.api.Test;")
    if "Assertions" not in text and re.search(r"\bassert[A-Z]\w*\s*\(", text):
        head.append("import static org.junit.jupiter.api.Assertions.*;")
    return tidy_java_source(_with_imports(text, head))


def class_name(module: str) -> str:
    """The Java class name of a module name: ``string_utils`` -> ``StringUtils``."""
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", module) if p]
    name = "".join(p[:1].upper() + p[1:] for p in parts) or "Module"
    return name if not name[0].isdigit() else f"M{name}"


def fix_source(source: str, path: str) -> str:
    """A generated class named after its file, without a package line, with its imports."""
    return tidy_java_source(rename_java_class(source, PurePosixPath(path).stem))


def fix_tests(source: str, path: str, module: str, dependencies: Sequence[str]) -> str:
    """A generated JUnit 5 test class named after its file, with its imports."""
    return rename_java_class(fix_java_tests(source, module, dependencies), PurePosixPath(path).stem)
