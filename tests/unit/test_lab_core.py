"""The hand-calculation lab's core: the numbers parser and the answer checker, every hint path."""
import itertools
import re

import numpy as np
import pytest

from attention_core import PRESETS, InputError, attention, check_answer, parse_matrix, parse_number, parse_vector

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
    assert check("0.21, 0.98").status == "rounded"  # the most common hand answer


def hand_calculation(query, sqrt2, digits, weight_decimals, answer_decimals, scale=True, causal=False):
    """A student's calculation: √2 as 1.41 or 1.414, eˣ to 2 or 3 significant digits, weights and
    the answer rounded to 2 or 3 decimals."""
    scores = CAT.q[query] @ CAT.k.T / (sqrt2 if scale else 1.0)
    seen = np.arange(3) <= query if causal else np.ones(3, bool)
    exps = np.array([float(f"{np.exp(x):.{digits}g}") for x in scores]) * seen
    weights = np.round(exps / exps.sum(), weight_decimals)
    return ", ".join(f"{x:.{answer_decimals}f}" for x in np.round(weights @ CAT.v, answer_decimals))


ROUNDINGS = list(itertools.product([1.41, 1.414], [2, 3], [2, 3], [2, 3]))


@pytest.mark.parametrize("query", range(3))
def test_every_honest_hand_calculation_is_accepted(query):
    for rounding in ROUNDINGS:
        result = check_answer(hand_calculation(query, *rounding), CAT.q, CAT.k, CAT.v, query=query)
        assert result.status in ("correct", "rounded"), (rounding, result)


@pytest.mark.parametrize("answer_decimals", [2, 3])
@pytest.mark.parametrize("query, view, slip_made, slip", [
    (2, {}, {"scale": False}, "forgot_scale"),
    (1, {"scale": False}, {"scale": True}, "extra_scale"),
    (1, {"causal": True}, {"causal": False}, "forgot_mask"),
    (0, {"causal": False}, {"causal": True}, "extra_mask"),
])
def test_each_slip_is_named_with_two_decimals_or_three(query, view, slip_made, slip, answer_decimals):
    answer = hand_calculation(query, 1.414, 3, 3, answer_decimals, **{**view, **slip_made})
    result = check_answer(answer, CAT.q, CAT.k, CAT.v, query=query, **view)
    assert (result.status, result.slip) == ("wrong", slip), answer


def test_forgetting_the_square_root_is_named():
    assert check(fmt(output(scale=False))).slip == "forgot_scale"


def test_dividing_when_scaling_is_off_is_named():
    assert check(fmt(output(scale=True)), scale=False).slip == "extra_scale"


