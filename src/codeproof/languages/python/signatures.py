"""The public signatures and doctest examples of Python source (read with :mod:`ast`),
for the docs and the retrieval index."""

from __future__ import annotations

import ast

from codeproof.languages.reading import Example, Signature, first_line


def _py_function(node: ast.FunctionDef | ast.AsyncFunctionDef, prefix: str = "") -> str:
    sig = f"{prefix}{node.name}({ast.unparse(node.args)})"
    if node.returns is not None:
        sig += f" -> {ast.unparse(node.returns)}"
    return ("async " if isinstance(node, ast.AsyncFunctionDef) else "") + sig


def python_signatures(source: str, path: str) -> list[Signature]:
    """Public top-level functions and classes (with their public methods)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out = []
    for node in tree.body:
        if str(getattr(node, "name", "")).startswith("_"):
            continue
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            out.append(Signature(node.name, _py_function(node), _doc(node), path))
        elif isinstance(node, ast.ClassDef):
            bases = ", ".join(ast.unparse(b) for b in node.bases)
            out.append(Signature(node.name, f"class {node.name}({bases})", _doc(node), path))
            out.extend(_py_methods(node, path))
    return out


def _doc(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    return first_line(ast.get_docstring(node))


def _py_methods(cls: ast.ClassDef, path: str) -> list[Signature]:
    out = []
    for item in cls.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and (
            item.name == "__init__" or not item.name.startswith("_")
        ):
            name = f"{cls.name}.{item.name}"
            out.append(Signature(name, _py_function(item, f"{cls.name}."), _doc(item), path))
    return out


def python_examples(source: str) -> list[Example]:
    """Every top-level test function of a pytest file."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    out = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            body = [ast.get_source_segment(source, stmt) or "" for stmt in node.body]
            code = "\n".join(b for b in body if b and not _is_docstring(b))
            if code:
                out.append(Example(node.name, code))
    return out


def python_imports_of(source: str, module: str) -> list[str]:
    """The top-level ``import`` lines of ``source`` that load ``module`` (``from m import
    f``, ``import m``, ``import m as alias``), as written."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    found = []
    for node in tree.body:
        segment = ast.get_source_segment(source, node) if _loads(node, module) else None
        if segment:
            found.append(segment)
    return found


def _loads(node: ast.stmt, module: str) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and node.module == module
    return isinstance(node, ast.Import) and any(alias.name == module for alias in node.names)


def _is_docstring(code: str) -> bool:
    return code.startswith(('"""', "'''"))
