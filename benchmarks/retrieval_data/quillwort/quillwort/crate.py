"""Crates: what a warehouse bay holds, with a weight per unit."""

from __future__ import annotations

from quillwort.errors import ShortfallError

UNIT_WEIGHT = {"bolt": 2, "gear": 5, "spring": 1, "lens": 3}
"""Weight of one unit of each known item, in grams; unknown items weigh 4."""


class Crate:
    """A crate of items; quantities are never negative."""

    def __init__(self, label: str) -> None:
        self.label = label
        self._units: dict[str, int] = {}

    def stow(self, item: str, qty: int) -> int:
        """Put ``qty`` units of ``item`` in the crate; returns the new quantity.

        Raises:
            ValueError: ``qty`` is not positive.
        """
        if qty <= 0:
            raise ValueError("qty must be positive")
        self._units[item] = self._units.get(item, 0) + qty
        return self._units[item]

    def draw(self, item: str, qty: int) -> int:
        """Take ``qty`` units of ``item`` out; returns what is left.

        Raises:
            ShortfallError: The crate holds fewer than ``qty`` units.
        """
        have = self._units.get(item, 0)
        if have < qty:
            raise ShortfallError(item, qty - have)
        self._units[item] = have - qty
        return self._units[item]

    def count(self, item: str) -> int:
        """Units of ``item`` in the crate (0 when none)."""
        return self._units.get(item, 0)

    def manifest(self) -> list[tuple[str, int]]:
        """``(item, qty)`` pairs of the items present, heaviest total weight first."""
        present = [(i, q) for i, q in self._units.items() if q > 0]
        return sorted(present, key=lambda p: (-p[1] * UNIT_WEIGHT.get(p[0], 4), p[0]))

    def weight(self) -> int:
        """The crate's total weight in grams."""
        return sum(q * UNIT_WEIGHT.get(i, 4) for i, q in self._units.items())
