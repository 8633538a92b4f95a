"""Practice problems in the exam's format: one single-head hand calculation with Q, K and V given
(the first chapter, 000 line 95). Three tokens, d = 2, small integers chosen so that the numbers
stay friendly; the student writes the query's score row, the scaled row, the weights and the
output, and each row is checked on its own against the truth and the slips likely for that row.

Problem `number` (1 to MAX_PROBLEM) is the same problem on every machine: it is drawn from a
generator seeded with (PRACTICE_SEED, number).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .answer import ROUNDING, TOLERANCE, AnswerCheck, checker_rules, max_difference, parse_vector, vector_text
from .attention import attention, softmax
from .errors import InputError
from .honest import chain_band, exact_band, inside, typed_corners
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
         "sum_not_softmax", "not_normalised", "value_of_top")
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
    pairs, each named where honest hand work along its way can write the answer (ROW_CHAINS)."""

    truth: np.ndarray
    slips: tuple[tuple[str, np.ndarray], ...]


#: How each row is computed from the query's score row, as attention_core.honest's steps: the
#: truth's way and each slip's (the page runs the same steps, constants.practice.chains). A slip
#: that is not here is its own exact numbers (the key's row, another query's, the top key's v).
ROW_CHAINS = {
    "scores": {"truth": []},
    "scaled": {"truth": ["scale"], "forgot_scale": ["round"], "divided_by_d": ["divide_d"],
               "times_scale": ["times_scale"]},
    "weights": {"truth": ["scale", "softmax"], "forgot_scale": ["round", "softmax"], "skipped_softmax": ["scale"],
                "sum_not_softmax": ["scale", "by_sum"], "not_normalised": ["scale", "exp"],
                "divided_by_d": ["divide_d", "softmax"]},
    "output": {"truth": ["scale", "softmax", "output"], "forgot_scale": ["round", "softmax", "output"],
               "divided_by_d": ["divide_d", "softmax", "output"], "skipped_softmax": ["scale", "hide", "output"],
               "sum_not_softmax": ["scale", "by_sum", "output"]},
}


def rule_book() -> dict:
    """The checkers' rules as the page applies them (CONSTANTS["checker"]): the answer checker's
    (attention_core.answer.checker_rules), the practice rows in order and each one's way (ROW_CHAINS)."""
    return {**checker_rules(), "rows": list(ROWS), "row_chains": ROW_CHAINS}


def _rows(q, k, v, query: int) -> dict[str, Row]:
    """Each row's truth and slips for the problem (q, k, v, query), as `_distinct` keeps them. The
    exam has no mask: no row names a mask slip."""
    d = q.shape[1]
    result = attention(q, k, v, heads=1, scale=True, causal=False)   # the exam's view, as everywhere
    scores_all = result.scores[0]                                    # (n, n)
    scores, scaled, weights, output = (array[0, query] for array in (result.scores, result.scaled,
                                                                     result.weights, result.output))
    by_d = softmax(scores / d)
    # another query's row, worked right: in every row a slip of its own (judge_row says only that)
    others = {name: [("other_query", array[0, j]) for j in range(len(scores)) if j != query]
              for name, array in (("scores", result.scores), ("scaled", result.scaled), ("weights", result.weights),
                                  ("output", result.output))}
    rows = {
        "scores": (scores, [("column_not_row", scores_all[:, query]), *others["scores"]]),
        "scaled": (scaled, [("forgot_scale", scores), ("divided_by_d", scores / d),
                            ("times_scale", scores * np.sqrt(d)), *others["scaled"]]),
        "weights": (weights, [*others["weights"], ("forgot_scale", softmax(scores)), ("skipped_softmax", scaled),
                              ("sum_not_softmax", scaled / scaled.sum() if scaled.sum() > 0 else np.full_like(scaled, np.nan)),
                              ("not_normalised", np.exp(scaled)), ("divided_by_d", by_d)]),
        "output": (output, [("forgot_scale", softmax(scores) @ v), ("divided_by_d", by_d @ v),
                            ("skipped_softmax", scaled @ v),
                            ("sum_not_softmax", (scaled / scaled.sum()) @ v if scaled.sum() > 0 else np.full(v.shape[1], np.nan)),
                            ("value_of_top", v[int(np.argmax(weights))]), *others["output"]]),
    }
    return {name: Row(truth, _distinct(truth, slips)) for name, (truth, slips) in rows.items()}


def row_bands(problem: "Problem", name: str, row: Row) -> dict[str, list[tuple[np.ndarray, np.ndarray]]]:
    """What honest hand work can write for row `name` (attention_core.honest): bands["truth"], and
    each slip's bands (a chain's from the true scores; another slip's from its exact numbers)."""
    chains = ROW_CHAINS[name]
    context = {"d_k": problem.q.shape[1], "v": problem.v}
    scores = problem.q[problem.query] @ problem.k.T
    made = {"truth": [chain_band(scores, chains["truth"], **context)]}
    for slip, values in row.slips:
        made.setdefault(slip, []).append(chain_band(scores, chains[slip], **context) if slip in chains
                                         else exact_band(values))
    return made


