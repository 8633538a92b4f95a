"""Why √d (attention_core.why_scale): the figures the page's slider shows, and each claim its words
make about them, at every d."""
import numpy as np

from attention_core.why_scale import BOOK_SCORES, DIMENSIONS, scale_table




def test_the_spread_of_q_dot_k_grows_like_root_d_and_divided_by_it_stays_near_one_at_every_d():
    table = scale_table()
    for d, raw, scaled in zip(DIMENSIONS, table["spread_raw"], table["spread_scaled"]):
        assert abs(raw / np.sqrt(d) - 1) < 0.05, d       # "grows like √d"
        assert abs(scaled - 1) < 0.05, d                 # "stays near 1"


def test_without_scaling_the_largest_weight_nears_one_as_d_grows():
    top = scale_table()["top_raw"]
    assert all(a < b for a, b in zip(top, top[1:])) and top[-1] > 0.9
    assert max(scale_table()["top_scaled"]) < top[-1] - 0.5  # dividing keeps it far from 1


def test_the_books_example_is_the_books_numbers():
    book = scale_table()["book"]
    assert book["scaled"] == [0.25, 0.5, 2.5, 0.375]     # the book's "Scaling 적용" row
    assert f"{max(book['weights_raw']):.3f}" == "1.000" and book["scores"] == list(BOOK_SCORES)
    np.testing.assert_allclose(sum(book["weights_scaled"]), 1)
