"""Practice problems in the exam's format: one single-head hand calculation with Q, K and V given
(the first chapter, 000 line 95). Three tokens, d = 2, small integers chosen so that the numbers
stay friendly; the student writes the query's score row, the scaled row, the weights and the
output, and each row is checked on its own against the truth and the slips likely for that row.

Problem `number` (1 to MAX_PROBLEM) is the same problem on every machine: it is drawn from a
generator seeded with (PRACTICE_SEED, number).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .answer import ROUNDING, TOLERANCE, AnswerCheck, answer_paths, max_difference, named_slip, parse_vector, vector_text
from .attention import attention, softmax
from .errors import InputError
from .presets import Preset
from .words import every_language

PRACTICE_SEED = 20261129
#: Problems are numbered 1 to MAX_PROBLEM.
MAX_PROBLEM = 9999
#: The exam's size: three tokens, d = 2, one head, ÷√d on, no mask.
TOKENS = 3
D = 2
#: The rows a student fills in, in the order of the calculation.
ROWS = ("scores", "scaled", "weights", "output")
#: The slips the rows can name, as the UI's `practice_hint_<slip>` strings; and 'recheck', with
#: the row's `practice_recheck_<row>` string, when none is near.
SLIPS = ("column_not_row", "other_query", "forgot_scale", "divided_by_d", "times_scale", "skipped_softmax",
         "sum_not_softmax", "not_normalised", "extra_mask", "both", "value_of_top")
#: A slip is kept for a row only when it lies this far from the truth and from the row's other
#: slips, so that naming it can never be confused with rounding or with another slip.
DISTINCT = 3 * ROUNDING

#: Sentences of three tokens in the textbook's style (subject, object, predicate). The numbers
#: are drawn for practice; they are not read from the words, and the page says so.
SENTENCES = (
    ("고양이가", "생선을", "먹었다"), ("나는", "친구를", "만났다"), ("학생이", "책을", "읽었다"),
    ("엄마가", "커피를", "마셨다"), ("아이가", "공을", "찼다"), ("동생이", "그림을", "그렸다"),
    ("아빠가", "차를", "고쳤다"), ("강아지가", "뼈를", "물었다"), ("친구가", "노래를", "불렀다"),
    ("선생님이", "문제를", "냈다"), ("누나가", "편지를", "썼다"), ("형이", "밥을", "지었다"),
    ("할머니께서", "떡을", "드셨다"), ("우리는", "영화를", "봤다"), ("새가", "벌레를", "잡았다"),
    ("나는", "사과를", "샀다"),
)


@dataclass(frozen=True)
class Problem:
    """One practice problem. q, k, v: (3, 2) small integers; query: the token asked about."""

    number: int
    tokens: tuple[str, ...]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    query: int


@dataclass(frozen=True)
class Row:
    """One row the student writes: the true values (m,) and the likely slips, as (name, (m,))
    pairs in the order they are preferred on a tie."""

    truth: np.ndarray
    slips: tuple[tuple[str, np.ndarray], ...]


def _rows(q, k, v, query: int) -> dict[str, Row]:
    """Each row's truth and slips for the problem (q, k, v, query), as `_distinct` keeps them."""
    scale = np.sqrt(q.shape[1])
    result = attention(q, k, v, heads=1, scale=True, causal=False)   # the exam's view, as everywhere
    scores_all = result.scores[0]                                    # (n, n)
    scores, scaled, weights, output = (array[0, query] for array in (result.scores, result.scaled,
                                                                     result.weights, result.output))
    paths = answer_paths(q, k, v, heads=1, scale=True, causal=False)
    others = [("other_query", scores_all[j]) for j in range(len(scores)) if j != query]
    rows = {
        "scores": (scores, [("column_not_row", scores_all[:, query]), *others]),
        "scaled": (scaled, [("forgot_scale", scores), ("divided_by_d", scores / q.shape[1]),
                            ("times_scale", scores * scale)]),
        "weights": (weights, [("forgot_scale", softmax(scores)), ("skipped_softmax", scaled),
                              ("sum_not_softmax", scaled / scaled.sum() if scaled.sum() > 0 else np.full_like(scaled, np.nan)),
                              ("not_normalised", np.exp(scaled))]),
        "output": (output, [(name, paths[name][0, query]) for name in ("forgot_scale", "extra_mask", "both",
                                                                       "skipped_softmax", "sum_not_softmax")]
                   + [("value_of_top", v[int(np.argmax(weights))])]),
    }
    return {name: Row(truth, _distinct(truth, slips)) for name, (truth, slips) in rows.items()}


def _distinct(truth: np.ndarray, slips) -> tuple[tuple[str, np.ndarray], ...]:
    """The slips worth naming: finite, and at least DISTINCT from the truth and from every slip
    kept before them (where two slips give the same numbers, the first one's hint says it)."""
    kept = []
    for slip, path in slips:
        if np.all(np.isfinite(path)) and all(max_difference(other, path) >= DISTINCT for other in (truth, *(p for _, p in kept))):
            kept.append((slip, path))
    return tuple(kept)


