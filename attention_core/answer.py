"""Checks a student's hand-computed output vector and names the step that most likely went wrong."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .attention import attention, split_heads
from .errors import InputError
from .numbers import parse_number

#: Textbook answers are rounded to 3 decimals, and hand work rounds the steps before: allow that.
TOLERANCE = 0.002


@dataclass(frozen=True)
class AnswerCheck:
    """status: 'correct', 'wrong' or 'invalid'. hint: why, as a key of the UI string table,
    with `values` to fill its placeholders."""

    status: str
    hint: str
    values: dict = field(default_factory=dict)


def parse_vector(text: str) -> np.ndarray:
    """'(0.214, 0.977)', '0.214 0.977' or '1/2; 1/3' -> (d,) floats. Raises ValueError."""
    parts = [p for p in re.split(r"[\s,;()\[\]]+", str(text).replace("\u2212", "-")) if p]
    if not parts:
        raise InputError("empty_answer", "type the output vector, e.g. 0.214, 0.977")
    if len(parts) > 64:
        raise InputError("too_many_numbers", "too many numbers")
    return np.array([parse_number(p) for p in parts])


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOLERANCE))


def _skipped_softmax(q, k, v, heads, head, scale, causal, query):
    """The output if the scaled scores had been used as weights directly (softmax forgotten)."""
    r = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    row = np.where(np.isneginf(r.masked[head, query]), 0.0, r.masked[head, query])
    return row @ split_heads(np.asarray(v, dtype=float), heads)[head]


def check_answer(text: str, q, k, v, *, query: int, heads: int = 1, head: int = 0,
                 scale: bool = True, causal: bool = False) -> AnswerCheck:
    """Compare a typed output vector with the output for (query, head) under the current toggles.

    Hints, in the order a hand calculation goes: a wrong number of components, the
    mask forgotten (or added), √d_k forgotten (or added), softmax skipped, then a
    general 'check your scores'.
    """
    try:
        answer = parse_vector(text)
    except InputError as error:
        return AnswerCheck("invalid", f"err_{error.code}", dict(error.values))
    truth = attention(q, k, v, heads=heads, scale=scale, causal=causal).output[head, query]
    if answer.shape != truth.shape:
        return AnswerCheck("wrong", "answer_length", {"expected": truth.shape[0], "given": answer.shape[0]})
    if _close(answer, truth):
        return AnswerCheck("correct", "answer_correct")
    variants = [
        ("hint_forgot_mask" if causal else "hint_extra_mask", dict(scale=scale, causal=not causal)),
        ("hint_forgot_scale" if scale else "hint_extra_scale", dict(scale=not scale, causal=causal)),
        ("hint_both", dict(scale=not scale, causal=not causal)),
    ]
    for hint, toggles in variants:
        if _close(answer, attention(q, k, v, heads=heads, **toggles).output[head, query]):
            return AnswerCheck("wrong", hint)
    for skipped_scale in (scale, not scale):
        if _close(answer, _skipped_softmax(q, k, v, heads, head, skipped_scale, causal, query)):
            return AnswerCheck("wrong", "hint_skipped_softmax")
    return AnswerCheck("wrong", "hint_scores")