def test_forgetting_the_mask_is_named():
    # 생선을 (query 1) under the causal mask sees 고양이가 and itself only
    result = check_answer(fmt(output(causal=False, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=True)
    assert result.slip == "forgot_mask"


def test_masking_when_the_mask_is_off_is_named():
    result = check_answer(fmt(output(causal=True, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=False)
    assert result.slip == "extra_mask"


def test_forgetting_both_is_named():
    result = check_answer(fmt(output(scale=False, causal=False, query=1)), CAT.q, CAT.k, CAT.v, query=1, causal=True)
    assert result.slip == "both"


def test_skipping_softmax_is_named():
    scaled = attention(CAT.q, CAT.k, CAT.v).scaled[0, 2]
    assert check(fmt(scaled @ CAT.v)).slip == "skipped_softmax"


def test_dividing_the_scores_by_their_sum_is_named():
    assert check("0.455, 0.909").slip == "sum_not_softmax"


def test_typing_the_weights_instead_of_the_output_is_named():
    p = PRESETS["meet-friend"]  # five weights, eight numbers in an output
    weights = attention(p.q, p.k, p.v).weights[0, 4]
    result = check_answer(fmt(weights), p.q, p.k, p.v, query=4)
    assert (result.status, result.slip) == ("wrong", "weights_not_output")


def test_an_answer_no_step_explains_points_at_the_calculation_table_not_at_a_step():
    """cat-fish's 먹었다 (v rows (1, 0), (0, 1), (1, 1)): 0.5, 0.5 is a weighted sum of them, but no
    slip gives it; 3, 0.5 is no weighted sum of them at all."""
    assert (check("0.5, 0.5").slip, check("0.5, 0.5").key) == ("recheck", "hint_recheck")
    assert (check("3, 0.5").slip, check("3, 0.5").key) == ("recheck_output", "hint_recheck_output")


def test_a_vector_of_the_wrong_length_says_how_long_it_should_be():
    result = check("0.214")
    assert result.key == "answer_length" and result.values == {"count": "2", "given": "1"}


def test_text_that_is_not_a_vector_is_invalid_with_the_reason():
    result = check("<script>alert(1)</script>")
    assert result.status == "invalid" and result.key == "err_not_number"
    assert result.values["text"] == "<script>alert"


def test_multi_head_checks_the_selected_head():
    p = PRESETS["meet-friend"]
    head_output = attention(p.q, p.k, p.v, heads=4).output[2, 4]
    result = check_answer(fmt(head_output), p.q, p.k, p.v, query=4, heads=4, head=2)
    assert result.status == "correct"


def test_with_all_heads_shown_any_heads_output_or_all_of_them_is_accepted_and_named():
    p = PRESETS["meet-friend"]
    outputs = attention(p.q, p.k, p.v, heads=4).output[:, 4]
    third = check_answer(fmt(outputs[2]), p.q, p.k, p.v, query=4, heads=4, all_heads=True)
    assert third.status == "correct" and third.values["head"] == "3"
    together = check_answer(fmt(outputs.reshape(-1)), p.q, p.k, p.v, query=4, heads=4, all_heads=True)
    assert together.status == "correct" and together.values["head"] == "1–4"


def test_another_heads_output_for_one_head_is_named():
    p = PRESETS["meet-friend"]
    outputs = attention(p.q, p.k, p.v, heads=4).output[:, 4]
    result = check_answer(fmt(outputs[0]), p.q, p.k, p.v, query=4, heads=4, head=2)
    assert (result.slip, result.values["other"]) == ("other_head", "1")


def test_full_width_digits_read_as_digits_and_exact_values_round_as_the_page_does():
    assert check("０.２１４, ０.９７７").status == "correct"
    from attention_core.answer import three_decimals
    assert [three_decimals(x) for x in (0.0625, -0.0625, -0.0004, 12.3456)] == ["0.063", "-0.063", "-0.000", "12.346"]


# How an answer is read (attention_core.answer's docstring): one explicit rule book, not a
# language's idea of whitespace. The golden file holds the page to the same readings.

@pytest.mark.parametrize("pasted", ["\ufeff0.214, 0.977", "0.214\ufeff, 0.977", "0.214\u00a00.977", "0.2\u200b14 0.977",
                                    "0.214\u200d,\u20600.977", "\u00ad0.214 0.977\u200e", "0.214\u3000\u30000.977"])
def test_a_pasted_bom_no_break_space_or_zero_width_character_never_turns_a_right_answer_into_not_a_number(pasted):
    assert check(pasted).status == "correct"


@pytest.mark.parametrize("space", ["\t", "\n", "\x1c", "\x1f", "\x85", "\x00", "\x7f", "\u2003", "\u2028", "\u2029", "\u202f"])
def test_every_control_character_and_unicode_space_separates_numbers(space):
    assert parse_vector(f"{space}0.5{space}1/4{space}").tolist() == [0.5, 0.25]


def test_full_width_punctuation_separates_and_the_minus_sign_and_full_width_minus_read_as_minus():
    assert parse_vector("（０.５，\u22121/4；－２）").tolist() == [0.5, -0.25, -2.0]


def test_a_fraction_may_have_spaces_around_its_slash_in_an_answer_as_in_a_cell():
    assert parse_vector("1 / 2, \u22123 /4").tolist() == [0.5, -0.75]
    assert parse_number("1\u00a0/\u00a02") == 0.5


@pytest.mark.parametrize("text", ["\u0663", "\u0967", "10\u00b2", "\u2460", "\U0001d7ce", "\u00bd"])
def test_only_ascii_and_full_width_digits_are_digits(text):
    with pytest.raises(ValueError, match="not a number") as raised:
        parse_vector(text)
    assert raised.value.values == {"text": text}


def test_an_answer_of_nothing_but_separators_and_invisible_characters_is_empty():
    for text in ["\ufeff", "\u200b (\u3000) ,", "\x1c"]:
        with pytest.raises(ValueError) as raised:
            parse_vector(text)
        assert raised.value.code == "empty_answer"


def test_the_space_class_covers_every_character_python_or_javascript_calls_whitespace():
    from attention_core.numbers import IGNORED, SPACE
    space, ignored = re.compile(f"[{SPACE}]"), re.compile(f"[{IGNORED}]")
    python = {c for c in map(chr, range(0x10000)) if c.isspace()}
    javascript = set("\t\n\x0b\x0c\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | set(map(chr, range(0x2000, 0x200b)))
    assert all(space.match(c) or ignored.match(c) for c in python | javascript)
    assert not any(space.match(c) and ignored.match(c) for c in map(chr, range(0x10000)))
    assert not any(space.match(c) or ignored.match(c) for c in "0123456789.+-/eE")


def test_a_views_bands_are_made_once_read_only_and_give_the_verdicts_made_afresh():
    from attention_core import PRESETS
    from attention_core.answer import judge, judging, view_bands

    preset = PRESETS["meet-friend"]
    view = dict(heads=2, scale=True, causal=True, query=3)
    first = judging(preset.q, preset.k, preset.v, **view)
    # the same numbers in new arrays: the same memo (a class's answers to one question)
    again = judging(np.array(preset.q, dtype=float).copy(), np.array(preset.k).copy(), np.array(preset.v).copy(), **view)
    assert again is first
    bands, truth, values = first
    with pytest.raises(ValueError):
        bands[0]["truth"][0][0] = 9.0
    with pytest.raises(ValueError):
        truth[0, 0, 0] = 9.0
    fresh = view_bands(preset.q, preset.k, preset.v, **view)
    for text in ("(0.5, 0.5)", "(1, 0)", "0.31, 0.69", "(2, 2)"):
        answer = np.array([float(x) for x in text.strip("()").split(",")])
        for head in (0, 1):
            assert judge(answer, bands, truth, values, query=3, head=head, all_heads=False, causal=True) == \
                judge(answer, fresh, truth.copy(), values.copy(), query=3, head=head, all_heads=False, causal=True)
    # another view is another entry
    assert judging(preset.q, preset.k, preset.v, **{**view, "causal": False}) is not first


# Numbers as people write them (issue 40): a list with 、 or ·, a sentence's full stop or 입니다,
# weights as percentages. The same rule book reads them in the lab (check_answer), in practice
# (check_row), in a room (app.questions.judge_output) and, through the golden file, on the page.

def book_ways(vector):
    numbers = [f"{x:.3f}" for x in vector]
    return ["、 ".join(numbers), "、".join(numbers), " · ".join(numbers), ", ".join(numbers) + ".",
            "(" + ", ".join(numbers) + ")입니다", "(" + ", ".join(numbers) + ")입니다.", ", ".join(numbers) + "。"]


@pytest.mark.parametrize("way", range(7))
def test_an_answer_written_as_a_list_or_a_sentence_is_read_and_judged_right_in_lab_and_room(way):
    from app.questions import judge_output
    typed = book_ways(output())[way]
    assert check(typed).status == "correct", typed
    view = {"source": {"kind": "preset", "name": "cat-fish"}, "query": 2, "heads": 1, "head_view": -1, "scale": True,
            "causal": False}
    assert judge_output(view, typed)["status"] == "correct", typed


def test_weights_typed_as_percentages_are_hundredths_and_a_practice_row_of_them_is_right():
    from attention_core.practice import check_row, practice_problem, practice_rows
    assert list(parse_vector("62%, 31%, 8%")) == [0.62, 0.31, 0.08]
    assert list(parse_vector("62 %、 31 %")) == [0.62, 0.31]
    problem = practice_problem(1)
    truth = practice_rows(problem)["weights"].truth
    for places in (0, 1):
        typed = ", ".join(f"{100 * x:.{places}f}%" for x in truth)
        assert check_row(typed, problem, "weights").status in ("correct", "rounded"), typed


@pytest.mark.parametrize("text, shown", [("%", "%"), ("5%%", "5%%"), ("1/2%", "1/2%"), ("0.977입니다요", "0.977입니다"),
                                         ("정답: 0.2, 0.8", "정답:"), ("0.5..", "0.5.")])
def test_what_is_still_not_a_number_is_refused_quoting_the_part(text, shown):
    with pytest.raises(InputError) as refused:
        parse_vector(text)
    assert refused.value.code == "not_number" and refused.value.values["text"] == shown
