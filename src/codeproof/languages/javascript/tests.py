"""TODO-DOC"""

from __future__ import annotations

import re

from codeproof.languages.base import Span
from codeproof.languages.clike import STRING_QUOTES, matching


def locate_javascript_test(source: str, name: str) -> Span | None:
    """The ``test(...)``/``it(...)`` call titled with the last part of ``name``."""
    title = name.split(" > ")[-1]
    quoted = "|".join(re.escape(q + title + q) for q in STRING_QUOTES)
    calls = list(re.finditer(rf"\b(?:test|it)\s*\(\s*(?:{quoted})", source))
    if len(calls) != 1:
        return None
    opening = source.index("(", calls[0].start())
    closing = matching(source, opening, "(", ")")
    return None if closing is None else (calls[0].start(), closing + 1)
