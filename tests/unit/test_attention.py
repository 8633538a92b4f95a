"""The attention maths: the textbook's numbers, properties that must always hold, and errors."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attention_core import attention, softmax
from attention_core.presets import PRESETS

CAT = PRESETS["cat-fish"]


def test_cat_fish_scores_match_table_13_2():
    r = attention(CAT.q, CAT.k, CAT.v)
    np.testing.assert_array_equal(r.scores[0], [[2, 2, 3], [1, 4, 3], [1, 6, 4]])


def test_cat_fish_meokeotda_row_matches_the_book():
    r = attention(CAT.q, CAT.k, CAT.v)
    np.testing.assert_allclose(np.round(r.scaled[0, 2], 2), [0.71, 4.24, 2.83])
    np.testing.assert_allclose(np.round(r.weights[0, 2], 3), [0.023, 0.786, 0.191])
    np.testing.assert_allclose(np.round(r.output[0, 2], 3), [0.214, 0.977])


def test_cat_fish_goyangiga_output_is_0_752_twice():
    r = attention(CAT.q, CAT.k, CAT.v)
    np.testing.assert_allclose(np.round(r.output[0, 0], 3), [0.752, 0.752])


def test_d_k_is_d_model_over_heads():
    q = np.ones((3, 8))
    assert [attention(q, q, q, heads=h).d_k for h in (1, 2, 4, 8)] == [8, 4, 2, 1]


def test_scaling_divides_by_sqrt_d_k():
    q = np.arange(24.0).reshape(3, 8) / 10
    for h in (1, 2, 4):
        r = attention(q, q, q, heads=h)
        np.testing.assert_allclose(r.scaled, r.scores / math.sqrt(8 // h))
        assert np.array_equal(attention(q, q, q, heads=h, scale=False).scaled, r.scores)


def test_causal_mask_zeroes_future_keys_exactly():
    r = attention(CAT.q, CAT.k, CAT.v, causal=True)
    assert r.weights[0, 0, 1] == 0.0 and r.weights[0, 0, 2] == 0.0 and r.weights[0, 1, 2] == 0.0
    assert r.weights[0, 0, 0] == 1.0
    assert np.isneginf(r.masked[0, 0, 2])


def test_concat_puts_heads_side_by_side():
    p = PRESETS["meet-friend"]
    r = attention(p.q, p.k, p.v, heads=4)
    assert r.concat.shape == (5, 8)
    np.testing.assert_array_equal(r.concat[:, 2:4], r.output[1])


def test_softmax_of_the_books_illustration_gives_true_values():
    # The chapter prints (0.24, 0.10, 0.58, 0.08); the true values are these.
    np.testing.assert_allclose(np.round(softmax(np.array([1.2, 0.3, 2.1, -0.4])), 2), [0.25, 0.10, 0.60, 0.05])


def reference_attention(q, k, v, heads, scale, causal):
    """A straightforward loop, one number at a time, as written on a blackboard."""
    n, d_model = q.shape
    d_k, d_v = d_model // heads, v.shape[1] // heads
    weights = np.zeros((heads, n, n))
    output = np.zeros((heads, n, d_v))
    for h in range(heads):
        for i in range(n):
            row = []
            for j in range(n):
                s = sum(q[i, h * d_k + t] * k[j, h * d_k + t] for t in range(d_k))
                if scale:
                    s /= math.sqrt(d_k)
                row.append(-math.inf if causal and j > i else s)
            top = max(row)
            exps = [math.exp(x - top) for x in row]
            for j in range(n):
                weights[h, i, j] = exps[j] / sum(exps)
            for t in range(d_v):
                output[h, i, t] = sum(weights[h, i, j] * v[j, h * d_v + t] for j in range(n))
    return weights, output


finite = st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False)


@st.composite
def qkv(draw, elements=finite):
    n = draw(st.integers(1, 6))
    heads = draw(st.sampled_from([1, 2, 4]))
    d_model = heads * draw(st.integers(1, 3))
    dv_model = heads * draw(st.integers(1, 3))
    q = draw(arrays(np.float64, (n, d_model), elements=elements))
    k = draw(arrays(np.float64, (n, d_model), elements=elements))
    v = draw(arrays(np.float64, (n, dv_model), elements=elements))
    return q, k, v, heads, draw(st.booleans()), draw(st.booleans())


@given(qkv())
@settings(max_examples=150, deadline=None)
def test_rows_sum_to_one_and_masked_weights_are_exactly_zero(case):
    q, k, v, heads, scale, causal = case
    r = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    assert np.all(np.isfinite(r.weights))
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0, rtol=1e-12)
    if causal:
        n = q.shape[0]
        assert np.all(r.weights[:, np.triu_indices(n, 1)[0], np.triu_indices(n, 1)[1]] == 0.0)


@given(qkv())
@settings(max_examples=150, deadline=None)
def test_output_is_weights_times_v_slices(case):
    q, k, v, heads, scale, causal = case
    r = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    d_v = v.shape[1] // heads
    for h in range(heads):
        np.testing.assert_allclose(r.output[h], r.weights[h] @ v[:, h * d_v:(h + 1) * d_v], atol=1e-9)


@given(qkv(elements=st.floats(min_value=-10, max_value=10)))
@settings(max_examples=100, deadline=None)
def test_equals_a_plain_loop_implementation(case):
    q, k, v, heads, scale, causal = case
    r = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    weights, output = reference_attention(q, k, v, heads, scale, causal)
    np.testing.assert_allclose(r.weights, weights, atol=1e-9)
    np.testing.assert_allclose(r.output, output, atol=1e-7)


@given(qkv())
@settings(max_examples=80, deadline=None)
def test_one_head_equals_the_single_head_formula(case):
    q, k, v, _, scale, causal = case
    r = attention(q, k, v, heads=1, scale=scale, causal=causal)
    logits = q @ k.T / (math.sqrt(q.shape[1]) if scale else 1.0)
    if causal:
        logits = np.where(np.triu(np.ones_like(logits, dtype=bool), 1), -np.inf, logits)
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(r.weights[0], weights, atol=1e-12)
    np.testing.assert_allclose(r.output[0], weights @ v, atol=1e-6 * (1 + np.abs(v).max()))


@given(st.integers(1, 5), st.floats(min_value=1e5, max_value=1e6), st.booleans())
@settings(max_examples=50, deadline=None)
def test_huge_scores_stay_finite(n, big, causal):
    rng = np.random.default_rng(n)
    q = rng.choice([-big, big], size=(n, 4))
    r = attention(q, q, q, heads=2, causal=causal)
    assert np.all(np.isfinite(r.weights)) and np.all(np.isfinite(r.output))
    np.testing.assert_allclose(r.weights.sum(axis=-1), 1.0)


@pytest.mark.parametrize("q, k, v, heads, message", [
    (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), 3, "does not divide d_model"),
    (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 6)), 4, "does not divide dv_model"),
    (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), 0, "at least 1"),
    (np.ones((3, 4)), np.ones((3, 4)), np.ones((3, 4)), 1.5, "whole number"),
    (np.ones((3, 4)), np.ones((2, 4)), np.ones((3, 4)), 1, "same shape"),
    (np.ones((3, 4)), np.ones((3, 4)), np.ones((2, 4)), 1, "one row per token"),
    (np.full((3, 4), np.nan), np.ones((3, 4)), np.ones((3, 4)), 1, "Q contains NaN"),
    (np.ones((3, 4)), np.full((3, 4), np.inf), np.ones((3, 4)), 1, "K contains NaN or infinity"),
    (np.ones((0, 4)), np.ones((0, 4)), np.ones((0, 4)), 1, "empty"),
    (np.ones(4), np.ones(4), np.ones(4), 1, "2-dimensional"),
    ([["a", "b"]], [[1, 2]], [[1, 2]], 1, "matrix of numbers"),
    (np.full((2, 2), 1e300), np.full((2, 2), 1e300), np.ones((2, 2)), 1, "too large"),
])
def test_bad_input_raises_value_error_naming_the_problem(q, k, v, heads, message):
    with pytest.raises(ValueError, match=message):
        attention(q, k, v, heads=heads)
