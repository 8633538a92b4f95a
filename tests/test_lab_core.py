"""The hand-calculation lab's core: the numbers parser and the answer checker, every hint path."""
import numpy as np
import pytest

from attention_core import PRESETS, attention, check_answer, parse_matrix, parse_number, parse_vector

CAT = PRESETS["cat-fish"]


@pytest.mark.parametrize("text, value", [
    ("2", 2.0), ("-0.5", -0.5), (" 3.25 ", 3.25), ("1/2", 0.5), ("-3/4", -0.75), ("\u22121/4", -0.25),
    (".5", 0.5), ("1e-3", 0.001), ("+7", 7.0), ("1 / 3", 1 / 3),
])
def test_parse_number_accepts_integers_decimals_and_fractions(text, value):
    assert parse_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text, message", [
    ("", "empty"), ("   ", "empty"), ("abc", "not a number"), ("nan", "not a number"), ("inf", "not a number"),
    ("1/0", "divides by zero"), ("1e7", "too large"), ("1e400", "too large"), ("1,5", "not a number"),
    ("<b>1</b>", "not a number"), ("1" * 60, "too long"), ("2/", "not a number"),
])
def test_parse_number_rejects_with_a_message(text, message):
    with pytest.raises(ValueError, match=message):
        parse_number(text)


def test_parse_matrix_reports_every_bad_cell_and_returns_no_array():
    values, errors = parse_matrix([["1", "x"], ["1/2", ""]], "Q")
    assert values is None
    assert [(r, c) for r, c, _ in errors] == [(0, 1), (1, 1)]
    values, errors = parse_matrix([["1", "2"], ["1/2", "-3"]], "Q")
    assert errors == [] and np.array_equal(values, [[1, 2], [0.5, -3]])


def test_parse_matrix_reports_ragged_rows():
    values, errors = parse_matrix([["1", "2"], ["3"]], "K")
    assert values is None and "row 2 has 1 numbers" in str(errors[0][2]) and errors[0][2].code == "ragged"


def test_parse_vector_accepts_the_ways_students_write_vectors():
    assert np.allclose(parse_vector("(0.214, 0.977)"), [0.214, 0.977])
    assert np.allclose(parse_vector("0.214 0.977"), [0.214, 0.977])
    assert np.allclose(parse_vector("[1/2; 1/4]"), [0.5, 0.25])


def check(text, **toggles):
    return check_answer(text, CAT.q, CAT.k, CAT.v, query=2, **toggles)


def fmt(vector):
    return ", ".join(f"{x:.3f}" for x in vector)


def output(scale=True, causal=False, query=2):
    return attention(CAT.q, CAT.k, CAT.v, scale=scale, causal=causal).output[0, query]


def test_the_books_answer_is_correct():
    assert check("(0.214, 0.977)").status == "correct"


def test_rounded_intermediate_steps_are_still_correct():
    assert check("0.213, 0.976").status == "correct"


def test_forgetting_the_square_root_is_named():
    assert check(fmt(output(scale=False))).hint == "hint_forgot_scale"


def test_dividing_when_scaling_is_off_is_named():
    assert check(fmt(output(scale=True)), scale=False).hint == "hint_extra_scale"


def test_forgetting_the_mask_is_named():
    # 생선을 (query 1) under the causal mask sees 고양이가 and itself only
    result = check_answer(fmt(output(causal=False, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=True)
    assert result.hint == "hint_forgot_mask"


def test_masking_when_the_mask_is_off_is_named():
    result = check_answer(fmt(output(causal=True, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=False)
    assert result.hint == "hint_extra_mask"


def test_forgetting_both_is_named():
    result = check_answer(fmt(output(scale=False, causal=False, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=True)
    assert result.hint == "hint_both"


def test_skipping_softmax_is_named():
    scaled = attention(CAT.q, CAT.k, CAT.v).scaled[0, 2]
    assert check(fmt(scaled @ CAT.v)).hint == "hint_skipped_softmax"


def test_anything_else_points_back_to_the_scores():
    assert check("0.5, 0.5").hint == "hint_scores"


def test_a_vector_of_the_wrong_length_says_how_long_it_should_be():
    result = check("0.214")
    assert result.hint == "answer_length" and result.values == {"expected": 2, "given": 1}


def test_text_that_is_not_a_vector_is_invalid_with_the_reason():
    result = check("<script>alert(1)</script>")
    assert result.status == "invalid" and result.hint == "err_not_number"
    assert result.values["text"] == "<script>alert"


def test_multi_head_checks_the_selected_head():
    p = PRESETS["meet-friend"]
    head_output = attention(p.q, p.k, p.v, heads=4).output[2, 4]
    result = check_answer(fmt(head_output), p.q, p.k, p.v, query=4, heads=4, head=2)
    assert result.status == "correct"
