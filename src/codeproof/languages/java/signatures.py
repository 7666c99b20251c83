"""Public signatures and test examples of Java, read with the syntax facade."""

from __future__ import annotations

from codeproof.languages.reading import Example, Signature, case_example, inner_text, squash
from codeproof.languages.syntax import parse

_SHOWN = frozenset({"static", "final", "abstract", "synchronized", "default"})


def java_signatures(source: str, path: str) -> list[Signature]:
    """The public class, and the public constructors and methods of its classes."""
    found = [d for d in parse("java", source).declarations() if "public" in d.modifiers]
    owner = next((d.name for d in found if d.kind == "class" and d.top_level), "")
    out = [Signature(owner, f"public class {owner}", "", path)] if owner else []
    for ctor in (d for d in found if d.kind == "constructor" and d.name == owner):
        out.append(Signature(owner, f"{owner}({inner_text(ctor.parameters)})", "", path))
    for method in (d for d in found if d.kind == "method"):
        words = [m for m in method.modifiers if m in _SHOWN]
        if method.type_parameters is not None:
            words.append(method.type_parameters.text)
        returns = squash(method.returns.text) if method.returns is not None else ""
        sig = " ".join([*words, returns, f"{method.name}({inner_text(method.parameters)})"])
        name = f"{method.owner}.{method.name}" if method.owner else method.name
        out.append(Signature(name, sig, "", path))
    return out


def java_examples(source: str) -> list[Example]:
    """Every ``@Test`` method body of a JUnit 5 file."""
    return [e for c in parse("java", source).tests() if (e := case_example(c))]
