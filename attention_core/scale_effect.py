"""What dividing by √d_k does to one query's weights, decided here so that the sentence the page
shows beside a row of weights is always the one its numbers bear out (the page only looks it up).

Two sentences speak of it:
- the calculation's "scale effect": with and without ÷√d_k, the range of the weights the query
  can see (its visible keys, the mask applied);
- the heads note (more than one head, ÷√d_k on): each head divides by its own √d_k, smaller than
  √d_model, which sharpens its weights beyond what one head dividing by √d_model would give.

Each is a code per (causal, head, query), chosen from the same three-decimal numbers the page
writes (answer.three_decimals), so a sentence never calls two equal-looking numbers different.
"""
from __future__ import annotations

import numpy as np

from .answer import three_decimals
from .attention import softmax

#: The scale effect's codes, by the page's string: d_k = 1 (÷√1 changes nothing); every visible
#: score equal (every weight 1/n with or without); the ranges look the same at three decimals;
#: dividing spreads the weights (its largest falls, its smallest rises).
EFFECTS = ("scale_effect_none", "scale_effect_flat", "scale_effect_unseen", "scale_effect")
#: The heads note's codes: the head's visible scores are equal (÷ anything leaves them equal);
#: its largest weight looks the same at three decimals ÷√d_k and ÷√d_model; ÷√d_k sharpens it;
#: its largest weight is lower than one head's (the view at one head, √d on), as the page writes
#: both: no sharpening to explain, its own scores differ (last, so that kept codes keep their index).
SHARPENINGS = ("heads_note_flat", "heads_note_unseen", "heads_note", "heads_note_lower")
#: Scores closer than this (relative to their size) are equal: sums of the same products in
#: another order differ in the last bits only.
EQUAL = 1e-9


def _extremes(values: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(..., n) values, (..., n) visible -> (smallest, largest) visible value, each (...)."""
    return np.where(visible, values, np.inf).min(axis=-1), np.where(visible, values, -np.inf).max(axis=-1)


def _flat(scores: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """(..., n) scores, (..., n) visible -> (...) whether every visible score is the same."""
    low, high = _extremes(scores, visible)
    return high - low <= EQUAL * np.maximum(1.0, np.abs(high))


def _shown_range(weights: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """(..., n) -> (...) the smallest and largest visible weight as the page writes them, joined."""
    return np.vectorize(lambda a, b: f"{three_decimals(a)}|{three_decimals(b)}", otypes=[object])(*_extremes(weights, visible))


def scale_effects(results, d_model: int, heads: int, one_head=None) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """From results[(scale, causal)], the AttentionResult of each switch of one sentence at `heads`
    heads of a d_model-wide q and k, and one_head[causal] the same sentence's at one head with √d on
    (for the heads note's comparison; results' own when heads is 1), per (causal, head, query):
      effect      u1 index into EFFECTS
      sharpening  u1 index into SHARPENINGS (None for one head: there is no note)
      model_max   the largest visible weight ÷√d_model instead of ÷√d_k, √d on (None for one head)
    """
    d_k = d_model // heads
    effect, sharpening, model_max = [], [], []
    for c in (False, True):
        on, off = results[(True, c)], results[(False, c)]
        visible = ~np.isneginf(on.masked)                                  # (h, n, n)
        flat = _flat(on.scores, visible)                                    # (h, n)
        same = _shown_range(on.weights, visible) == _shown_range(off.weights, visible)
        effect.append(np.where(d_k == 1, 0, np.where(flat, 1, np.where(same, 2, 3))))
        if heads > 1:
            # the same scores as one head divides them (the core's softmax; the mask's -inf give 0)
            broad = softmax(np.where(visible, on.scores / np.sqrt(d_model), -np.inf)).max(axis=-1)  # (h, n)
            sharp = on.weights.max(axis=-1)
            looks_same = np.vectorize(lambda a, b: three_decimals(a) == three_decimals(b))(sharp, broad)
            # the one-head view's largest weight of each query, against this head's, as the page writes them
            one = one_head[c].weights[0].max(axis=-1)                       # (n,)
            lower = np.vectorize(lambda a, b: float(three_decimals(a)) < float(three_decimals(b)))(sharp, one[None, :])
            sharpening.append(np.where(flat, 0, np.where(lower, 3, np.where(looks_same, 1, 2))))
            model_max.append(broad)
    as_u1 = lambda rows: np.stack(rows).astype(np.uint8)  # noqa: E731
    if heads == 1:
        return as_u1(effect), None, None
    return as_u1(effect), as_u1(sharpening), np.stack(model_max)
