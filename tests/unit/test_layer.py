"""The attention layer (attention_core.layer): E + P → X W_Q, X W_K, X W_V → heads → Concat → W_O,
against a plain loop; what position does to order; and cat-fish from its embeddings."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import PRESETS
from attention_core.layer import attention_layer, sinusoidal_positions
from attention_core.presets import CAT_FISH_LAYER


def matmul(a, b):
    return [[sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def plain_layer(e, p, w_q, w_k, w_v, w_o, heads, causal):
    """The layer written out with loops over tokens, heads and dimensions."""
    n = len(e)
    x = [[e[i][j] + p[i][j] for j in range(len(e[0]))] for i in range(n)]
    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    d_k, d_v = len(q[0]) // heads, len(v[0]) // heads
    concat = [[] for _ in range(n)]
    for h in range(heads):
        for i in range(n):
            scores = [sum(q[i][h * d_k + t] * k[j][h * d_k + t] for t in range(d_k)) / math.sqrt(d_k) for j in range(n)]
            visible = [j for j in range(n) if not (causal and j > i)]
            top = max(scores[j] for j in visible)
            exps = {j: math.exp(scores[j] - top) for j in visible}
            total = sum(exps.values())
            concat[i] += [sum(exps[j] / total * v[j][h * d_v + t] for j in visible) for t in range(d_v)]
    return x, q, k, v, concat, matmul(concat, w_o)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.sampled_from([1, 2, 4]), st.integers(2, 5), st.booleans(), st.integers(0, 2**31 - 1))
def test_the_layer_is_the_plain_loops_calculation(n, heads, d_model, causal, seed):
    rng = np.random.default_rng(seed)
    width = 4
    e, p = rng.normal(size=(n, d_model)), rng.normal(size=(n, d_model))
    w_q, w_k, w_v = (rng.normal(size=(d_model, width)) for _ in range(3))
    w_o = rng.normal(size=(width, 3))
    result = attention_layer(e, w_q, w_k, w_v, w_o, positions=p, heads=heads, causal=causal)
    x, q, k, v, concat, output = plain_layer(e.tolist(), p.tolist(), w_q.tolist(), w_k.tolist(), w_v.tolist(),
                                             w_o.tolist(), heads, causal)
    for ours, theirs in ((result.x, x), (result.q, q), (result.k, k), (result.v, v), (result.concat, concat),
                         (result.output, output)):
        np.testing.assert_allclose(ours, np.array(theirs), rtol=1e-9, atol=1e-9)
    assert result.attention.weights.shape == (heads, n, n) and result.output.shape == (n, 3)


def test_without_position_reordering_the_tokens_only_reorders_the_outputs_and_with_it_the_outputs_change():
    rng = np.random.default_rng(7)
    n, d = 5, 4
    e = rng.normal(size=(n, d))
    w_q, w_k, w_v, w_o = (rng.normal(size=(d, d)) for _ in range(4))
    p = sinusoidal_positions(n, d)
    order = np.array([3, 0, 4, 1, 2])
    for heads in (1, 2):
        off = attention_layer(e, w_q, w_k, w_v, w_o, positions=p, use_position=False, heads=heads)
        off_reordered = attention_layer(e[order], w_q, w_k, w_v, w_o, positions=p, use_position=False, heads=heads)
        np.testing.assert_allclose(off_reordered.output, off.output[order], atol=1e-12)
        on = attention_layer(e, w_q, w_k, w_v, w_o, positions=p, heads=heads)
        on_reordered = attention_layer(e[order], w_q, w_k, w_v, w_o, positions=p, heads=heads)
        assert np.max(np.abs(on_reordered.output - on.output[order])) > 0.1
        assert np.array_equal(off.positions, np.zeros_like(e)) and np.array_equal(on.positions, p)


def test_sinusoidal_positions_follow_the_papers_formula():
    p = sinusoidal_positions(4, 6)
    np.testing.assert_allclose(p[0], [0, 1, 0, 1, 0, 1])
    for pos in range(4):
        for i in range(3):
            angle = pos / 10000 ** (2 * i / 6)
            assert p[pos, 2 * i] == pytest.approx(math.sin(angle)) and p[pos, 2 * i + 1] == pytest.approx(math.cos(angle))


def test_cat_fish_from_its_embeddings_gives_the_books_q_k_v_exactly():
    book = PRESETS["cat-fish"]
    layer = attention_layer(CAT_FISH_LAYER["embeddings"], CAT_FISH_LAYER["w_q"], CAT_FISH_LAYER["w_k"],
                            CAT_FISH_LAYER["w_v"], positions=CAT_FISH_LAYER["positions"])
    for ours, theirs in ((layer.q, book.q), (layer.k, book.k), (layer.v, book.v)):
        assert np.array_equal(ours, theirs)
    assert layer.attention.d_k == 2
    np.testing.assert_allclose(layer.output[2], [0.214, 0.977], atol=5e-4)   # the book's 먹었다
    # why X is three wide: the book's Q, K and V columns together span three dimensions
    assert np.linalg.matrix_rank(np.hstack([book.q, book.k, book.v])) == 3


@pytest.mark.parametrize("change, named", [({"w_q": np.ones((2, 2))}, "W_Q"), ({"positions": np.ones((2, 3))}, "P"),
                                           ({"w_k": np.ones((3, 3))}, "W_Q and W_K"), ({"w_o": np.ones((3, 2))}, "W_O"),
                                           ({"b_q": [1, 2, 3]}, "b_Q")])
def test_a_matrix_that_does_not_fit_is_named(change, named):
    inputs = {**CAT_FISH_LAYER, "w_o": np.eye(2), **change}
    with pytest.raises(ValueError, match=named):
        attention_layer(inputs.pop("embeddings"), inputs.pop("w_q"), inputs.pop("w_k"), inputs.pop("w_v"),
                        inputs.pop("w_o"), **inputs)


def test_a_preset_whose_layer_does_not_make_its_q_k_v_is_refused():
    from dataclasses import replace
    book = PRESETS["cat-fish"]
    assert book.layer is CAT_FISH_LAYER
    with pytest.raises(ValueError, match="X W_Q"):
        replace(book, q=book.q + 1)


def test_cat_fish_positions_do_not_read_as_sums_of_the_earlier_words():
    """Position p_i is no sum of earlier embeddings (nor an embedding): a student reading X = E + P
    must not learn that position adds the earlier words."""
    import itertools
    e, p = CAT_FISH_LAYER["embeddings"], CAT_FISH_LAYER["positions"]
    assert len({tuple(row) for row in p}) == len(p)  # each position its own vector
    for i in range(1, len(p)):
        for count in range(1, len(e) + 1):
            for chosen in itertools.combinations(range(len(e)), count):
                assert not np.array_equal(p[i], e[list(chosen)].sum(axis=0)), (i, chosen)
