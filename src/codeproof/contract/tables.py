"""Examples a request states as a table: a column of inputs, a column of results.

```
| number              | isValid | brand |
|---------------------|---------|-------|
| 4111 1111 1111 1111 | true    | VISA  |
```

states ``isValid("4111 1111 1111 1111") -> true`` and ``brand("4111 1111 1111 1111") ->
"VISA"``. The first column holds the argument of a one-parameter function: its header
is the parameter's name, names the function ("text given to parseCsv"), or is a generic
one ("input") when the function is the request's only one. A result column is headed by
the function's name, or generically ("result") in a table of two columns.

A cell is read as a literal. A column none of whose cells is a literal, and none in a
code span, is text (card numbers, brand names): its cells are strings. A code span that
is no literal is text as written. Any other cell drops its row: a wrong example would
hold every candidate to a wrong test.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from codeproof.languages.values import literal_value

_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_HEADER_IN = re.compile(r"^(?:input|inputs|argument|arg|x|n|value|text|s)$", re.IGNORECASE)
_HEADER_OUT = re.compile(r"^(?:output|result|returns?|expected|answer)$", re.IGNORECASE)
_RAISES = re.compile(r"^(?:raises|throws)\s+(?:an?\s+)?`?([A-Z][\w$.]*)`?$")
"""A result cell stating an error: "raises ValueError", "throws an `IllegalArgumentException`"."""


def table_examples(
    lines: Sequence[str], name: str, params: Sequence[str] | None, *, alone: bool
) -> list[str]:
    """``name(arg) -> result`` for each row of each table of ``lines`` that states
    results of ``name`` (``alone``: the request's only function)."""
    cells = [_cells(line) for line in lines]
    out: list[str] = []
    for i, header in enumerate(cells):
        if header is None or len(header) < 2 or not _inputs(header[0], name, params, alone):
            continue
        columns = [j for j in range(1, len(header)) if _results(header, j, name)]
        rows = _rows(cells[i + 1 :], len(header))
        if not columns or not rows:
            continue
        args = _column([row[0] for row in rows])
        for j in columns:
            results = _column([row[j] for row in rows], results=True)
            out += [f"{name}({a}) -> {r}" for a, r in zip(args, results, strict=True) if a and r]
    return out


def _cells(line: str) -> list[str] | None:
    if "|" not in line:
        return None
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _inputs(header: str, name: str, params: Sequence[str] | None, alone: bool) -> bool:
    left = header.strip("`")
    one = len(params or [""]) == 1
    named = one and (left == (params or [""])[0] or name in _NAME.findall(left))
    return named or (alone and _HEADER_IN.match(left) is not None)


def _results(header: Sequence[str], j: int, name: str) -> bool:
    cell = header[j].strip("`").removesuffix("()")
    return cell == name or (len(header) == 2 and _HEADER_OUT.match(cell) is not None)


def _rows(lines: Sequence[list[str] | None], width: int) -> list[list[str]]:
    """The data rows under a header of ``width`` columns, up to the first line that is
    no such row (the separator row skipped)."""
    rows: list[list[str]] = []
    for row in lines:
        if row is None or len(row) != width:
            break
        if not set("".join(row)) <= set("-: "):
            rows.append(row)
    return rows


def _column(cells: Sequence[str], *, results: bool = False) -> list[str | None]:
    """Each cell as a literal (``None`` where it is none): strings where the column is
    text, ``raises X`` where a result cell states an error."""
    raised = [_RAISES.match(c) if results else None for c in cells]
    values = [c for c, r in zip(cells, raised, strict=True) if r is None]
    text = bool(values) and all(_plain_text(c) for c in values)
    return [
        f"raises {r.group(1)}" if r is not None else _text(c) if text else _cell(c)
        for c, r in zip(cells, raised, strict=True)
    ]


def _plain_text(cell: str) -> bool:
    return bool(cell) and not cell.startswith("`") and not literal_value(cell)[0]


def _text(cell: str) -> str:
    return '"' + cell.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cell(cell: str) -> str | None:
    """A table cell as a literal: the cell itself when it is a literal (in a code span or
    not); a code span that is no literal is text as written, escapes included
    (`` `a,b\\n1,2` `` is ``"a,b\\n1,2"``, a string of two lines); otherwise ``None``."""
    spanned = len(cell) > 2 and cell.startswith("`") and cell.endswith("`")
    text = cell.strip("`")
    ok, value = literal_value(text)
    if ok and not (spanned and isinstance(value, tuple) and not text.startswith("(")):
        return text
    if not spanned:
        return None
    quoted = '"' + re.sub(r'(?<!\\)"', r'\\"', text) + '"'
    return quoted if literal_value(quoted)[0] else None
