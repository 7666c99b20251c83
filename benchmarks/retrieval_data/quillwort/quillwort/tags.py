"""Packed tags: a name and a level in one short text, ``name#Lnn``."""

from __future__ import annotations

from quillwort.errors import TagFormatError


def pack_tag(name: str, level: int) -> str:
    """``pack_tag("ember", 7) == "ember#L07"``; levels are 0 to 99."""
    if not 0 <= level <= 99:
        raise ValueError("level must be 0..99")
    return f"{name}#L{level:02d}"


def unpack_tag(tag: str) -> tuple[str, int]:
    """``unpack_tag("ember#L07") == ("ember", 7)``.

    Raises:
        TagFormatError: ``tag`` is not a packed tag.
    """
    name, sep, rest = tag.rpartition("#L")
    if not sep or not name or len(rest) != 2 or not rest.isdigit():
        raise TagFormatError(tag)
    return name, int(rest)


def bump(tag: str, by: int = 1) -> str:
    """The tag with its level raised by ``by`` (capped at 99)."""
    name, level = unpack_tag(tag)
    return pack_tag(name, min(99, level + by))
