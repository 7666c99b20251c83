"""How Java test code states a check (:mod:`codeproof.languages.notations`): JUnit's
assertions, the expected value (or error class) first."""

from __future__ import annotations

import re

from codeproof.languages.notations import Notations, Written

NOTATIONS = Notations(
    assertions=(
        Written(  # assertEquals(5, add(2, 3)), Assertions.assertArrayEquals(...)
            re.compile(
                r"(?<![\w$.])(?:(?:Assertions|Assert)\.)?(?P<call>assert(?:Array)?Equals)\("
            ),
            "second",
        ),
    ),
    raises=(
        Written(  # assertThrows(IllegalArgumentException.class, () -> f(-1))
            re.compile(r"(?<![\w$.])(?:(?:Assertions|Assert)\.)?(?P<call>assertThrows)\("),
            "second",
        ),
    ),
    printers=("System.out.println", "System.out.print"),
    line_comment="//",
)
