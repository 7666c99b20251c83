import pytest
from store import Inventory

def test_add_existing_sku():
    inv = Inventory()
    inv.add('A-1', 2, 10)
    inv.add('A-1', 3, 15)
    assert inv.quantity('A-1') == 5
    assert inv.total_value() == 75.00

def test_add_new_sku():
    inv = Inventory()
    inv.add('B-2', 3, 1.5)
    assert inv.quantity('B-2') == 3
    assert inv.total_value() == 4.50

def test_remove_existing_sku():
    inv = Inventory()
    inv.add('A-1', 2, 10)
    inv.remove('A-1', 1)
    assert inv.quantity('A-1') == 1
    assert inv.total_value() == 10.00

def test_remove_non_existing_sku():
    inv = Inventory()
    with pytest.raises(ValueError):
        inv.remove('A-1', 1)

def test_remove_more_than_stock():
    inv = Inventory()
    inv.add('A-1', 2, 10)
    with pytest.raises(ValueError):
        inv.remove('A-1', 3)
    assert inv.quantity('A-1') == 2
    assert inv.total_value() == 20.00

def test_quantity_zero():
    inv = Inventory()
    inv.add('A-1', 2, 10)
    inv.remove('A-1', 2)
    assert inv.quantity('A-1') == 0
    assert inv.total_value() == 0.00


