"""What honest hand work can produce: every value a student may write for a step of the
calculation when they round the way people do, as a band (lowest, highest) per component.

A student divides by √d written as 1.4, 1.41 or 1.414 (or multiplies by 0.7, 0.71 or 0.707),
keeps the scaled scores exact or rounds them to 4, 3, 2 or 1 decimals or to 2 significant digits
(6/√2 kept as 3√2 ≈ 4.2), keeps the weights and the output exact or rounds them to 4, 3 or 2
decimals, and writes eˣ exact or to 4, 3 or 2 significant digits. Every combination of those habits is a path; a step's band
is the span of its paths, per component, widened by SLACK (a last digit rounded the other way).
A chain is a list of STEPS applied to a starting row; the checkers (attention_core.answer,
attention_core.practice) name the chain of the truth and of every slip, and the page's checker
(static/explorer/honest.js) runs the same steps on the same numbers: tests/golden/answers.json
holds the two to the same verdicts.

A row computed from the student's own earlier row (carried forward) starts from what they typed,
as any number they could have had in mind: each typed value ± half a unit of its last decimal
(at least of the second decimal), every corner of that box (typed_corners).

Shapes: a row is (m,); its variants (paths, m); a band is two (m,) arrays.
"""
from __future__ import annotations

import itertools

import numpy as np

#: how a student rounds a value they write, as the decimals kept in turn: not at all, to 4, 3 or 2
#: decimals, or to 3 and then that to 2 (0.0045 → 0.005 → 0.01)
DECIMALS = ((), (4,), (3,), (2,), (3, 2))
#: how many significant digits of eˣ a student keeps: none rounded, 4, 3, 2
DIGITS = (None, 4, 3, 2)
#: the decimals of √d (and of 1/√d) a student writes: 1.414, 1.41, 1.4 for √2
ROOT_DECIMALS = (3, 2, 1)
#: how a student keeps a scaled score (÷ √d_k): as any value (DECIMALS), or coarser, to one
#: decimal or to two significant digits (4.2426 as 4.2): coarse, but honest, and carried through
SCALED_DECIMALS = DECIMALS + ((1,),)
SCALED_DIGITS = (2,)
#: a typed value this far outside every path still counts as that path (a last digit rounded the
#: other way, or one more decimal kept)
SLACK = 0.0006
#: the steps of a chain, each applied to every path (visible: the keys the query sees)
STEPS = ("scale", "scale_model", "round", "divide_d", "times_scale", "softmax", "softmax_all", "exp", "by_sum", "hide",
         "output", "output_k")


def rounded(values, decimals: int | None) -> np.ndarray:
    """values to `decimals` places, a half away from zero (as a person rounds); None: as they are."""
    values = np.asarray(values, dtype=float)
    if decimals is None:
        return values
    scale = 10.0 ** decimals
    return np.sign(values) * np.floor(np.abs(values) * scale + 0.5) / scale


def significant(values, digits: int | None) -> np.ndarray:
    """Positive values to `digits` significant digits; None, or a value not above 0: as they are."""
    values = np.asarray(values, dtype=float)
    if digits is None:
        return values
    places = digits - 1 - np.floor(np.log10(np.where(values > 0, values, 1.0)))
    scale = 10.0 ** places
    return np.where(values > 0, np.floor(values * scale + 0.5) / scale, values)


def divisors(d: int) -> list[float]:
    """√d as students write it, as a divisor: exact, to each of ROOT_DECIMALS, and 1/√d to each as
    a multiplier (÷ 1/0.707). For d a perfect square, √d alone. Sorted, distinct."""
    root = float(np.sqrt(d))
    if root == round(root):
        return [root]
    written = {root} | {float(rounded(root, places)) for places in ROOT_DECIMALS} \
        | {1 / float(rounded(1 / root, places)) for places in ROOT_DECIMALS}
    return sorted(written)


def signed_significant(values, digits: int) -> np.ndarray:
    """values to `digits` significant digits, the sign kept (-4.2426 → -4.2)."""
    values = np.asarray(values, dtype=float)
    return np.sign(values) * significant(np.abs(values), digits)


def _each_scaled_rounding(rows: np.ndarray) -> np.ndarray:
    """(paths, m) → every path as a student keeps a scaled score (SCALED_DECIMALS, SCALED_DIGITS)."""
    return np.concatenate([rounded_in_turn(rows, habit) for habit in SCALED_DECIMALS]
                          + [signed_significant(rows, digits) for digits in SCALED_DIGITS])


def rounded_in_turn(rows, habit) -> np.ndarray:
    """rows as a student keeps them: `habit`, the decimals kept in turn (one of DECIMALS)."""
    rows = np.asarray(rows, dtype=float)
    for places in habit:
        rows = rounded(rows, places)
    return rows


def _each_rounding(rows: np.ndarray) -> np.ndarray:
    """(paths, m) → (paths × len(DECIMALS), m): every path as each habit writes it."""
    return np.concatenate([rounded_in_turn(rows, habit) for habit in DECIMALS])


def _over_visible(rows: np.ndarray, visible: np.ndarray, make) -> np.ndarray:
    """rows (paths, m) → make(rows of the visible keys) (paths', k), the hidden keys 0."""
    made = make(rows[:, visible])
    out = np.zeros((len(made), rows.shape[1]))
    out[:, visible] = made
    return out


def _exps(rows: np.ndarray) -> np.ndarray:
    """eˣ of every path, as written: exact, to 4, 3 and 2 significant digits."""
    with np.errstate(over="ignore"):
        exps = np.exp(rows)
    return np.concatenate([significant(exps, digits) for digits in DIGITS])


