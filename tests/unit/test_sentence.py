"""Custom sentences: tokenizing, the length cap, and toy Q/K/V identical in every process."""
import subprocess
import sys

import numpy as np
import pytest

from attention_core import MAX_TOKENS, custom_preset, tokenize, toy_qkv


def test_whitespace_split_keeps_korean_eojeol_whole():
    assert tokenize("나는 어제 학교에서  친구를\t만났다") == ("나는", "어제", "학교에서", "친구를", "만났다")


def test_control_characters_split_and_invisible_marks_vanish():
    assert tokenize("a\x00b\u200bc \u202eevil\u202c") == ("a", "bc", "evil")


def test_repeated_tokens_are_kept_as_separate_positions_with_different_rows():
    tokens = tokenize("the cat saw the dog")
    assert tokens.count("the") == 2
    q, _, _ = toy_qkv(tokens)
    assert not np.array_equal(q[0], q[3])


@pytest.mark.parametrize("text, message", [
    ("", "empty"), ("   \n\t", "empty"),
    (" ".join(["가"] * (MAX_TOKENS + 1)), f"at most {MAX_TOKENS}"),
    ("x" * 100_000, "too long"),
])
def test_bad_sentences_raise_value_error_with_a_message(text, message):
    with pytest.raises(ValueError, match=message):
        tokenize(text)


def test_toy_qkv_shape_and_range():
    q, k, v = toy_qkv(("하나", "둘", "셋"))
    assert q.shape == k.shape == v.shape == (3, 8)
    assert np.all(np.abs(q) <= 3.0)




def test_custom_preset_defaults_to_the_last_token():
    p = custom_preset("one two three")
    assert p.default_query == 2 and p.tokens == ("one", "two", "three")
