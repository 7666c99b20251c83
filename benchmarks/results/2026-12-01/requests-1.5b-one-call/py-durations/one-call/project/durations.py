def parse_duration(text):
    if not text:
        raise ValueError("Empty string")
    
    parts = text.split()
    seconds = 0
    
    for part in parts:
        if part.endswith('h'):
            hours = int(part[:-1])
            seconds += hours * 3600
        elif part.endswith('m'):
            minutes = int(part[:-1])
            seconds += minutes * 60
        elif part.endswith('s'):
            seconds += int(part[:-1])
        else:
            raise ValueError("Unknown unit")
    
    if seconds < 0:
        raise ValueError("Negative seconds")
    
    return seconds

def format_duration(seconds):
    if seconds < 0:
        raise ValueError("Negative seconds")
    
    parts = []
    
    if seconds >= 3600:
        hours = seconds // 3600
        parts.append(f"{hours}h")
        seconds %= 3600
    
    if seconds >= 60:
        minutes = seconds // 60
        parts.append(f"{minutes}m")
        seconds %= 60
    
    if seconds > 0:
        parts.append(f"{seconds}s")
    
    return ' '.join(parts)
