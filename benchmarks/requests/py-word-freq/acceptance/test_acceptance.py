"""Acceptance tests of py-word-freq, written from request.md alone."""

import random
from collections import Counter

import pytest
from textstats import top_word, word_frequencies


def test_first_example() -> None:
    assert word_frequencies("the cat and the hat") == [
        ("the", 2),
        ("and", 1),
        ("cat", 1),
        ("hat", 1),
    ]


def test_apostrophe_case_and_top() -> None:
    assert word_frequencies("Don't stop, DON'T!", top=1) == [("don't", 2)]


def test_digits_separate_words() -> None:
    assert word_frequencies("x1y x") == [("x", 2), ("y", 1)]


def test_ties_are_alphabetical() -> None:
    assert word_frequencies("b a c b a") == [("a", 2), ("b", 2), ("c", 1)]


def test_apostrophe_not_between_letters_is_not_part_of_a_word() -> None:
    assert word_frequencies("'quoted' words") == [("quoted", 1), ("words", 1)]


def test_negative_top_raises() -> None:
    with pytest.raises(ValueError):
        word_frequencies("a b", top=-1)


def test_top_zero_and_top_larger_than_the_list() -> None:
    assert word_frequencies("a b a", top=0) == []
    assert word_frequencies("a b a", top=10) == [("a", 2), ("b", 1)]


def test_text_without_words_gives_an_empty_list() -> None:
    assert word_frequencies("") == []
    assert word_frequencies("123 ... !!") == []


def test_top_word() -> None:
    assert top_word("the cat and the hat") == "the"


def test_top_word_tie_is_alphabetical() -> None:
    assert top_word("b a") == "a"


def test_top_word_of_text_without_words_is_none() -> None:
    assert top_word("") is None
    assert top_word("42 !") is None


def test_counts_and_order_on_generated_texts() -> None:
    rng = random.Random(7)
    vocabulary = ["alpha", "Beta", "gamma", "delta", "eps", "zeta"]
    for _ in range(30):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 40))]
        separators = [rng.choice([" ", ", ", ". ", "; ", " 3 ", "!\n"]) for _ in words]
        text = "".join(w + s for w, s in zip(words, separators, strict=True))
        result = word_frequencies(text)
        expected = Counter(w.lower() for w in words)
        assert dict(result) == dict(expected)
        assert result == sorted(result, key=lambda item: (-item[1], item[0]))
