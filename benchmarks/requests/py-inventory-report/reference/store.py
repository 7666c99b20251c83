"""Reference solution of py-inventory-report: the stock."""


def _check_qty(qty: object) -> int:
    if not isinstance(qty, int) or isinstance(qty, bool) or qty <= 0:
        raise ValueError(f"qty must be a positive integer, not {qty!r}")
    return qty


class Inventory:
    def __init__(self) -> None:
        self._items: dict[str, tuple[int, float]] = {}

    def add(self, sku: str, qty: int, unit_price: float) -> None:
        _check_qty(qty)
        if unit_price < 0:
            raise ValueError("unit_price must not be negative")
        have, _ = self._items.get(sku, (0, 0.0))
        self._items[sku] = (have + qty, unit_price)

    def remove(self, sku: str, qty: int) -> None:
        _check_qty(qty)
        have, price = self._items.get(sku, (0, 0.0))
        if qty > have:
            raise ValueError(f"only {have} of {sku} in stock")
        if qty == have:
            del self._items[sku]
        else:
            self._items[sku] = (have - qty, price)

    def quantity(self, sku: str) -> int:
        return self._items.get(sku, (0, 0.0))[0]

    def total_value(self) -> float:
        return sum(q * p for q, p in self._items.values())

    def items(self) -> list[tuple[str, int, float]]:
        return [(sku, q, p) for sku, (q, p) in sorted(self._items.items())]