def _sum_in_order(terms: np.ndarray) -> np.ndarray:
    """(paths, m, …) → (paths, …): the terms added left to right, as the page adds them (numpy's
    own sum adds in pairs, which can differ in the last bit and flip a rounding)."""
    total = np.zeros((terms.shape[0], *terms.shape[2:]))
    for j in range(terms.shape[1]):
        total = total + terms[:, j]
    return total


def _normalised(rows: np.ndarray) -> np.ndarray:
    """Each path over its sum (NaN where the sum is 0)."""
    sums = _sum_in_order(rows)[:, None]
    return np.divide(rows, sums, out=np.full_like(rows, np.nan), where=np.abs(sums) > 1e-12)


def step(name: str, rows: np.ndarray, *, d_k: int, visible: np.ndarray, v: np.ndarray | None,
         k: np.ndarray | None = None, d_model: int | None = None) -> np.ndarray:
    """One step of a chain on every path (paths, m): the next row's paths. scale_model divides by
    √d_model (a slip with several heads); softmax_all takes softmax over every key and then drops
    the hidden ones without dividing again (the mask applied after softmax); output_k sums the
    weights times the keys k (m, d) instead of v."""
    if name == "scale":
        return _each_scaled_rounding(np.concatenate([rows / root for root in divisors(d_k)]))
    if name == "scale_model":
        return _each_scaled_rounding(np.concatenate([rows / root for root in divisors(d_model or d_k)]))
    if name == "round":
        return _each_rounding(rows)
    if name == "divide_d":
        return _each_rounding(rows / d_k)
    if name == "times_scale":
        return _each_scaled_rounding(np.concatenate([rows * root for root in divisors(d_k)]))
    if name == "softmax":
        return _over_visible(rows, visible, lambda seen: _each_rounding(_normalised(_exps(seen))))
    if name == "softmax_all":
        return _each_rounding(_normalised(_exps(rows))) * visible
    if name == "exp":
        return _over_visible(rows, visible, _exps)
    if name == "by_sum":
        return _over_visible(rows, visible, lambda seen: _each_rounding(_normalised(seen)))
    if name == "hide":
        return _over_visible(rows, visible, lambda seen: seen)
    if name == "output":
        return _each_rounding(_sum_in_order(rows[:, :, None] * v[None, :, :]))
    if name == "output_k":
        return _each_rounding(_sum_in_order(rows[:, :, None] * k[None, :, :]))
    raise ValueError(f"no step {name!r}: one of {STEPS}")


def variants(start, steps, *, d_k: int = 1, visible=None, v=None, k=None, d_model=None) -> np.ndarray:
    """Every row honest hand work can write after `steps` from `start` ((m,) or (paths, m)):
    (paths, k). visible: (m,) booleans, the keys the query sees (all by default); v: (m, d_v);
    k: (m, d_k), the keys (output_k); d_model: the width one head would have (scale_model)."""
    rows = np.atleast_2d(np.asarray(start, dtype=float))
    seen = np.ones(rows.shape[1], dtype=bool) if visible is None else np.asarray(visible, dtype=bool)
    as_array = lambda x: None if x is None else np.asarray(x, dtype=float)  # noqa: E731
    for name in steps:
        rows = np.unique(step(name, rows, d_k=d_k, visible=seen, v=as_array(v), k=as_array(k), d_model=d_model), axis=0)
    return rows


def band(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(paths, m) → (lowest, highest) per component, over the finite paths, widened by SLACK; NaN
    where no path is finite (a band nothing lies in)."""
    rows = np.atleast_2d(rows)
    finite = rows[np.all(np.isfinite(rows), axis=1)]
    if not len(finite):
        return np.full(rows.shape[1], np.nan), np.full(rows.shape[1], np.nan)
    return finite.min(axis=0) - SLACK, finite.max(axis=0) + SLACK


def chain_band(start, steps, **context) -> tuple[np.ndarray, np.ndarray]:
    """The band of `steps` from `start` (see variants)."""
    return band(variants(start, steps, **context))


def exact_band(values) -> tuple[np.ndarray, np.ndarray]:
    """The band of numbers known exactly (a slip's given values): as they are, or rounded."""
    return band(_each_rounding(np.atleast_2d(np.asarray(values, dtype=float))))


def inside(answer, low: np.ndarray, high: np.ndarray) -> bool:
    """Whether every component of `answer` lies in the band (same length, finite band)."""
    answer = np.asarray(answer, dtype=float)
    return (answer.shape == low.shape and bool(np.all(np.isfinite(low)))
            and bool(np.all((low <= answer) & (answer <= high))))


def typed_corners(values) -> np.ndarray:
    """What a student may have had in mind for a row they typed (m,): each value ± half a unit of
    its last decimal (at least the second: 0.5 may be 0.50), every corner of that box, (2^m, m);
    m above 10 keeps the row as typed."""
    values = np.asarray(values, dtype=float)
    if len(values) > 10:
        return values[None, :]
    half = np.array([0.5 * 10.0 ** -max(2, _decimals(x)) for x in values])
    return np.array([values + half * np.array(signs) for signs in itertools.product((-1.0, 1.0), repeat=len(values))])


def _decimals(x: float) -> int:
    """The fewest decimals (up to 6) that write x (a typed number read back)."""
    for places in range(7):
        if abs(float(rounded(x, places)) - x) < 1e-9:
            return places
    return 6
