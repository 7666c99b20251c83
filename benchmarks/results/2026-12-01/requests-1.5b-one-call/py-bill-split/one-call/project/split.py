def split_evenly(total_cents, people):
    if people < 1:
        raise ValueError("People must be at least 1")
    
    if total_cents % people != 0:
        raise ValueError("Total cents must be divisible by people")
    
    share = total_cents // people
    
    if share % 100 != 0:
        raise ValueError("Share must be in cents")
    
    return [share] * people

def split_bill(amount_text, people):
    cents = parse_money(amount_text)
    
    if people < 1:
        raise ValueError("People must be at least 1")
    
    if cents % people != 0:
        raise ValueError("Total cents must be divisible by people")
    
    share = cents // people
    
    if share % 100 != 0:
        raise ValueError("Share must be in cents")
    
    return [format_money(share)] * people
