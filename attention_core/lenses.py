"""What attention weights do not tell, computed for one head of a model run here:

value-weighted attention (Kobayashi et al. 2020, "Attention is not only a weight"): what key j
moves into query i's output through this head is α_ij · v_j W_O^h, a vector; its length
‖α_ij v_j W_O^h‖ = α_ij ‖v_j W_O^h‖ can be small where α_ij is large (a short v_j) and the
other way round.

attention rollout (Abnar & Zuidema 2020): with the residual taken as half of each layer,
Ã_l = ½ Ā_l + ½ I (Ā_l the layer's weights averaged over its heads), the rollout to layer l is
Ã_l Ã_(l−1) … Ã_0: row i says how much query i's state after layer l traces back to each input
token. Each row sums to 1.

head ablation: the head removed (its output zero) and the model run again; how much each
query's last hidden state changes, ‖h′_L − h_L‖ / ‖h_L‖. A head whose weights look decisive can
matter little, and the other way round.

the difference of two checkpoints with the same tokenizer (two training steps, or two folders):
A₁ − A₂ of one head on the same sentence, where a weight grew (+) or shrank (−) from the other
checkpoint to this one; each row sums to 0, since both rows sum to 1.

the first token removed (attention sinks): a row's weights without key 0, renormalised to sum to
1, what the row looks like once the weight parked on the first token is set aside.
"""
from __future__ import annotations

import numpy as np

from .transformer import ModelRun, forward


def value_norms(v: np.ndarray, w_o_head: np.ndarray) -> np.ndarray:
    """(n,): ‖v_j W_O^h‖ for each key j. v (n, d_head) the head's values; w_o_head (d_head, d_model)
    the head's rows of W_O."""
    return np.linalg.norm(v @ w_o_head, axis=-1)


def value_weighted(weights: np.ndarray, norms: np.ndarray) -> np.ndarray:
    """(n, n): α_ij ‖v_j W_O^h‖, the length of what key j moves into query i's output."""
    return weights * norms[None, :]


def moved_share(moved: np.ndarray) -> np.ndarray:
    """(n, n): each row of value_weighted divided by its sum, the share of what the head moves into
    query i that comes from key j (rows sum to 1, as weights do; a row that moves nothing stays 0),
    so that it can be drawn where the weights are."""
    total = moved.sum(axis=-1, keepdims=True)
    return np.divide(moved, total, out=np.zeros_like(moved), where=total > 0)


#: The lenses the lines, bars and heatmap can draw instead of the weights, each a (query, key)
#: array whose rows sum to 1 (or 0): the share of what moves, the rollout, the row without the
#: first token. "weight" is the weights themselves.
DRAWN = ("weight", "moved", "rollout", "no_sink")


def rollout(layer_weights: list[np.ndarray]) -> np.ndarray:
    """(L, n, n): the rollout to each layer, from each layer's weights (heads, n, n), residual
    included as Abnar & Zuidema define it (½ Ā + ½ I, multiplied from the first layer up)."""
    n = layer_weights[0].shape[-1]
    done, out = np.eye(n), []
    for weights in layer_weights:
        done = (0.5 * weights.mean(axis=0) + 0.5 * np.eye(n)) @ done
        out.append(done)
    return np.stack(out)


def without_first(weights: np.ndarray) -> np.ndarray:
    """(n, n): each row without key 0, the rest renormalised to sum to 1; a row with nothing
    besides key 0 (the first query of a causal model) stays all zero."""
    rest = weights.copy()
    rest[:, 0] = 0.0
    total = rest.sum(axis=-1, keepdims=True)
    return np.divide(rest, total, out=np.zeros_like(rest), where=total > 0)


def removed_run(run: ModelRun, layer: int, head: int) -> ModelRun:
    """`run` with head `head` of layer `layer` removed (attention_core.transformer.forward's drop):
    the model run again from that layer up, in the run's dtype; hidden (L + 1, n, d_model) whole,
    the layers below it unchanged. What the ablation and the next token without the head share."""
    removed = forward(run.config, run.weights, run.ids, drop=(layer, head), start=(layer, run.hidden[layer]),
                      dtype=run.hidden.dtype)
    return ModelRun(config=run.config, ids=run.ids, hidden=np.concatenate([run.hidden[:layer], removed.hidden]),
                    layers=run.layers, weights=run.weights)


def ablation_change(run: ModelRun, layer: int, head: int, removed: ModelRun | None = None) -> np.ndarray:
    """(n,): for each query, ‖h′_L − h_L‖ / ‖h_L‖, the relative change of the model's last hidden
    state when head `head` of layer `layer` is removed: `removed` (removed_run's), made here when
    not given. The last hidden state is the last normalisation's output (LN_f or RMS_f; a BERT's
    last layer ends in its LayerNorm), as the page says: before it the figure can differ by tens
    of points."""
    removed = removed if removed is not None else removed_run(run, layer, head)
    before, after = (np.asarray(hidden[-1], dtype=np.float64) for hidden in (run.hidden, removed.hidden))
    return np.linalg.norm(after - before, axis=-1) / np.linalg.norm(before, axis=-1)


def difference(weights: np.ndarray, others: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A₁ − A₂: weights (n, n) of one head, others (C, n, n) the same head's in C other checkpoints;
    returns the differences (C, n, n) and, per other and query, the key whose weight changed the
    most either way (C, n), the first on ties."""
    change = weights[None] - others
    return change, np.argmax(np.abs(change), axis=-1)
