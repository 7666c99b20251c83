def parse_money(text):
    if not text:
        raise ValueError("Text cannot be empty")
    
    text = text.replace("$", "").replace(",", "")
    try:
        cents = int(text)
    except ValueError:
        raise ValueError("Invalid amount")
    
    if cents < 0:
        raise ValueError("Amount cannot be negative")
    
    if cents % 100 != 0:
        raise ValueError("Amount must be in cents")
    
    return cents

def format_money(cents):
    if cents < 0:
        raise ValueError("Amount cannot be negative")
    
    if cents % 100 != 0:
        raise ValueError("Amount must be in cents")
    
    dollars = cents // 100
    cents %= 100
    
    if dollars == 0:
        return f"${cents:.2f}"
    elif cents == 0:
        return f"${dollars}"
    else:
        return f"${dollars}.{cents:02d}"
