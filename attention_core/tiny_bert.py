"""The small Korean BERT's training side, by hand in NumPy: its size and first parameters, its
masked-word head, and the backward pass of attention_core.transformer's BERT forward pass (the
one every loaded BERT runs), from the steps that forward pass keeps when asked (its Trace).

The parameters carry the core's names (attention_core.transformer's docstring); saving maps them
to Hugging Face's (attention_core.checkpoint.checkpoint_tensors), so a saved checkpoint loads like
any BERT. The layers are post-norm with the tanh GELU ("gelu_new"); the masked-word head's decoder
is the word embeddings themselves (tied, as in BERT) plus a bias.

Shapes: a batch of B sentences of T tokens, width d, H heads of d_h = d / H, feed-forward width f,
vocabulary V.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention import merge_heads, softmax, split_heads
from .transformer import ModelConfig, forward, model_config

GELU_C = math.sqrt(2.0 / math.pi)  # the tanh GELU's constant, for its derivative
#: the maps of a layer, in the order their first weights are drawn
LINEAR = ("q", "k", "v", "o", "up", "down")


@dataclass(frozen=True)
class Size:
    """The model's size: vocabulary V, positions, width d, heads H, layers, feed-forward f."""

    vocab: int
    positions: int
    d: int = 32
    heads: int = 4
    layers: int = 2
    ff: int = 64
    eps: float = 1e-12

    def config(self) -> dict:
        """config.json as save_pretrained writes it for a BertForMaskedLM."""
        return {"architectures": ["BertForMaskedLM"], "model_type": "bert", "hidden_size": self.d,
                "num_hidden_layers": self.layers, "num_attention_heads": self.heads, "intermediate_size": self.ff,
                "hidden_act": "gelu_new", "max_position_embeddings": self.positions, "type_vocab_size": 2,
                "layer_norm_eps": self.eps, "vocab_size": self.vocab, "tie_word_embeddings": True}

    def model(self) -> ModelConfig:
        """What the forward pass reads of config()."""
        return model_config(self.config())


def init_params(size: Size, seed: int = 0, std: float = 0.1) -> dict[str, np.ndarray]:
    """Random parameters under the core's names: normal(0, std) matrices, zero biases, unit
    LayerNorm gains. A map's W (d_in, d_out) is drawn as nn.Linear stores it, (d_out, d_in), and
    used transposed, so a seed gives the model it gave when these were Hugging Face's names."""
    rng = np.random.default_rng(seed)
    widths = {"q": (size.d, size.d), "k": (size.d, size.d), "v": (size.d, size.d), "o": (size.d, size.d),
              "up": (size.d, size.ff), "down": (size.ff, size.d)}
    params = {"embed.token": rng.normal(0, std, (size.vocab, size.d)),
              "embed.position": rng.normal(0, std, (size.positions, size.d)),
              "embed.segment": rng.normal(0, std, (2, size.d)),
              "mlm.bias": np.zeros(size.vocab)}
    norms = ["embed.norm"]
    for layer in range(size.layers):
        at = f"layers.{layer}."
        for name in LINEAR:
            d_in, d_out = widths[name]
            params[f"{at}w_{name}"] = rng.normal(0, std, (d_out, d_in)).T
            params[f"{at}b_{name}"] = np.zeros(d_out)
        norms += [at + "norm_attention", at + "norm_ff"]
    for name in norms:
        params[name + ".gamma"], params[name + ".beta"] = np.ones(size.d), np.zeros(size.d)
    return params


def logits(params: dict, hidden: np.ndarray) -> np.ndarray:
    """(…, V): the masked-word head, the hidden states times the word embeddings, plus a bias."""
    return hidden @ params["embed.token"].T + params["mlm.bias"]


# ---- the backward pass, piece by piece ------------------------------------------------------------
def _add(grads: dict, name: str, grad: np.ndarray) -> None:
    grads[name] = grads.get(name, 0) + grad


def _linear_back(dy, x, params, at, name, grads):
    """y = x W + b: the gradients of W (d_in, d_out) and b into grads; returns dL/dx."""
    rows_y, rows_x = dy.reshape(-1, dy.shape[-1]), x.reshape(-1, x.shape[-1])
    _add(grads, f"{at}w_{name}", (rows_y.T @ rows_x).T)  # (d_out, d_in) as drawn, used transposed
    _add(grads, f"{at}b_{name}", rows_y.sum(axis=0))
    return dy @ params[f"{at}w_{name}"].T


