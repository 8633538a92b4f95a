"""Order lost without position (attention_core.order): each claim of the order view's words, on its
numbers."""
import numpy as np

from attention_core.order import COMPONENTS, POSITIONS, SENTENCES, WORD, order_table, sentence_layer


def test_without_position_reordering_the_words_only_reorders_the_output_rows():
    first, second = (sentence_layer(tokens, position=False) for tokens in SENTENCES)
    order = [SENTENCES[0].index(token) for token in SENTENCES[1]]
    np.testing.assert_array_equal(second.output, first.output[order])
    assert max(order_table()["off"]["difference"].values()) == 0


def test_without_position_the_verb_gives_each_word_the_same_weight_in_both_orders_but_not_the_same_to_all():
    """The order view's words: the same weight per word in both sentences (it cannot tell which word
    came first), and not 1/3 each: losing the order is not what makes attention uniform."""
    table = order_table()
    by_word = [dict(zip(tokens, weights)) for tokens, weights in zip(SENTENCES, table["off"]["weights"])]
    for word in SENTENCES[0]:
        assert by_word[0][word] == by_word[1][word], word
    assert max(by_word[0].values()) - min(by_word[0].values()) > 0.2      # the food draws the verb, in any order
    assert max(by_word[0], key=by_word[0].get) == "생선"
    # with positions the same word gets different weights in the two orders
    with_position = [dict(zip(tokens, weights)) for tokens, weights in zip(SENTENCES, table["on"]["weights"])]
    assert abs(with_position[0]["고양이"] - with_position[1]["고양이"]) > 0.3


def test_with_position_the_verb_finds_the_first_word_and_its_output_differs():
    table = order_table()
    for tokens, weights in zip(SENTENCES, table["on"]["weights"]):
        assert int(np.argmax(weights)) == 0                                   # "the first word", in both
    assert table["on"]["difference"][WORD] > 0.5
    assert [tokens[0] for tokens in SENTENCES] == ["고양이", "생선"]


def test_the_position_vectors_are_what_the_words_say():
    first = COMPONENTS.index("first")
    np.testing.assert_array_equal(POSITIONS[:, first], [1, 0.5, 0])
    assert not np.delete(POSITIONS, first, axis=1).any()
