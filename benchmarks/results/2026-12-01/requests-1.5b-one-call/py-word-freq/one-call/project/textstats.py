def word_frequencies(text, top=None):
    words = text.lower().split()
    word_count = {}
    for word in words:
        if word in word_count:
            word_count[word] += 1
        else:
            word_count[word] = 1

    sorted_words = sorted(word_count.items(), key=lambda x: (-x[1], x[0]))
    if top is not None:
        if top < 0:
            raise ValueError("top must be non-negative")
        return sorted_words[:top]
    else:
        return sorted_words

def top_word(text):
    words = text.lower().split()
    if not words:
        return None
    word_count = {}
    for word in words:
        if word in word_count:
            word_count[word] += 1
        else:
            word_count[word] = 1

    sorted_words = sorted(word_count.items(), key=lambda x: (-x[1], x[0]))
    return sorted_words[0][0] if sorted_words else None
