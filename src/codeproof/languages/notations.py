"""How a language's test code states a check, as a user may paste it into a request:
``assertEquals(5, add(2, 3))``, ``expect(() => f(-1)).toThrow(RangeError)``, ``with
pytest.raises(ValueError):``, or a printed call with its result in a comment. Each
language lists its own (``notations.py`` of its package); the request's words are read
with every known language's (:mod:`codeproof.contract.asserted`), since a request may
paste test code before it names a language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Subject = Literal["first", "second", "matcher", "block"]


@dataclass(frozen=True)
class Written:
    """One way test code states a check.

    Attributes:
        head: Finds it; its group ``call`` starts the call the check makes
            (``assertEquals(`` of ``Assertions.assertEquals(``). For ``block``, its group
            ``error`` is the error named and the match ends where the checked line starts.
        subject: Where the call checked (or the function that must throw) is: the first
            or the second argument of that call (the other one is the expected value or
            error), the one argument of a call that a matcher follows
            (``expect(add(2, 3)).toBe(5)``), or the line after a block's head.
        matcher: For ``matcher``: what follows the call; its group ``matcher`` starts the
            matcher's call, whose one argument is the expected value or error.
    """

    head: re.Pattern[str]
    subject: Subject
    matcher: re.Pattern[str] | None = None


@dataclass(frozen=True)
class Notations:
    """A language's ways of writing checks and printed results.

    Attributes:
        assertions: Checks of a call's result.
        raises: Checks that a call raises or throws an error.
        printers: Calls that print their one argument (``print``, ``console.log``).
        line_comment: What starts a comment to the end of the line (``#``, ``//``).
    """

    assertions: tuple[Written, ...] = ()
    raises: tuple[Written, ...] = ()
    printers: tuple[str, ...] = ()
    line_comment: str = ""
