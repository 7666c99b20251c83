def to_csv(inventory):
    import csv

    with open('report.csv', 'w', newline='') as csvfile:
        fieldnames = ['sku', 'quantity', 'unit_price', 'value']
        writer = csv.DictWriter(csvfile, fieldnames=fieldnames)
        writer.writeheader()

        for sku, item in sorted(inventory.items(), key=lambda x: x[0]):
            writer.writerow({
                'sku': sku,
                'quantity': item['qty'],
                'unit_price': round(item['unit_price'], 2),
                'value': round(item['qty'] * item['unit_price'], 2)
            })
