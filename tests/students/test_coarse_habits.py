"""Honest students with coarse habits (issue 40): √2 written as 1.4 (or 1/√2 as 0.7), a scaled
score kept to one decimal (6/√2 = 3√2 ≈ 4.2) or to two significant digits, then carried through
honestly. Written here with their own rounding, not attention_core.honest's, on every preset of
up to 10 tokens and every practice problem of the first 40: every such answer is accepted and none
is told a slip it did not make."""
import itertools
import math

import numpy as np

from attention_core import PRESETS
from attention_core.answer import check_answer
from attention_core.practice import check_rows, practice_problem


def half_up(x: float, places: int) -> float:
    """x to `places` decimals, a half away from zero, as a person writes it."""
    return math.copysign(math.floor(abs(x) * 10 ** places + 0.5) / 10 ** places, x)


def two_digits(x: float) -> float:
    """x to two significant digits (4.2426 → 4.2, 0.70711 → 0.71, −12.49 → −12)."""
    if x == 0:
        return 0.0
    places = 1 - math.floor(math.log10(abs(x)))
    return half_up(x, places)


#: how a coarse student writes √d_k: to one decimal, or 1/√d_k to one decimal as a multiplier
ROOTS = {"√d to 1 decimal": lambda d: half_up(math.sqrt(d), 1), "1/√d to 1 decimal": lambda d: 1 / half_up(1 / math.sqrt(d), 1),
         "√d exact": math.sqrt}
#: how they keep a scaled score
SCALED = {"1 decimal": lambda x: half_up(x, 1), "2 significant digits": two_digits}
#: how they keep eˣ, the weights and the output (ordinary habits)
LATER = [(None, 3, 3), (3, 2, 3), (4, 3, 2), (None, 2, 2)]


def write(values, places):
    return ", ".join(f"{half_up(x, places):.{places}f}" for x in values)


def by_hand(scores, values, visible, root, keep_scaled, later):
    exp_digits, weight_places, output_places = later
    scaled = np.array([keep_scaled(s / root) for s in scores[visible]])
    exps = np.exp(scaled)
    if exp_digits is not None:
        exps = np.array([float(f"{e:.{exp_digits - 1}e}") for e in exps])
    weights = np.array([half_up(w, weight_places) for w in exps / exps.sum()])
    output = weights @ values[visible]
    return scaled, weights, np.array([half_up(x, output_places) for x in output]), output_places


def test_coarse_but_honest_outputs_are_accepted_and_never_told_a_slip():
    told, total = [], 0
    for preset in (p for p in PRESETS.values() if len(p.tokens) <= 10):
        for heads in preset.offered_heads():
            d_k = preset.q.shape[1] // heads
            if math.isqrt(d_k) ** 2 == d_k:
                continue  # √d_k is a whole number: nothing to round
            for causal, query in itertools.product((False, True), range(len(preset.tokens))):
                from attention_core.attention import attention, split_heads
                result = attention(preset.q, preset.k, preset.v, heads=heads, scale=True, causal=causal)
                head = query % heads
                values = split_heads(np.asarray(preset.v, dtype=float), heads)[head]
                visible = np.arange(len(preset.tokens)) <= query if causal else np.ones(len(preset.tokens), dtype=bool)
                for (root_name, root), (kept_name, keep), later in itertools.product(ROOTS.items(), SCALED.items(), LATER):
                    _, _, output, places = by_hand(result.scores[head, query], values, visible, root(d_k), keep, later)
                    verdict = check_answer(write(output, places), preset.q, preset.k, preset.v, query=query, heads=heads,
                                           head=head, scale=True, causal=causal)
                    total += 1
                    if verdict.status not in ("correct", "rounded"):
                        told.append((preset.name, heads, causal, query, root_name, kept_name, later, write(output, places),
                                     verdict.key))
    assert total > 1000
    assert told == [], f"{len(told)} of {total} honest coarse answers refused, e.g. {told[:3]}"


def test_coarse_but_honest_practice_rows_are_accepted_and_carried():
    told, total = [], 0
    for number in range(1, 41):
        problem = practice_problem(number)
        d = problem.q.shape[1]
        scores = problem.q[problem.query] @ problem.k.T
        everyone = np.ones(len(scores), dtype=bool)
        for (root_name, root), (kept_name, keep), later in itertools.product(ROOTS.items(), SCALED.items(), LATER):
            scaled, weights, output, places = by_hand(scores, problem.v, everyone, root(d), keep, later)
            rows = {"scores": write(scores, 0), "scaled": ", ".join(f"{x:g}" for x in scaled),
                    "weights": write(weights, later[1]), "output": write(output, places)}
            for name, verdict in check_rows(problem, rows).items():
                total += 1
                if verdict.status not in ("correct", "rounded", "carried"):
                    told.append((number, root_name, kept_name, later, name, rows[name], verdict.key))
    assert total > 1000
    assert told == [], f"{len(told)} of {total} honest coarse rows refused, e.g. {told[:3]}"
