"""How JavaScript test code states a check (:mod:`codeproof.languages.notations`):
Node's ``assert`` (the actual value first) and Jest's ``expect``."""

from __future__ import annotations

import re

from codeproof.languages.notations import Notations, Written

NOTATIONS = Notations(
    assertions=(
        Written(  # assert.strictEqual(add(2, 3), 5)
            re.compile(
                r"(?<![\w$.])assert\.(?P<call>strictEqual|deepStrictEqual|equal|deepEqual)\("
            ),
            "first",
        ),
        Written(  # expect(add(2, 3)).toBe(5)
            re.compile(r"(?<![\w$.])(?P<call>expect)\("),
            "matcher",
            re.compile(r"^[ \t]*\.[ \t]*(?P<matcher>to(?:Be|Equal|StrictEqual)\()"),
        ),
    ),
    raises=(
        Written(  # assert.throws(() => f(-1), RangeError)
            re.compile(r"(?<![\w$.])assert\.(?P<call>throws)\("), "first"
        ),
        Written(  # expect(() => f(-1)).toThrow(RangeError)
            re.compile(r"(?<![\w$.])(?P<call>expect)\([ \t]*\([ \t]*\)"),
            "matcher",
            re.compile(r"^[ \t]*\.[ \t]*(?P<matcher>toThrow\()"),
        ),
    ),
    printers=("console.log",),
    line_comment="//",
)
