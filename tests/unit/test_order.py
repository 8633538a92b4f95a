"""Order lost without position (attention_core.order): each claim of the order view's words, on its
numbers."""
import numpy as np

from attention_core.order import COMPONENTS, POSITIONS, SENTENCES, WORD, order_table, sentence_layer


def test_without_position_reordering_the_words_only_reorders_the_output_rows():
    first, second = (sentence_layer(tokens, position=False) for tokens in SENTENCES)
    order = [SENTENCES[0].index(token) for token in SENTENCES[1]]
    np.testing.assert_array_equal(second.output, first.output[order])
    verb = SENTENCES[0].index(WORD)
    np.testing.assert_allclose(first.attention.weights[0, verb], 1 / 3)      # "looks at the three words equally"
    assert max(order_table()["off"]["difference"].values()) == 0


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
