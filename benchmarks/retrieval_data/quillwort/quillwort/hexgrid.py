"""Hex cells in axial coordinates ``(q, r)``."""

from __future__ import annotations

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_distance(a: Cell, b: Cell) -> int:
    """Steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(cell: Cell) -> list[Cell]:
    """The six cells next to ``cell``, in DIRECTIONS order."""
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS]


def within(center: Cell, radius: int) -> list[Cell]:
    """Every cell at most ``radius`` steps from ``center``, sorted."""
    out = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append((center[0] + dq, center[1] + dr))
    return sorted(out)