def _norm_back(dy, normalized, inverse, params, name, grads):
    """y = x̂ γ + β with x̂ = (x − mean) / σ: the gradients of γ and β into grads; returns dL/dx."""
    _add(grads, name + ".gamma", (dy * normalized).reshape(-1, normalized.shape[-1]).sum(axis=0))
    _add(grads, name + ".beta", dy.reshape(-1, dy.shape[-1]).sum(axis=0))
    dxhat = dy * params[name + ".gamma"]
    return inverse * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                      - normalized * (dxhat * normalized).mean(axis=-1, keepdims=True))


def _gelu_back(dy, x):
    """The tanh GELU ("gelu_new") of x: dL/dx from dL/dy."""
    t = np.tanh(GELU_C * (x + 0.044715 * x ** 3))
    return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * GELU_C * (1 + 3 * 0.044715 * x * x))


def _layer_back(dh, steps: dict, params, config: ModelConfig, at: str, grads: dict):
    """One post-norm layer backwards: dL/d(its output) (B, T, d) → dL/d(its input)."""
    dpre_f = _norm_back(dh, steps["ff_normalized"], steps["ff_inverse"], params, at + "norm_ff", grads)
    dactivated = _linear_back(dpre_f, steps["activated"], params, at, "down", grads)
    da = dpre_f + _linear_back(_gelu_back(dactivated, steps["up"]), steps["a"], params, at, "up", grads)
    dpre_a = _norm_back(da, steps["attention_normalized"], steps["attention_inverse"], params, at + "norm_attention",
                        grads)
    doutput = split_heads(_linear_back(dpre_a, steps["concat"], params, at, "o", grads), config.heads)
    weights, q_h, k_h, v_h = steps["weights"], steps["q_h"], steps["k_h"], steps["v_h"]
    dweights = doutput @ v_h.swapaxes(-1, -2)
    dv = weights.swapaxes(-1, -2) @ doutput
    dscores = weights * (dweights - (dweights * weights).sum(axis=-1, keepdims=True)) / math.sqrt(config.d_head)
    dq, dk = dscores @ k_h, dscores.swapaxes(-1, -2) @ q_h
    dx = dpre_a
    for name, grad in (("q", dq), ("k", dk), ("v", dv)):
        dx = dx + _linear_back(merge_heads(grad), steps["x"], params, at, name, grads)
    return dx


def loss_and_grads(params: dict, size: Size, ids: np.ndarray, targets: np.ndarray, where: np.ndarray):
    """The mean cross-entropy of predicting targets (B, T) at the positions `where` (B, T) bool,
    and its gradient with respect to every parameter (the forward pass: transformer.forward)."""
    config = size.model()
    if config.activation != "gelu_new":
        raise ValueError("the backward pass is written for the tanh GELU (gelu_new)")
    run = forward(config, params, ids, trace=True)
    hidden = run.hidden[-1]                                  # (B, T, d)
    picked = hidden[where]                                   # (M, d)
    probs = softmax(logits(params, picked))                  # (M, V)
    answer = targets[where]
    loss = float(-np.mean(np.log(probs[np.arange(len(answer)), answer] + 1e-30)))
    dlogits = probs
    dlogits[np.arange(len(answer)), answer] -= 1
    dlogits /= len(answer)
    grads: dict = {"embed.token": dlogits.T @ picked, "mlm.bias": dlogits.sum(axis=0)}
    dh = np.zeros_like(hidden)
    dh[where] = dlogits @ params["embed.token"]
    for layer in reversed(range(config.layers)):
        dh = _layer_back(dh, run.trace.layers[layer], params, config, f"layers.{layer}.", grads)
    embeddings = run.trace.embeddings
    de = _norm_back(dh, embeddings["normalized"], embeddings["inverse"], params, "embed.norm", grads)
    np.add.at(grads["embed.token"], ids.reshape(-1), de.reshape(-1, size.d))
    grads["embed.position"] = np.zeros_like(params["embed.position"])
    grads["embed.position"][:ids.shape[1]] = de.sum(axis=0)
    grads["embed.segment"] = np.zeros_like(params["embed.segment"])
    grads["embed.segment"][0] = de.reshape(-1, size.d).sum(axis=0)
    return loss, grads
