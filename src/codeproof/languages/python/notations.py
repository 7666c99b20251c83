"""How Python test code states a check (:mod:`codeproof.languages.notations`). Plain
``assert f(x) == y`` lines are read with the other notations of the request's words."""

from __future__ import annotations

import re

from codeproof.languages.notations import Notations, Written

NOTATIONS = Notations(
    raises=(
        Written(  # with pytest.raises(ValueError):\n    f(-1)
            re.compile(
                r"(?<![\w$.])pytest\.raises\([ \t]*(?P<error>[A-Za-z_][\w.]*)[ \t]*"
                r"(?:,[^)\n]*)?\)[ \t]*:[ \t]*\n[ \t]+"
            ),
            "block",
        ),
    ),
    printers=("print",),
    line_comment="#",
)
