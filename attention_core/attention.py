"""Scaled dot-product attention, step by step, as the textbook computes it by hand."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class AttentionResult:
    """Every intermediate value of one attention pass.

    scores  (heads, n, n)    Q_h K_hᵀ, raw dot products
    scaled  (heads, n, n)    scores / sqrt(d_k) when scale, else scores
    masked  (heads, n, n)    scaled with -inf at future keys when causal (and at keys `window` or
                             more tokens back when a sliding window is set), else scaled
    weights (heads, n, n)    row softmax of masked; masked keys are exactly 0
    output  (heads, n, d_v)  weights @ V_h

    (A model's forward pass runs a batch of sentences at once: every array then has the batch's
    leading axes, (…, heads, n, n).)
    """

    scores: np.ndarray
    scaled: np.ndarray
    masked: np.ndarray
    weights: np.ndarray
    output: np.ndarray
    d_k: int
    d_v: int
    heads: int
    scale: bool
    causal: bool
    window: int = 0

    @property
    def concat(self) -> np.ndarray:
        """(n, heads * d_v): the heads' outputs side by side, as Concat(head_1, …, head_h)."""
        return merge_heads(self.output)


def as_matrix(name: str, values) -> np.ndarray:
    """Return `values` as a finite float64 (n, d) array, or raise ValueError naming `name`."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{name} must be a matrix of numbers: {error}") from None
    if array.ndim != 2:
        raise ValueError(f"{name} must be 2-dimensional (n, d), got shape {array.shape}")
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {array.shape}): need at least one token and one dimension")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity")
    return array


def split_heads(x: np.ndarray, heads: int) -> np.ndarray:
    """(…, n, d_model) -> (…, heads, n, d_model // heads): head h takes the h-th equal slice of the
    last axis (a view, no copy)."""
    *lead, n, d_model = x.shape
    return x.reshape(*lead, n, heads, d_model // heads).swapaxes(-2, -3)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """(…, heads, n, d) -> (…, n, heads * d): the heads side by side, Concat(head_1, …, head_h)."""
    *lead, heads, n, d = x.shape
    return x.swapaxes(-2, -3).reshape(*lead, n, heads * d)


def causal_mask(n: int) -> np.ndarray:
    """(n, n) bool, True where key j lies in the future of query i (j > i)."""
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def hidden_keys(n: int, causal: bool, window: int = 0) -> np.ndarray | None:
    """(n, n) bool, True where query i may not see key j: the future (j > i) when causal, and,
    with a sliding window of `window` tokens (Mistral's), the keys that many tokens back or more
    (i − j ≥ window: a query sees itself and the window − 1 tokens before it). None: nothing hidden."""
    if not causal and not window:
        return None
    i, j = np.indices((n, n))
    hidden = (j > i) if causal else np.zeros((n, n), dtype=bool)
    return hidden | (i - j >= window) if window else hidden


def softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis; -inf entries become exactly 0.

    Subtracting the row maximum keeps exp() from overflowing, so rows of huge
    scores stay finite and sum to 1. Every row must hold one finite entry.
    """
    shifted = x - np.max(x, axis=-1, keepdims=True)
    exps = np.exp(shifted)
    return exps / np.sum(exps, axis=-1, keepdims=True)


def check_heads(heads, d_model: int, dv_model: int) -> int:
    """Return heads as an int if it divides both d_model and dv_model, else raise ValueError."""
    if isinstance(heads, bool) or not isinstance(heads, (int, np.integer)):
        raise ValueError(f"heads must be a whole number, got {heads!r}")
    heads = int(heads)
    if heads < 1:
        raise ValueError(f"heads must be at least 1, got {heads}")
    if d_model % heads:
        raise ValueError(f"heads={heads} does not divide d_model={d_model} (Q and K width)")
    if dv_model % heads:
        raise ValueError(f"heads={heads} does not divide dv_model={dv_model} (V width)")
    return heads


def attention(q, k, v, *, heads: int = 1, scale: bool = True, causal: bool = False, window: int = 0) -> AttentionResult:
    """softmax(Q Kᵀ / sqrt(d_k)) V for each head, keeping every step.

    q, k: (n, d_model); v: (n, dv_model); heads divides d_model and dv_model.
    Raises ValueError for mismatched shapes, NaN/inf, empty input, a head count
    that does not divide the widths, or scores too large to represent.
    """
    q = as_matrix("Q", q)
    k = as_matrix("K", k)
    v = as_matrix("V", v)
    if q.shape != k.shape:
        raise ValueError(f"Q and K must have the same shape (n, d_model), got Q {q.shape} and K {k.shape}")
    if v.shape[0] != q.shape[0]:
        raise ValueError(f"V must have one row per token: Q has {q.shape[0]} rows, V has {v.shape[0]}")
    heads = check_heads(heads, q.shape[1], v.shape[1])
    with np.errstate(over="ignore", invalid="ignore"):
        result = heads_attention(split_heads(q, heads), split_heads(k, heads), split_heads(v, heads),
                                 scale=scale, causal=causal, window=window)
    if not np.all(np.isfinite(result.scores)):
        raise ValueError("Q·Kᵀ overflows: the numbers are too large to compute with")
    if not np.all(np.isfinite(result.output)):
        raise ValueError("weights @ V overflows: the numbers in V are too large to compute with")
    return result


def heads_attention(q_h, k_h, v_h, *, scale: bool = True, causal: bool = False, window: int = 0) -> AttentionResult:
    """The steps of attention() on heads already split, unchecked (attention() checks its input;
    a model's forward pass calls this on its own numbers): q_h, k_h (…, heads, n, d_k), v_h
    (…, heads, n, d_v), any leading batch axes."""
    *_, heads, n, d_k = q_h.shape
    scores = q_h @ k_h.swapaxes(-1, -2)
    scaled = scores / np.sqrt(d_k) if scale else scores.copy()
    hidden = hidden_keys(n, causal, window)
    masked = scaled.copy() if hidden is None else np.where(hidden, -np.inf, scaled)
    weights = softmax(masked)
    output = weights @ v_h
    return AttentionResult(
        scores=scores, scaled=scaled, masked=masked, weights=weights, output=output,
        d_k=d_k, d_v=v_h.shape[-1], heads=heads, scale=bool(scale), causal=bool(causal), window=int(window),
    )
