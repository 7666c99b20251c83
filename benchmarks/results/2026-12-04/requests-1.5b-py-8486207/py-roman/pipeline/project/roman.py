def to_roman(n):
    if not (1 <= n <= 3999):
        raise ValueError("Input must be between 1 and 3999")
    if not isinstance(n, int):
        raise ValueError("Input must be an integer")
    roman_numerals = [
        (1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'),
        (100, 'C'), (90, 'XC'), (50, 'L'), (40, 'XL'),
        (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')
    ]
    result = ""
    for value, numeral in roman_numerals:
        while n >= value:
            result += numeral
            n -= value
    return result

def from_roman(s):
    if not s:
        raise ValueError("Input cannot be empty")
    if not isinstance(s, str):
        raise ValueError("Input must be a string")
    roman_numerals = [
        (1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'),
        (100, 'C'), (90, 'XC'), (50, 'L'), (40, 'XL'),
        (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')
    ]
    result = 0
    index = 0
    for value, numeral in roman_numerals:
        while index < len(s) and s[index] == numeral:
            result += value
            index += 1
    if index != len(s):
        raise ValueError("Invalid Roman numeral")
    return result
