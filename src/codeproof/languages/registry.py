"""The languages codeproof knows, and the one way to name them.

Adding a language is a new package ``codeproof/languages/<name>/`` exposing ``LANGUAGE``
plus one line in :data:`BUILTIN` (docs/languages.md lists what a language provides).
A language whose toolchain server is configured in ``[toolchains.<name>]`` without a
package is still usable: :func:`add_configured` gives it a plain layout from the settings.
"""

from __future__ import annotations

from collections.abc import Iterable

from codeproof.core.config import Settings
from codeproof.core.errors import UnknownLanguageError
from codeproof.languages import java, javascript, python
from codeproof.languages.base import Language, words
from codeproof.languages.configured import configured_language
from codeproof.languages.layout import Layout

BUILTIN: tuple[Language, ...] = (python.LANGUAGE, javascript.LANGUAGE, java.LANGUAGE)
"""The built-in languages; the first is the default where a request names none."""

_extra: dict[str, Language] = {}


def languages() -> tuple[Language, ...]:
    """Every known language: the built-in ones, then those added by :func:`add`."""
    return (*BUILTIN, *_extra.values())


def add(language: Language) -> None:
    """Make ``language`` known for this process (a configured toolchain's language)."""
    if any(known.name == language.name for known in BUILTIN):
        return
    _extra[language.name] = language


def discard(name: str) -> None:
    """Forget a language added by :func:`add` (built-in ones stay)."""
    _extra.pop(name, None)


def add_configured(settings: Settings) -> None:
    """Make every language of ``[toolchains.<name>]`` without a package known (a plain
    layout from its configuration, :mod:`.configured`)."""
    for name, server in settings.toolchains.items():
        canonical = name.strip().lower()
        if find(canonical) is None:
            add(configured_language(canonical, server))


def names() -> list[str]:
    """Canonical names of every known language."""
    return [language.name for language in languages()]


def default() -> Language:
    """The language of a request that names none."""
    return BUILTIN[0]


def normalize_language(text: str) -> str:
    """Canonical name of a language as a model or user may spell it.

    ``"Python 3"`` -> the Python language's name, ``"Node.js"`` -> JavaScript's; an
    unknown language comes back lower-cased and stripped.
    """
    tokens = words(text)
    for token in tokens:
        for language in languages():
            if language.spelled(token):
                return language.name
    return text.strip().lower()


def find(text: str) -> Language | None:
    """The language named ``text`` (aliases accepted), or ``None``."""
    name = normalize_language(text)
    return next((language for language in languages() if language.name == name), None)


def language_for(text: str) -> Language:
    """The language named ``text`` (aliases accepted).

    Raises:
        UnknownLanguageError: No such language is known.
    """
    found = find(text)
    if found is None:
        raise UnknownLanguageError(normalize_language(text), names())
    return found


def extensions() -> frozenset[str]:
    """The file name endings of every known language's sources and tests (``.py``...)."""
    return frozenset(e for language in languages() for e in language.layout.extensions if e)


def formats() -> dict[str, str]:
    """File name ending -> the name of the known language whose files end so: its
    layout's ``extensions`` and ``related_extensions`` (``.pyi`` -> Python's name)."""
    table: dict[str, str] = {}
    for language in languages():
        layout = language.layout
        for ending in (*layout.extensions, *layout.related_extensions):
            if ending:
                table.setdefault(ending, language.name)
    return table


def fence_tags_except(name: str) -> frozenset[str]:
    """Fence tags of every language but ``name`` (a block tagged so is not its code)."""
    others: Iterable[Language] = (lang for lang in languages() if lang.name != name)
    return frozenset().union(*(language.layout.fence_tags for language in others))


def layout_for(text: str) -> Layout:
    """The layout of the language named ``text`` (aliases accepted).

    Raises:
        UnknownLanguageError: No such language is known.
    """
    return language_for(text).layout
