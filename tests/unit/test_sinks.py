"""The attention-sink badge: heads built to be sinks get it, heads built not to be do not, and a
causal model's forced rows (the first query sees only the first token) never make one."""
import numpy as np
import pytest

from attention_core.heads import choosing_queries, even_first, layer_summaries, sink_heads


def causal_rows(first_share: float, n: int, first_row: float = 1.0) -> np.ndarray:
    """(n, n): a causal head whose queries after the first give the first token `first_share` and
    spread the rest evenly over the other keys they see; the first query gives it `first_row`."""
    w = np.zeros((n, n))
    w[0, 0] = first_row
    for i in range(1, n):
        w[i, 0] = first_share
        w[i, 1:i + 1] = (1 - first_share) / i
    return w


def even_causal(n: int) -> np.ndarray:
    """(n, n): each query spreads its weight evenly over the keys it sees (itself and before)."""
    return np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]


def badge(w: np.ndarray, causal: bool, window: int = 0) -> bool:
    first = layer_summaries(w[None], causal, window)["first"][None]
    return sink_heads(first, even_first(w.shape[-1], causal, window)) == [[0, 0]]


def test_an_even_spread_is_no_sink_though_its_mean_on_the_first_key_is_over_half():
    w = even_causal(4)
    assert w[:, 0].mean() == pytest.approx(0.5208, abs=1e-4)  # the figure, every row counted
    assert not badge(w, causal=True)
    assert even_first(4, causal=True) == pytest.approx((1 / 2 + 1 / 3 + 1 / 4) / 3)


def test_the_forced_first_row_does_not_count_a_head_that_gives_the_first_token_little():
    # the tiny Llama: 0.51 with the forced row, 0.349 over the queries that had a choice
    w = causal_rows(0.349, 4)
    assert w[:, 0].mean() > 0.5
    assert layer_summaries(w[None], causal=True)["first"][0] == pytest.approx(0.349)
    assert not badge(w, causal=True)


@pytest.mark.parametrize("n", [3, 4, 8, 31])
def test_a_head_built_to_park_its_weight_on_the_first_token_is_a_sink(n):
    assert badge(causal_rows(0.9, n), causal=True)
    assert badge(causal_rows(0.9, n, first_row=1.0), causal=True)


@pytest.mark.parametrize("n, share, sink", [(31, 0.5, True), (31, 0.45, False), (8, 0.55, True),
                                             (4, 0.7, False), (4, 0.75, True)])
def test_the_badge_needs_half_and_twice_an_even_spread(n, share, sink):
    # at 4 causal tokens twice an even spread is 0.722: 0.7 on the first token is no sign there
    assert badge(causal_rows(share, n), causal=True) is sink


def test_without_a_mask_every_query_counts_and_half_the_weight_makes_a_sink():
    n = 10
    for share, sink in ((0.6, True), (0.4, False)):
        w = np.full((n, n), (1 - share) / (n - 1))
        w[:, 0] = share
        assert badge(w, causal=False) is sink
    assert choosing_queries(n, causal=False).all()


def test_queries_past_a_sliding_window_do_not_count():
    n, window = 8, 3
    chosen = choosing_queries(n, causal=True, window=window)
    assert chosen.tolist() == [False, True, True, False, False, False, False, False]
    # queries 2 and 3 give the first token 0.9; the rest cannot see it at all
    w = np.zeros((n, n))
    w[0, 0] = 1
    for i in range(1, n):
        seen = list(range(max(0, i - window + 1), i + 1))
        w[i, seen] = 1 / len(seen)
        if 0 in seen:
            w[i, seen] = 0.1 / (len(seen) - 1)
            w[i, 0] = 0.9
    assert badge(w, causal=True, window=window)
    assert not badge(even_causal(n) * 0 + np.where(np.tril(np.ones((n, n))) - np.tril(np.ones((n, n)), -window) > 0,
                                                   1.0, 0.0) / np.minimum(np.arange(1, n + 1), window)[:, None],
                     causal=True, window=window)


def test_a_one_token_sentence_has_no_sink():
    assert not badge(np.ones((1, 1)), causal=True)
    assert not badge(np.ones((1, 1)), causal=False)
