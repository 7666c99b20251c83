"""Reference solution of py-bill-split: shares."""

from money import format_money, parse_money


def split_evenly(total_cents: int, people: int) -> list[int]:
    if people < 1:
        raise ValueError("people must be at least 1")
    base, extra = divmod(total_cents, people)
    return [base + 1] * extra + [base] * (people - extra)


def split_bill(amount_text: str, people: int) -> list[str]:
    return [format_money(c) for c in split_evenly(parse_money(amount_text), people)]
