"""The same word in two sentences (attention_core.polysemy): each claim the page's words make about
은행에, checked on the numbers it shows."""
import numpy as np

from attention_core.polysemy import CONTEXT, EMBEDDINGS, SENTENCES, WORD, cosine, polysemy_table, projection, sentence_layer


def test_the_word_has_one_and_the_same_input_in_both_sentences_and_two_different_outputs():
    layers = [sentence_layer(tokens) for tokens in SENTENCES]
    inputs = [layer.x[tokens.index(WORD)] for layer, tokens in zip(layers, SENTENCES)]
    outputs = [layer.output[tokens.index(WORD)] for layer, tokens in zip(layers, SENTENCES)]
    assert np.array_equal(inputs[0], inputs[1])                 # "the very same vector"
    assert cosine(*outputs) < 0.5                               # "a different vector in each"
    assert np.max(np.abs(outputs[0] - outputs[1])) > 0.5


def test_each_output_is_pulled_toward_its_own_context_word():
    table = polysemy_table()
    c = table["cosines"]
    for n, (sentence, context) in enumerate(zip(table["sentences"], CONTEXT)):
        weights = np.array(sentence["weights"])
        assert sentence["tokens"][int(np.argmax(weights))] == context and np.isclose(weights.sum(), 1)
        assert c["after_context"][n] > c["before_context"][n] + 0.3
        other = CONTEXT[1 - n]                                  # and away from the other sentence's sense
        assert cosine(sentence["output"], EMBEDDINGS[other]) < cosine(EMBEDDINGS[WORD], EMBEDDINGS[other])


def test_after_is_the_input_plus_attention_and_the_second_bank_mixes_in_money_and_deposit_strongly():
    """003 line 244 (Output = X + SubLayer(X)): the word keeps its own meaning, its place component;
    000 line 68: the second 은행 mixes in 돈 and 맡기러 strongly, each more than itself."""
    table = polysemy_table()
    place = list(table["components"]).index("place")
    for tokens, sentence in zip(SENTENCES, table["sentences"]):
        layer = sentence_layer(tokens)
        i = tokens.index(WORD)
        np.testing.assert_allclose(sentence["output"], layer.x[i] + layer.output[i])
        assert sentence["output"][place] >= EMBEDDINGS[WORD][place]
    second = dict(zip(table["sentences"][1]["tokens"], table["sentences"][1]["weights"]))
    assert second["돈을"] > second[WORD] and second["맡기러"] > second[WORD] and second["돈을"] + second["맡기러"] > 0.8


def test_the_picture_is_the_points_projection_and_says_how_much_it_shows():
    table = polysemy_table()
    words = list(EMBEDDINGS)
    points = np.array([EMBEDDINGS[w] for w in words] + [s["output"] for s in table["sentences"]])
    xy, share = projection(points)
    shown = {p["kind"] + p["label"]: p["xy"] for p in table["points"]}
    assert shown["before" + WORD] == xy[words.index(WORD)].tolist()
    assert shown["after0" + WORD] == xy[-2].tolist() and shown["after1" + WORD] == xy[-1].tolist()
    assert "word앉았다, 갔다" in shown                           # same embedding, one point, one label
    centred = points - points.mean(axis=0)
    kept = np.linalg.norm(xy) ** 2 / np.linalg.norm(centred) ** 2
    assert np.isclose(share, kept) and 0.5 < share <= 1
