class Inventory:
    def __init__(self):
        self.items = {}

    def add(self, sku, qty, unit_price):
        if sku in self.items:
            self.items[sku]['qty'] += qty
            self.items[sku]['unit_price'] = unit_price
        else:
            self.items[sku] = {'qty': qty, 'unit_price': unit_price}

    def remove(self, sku, qty):
        if sku not in self.items:
            raise ValueError(f"SKU {sku} not found")
        if qty > self.items[sku]['qty']:
            raise ValueError(f"Cannot remove more than {self.items[sku]['qty']} units of {sku}")
        self.items[sku]['qty'] -= qty

    def quantity(self, sku):
        if sku not in self.items:
            return 0
        return self.items[sku]['qty']

    def total_value(self):
        return sum(item['qty'] * item['unit_price'] for item in self.items.values())
