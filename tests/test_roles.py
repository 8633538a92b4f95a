"""Rule-made Q and K for typed Korean sentences: the roles the rules read, the weights they give,
and the captions' claims on them; a sentence the rules cannot read says its numbers mean nothing."""
import numpy as np
import pytest

from attention_core import attention, custom_preset
from attention_core.roles import read_roles

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
        for query_token, key_token in claims:
            row = four[head, p.tokens.index(query_token)]
            key = p.tokens.index(key_token)
            assert row[key] >= np.delete(row, key).max() + 0.1, (sentence, head, row.round(3))
            claimed += 1
    assert claimed == sum(role not in ("predicate", "") for role in p.roles)


def test_the_books_sentence_looks_at_the_fish_as_the_book_does():
    p = custom_preset("고양이가 생선을 먹었다")
    weights = attention(p.q, p.k, p.v).weights[0, 2]
    assert weights[1] > 0.6 and weights.argmax() == 1  # the book: 생선을 0.786; hash numbers gave 먹었다 itself 0.85


@pytest.mark.parametrize("sentence", ["the cat sat on the mat", "하나 둘 셋", "고양이가 생선을", "😀 🇰🇷"])
def test_a_sentence_the_rules_cannot_read_falls_back_to_arbitrary_numbers_said_so(sentence):
    p = custom_preset(sentence)
    assert p.origin == "hash" and p.roles == () and p.captions == {}
