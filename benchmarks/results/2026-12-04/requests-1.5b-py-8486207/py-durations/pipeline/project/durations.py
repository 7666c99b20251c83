def parse_duration(text):
    units = {'s': 1, 'm': 60, 'h': 3600}
    parts = text.split()
    total_seconds = 0

    for part in parts:
        if not part:
            continue
        if part[-1] not in units:
            raise ValueError
        number = int(part[:-1])
        if number > 0:
            total_seconds += number * units[part[-1]]

    if total_seconds < 0:
        raise ValueError
    return total_seconds


def format_duration(seconds):
    units = {'s': 's', 'm': 'm', 'h': 'h'}
    parts = []

    if seconds < 0:
        raise ValueError
    if seconds == 0:
        return '0s'

    hours = seconds // 3600
    seconds %= 3600
    minutes = seconds // 60
    seconds %= 60

    if hours > 0:
        parts.append(str(hours) + units['h'])
    if minutes > 0:
        parts.append(str(minutes) + units['m'])
    if seconds > 0:
        parts.append(str(seconds) + units['s'])

    return ' '.join(parts)