def carried_band(name: str, previous: np.ndarray, problem: "Problem") -> tuple[np.ndarray, np.ndarray] | None:
    """The band of row `name` computed honestly from the student's own row before it, `previous`
    (as typed: attention_core.honest.typed_corners), by the last step of its way; None for the
    first row, or a previous row of another length or with a value that is not finite."""
    before = dict(zip(ROWS[1:], ROWS[:-1])).get(name)
    previous = np.asarray(previous, dtype=float)
    if before is None or previous.shape != (TOKENS,) or not np.all(np.isfinite(previous)):
        return None
    return chain_band(typed_corners(previous), ROW_CHAINS[name]["truth"][-1:], d_k=problem.q.shape[1], v=problem.v)


def _distinct(truth: np.ndarray, slips) -> tuple[tuple[str, np.ndarray], ...]:
    """The slips worth naming: finite, and at least DISTINCT from the truth (where two slips give
    the same numbers, both are kept, and a verdict says both)."""
    return tuple((slip, path) for slip, path in slips
                 if np.all(np.isfinite(path)) and max_difference(truth, path) >= DISTINCT)


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
    return _numbered_rows(problem.number)


@lru_cache(maxsize=256)
def _numbered_rows(number: int) -> dict[str, Row]:
    """Problem `number`'s rows, made once (the checker looks them up for every row a student types)."""
    problem = practice_problem(number)
    return _rows(problem.q, problem.k, problem.v, problem.query)


def practice_preset(problem: Problem) -> Preset:
    """The problem as a sentence the explorer can show once it is solved: one head, its query first."""
    titles = every_language("practice_title", number=problem.number)
    return Preset(name=f"practice-{problem.number}", tokens=problem.tokens, q=problem.q, k=problem.k, v=problem.v,
                  title_ko=titles["ko"], title_en=titles["en"],
                  default_query=problem.query, head_choices=(1,), origin="practice")


def check_row(text: str, problem: Problem, row: str, previous: str | None = None) -> AnswerCheck:
    """The verdict on one typed row; `previous`: the student's typed row before it, if any (a row
    computed honestly from it counts: judge_row)."""
    try:
        answer = parse_vector(text)
    except InputError as error:
        return AnswerCheck("invalid", "", f"err_{error.code}", dict(error.values))
    carried, previous_right = None, True
    before = dict(zip(ROWS[1:], ROWS[:-1])).get(row)
    if previous is not None and before is not None:
        try:
            typed = parse_vector(previous)
        except InputError:
            typed = None
        if typed is not None:
            carried = carried_band(row, typed, problem)
            previous_right = _within(typed, _bands(problem.number, before)["truth"])
    return judge_row(answer, problem, row, carried, previous_right)


def check_rows(problem: Problem, texts: dict[str, str]) -> dict[str, AnswerCheck]:
    """Every typed row's verdict, each carried forward from the row typed before it."""
    found, before = {}, None
    for row in ROWS:
        if row in texts:
            found[row] = check_row(texts[row], problem, row, texts.get(before) if before else None)
        before = row
    return found


@lru_cache(maxsize=1024)
def _bands(number: int, name: str) -> dict:
    """Problem `number`'s row `name`'s bands (row_bands), made once."""
    problem = practice_problem(number)
    return row_bands(problem, name, practice_rows(problem)[name])


def _within(answer: np.ndarray, bands) -> bool:
    return any(inside(answer, low, high) for low, high in bands)


def judge_row(answer: np.ndarray, problem: Problem, name: str, carried=None, previous_right: bool = True) -> AnswerCheck:
    """The verdict on row `name`'s numbers. status 'correct' or 'rounded' when honest hand work
    can write them (the truth's band: within TOLERANCE of the truth, else rounded), or when they
    are computed honestly from the student's own row before it (`carried`, a band) and that row is
    right; 'carried' when that row is not right (a correct step after a slip); else 'wrong', with
    every slip whose band holds them (the first named, the others in values["also"]; another
    query's row alone where it is one), or
    'recheck' when none does (look at this step again); 'wrong' with no slip for another length."""
    row = practice_rows(problem)[name]
    exact = {"exact": vector_text(row.truth)}
    if answer.shape != row.truth.shape:
        return AnswerCheck("wrong", "", "practice_length", {"count": str(len(row.truth)), "given": str(len(answer))})
    bands = _bands(problem.number, name)
    if _within(answer, bands["truth"]):
        if max_difference(answer, row.truth) <= TOLERANCE:
            return AnswerCheck("correct", "", "practice_correct", exact)
        return AnswerCheck("rounded", "", "practice_rounded", exact)
    if carried is not None and inside(answer, *carried):
        return (AnswerCheck("rounded", "", "practice_rounded", exact) if previous_right
                else AnswerCheck("carried", "", "practice_carried", exact))
    named = list(dict.fromkeys(slip for slip, _ in row.slips if _within(answer, bands[slip])))
    if "other_query" in named:  # another query's row worked right: that, and no slip that only looks like it
        named = ["other_query"]
    if named:
        return AnswerCheck("wrong", named[0], f"practice_hint_{named[0]}", {"also": ",".join(named[1:])})
    return AnswerCheck("wrong", "recheck", f"practice_recheck_{name}", {})


def worked_solution(problem: Problem) -> dict[str, np.ndarray]:
    """Every intermediate of the problem's query row, for an answer key: the rows' truths (scores,
    scaled, weights (3,), output (2,)), with exp (e^scaled), sum (of exp) and sqrt_d between."""
    rows = practice_rows(problem)
    exps = np.exp(rows["scaled"].truth)
    return {**{name: row.truth for name, row in rows.items()}, "exp": exps, "sum": exps.sum(),
            "sqrt_d": np.sqrt(problem.q.shape[1])}
