"""A Hugging Face BERT or GPT-2 run in NumPy, every layer's attention through attention_layer.

The weights are a dict of arrays named as `save_pretrained` names them (attention_core.checkpoint
reads them from a directory). Nothing here reads files or imports a deep-learning library.

BERT (post-norm):  h₀ = LN(word + position + token type);
                   a = LN(h + MultiHead(h) W_O);  h' = LN(a + GELU(a W₁ + b₁) W₂ + b₂)
GPT-2 (pre-norm):  h₀ = wte + wpe;
                   a = h + MultiHead(LN₁(h)) W_O (causal);  h' = a + GELU(LN₂(a) W₁ + b₁) W₂ + b₂;
                   the last hidden state is LN_f(h_L)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .attention import AttentionResult, attention, split_heads
from .layer import attention_layer

#: model_type values this module runs
ARCHITECTURES = ("bert", "gpt2")


class ModelError(ValueError):
    """A checkpoint that cannot be run: the message names the file and the tensor or field."""


@dataclass(frozen=True)
class ModelConfig:
    """What the forward pass needs from config.json.

    architecture "bert" or "gpt2"; layers L, heads H, d_model (H divides it), d_ff the
    feed-forward width, max_positions the longest input, eps LayerNorm's ε, activation
    "gelu" (exact, erf) or "gelu_new" (the tanh approximation); causal for GPT-2.
    """

    architecture: str
    layers: int
    heads: int
    d_model: int
    d_ff: int
    max_positions: int
    vocab_size: int
    eps: float
    activation: str
    type_vocab_size: int = 0

    @property
    def causal(self) -> bool:
        return self.architecture == "gpt2"

    @property
    def d_head(self) -> int:
        return self.d_model // self.heads


#: config.json's field names for each architecture: ours → theirs
_FIELDS = {
    "bert": {"layers": "num_hidden_layers", "heads": "num_attention_heads", "d_model": "hidden_size",
             "d_ff": "intermediate_size", "max_positions": "max_position_embeddings", "vocab_size": "vocab_size"},
    "gpt2": {"layers": "n_layer", "heads": "n_head", "d_model": "n_embd", "max_positions": "n_positions",
             "vocab_size": "vocab_size"},
}
_ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_new", "gelu_pytorch_tanh": "gelu_new", "gelu_fast": "gelu_new"}


def model_config(config: dict, where: str = "config.json") -> ModelConfig:
    """The ModelConfig of a parsed config.json; ModelError naming the field that is missing or wrong."""
    architecture = config.get("model_type")
    if architecture not in ARCHITECTURES:
        raise ModelError(f"{where}: model_type {architecture!r} is not supported; "
                         f"this tool runs {' and '.join(ARCHITECTURES)}")
    values = {}
    for ours, theirs in _FIELDS[architecture].items():
        value = config.get(theirs)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ModelError(f"{where}: {theirs} must be a positive whole number, got {value!r}")
        values[ours] = value
    if architecture == "bert":
        activation = config.get("hidden_act", "gelu")
        eps = config.get("layer_norm_eps", 1e-12)
        type_vocab = config.get("type_vocab_size", 2)
    else:
        activation = config.get("activation_function", "gelu_new")
        eps = config.get("layer_norm_epsilon", 1e-5)
        values["d_ff"] = config.get("n_inner") or 4 * values["d_model"]
        type_vocab = 0
    if activation not in _ACTIVATIONS:
        raise ModelError(f"{where}: activation {activation!r} is not supported (gelu or gelu_new)")
    if values["d_model"] % values["heads"]:
        raise ModelError(f"{where}: {values['heads']} heads do not divide the width {values['d_model']}")
    return ModelConfig(architecture=architecture, eps=float(eps), activation=_ACTIVATIONS[activation],
                       type_vocab_size=int(type_vocab), **values)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """(n, d): each row minus its mean, over √(variance + ε) (the biased variance), × γ + β."""
    mean = x.mean(axis=-1, keepdims=True)
    variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, by Abramowitz and Stegun 7.1.26: off by at most 1.5e-7
    (NumPy has no erf, and math.erf one number at a time would take seconds at BERT-base size).
    In BERT's GELU that moves a weight by about 1e-6, far below the three decimals shown."""
    x = np.asarray(x, dtype=np.float64)
    sign, a = np.sign(x), np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def gelu(x: np.ndarray, activation: str = "gelu") -> np.ndarray:
    """GELU: x Φ(x) exactly ("gelu", BERT), or its tanh approximation ("gelu_new", GPT-2)."""
    if activation == "gelu_new":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class LayerAttention:
    """One layer's attention inputs: q, k (n, d_model), v (n, d_model), split into heads of
    d_head columns each; the weights and every step are recomputed from them by attention()."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray


@dataclass(frozen=True)
class ModelRun:
    """A sentence through a model. hidden (L + 1, n, d_model): the embeddings' output, then
    each layer's (GPT-2's last after LN_f); layers[l]: layer l's Q, K, V."""

    config: ModelConfig
    ids: tuple[int, ...]
    hidden: np.ndarray
    layers: tuple[LayerAttention, ...]

    @property
    def n(self) -> int:
        return len(self.ids)

    def attention(self, layer: int, scale: bool = True, causal: bool | None = None) -> AttentionResult:
        """Layer `layer`'s attention, every head and step: (H, n, n) and (H, n, d_head).
        scale and causal default to the model's own (√d on; the mask for GPT-2)."""
        made = self.layers[layer]
        causal = self.config.causal if causal is None else causal
        return attention(made.q, made.k, made.v, heads=self.config.heads, scale=scale, causal=causal)

    def head_qkv(self, layer: int, head: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Head `head` of layer `layer`: its q, k, v, each (n, d_head)."""
        made = self.layers[layer]
        return tuple(split_heads(m, self.config.heads)[head] for m in (made.q, made.k, made.v))


class _Weights:
    """The checkpoint's tensors by name, checked for shape as they are taken."""

    def __init__(self, tensors: dict, prefix: str, where: str):
        self.tensors, self.prefix, self.where = tensors, prefix, where

    def __call__(self, name: str, shape: tuple) -> np.ndarray:
        key = self.prefix + name
        if key not in self.tensors:
            raise ModelError(f"{self.where}: the tensor {key} is missing")
        array = np.asarray(self.tensors[key], dtype=np.float64)
        if array.shape != tuple(shape):
            raise ModelError(f"{self.where}: the tensor {key} has shape {tuple(array.shape)}, "
                             f"the config asks for {tuple(shape)}")
        if not np.all(np.isfinite(array)):
            raise ModelError(f"{self.where}: the tensor {key} holds NaN or infinity")
        return array


def _prefix(tensors: dict, prefixes: tuple[str, ...], first: str, where: str) -> str:
    for prefix in prefixes:
        if prefix + first in tensors:
            return prefix
    names = " or ".join(prefix + first for prefix in prefixes)
    raise ModelError(f"{where}: the tensor {names} is missing: is this the right model_type?")


def _check_ids(config: ModelConfig, ids) -> np.ndarray:
    ids = np.asarray(ids, dtype=np.int64)
    if ids.ndim != 1 or ids.size == 0:
        raise ModelError("the input must be at least one token")
    if ids.size > config.max_positions:
        raise ModelError(f"the input is {ids.size} tokens; the model takes at most {config.max_positions}")
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise ModelError(f"a token id lies outside the vocabulary of {config.vocab_size}")
    return ids


def forward(config: ModelConfig, tensors: dict, ids, where: str = "model.safetensors") -> ModelRun:
    """Run token ids (n,) through the model whose weights `tensors` holds, by their Hugging Face
    names (with or without the `bert.` / `transformer.` prefix). ModelError names a tensor that
    is missing or has the wrong shape, or an input the model cannot take."""
    ids = _check_ids(config, ids)
    if config.architecture == "bert":
        return _bert(config, _Weights(tensors, _prefix(tensors, ("bert.", ""), "embeddings.word_embeddings.weight",
                                                        where), where), ids)
    return _gpt2(config, _Weights(tensors, _prefix(tensors, ("transformer.", ""), "wte.weight", where), where), ids)


def _bert(config: ModelConfig, w: _Weights, ids: np.ndarray) -> ModelRun:
    d, n, eps = config.d_model, ids.size, config.eps
    embeddings = (w("embeddings.word_embeddings.weight", (config.vocab_size, d))[ids]
                  + w("embeddings.position_embeddings.weight", (config.max_positions, d))[:n]
                  + w("embeddings.token_type_embeddings.weight", (config.type_vocab_size, d))[0])
    h = layer_norm(embeddings, w("embeddings.LayerNorm.weight", (d,)), w("embeddings.LayerNorm.bias", (d,)), eps)
    hidden, layers = [h], []
    for layer in range(config.layers):
        at = f"encoder.layer.{layer}."
        linear = {name: (w(f"{at}{path}.weight", shape).T, w(f"{at}{path}.bias", (shape[0],)))
                  for name, path, shape in (("q", "attention.self.query", (d, d)), ("k", "attention.self.key", (d, d)),
                                            ("v", "attention.self.value", (d, d)),
                                            ("o", "attention.output.dense", (d, d)),
                                            ("up", "intermediate.dense", (config.d_ff, d)),
                                            ("down", "output.dense", (d, config.d_ff)))}
        made = attention_layer(h, linear["q"][0], linear["k"][0], linear["v"][0], linear["o"][0],
                               b_q=linear["q"][1], b_k=linear["k"][1], b_v=linear["v"][1], b_o=linear["o"][1],
                               heads=config.heads, scale=True, causal=False)
        layers.append(LayerAttention(made.q, made.k, made.v))
        a = layer_norm(h + made.output, w(f"{at}attention.output.LayerNorm.weight", (d,)),
                       w(f"{at}attention.output.LayerNorm.bias", (d,)), eps)
        ff = gelu(a @ linear["up"][0] + linear["up"][1], config.activation) @ linear["down"][0] + linear["down"][1]
        h = layer_norm(a + ff, w(f"{at}output.LayerNorm.weight", (d,)), w(f"{at}output.LayerNorm.bias", (d,)), eps)
        hidden.append(h)
    return ModelRun(config=config, ids=tuple(int(i) for i in ids), hidden=np.stack(hidden), layers=tuple(layers))


def _gpt2(config: ModelConfig, w: _Weights, ids: np.ndarray) -> ModelRun:
    d, n, eps = config.d_model, ids.size, config.eps
    h = w("wte.weight", (config.vocab_size, d))[ids] + w("wpe.weight", (config.max_positions, d))[:n]
    hidden, layers = [h], []
    for layer in range(config.layers):
        at = f"h.{layer}."
        # Conv1D stores (in, out): x @ W directly; c_attn's 3d columns are Q, K, V side by side
        c_attn, b_attn = w(f"{at}attn.c_attn.weight", (d, 3 * d)), w(f"{at}attn.c_attn.bias", (3 * d,))
        x = layer_norm(h, w(f"{at}ln_1.weight", (d,)), w(f"{at}ln_1.bias", (d,)), eps)
        made = attention_layer(x, c_attn[:, :d], c_attn[:, d:2 * d], c_attn[:, 2 * d:],
                               w(f"{at}attn.c_proj.weight", (d, d)),
                               b_q=b_attn[:d], b_k=b_attn[d:2 * d], b_v=b_attn[2 * d:],
                               b_o=w(f"{at}attn.c_proj.bias", (d,)), heads=config.heads, scale=True, causal=True)
        layers.append(LayerAttention(made.q, made.k, made.v))
        a = h + made.output
        up = layer_norm(a, w(f"{at}ln_2.weight", (d,)), w(f"{at}ln_2.bias", (d,)), eps)
        up = gelu(up @ w(f"{at}mlp.c_fc.weight", (d, config.d_ff)) + w(f"{at}mlp.c_fc.bias", (config.d_ff,)),
                  config.activation)
        h = a + up @ w(f"{at}mlp.c_proj.weight", (config.d_ff, d)) + w(f"{at}mlp.c_proj.bias", (d,))
        hidden.append(h)
    hidden[-1] = layer_norm(h, w("ln_f.weight", (d,)), w("ln_f.bias", (d,)), eps)
    return ModelRun(config=config, ids=tuple(int(i) for i in ids), hidden=np.stack(hidden), layers=tuple(layers))
