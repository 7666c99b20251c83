"""The user's string literals put back where a model re-quoted them into broken code."""

from __future__ import annotations

from codeproof.contract.quotes import requoted

WORDS = (
    'Words keep an apostrophe, as in "don\'t".\n'
    'assert word_frequencies("Don\'t stop, DON\'T!", top=1) == [("don\'t", 2)]\n'
)


def test_a_re_quoted_literal_is_put_back_as_the_user_wrote_it() -> None:
    broken = [
        "word_frequencies('Don't stop, DON'T!', top=1) == [('don't', 2)]",
        "top_word('Don't stop, DON'T!') -> 'don't'",  # the analyst's own example
    ]
    assert requoted(broken, WORDS) == [
        'word_frequencies("Don\'t stop, DON\'T!", top=1) == [("don\'t", 2)]',
        'top_word("Don\'t stop, DON\'T!") -> "don\'t"',
    ]


def test_examples_that_parse_or_that_no_literal_mends_are_left_alone() -> None:
    kept = [
        "word_frequencies('the cat') == [('the', 1), ('cat', 1)]",  # parses
        "f('it's') -> 1",  # broken, but the user wrote no "it's"
        "f('a's') -> 'don't'",  # mending 'don't' alone leaves it broken
    ]
    assert requoted(kept, WORDS) == kept
