import csv

def to_csv(inventory):
    with open('report.csv', 'w', newline='') as csvfile:
        fieldnames = ['sku', 'quantity', 'unit_price', 'value']
        writer = csv.DictWriter(csvfile, fieldnames=fieldnames)
        writer.writeheader()
        for sku, item in sorted(inventory.items()):
            writer.writerow({
                'sku': sku,
                'quantity': item['qty'],
                'unit_price': item['unit_price'],
                'value': item['qty'] * item['unit_price']
            })
