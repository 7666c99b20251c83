"""Reference solution of py-bill-split: amounts."""

import re

_AMOUNT = re.compile(r"\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?")


def parse_money(text: str) -> int:
    match = _AMOUNT.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"not an amount: {text!r}")
    dollars = int(match.group(1).replace(",", ""))
    cents = int((match.group(2) or "0").ljust(2, "0"))
    return dollars * 100 + cents


def format_money(cents: int) -> str:
    dollars, rest = divmod(cents, 100)
    return f"${dollars:,}.{rest:02d}"