def _friendly(q, k, v, query: int) -> bool:
    """Numbers a student can work by hand and learn from: every q and k points somewhere, the
    values differ, the query's scores differ (one clear top), the weights are neither flat nor
    all on one key, the output is a real mix, and forgetting ÷√d changes the answer visibly."""
    if not (q.any(axis=1).all() and k.any(axis=1).all()) or len({tuple(row) for row in v}) < len(v):
        return False
    scores = q[query] @ k.T
    if len(set(scores.tolist())) < len(scores) or scores.max() > 9:
        return False
    rows = _rows(q, k, v, query)
    if not 0.45 <= rows["weights"].truth.max() <= 0.85:
        return False
    if min(max_difference(rows["output"].truth, row) for row in v) < 0.05:
        return False
    return all(any(slip == "forgot_scale" for slip, _ in rows[name].slips) for name in ("scaled", "weights", "output"))


def practice_problem(number: int) -> Problem:
    """Problem `number` (1 to MAX_PROBLEM), the same everywhere. Raises InputError otherwise."""
    if isinstance(number, bool) or not isinstance(number, (int, np.integer)) or not 1 <= number <= MAX_PROBLEM:
        raise InputError("practice_number", f"practice problems are numbered 1 to {MAX_PROBLEM}",
                         value=str(number)[:20], last=MAX_PROBLEM)
    rng = np.random.default_rng([PRACTICE_SEED, int(number)])
    while True:
        q = rng.integers(0, 4, (TOKENS, D)).astype(float)
        k = rng.integers(0, 4, (TOKENS, D)).astype(float)
        v = rng.integers(0, 3, (TOKENS, D)).astype(float)
        query = int(rng.integers(TOKENS))
        if _friendly(q, k, v, query):
            break
    tokens = SENTENCES[int(rng.integers(len(SENTENCES)))]
    for array in (q, k, v):
        array.setflags(write=False)
    return Problem(number=int(number), tokens=tokens, q=q, k=k, v=v, query=query)


def practice_rows(problem: Problem) -> dict[str, Row]:
    """The rows of `problem`, by name (ROWS): scores (3,), scaled (3,), weights (3,), output (2,)."""
    return _rows(problem.q, problem.k, problem.v, problem.query)


def practice_preset(problem: Problem) -> Preset:
    """The problem as a sentence the explorer can show once it is solved: one head, its query first."""
    titles = every_language("practice_title", number=problem.number)
    return Preset(name=f"practice-{problem.number}", tokens=problem.tokens, q=problem.q, k=problem.k, v=problem.v,
                  title_ko=titles["ko"], title_en=titles["en"],
                  default_query=problem.query, head_choices=(1,), origin="practice")


def check_row(text: str, problem: Problem, row: str) -> AnswerCheck:
    """The verdict on one typed row. status as check_answer's; slip: the row's slip named, or
    'recheck' (look at this step again), or '' when right or unreadable."""
    try:
        answer = parse_vector(text)
    except InputError as error:
        return AnswerCheck("invalid", "", f"err_{error.code}", dict(error.values))
    return judge_row(answer, practice_rows(problem)[row], row)


def judge_row(answer: np.ndarray, row: Row, name: str) -> AnswerCheck:
    """The verdict on one row's numbers, by the rules of answer.judge (TOLERANCE, ROUNDING, named_slip)."""
    distance = max_difference(answer, row.truth)
    exact = {"exact": vector_text(row.truth)}
    if distance <= TOLERANCE:
        return AnswerCheck("correct", "", "practice_correct", exact)
    if distance <= ROUNDING:
        return AnswerCheck("rounded", "", "practice_rounded", exact)
    slip = named_slip(distance, [(slip, max_difference(answer, path)) for slip, path in row.slips])
    if slip:
        return AnswerCheck("wrong", slip, f"practice_hint_{slip}", {})
    if distance == float("inf"):
        return AnswerCheck("wrong", "", "practice_length", {"count": str(len(row.truth)), "given": str(len(answer))})
    return AnswerCheck("wrong", "recheck", f"practice_recheck_{name}", {})


def worked_solution(problem: Problem) -> dict[str, np.ndarray]:
    """Every intermediate of the problem's query row, for an answer key: the rows' truths (scores,
    scaled, weights (3,), output (2,)), with exp (e^scaled), sum (of exp) and sqrt_d between."""
    rows = practice_rows(problem)
    exps = np.exp(rows["scaled"].truth)
    return {**{name: row.truth for name, row in rows.items()}, "exp": exps, "sum": exps.sum(),
            "sqrt_d": np.sqrt(problem.q.shape[1])}
