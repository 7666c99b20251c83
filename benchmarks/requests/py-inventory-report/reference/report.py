"""Reference solution of py-inventory-report: the CSV report."""

from store import Inventory


def to_csv(inventory: Inventory) -> str:
    lines = ["sku,quantity,unit_price,value"]
    for sku, qty, price in inventory.items():
        lines.append(f"{sku},{qty},{price:.2f},{qty * price:.2f}")
    return "\n".join(lines) + "\n"
