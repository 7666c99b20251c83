"""Acceptance tests of py-inventory-report, written from request.md alone."""

import pytest
from report import to_csv
from store import Inventory


def _lines(text: str) -> list[str]:
    return text.rstrip("\r\n").splitlines()


def _example() -> Inventory:
    inv = Inventory()
    inv.add("B-2", 3, 1.5)
    inv.add("A-1", 2, 10)
    return inv


def test_csv_of_the_example() -> None:
    assert _lines(to_csv(_example())) == [
        "sku,quantity,unit_price,value",
        "A-1,2,10.00,20.00",
        "B-2,3,1.50,4.50",
    ]


def test_quantity_and_total_value_of_the_example() -> None:
    inv = _example()
    assert inv.quantity("A-1") == 2
    assert inv.quantity("B-2") == 3
    assert inv.total_value() == pytest.approx(24.5)


def test_quantity_of_unknown_sku_is_zero() -> None:
    assert Inventory().quantity("nope") == 0


def test_adding_again_increases_quantity_and_takes_the_last_price() -> None:
    inv = Inventory()
    inv.add("X", 1, 2.0)
    inv.add("X", 2, 3.0)
    assert inv.quantity("X") == 3
    assert inv.total_value() == pytest.approx(9.0)
    assert _lines(to_csv(inv))[1:] == ["X,3,3.00,9.00"]


@pytest.mark.parametrize("qty", [0, -2, 1.5])
def test_add_rejects_a_quantity_that_is_not_a_positive_integer(qty: float) -> None:
    inv = Inventory()
    with pytest.raises(ValueError):
        inv.add("X", qty, 1.0)
    assert inv.quantity("X") == 0


def test_add_rejects_a_negative_unit_price() -> None:
    with pytest.raises(ValueError):
        Inventory().add("X", 1, -0.01)


def test_remove_rejects_a_quantity_that_is_not_positive() -> None:
    inv = _example()
    with pytest.raises(ValueError):
        inv.remove("A-1", 0)
    assert inv.quantity("A-1") == 2


def test_removing_more_than_in_stock_fails_and_changes_nothing() -> None:
    inv = _example()
    with pytest.raises(ValueError):
        inv.remove("B-2", 4)
    assert inv.quantity("B-2") == 3
    assert inv.total_value() == pytest.approx(24.5)


def test_removing_an_unknown_sku_fails() -> None:
    with pytest.raises(ValueError):
        Inventory().remove("nope", 1)


def test_partial_remove_lowers_the_quantity() -> None:
    inv = _example()
    inv.remove("B-2", 1)
    assert inv.quantity("B-2") == 2
    assert _lines(to_csv(inv))[2] == "B-2,2,1.50,3.00"


def test_a_sku_removed_to_zero_leaves_the_report() -> None:
    inv = _example()
    inv.remove("A-1", 2)
    assert inv.quantity("A-1") == 0
    assert _lines(to_csv(inv)) == ["sku,quantity,unit_price,value", "B-2,3,1.50,4.50"]


def test_an_empty_inventory_is_only_the_header() -> None:
    assert _lines(to_csv(Inventory())) == ["sku,quantity,unit_price,value"]
