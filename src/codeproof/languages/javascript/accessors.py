"""A class's accessor that hides the field it stands for gets that field renamed ``_name``.

Small models write a class's state as ``this.state = 'pending'`` in the constructor and
then add ``get state() { return this.state; }``. Class code is strict, so the first
assignment throws ``TypeError: Cannot set property state of #<Order> which has only a
getter``: no object of the class can be made, and every test fails on the first line
(js-order-flow, the shipped module of a request run and of all three one-call runs).
A getter or setter that reads or writes its own name recurses until the stack runs out.
Neither can ever work as written, and the intent is not in doubt: ``state`` is a field
that the accessor exposes. So the field is stored as ``this._state`` (the class's
accessor and methods then read and write what the author meant).

What changes, per class (``this`` resolved as JavaScript binds it: an arrow function
keeps its method's ``this``, a ``function`` or a nested class has its own):

* a getter with no setter, when the class assigns ``this.name`` anywhere, declares a
  field ``name``, or the getter reads ``this.name``: every ``this.name`` of the class,
  and the field, become ``_name`` (a method reading ``this.name`` meant the field too:
  ``this.history.push(...)`` must change the stored list, not the copy a getter returns);
* a getter and setter pair (or a setter alone) that reads or writes ``this.name``
  inside itself: those uses become ``this._name`` (outside them, ``this.name`` goes
  through the setter on purpose, e.g. to validate).

Nothing changes where ``_name`` is already a name in the class, in static members, or
in a getter that computes its value from other fields.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

from codeproof.languages.javascript.rebound import FUNCTIONS, assigned
from codeproof.languages.syntax import Node, parse
from codeproof.languages.syntax.edit import replace


@dataclass
class _Name:
    """What one class does with one property name."""

    getters: list[Node] = field(default_factory=list)
    setters: list[Node] = field(default_factory=list)
    uses: list[Node] = field(default_factory=list)
    """The property identifiers of ``this.name`` in the class's own methods."""
    fields: list[Node] = field(default_factory=list)
    """The property identifiers of instance field declarations ``name = ...;``."""


def own_fields(source: str) -> str:
    """``source`` with every class's accessor-hidden field stored as ``_name``."""
    tree = parse("javascript", source)
    edits: list[tuple[int, int, str]] = []
    for body in tree.nodes():
        if body.kind == "class_body":
            edits.extend((n.start, n.end, f"_{n.text}") for n in _renamed(body))
    return replace(source, sorted(edits))


def _renamed(body: Node) -> Iterator[Node]:
    names = _names(body)
    taken = {node.text for node in body.walk() if node.kind == "property_identifier"}
    for name, seen in names.items():
        if not (seen.getters or seen.setters) or f"_{name}" in taken:
            continue
        accessors = [*seen.getters, *seen.setters]
        inside = [u for u in seen.uses if any(a.contains(u) for a in accessors)]
        if seen.setters:
            yield from inside
        elif inside or seen.fields or any(_assigned(u) for u in seen.uses):
            yield from seen.uses
            yield from seen.fields


def _names(body: Node) -> dict[str, _Name]:
    names: dict[str, _Name] = defaultdict(_Name)
    for member in body.named_children:
        if _static(member):
            continue
        if member.kind == "method_definition":
            key = member.field("name")
            kind = _accessor_kind(member)
            if key is not None and key.kind == "property_identifier" and kind:
                (names[key.text].getters if kind == "get" else names[key.text].setters).append(
                    member
                )
        elif member.kind == "field_definition":
            key = member.field("property")
            if key is not None and key.kind == "property_identifier":
                names[key.text].fields.append(key)
        for node in member.walk():
            key = _this_property(node)
            if key is not None and _this_owner(node) == body:
                names[key.text].uses.append(key)
    return names


def _accessor_kind(method: Node) -> str:
    """``"get"`` or ``"set"`` for an accessor, ``""`` for any other method."""
    for child in method.children:
        if child.kind in ("get", "set"):
            return child.kind
        if child == method.field("name"):
            break
    return ""


def _static(member: Node) -> bool:
    return any(child.kind == "static" for child in member.children)


def _this_property(node: Node) -> Node | None:
    """The ``name`` of a ``this.name`` member expression."""
    if node.kind != "member_expression":
        return None
    target, key = node.field("object"), node.field("property")
    if target is None or key is None or target.kind != "this":
        return None
    return key if key.kind == "property_identifier" else None


def _this_owner(node: Node) -> Node | None:
    """The class body whose instance ``this`` is at ``node``: that of the nearest
    function around it that binds ``this`` (an arrow function keeps the one around it),
    when that function is a method of a class; None inside a ``function`` or a method of
    an object literal."""
    for scope in node.ancestors():
        if scope.kind in FUNCTIONS and scope.kind != "arrow_function":
            owner = scope.parent
            kind = owner.kind if owner is not None else ""
            return owner if scope.kind == "method_definition" and kind == "class_body" else None
        if scope.kind == "field_definition":  # a field's initializer: `this` is the instance
            return scope.parent
    return None


def _assigned(key: Node) -> bool:
    """Whether the ``this.name`` of ``key`` is the target of an assignment or update."""
    member = key.parent
    outer = member.parent if member is not None else None
    return member is not None and outer is not None and assigned(outer) == member
