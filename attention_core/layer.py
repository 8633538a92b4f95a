"""One multi-head attention layer from its inputs, every step kept: token embeddings E plus
position embeddings P give X; X W_Q, X W_K, X W_V give Q, K, V; the heads attend (attention(),
the same code as everywhere else); their outputs are concatenated and multiplied by W_O.

The chapters' equations (003): X = E + P; Q = X W_Q, K = X W_K, V = X W_V;
MultiHead(X) = Concat(head_1, …, head_h) W_O.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .attention import AttentionResult, as_matrix, attention


@dataclass(frozen=True)
class LayerResult:
    """Every intermediate of one attention layer, with n tokens:

    embeddings (n, d_model)   E, each token's embedding
    positions  (n, d_model)   P, each position's vector (all 0 with position off)
    x          (n, d_model)   X = E + P
    q, k       (n, d_qk)      X W_Q (+ b_Q), X W_K (+ b_K)
    v          (n, d_v)       X W_V (+ b_V)
    attention                 the heads' AttentionResult: scores, scaled, masked, weights (h, n, n),
                              output (h, n, d_v / h)
    concat     (n, d_v)       Concat(head_1, …, head_h)
    output     (n, d_out)     concat W_O (+ b_O); concat itself when there is no W_O
    """

    embeddings: np.ndarray
    positions: np.ndarray
    x: np.ndarray
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    attention: AttentionResult
    concat: np.ndarray
    output: np.ndarray


def sinusoidal_positions(n: int, d_model: int) -> np.ndarray:
    """(n, d_model): the Transformer paper's position vectors, PE[pos, 2i] = sin(pos / 10000^(2i/d)),
    PE[pos, 2i+1] = cos(pos / 10000^(2i/d)), positions counted from 0."""
    if n < 1 or d_model < 1:
        raise ValueError(f"need at least one position and one dimension, got n={n}, d_model={d_model}")
    positions = np.arange(n, dtype=np.float64)[:, None]
    rates = 10000.0 ** (-(np.arange(d_model) // 2 * 2) / d_model)
    angles = positions * rates[None, :]
    return np.where(np.arange(d_model) % 2 == 0, np.sin(angles), np.cos(angles))


def _weight(name: str, w, rows: int) -> np.ndarray:
    w = as_matrix(name, w)
    if w.shape[0] != rows:
        raise ValueError(f"{name} must have {rows} rows (the width of its input), got shape {w.shape}")
    return w


def _bias(name: str, b, width: int) -> np.ndarray:
    if b is None:
        return np.zeros(width)
    b = np.asarray(b, dtype=np.float64)
    if b.shape != (width,) or not np.all(np.isfinite(b)):
        raise ValueError(f"{name} must be {width} finite numbers, got shape {b.shape}")
    return b


def output_projection(concat, w_o, b_o=None) -> np.ndarray:
    """Concat(head_1, …, head_h) W_O (+ b_O): concat (n, d_v) → (n, d_out), W_O (d_v, d_out)."""
    w_o = _weight("W_O", w_o, np.shape(concat)[1])
    return np.asarray(concat) @ w_o + _bias("b_O", b_o, w_o.shape[1])


def attention_layer(embeddings, w_q, w_k, w_v, w_o=None, *, positions=None, use_position: bool = True,
                    heads: int = 1, scale: bool = True, causal: bool = False,
                    b_q=None, b_k=None, b_v=None, b_o=None) -> LayerResult:
    """One attention layer, every step kept (see LayerResult).

    embeddings: (n, d_model); positions: (n, d_model), or None for none; use_position=False
    leaves P out (X = E), to show what order is lost. w_q, w_k: (d_model, d_qk); w_v:
    (d_model, d_v); w_o: (d_v, d_out) or None; biases, where given, one number per output
    column. heads divides d_qk and d_v. Raises ValueError naming the matrix that does not fit.
    """
    e = as_matrix("E", embeddings)
    n, d_model = e.shape
    if positions is None or not use_position:
        p = np.zeros_like(e)
    else:
        p = as_matrix("P", positions)
        if p.shape != e.shape:
            raise ValueError(f"P must have the shape of E {e.shape}, got {p.shape}")
    x = e + p
    w_q, w_k, w_v = (_weight(name, w, d_model) for name, w in (("W_Q", w_q), ("W_K", w_k), ("W_V", w_v)))
    if w_q.shape != w_k.shape:
        raise ValueError(f"W_Q and W_K must have the same shape, got {w_q.shape} and {w_k.shape}")
    q = x @ w_q + _bias("b_Q", b_q, w_q.shape[1])
    k = x @ w_k + _bias("b_K", b_k, w_k.shape[1])
    v = x @ w_v + _bias("b_V", b_v, w_v.shape[1])
    result = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    concat = result.concat
    output = concat.copy() if w_o is None else output_projection(concat, w_o, b_o)
    return LayerResult(embeddings=e, positions=p, x=x, q=q, k=k, v=v, attention=result, concat=concat, output=output)
