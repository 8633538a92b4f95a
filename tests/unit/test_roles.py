"""Rule-made Q and K for typed Korean sentences: the roles the rules read, the weights they give,
and the captions' claims on them; a sentence the rules cannot read says its numbers mean nothing."""
import numpy as np
import pytest

from attention_core import attention, custom_preset
from attention_core.roles import ROLES, read_roles

SENTENCES = {
    "고양이가 생선을 먹었다": ("subject", "object", "predicate"),
    "나는 오늘 도서관에서 책을 읽었다": ("subject", "time", "place", "object", "predicate"),
    "할머니께서 어제 밥을 드셨다": ("subject", "time", "object", "predicate"),
    "친구가 내일 학교에 와요": ("subject", "time", "place", "predicate"),
    "오늘은 동생이 공원에서 놀았다": ("time", "subject", "place", "predicate"),
}


@pytest.mark.parametrize("sentence, roles", SENTENCES.items())
def test_particles_and_endings_give_each_token_its_role(sentence, roles):
    assert read_roles(sentence.split()) == roles
    preset = custom_preset(sentence)
    assert preset.origin == "rules" and preset.roles == roles


@pytest.mark.parametrize("sentence", SENTENCES)
def test_the_predicate_looks_most_at_the_object_and_each_caption_claim_holds(sentence):
    p = custom_preset(sentence)
    weights = attention(p.q, p.k, p.v).weights[0, -1]
    if "object" in p.roles:
        assert int(np.argmax(weights)) == p.roles.index("object")
    four = attention(p.q, p.k, p.v, heads=4).weights
    claimed = 0
    for head, claims in enumerate(p.claims[4]):
        for query, key in claims:
            row = four[head, query]
            assert row[key] >= np.delete(row, key).max() + 0.1, (sentence, head, row.round(3))
            claimed += 1
    assert claimed == sum(role in ROLES for role in p.roles)


def test_the_books_sentence_looks_at_the_fish_as_the_book_does():
    p = custom_preset("고양이가 생선을 먹었다")
    weights = attention(p.q, p.k, p.v).weights[0, 2]
    assert weights[1] > 0.6 and weights.argmax() == 1  # the book: 생선을 0.786; hash numbers gave 먹었다 itself 0.85


@pytest.mark.parametrize("sentence", ["the cat sat on the mat", "하나 둘 셋", "고양이가 생선을", "😀 🇰🇷"])
def test_a_sentence_the_rules_cannot_read_falls_back_to_arbitrary_numbers_said_so(sentence):
    p = custom_preset(sentence)
    assert p.origin == "hash" and p.roles == () and p.captions == {}


def test_a_repeated_word_is_claimed_at_the_right_copy_and_final_punctuation_is_read():
    p = custom_preset("나는 책을 읽고 나는 책을 읽었다.")
    assert p.origin == "rules" and p.roles[-1] == "predicate"
    p = custom_preset("비가 와요.")
    assert p.origin == "rules" and p.roles == ("subject", "predicate")


@pytest.mark.parametrize("sentence, token, role", [
    ("봄에 꽃이 피어요", "봄에", "time"), ("토요일에 친구를 만났다", "토요일에", "time"),
    ("가을에 하늘이 높다", "가을에", "time"), ("가을 하늘이 높다", "가을", ""), ("물을 많이 마셨다", "많이", ""),
    ("좋은 책을 읽었다", "좋은", "")])
def test_seasons_and_weekdays_are_times_and_common_adverbs_and_adjectives_have_no_role(sentence, token, role):
    """A season before a noun modifies it (가을 하늘: the autumn sky), as 학교 in 학교 도서관에서."""
    p = custom_preset(sentence)
    assert p.roles[p.tokens.index(token)] == role
