"""Reference solution of py-roman."""

_VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]  # fmt: skip
_TABLE = {}


def to_roman(n: int) -> str:
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 3999:
        raise ValueError(f"{n!r} is outside 1..3999")
    parts = []
    for value, symbol in _VALUES:
        count, n = divmod(n, value)
        parts.append(symbol * count)
    return "".join(parts)


def from_roman(s: str) -> int:
    if not _TABLE:
        _TABLE.update({to_roman(n): n for n in range(1, 4000)})
    try:
        return _TABLE[s.upper()]
    except (KeyError, AttributeError):
        raise ValueError(f"{s!r} is not a Roman numeral") from None
