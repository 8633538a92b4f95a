"""A small BERT trained on masked words, forward and backward by hand in NumPy.

The parameters carry Hugging Face's names (`bert.embeddings.word_embeddings.weight`, …; nn.Linear
weights stored (out, in)), so a saved checkpoint loads through attention_core.checkpoint and runs
through attention_core.transformer like any BERT. The forward pass here is the same computation
(post-norm layers, the tanh GELU, "gelu_new") in batches, keeping what the backward pass needs;
the masked-word head's decoder is the word embeddings themselves (tied, as in BERT) plus a bias.

Shapes: a batch of B sentences of T tokens, width d, H heads of d_h = d / H, feed-forward width f,
vocabulary V.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention import softmax
from .transformer import gelu

P = "bert."
GELU_C = math.sqrt(2.0 / math.pi)  # the tanh GELU's constant, for its derivative


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


def linear_names(layer: int) -> dict[str, tuple[str, str]]:
    """Each linear map of layer `layer`: our name → its (input, output) width names."""
    at = f"{P}encoder.layer.{layer}."
    return {at + "attention.self.query": ("d", "d"), at + "attention.self.key": ("d", "d"),
            at + "attention.self.value": ("d", "d"), at + "attention.output.dense": ("d", "d"),
            at + "intermediate.dense": ("d", "ff"), at + "output.dense": ("ff", "d")}


def init_params(size: Size, seed: int = 0, std: float = 0.1) -> dict[str, np.ndarray]:
    """Random parameters under Hugging Face's names: normal(0, std) matrices, zero biases, unit
    LayerNorm gains."""
    rng = np.random.default_rng(seed)
    widths = {"d": size.d, "ff": size.ff}
    params = {f"{P}embeddings.word_embeddings.weight": rng.normal(0, std, (size.vocab, size.d)),
              f"{P}embeddings.position_embeddings.weight": rng.normal(0, std, (size.positions, size.d)),
              f"{P}embeddings.token_type_embeddings.weight": rng.normal(0, std, (2, size.d)),
              "cls.predictions.bias": np.zeros(size.vocab)}
    norms = [f"{P}embeddings.LayerNorm"]
    for layer in range(size.layers):
        for name, (into, out) in linear_names(layer).items():
            params[name + ".weight"] = rng.normal(0, std, (widths[out], widths[into]))
            params[name + ".bias"] = np.zeros(widths[out])
        norms += [f"{P}encoder.layer.{layer}.attention.output.LayerNorm", f"{P}encoder.layer.{layer}.output.LayerNorm"]
    for name in norms:
        params[name + ".weight"], params[name + ".bias"] = np.ones(size.d), np.zeros(size.d)
    return params


# ---- the pieces, each with its backward ------------------------------------------------------
def _linear(x, params, name):
    return x @ params[name + ".weight"].T + params[name + ".bias"]


def _linear_back(dy, x, params, name, grads):
    w = params[name + ".weight"]
    grads[name + ".weight"] = grads.get(name + ".weight", 0) + dy.reshape(-1, dy.shape[-1]).T @ x.reshape(-1, x.shape[-1])
    grads[name + ".bias"] = grads.get(name + ".bias", 0) + dy.reshape(-1, dy.shape[-1]).sum(axis=0)
    return dy @ w


def _norm(x, params, name, eps):
    mean = x.mean(axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    xhat = (x - mean) * inv
    return xhat * params[name + ".weight"] + params[name + ".bias"], (xhat, inv)


def _norm_back(dy, cache, params, name, grads):
    xhat, inv = cache
    grads[name + ".weight"] = grads.get(name + ".weight", 0) + (dy * xhat).reshape(-1, xhat.shape[-1]).sum(axis=0)
    grads[name + ".bias"] = grads.get(name + ".bias", 0) + dy.reshape(-1, dy.shape[-1]).sum(axis=0)
    dxhat = dy * params[name + ".weight"]
    return inv * (dxhat - dxhat.mean(axis=-1, keepdims=True) - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))


def _gelu_back(dy, x):
    t = np.tanh(GELU_C * (x + 0.044715 * x ** 3))
    return dy * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * GELU_C * (1 + 3 * 0.044715 * x * x))


def _heads(x, heads):
    b, t, d = x.shape
    return x.reshape(b, t, heads, d // heads).transpose(0, 2, 1, 3)


def _merge(x):
    b, h, t, dh = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * dh)


# ---- the model ---------------------------------------------------------------------------------
def forward(params: dict, size: Size, ids: np.ndarray):
    """ids (B, T) → hidden (B, T, d), and the cache for backward(); cache["weights"][l] is layer l's
    attention weights (B, H, T, T)."""
    b, t = ids.shape
    e = (params[f"{P}embeddings.word_embeddings.weight"][ids] + params[f"{P}embeddings.position_embeddings.weight"][:t]
         + params[f"{P}embeddings.token_type_embeddings.weight"][0])
    h, norm = _norm(e, params, f"{P}embeddings.LayerNorm", size.eps)
    cache = {"ids": ids, "norm": norm, "layers": [], "weights": []}
    for layer in range(size.layers):
        at = f"{P}encoder.layer.{layer}."
        q, k, v = (_heads(_linear(h, params, at + f"attention.self.{n}"), size.heads) for n in ("query", "key", "value"))
        a = softmax(q @ k.transpose(0, 1, 3, 2) / math.sqrt(size.d // size.heads))
        concat = _merge(a @ v)
        pre_a = h + _linear(concat, params, at + "attention.output.dense")
        x_a, norm_a = _norm(pre_a, params, at + "attention.output.LayerNorm", size.eps)
        up = _linear(x_a, params, at + "intermediate.dense")
        act = gelu(up, "gelu_new")
        pre_f = x_a + _linear(act, params, at + "output.dense")
        out, norm_f = _norm(pre_f, params, at + "output.LayerNorm", size.eps)
        cache["layers"].append({"h": h, "q": q, "k": k, "v": v, "a": a, "concat": concat, "norm_a": norm_a, "x_a": x_a,
                                "up": up, "act": act, "norm_f": norm_f})
        cache["weights"].append(a)
        h = out
    return h, cache


def logits(params: dict, hidden: np.ndarray) -> np.ndarray:
    """(…, V): the masked-word head, the hidden states times the word embeddings, plus a bias."""
    return hidden @ params[f"{P}embeddings.word_embeddings.weight"].T + params["cls.predictions.bias"]


def loss_and_grads(params: dict, size: Size, ids: np.ndarray, targets: np.ndarray, where: np.ndarray):
    """The mean cross-entropy of predicting targets (B, T) at the positions `where` (B, T) bool,
    and its gradient with respect to every parameter."""
    hidden, cache = forward(params, size, ids)
    picked = hidden[where]                                   # (M, d)
    probs = softmax(logits(params, picked))                  # (M, V)
    answer = targets[where]
    loss = float(-np.mean(np.log(probs[np.arange(len(answer)), answer] + 1e-30)))
    dlogits = probs
    dlogits[np.arange(len(answer)), answer] -= 1
    dlogits /= len(answer)
    grads: dict = {}
    word = f"{P}embeddings.word_embeddings.weight"
    grads[word] = dlogits.T @ picked
    grads["cls.predictions.bias"] = dlogits.sum(axis=0)
    dhidden = np.zeros_like(hidden)
    dhidden[where] = dlogits @ params[word]
    dh = dhidden
    for layer in reversed(range(size.layers)):
        at, c = f"{P}encoder.layer.{layer}.", cache["layers"][layer]
        dpre_f = _norm_back(dh, c["norm_f"], params, at + "output.LayerNorm", grads)
        dgelu = _linear_back(dpre_f, c["act"], params, at + "output.dense", grads)
        dx_a = dpre_f + _linear_back(_gelu_back(dgelu, c["up"]), c["x_a"], params, at + "intermediate.dense", grads)
        dpre_a = _norm_back(dx_a, c["norm_a"], params, at + "attention.output.LayerNorm", grads)
        dconcat = _linear_back(dpre_a, c["concat"], params, at + "attention.output.dense", grads)
        do = _heads(dconcat, size.heads)
        a, q, k, v = c["a"], c["q"], c["k"], c["v"]
        da = do @ v.transpose(0, 1, 3, 2)
        dv = a.transpose(0, 1, 3, 2) @ do
        ds = a * (da - (da * a).sum(axis=-1, keepdims=True)) / math.sqrt(size.d // size.heads)
        dq, dk = ds @ k, ds.transpose(0, 1, 3, 2) @ q
        dh = dpre_a
        for name, grad in (("query", dq), ("key", dk), ("value", dv)):
            dh = dh + _linear_back(_merge(grad), c["h"], params, at + f"attention.self.{name}", grads)
    de = _norm_back(dh, cache["norm"], params, f"{P}embeddings.LayerNorm", grads)
    t = ids.shape[1]
    np.add.at(grads[word], ids.reshape(-1), de.reshape(-1, size.d))
    grads[f"{P}embeddings.position_embeddings.weight"] = np.zeros_like(params[f"{P}embeddings.position_embeddings.weight"])
    grads[f"{P}embeddings.position_embeddings.weight"][:t] = de.sum(axis=0)
    grads[f"{P}embeddings.token_type_embeddings.weight"] = np.zeros_like(params[f"{P}embeddings.token_type_embeddings.weight"])
    grads[f"{P}embeddings.token_type_embeddings.weight"][0] = de.reshape(-1, size.d).sum(axis=0)
    return loss, grads
