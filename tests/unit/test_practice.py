"""Practice problems in the exam's format (attention_core.practice): reproducible, friendly, their
rows exact, and each row's checker fair to honest hand work and naming the slips."""
import numpy as np
import pytest

from attention_core import InputError, decode_payload
from attention_core.answer import ROUNDING
from attention_core.practice import (MAX_PROBLEM, ROWS, SLIPS, check_row, practice_problem, practice_rows,
                                     worked_solution)

NUMBERS = range(1, 201)


def softmax(x):
    e = np.exp(x - x.max())
    return e / e.sum()


def hand_rows(problem):
    """The rows as a plain loop computes them, independently of the core."""
    q = problem.q[problem.query]
    scores = np.array([sum(q[i] * key[i] for i in range(2)) for key in problem.k])
    scaled = scores / np.sqrt(2)
    weights = softmax(scaled)
    output = sum(w * value for w, value in zip(weights, problem.v))
    return {"scores": scores, "scaled": scaled, "weights": weights, "output": output}


def numbers(values, digits=3):
    return ", ".join(f"{x:.{digits}f}" for x in values)


def test_a_problem_is_the_same_every_time_it_is_drawn_and_numbers_differ():
    first, again = practice_problem(17), practice_problem(17)
    assert first.tokens == again.tokens and first.query == again.query
    assert all(np.array_equal(getattr(first, m), getattr(again, m)) for m in ("q", "k", "v"))
    distinct = {(p.q.tobytes(), p.k.tobytes(), p.v.tobytes(), p.query) for p in map(practice_problem, NUMBERS)}
    assert len(distinct) == len(NUMBERS)


def test_problems_are_in_the_exams_format_with_friendly_numbers():
    for problem in map(practice_problem, NUMBERS):
        assert len(problem.tokens) == 3 and problem.q.shape == problem.k.shape == problem.v.shape == (3, 2)
        for matrix in (problem.q, problem.k, problem.v):
            assert np.array_equal(matrix, np.round(matrix)) and matrix.min() >= 0 and matrix.max() <= 3
        rows = hand_rows(problem)
        assert len(set(rows["scores"])) == 3 and rows["scores"].max() <= 9  # one clear top, small numbers
        assert 0.45 <= rows["weights"].max() <= 0.85                         # neither flat nor all on one key


def test_every_row_is_the_plain_loops_calculation():
    for problem in map(practice_problem, NUMBERS):
        rows, expected = practice_rows(problem), hand_rows(problem)
        for name in ROWS:
            np.testing.assert_allclose(rows[name].truth, expected[name], rtol=1e-12, atol=1e-12)
        steps = worked_solution(problem)
        np.testing.assert_allclose(steps["exp"] / steps["sum"], expected["weights"], rtol=1e-12)




@pytest.mark.parametrize("number", [0, -1, MAX_PROBLEM + 1, "7", 2.0, True, None])
def test_a_number_with_no_problem_is_refused_with_the_range(number):
    with pytest.raises(InputError) as error:
        practice_problem(number)
    assert error.value.code == "practice_number" and error.value.values["last"] == MAX_PROBLEM


def test_honest_hand_work_is_right_in_every_row():
    """Three decimals in between (√2 as 1.414, eˣ to four significant digits) is correct or
    rounded in every row of every problem; weights kept to two decimals still pass the weights row."""
    verdicts = []
    for problem in map(practice_problem, NUMBERS):
        scores = problem.k @ problem.q[problem.query]
        scaled = np.round(scores / 1.414, 3)
        exps = np.array([float(f"{np.exp(x):.4g}") for x in scaled])
        weights = np.round(exps / exps.sum(), 3)
        output = np.round(weights @ problem.v, 3)
        for name, values in (("scores", scores), ("scaled", scaled), ("weights", weights), ("output", output)):
            verdicts.append(check_row(numbers(values), problem, name).status)
        verdicts.append(check_row(numbers(weights, 2), problem, "weights").status)
    assert set(verdicts) <= {"correct", "rounded"}, sorted(set(verdicts))
    assert "correct" in verdicts and "rounded" in verdicts




def test_the_exam_slips_of_one_problem_get_their_own_hints():
    problem = practice_problem(1)       # query 사과를, scores (7, 6, 4)
    rows = hand_rows(problem)
    assert check_row("7 6 4", problem, "scores").key == "practice_correct"
    assert check_row("8, 6, 8", problem, "scores").slip == "column_not_row"
    assert check_row("7, 6, 4", problem, "scaled").slip == "forgot_scale"
    assert check_row("3.5, 3, 2", problem, "scaled").slip == "divided_by_d"
    assert check_row(numbers(np.exp(rows["scaled"]), 2), problem, "weights").slip == "not_normalised"
    assert check_row(numbers(rows["scaled"] / rows["scaled"].sum(), 2), problem, "weights").slip == "sum_not_softmax"
    assert check_row(numbers(softmax(rows["scores"]), 2), problem, "weights").slip == "forgot_scale"
    assert check_row(numbers(problem.v[0]), problem, "output").slip == "value_of_top"
    wrong = check_row("0.5, 0.5", problem, "output")
    assert (wrong.status, wrong.slip, wrong.key) == ("wrong", "recheck", "practice_recheck_output")
    assert check_row("1, 2, 3", problem, "output").key == "practice_length"
    assert check_row("사과", problem, "scores").status == "invalid"
    assert check_row("0.62, 0.31, 0.07", problem, "weights").key == "practice_rounded"




def test_each_hint_names_the_calculation_its_words_describe():
    """Every slip a row can name is the mistake its hint's words describe, computed here by hand
    for every problem: the hint a student reads is true of the numbers they typed."""
    for problem in map(practice_problem, NUMBERS):
        q, k, v, i = problem.q, problem.k, problem.v, problem.query
        scores = k @ q[i]
        scaled = scores / np.sqrt(2)
        weights = softmax(scaled)
        # another query's rows, worked right (j's scores, ÷√2, softmax, × V)
        other_scaled = [k @ q[j] / np.sqrt(2) for j in range(3) if j != i]
        said = {
            "scores": {"column_not_row": q @ k[i], "other_query": [k @ q[j] for j in range(3) if j != i]},
            "scaled": {"forgot_scale": scores, "divided_by_d": scores / 2, "times_scale": scores * np.sqrt(2),
                       "other_query": other_scaled},
            "weights": {"forgot_scale": softmax(scores), "skipped_softmax": scaled,
                        "sum_not_softmax": scaled / scaled.sum(), "not_normalised": np.exp(scaled),
                        "divided_by_d": softmax(scores / 2), "other_query": [softmax(row) for row in other_scaled]},
            "output": {"forgot_scale": softmax(scores) @ v, "skipped_softmax": scaled @ v,
                       "sum_not_softmax": scaled / scaled.sum() @ v, "value_of_top": v[np.argmax(weights)],
                       "divided_by_d": softmax(scores / 2) @ v, "other_query": [softmax(row) @ v for row in other_scaled]},
        }
        for name, row in practice_rows(problem).items():
            assert not {"extra_mask", "both"} & {slip for slip, _ in row.slips}, "the exam has no mask"
            for slip, path in row.slips:
                expected = said[name][slip]
                candidates = expected if slip == "other_query" else [expected]
                assert any(np.allclose(path, c, atol=1e-12) for c in candidates), (problem.number, name, slip)
