"""The state cube: every view of one sentence, computed at once and packed for a browser."""
from __future__ import annotations

import base64
from dataclasses import dataclass

import numpy as np

from .attention import AttentionResult, as_matrix, attention

#: Head counts the UI offers; a sentence gets those that divide its widths.
HEAD_CHOICES = (1, 2, 4, 8)


def head_counts(d_model: int, dv_model: int) -> tuple[int, ...]:
    """The entries of HEAD_CHOICES that divide both d_model and dv_model."""
    return tuple(h for h in HEAD_CHOICES if d_model % h == 0 and dv_model % h == 0)


@dataclass(frozen=True)
class StateCube:
    """Attention of one sentence for every head count, √d on/off and causal on/off.

    q, k: (n, d_model); v: (n, dv_model)
    results[(heads, scale, causal)]: the AttentionResult of that view
    """

    tokens: tuple[str, ...]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    head_counts: tuple[int, ...]
    results: dict

    @property
    def n(self) -> int:
        return len(self.tokens)

    def result(self, heads: int, scale: bool, causal: bool) -> AttentionResult:
        return self.results[(int(heads), bool(scale), bool(causal))]


def state_cube(tokens, q, k, v) -> StateCube:
    """Compute every view of a sentence. tokens: n strings; q, k: (n, d_model); v: (n, dv_model)."""
    tokens = tuple(str(t) for t in tokens)
    q, k, v = as_matrix("Q", q), as_matrix("K", k), as_matrix("V", v)
    if len(tokens) != q.shape[0]:
        raise ValueError(f"{len(tokens)} tokens but Q has {q.shape[0]} rows: give one Q/K/V row per token")
    counts = head_counts(q.shape[1], v.shape[1])
    if not counts:
        raise ValueError("no head count fits")  # unreachable: 1 always divides
    results = {
        (h, scale, causal): attention(q, k, v, heads=h, scale=scale, causal=causal)
        for h in counts for scale in (False, True) for causal in (False, True)
    }
    return StateCube(tokens=tokens, q=q, k=k, v=v, head_counts=counts, results=results)


def encode_array(array: np.ndarray) -> str:
    """Base64 of the array's little-endian float64 bytes in C order: compact and exact."""
    return base64.b64encode(np.ascontiguousarray(array, dtype="<f8").tobytes()).decode("ascii")


def decode_array(text: str, shape) -> np.ndarray:
    """Inverse of encode_array."""
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def cube_payload(cube: StateCube) -> dict:
    """The cube as plain JSON-ready data for the browser.

    Arrays are base64 float64 strings; with n tokens, per head count h
    (with its d_k, sqrt_d_k and d_v):
      scores  (h, n, n)
      scaled  (h, n, n)              with √d on; with it off, scaled equals scores
      weights (2, 2, h, n, n)        [scale][causal]
      output  (2, 2, h, n, dv/h)     [scale][causal]
    and q, k (n, d_model), v (n, dv_model) once.
    The browser only indexes these; it never recomputes them.
    """
    blocks = {}
    for h in cube.head_counts:
        pick = cube.result
        blocks[str(h)] = {
            "d_k": cube.q.shape[1] // h,
            "sqrt_d_k": float(np.sqrt(cube.q.shape[1] // h)),
            "d_v": cube.v.shape[1] // h,
            "scores": encode_array(pick(h, False, False).scores),
            "scaled": encode_array(pick(h, True, False).scaled),
            "weights": encode_array(np.stack([
                np.stack([pick(h, s, c).weights for c in (False, True)]) for s in (False, True)])),
            "output": encode_array(np.stack([
                np.stack([pick(h, s, c).output for c in (False, True)]) for s in (False, True)])),
        }
    return {
        "tokens": list(cube.tokens),
        "n": cube.n,
        "d_model": int(cube.q.shape[1]),
        "dv_model": int(cube.v.shape[1]),
        "head_counts": list(cube.head_counts),
        "q": encode_array(cube.q),
        "k": encode_array(cube.k),
        "v": encode_array(cube.v),
        "blocks": blocks,
    }
