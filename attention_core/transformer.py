"""A transformer's forward pass in NumPy, one function per family (BERT, GPT-2, and the Llama
family: Llama, Qwen2, Mistral), every layer's attention through the same steps as attention()
(attention_core.attention.heads_attention).

The weights are a dict in the core's names, whatever the family (attention_core.checkpoint maps a
checkpoint's Hugging Face names to these once, when it loads it; training makes them directly).
A linear map is used as x W + b, W of shape (d_in, d_out):

    embed.token (V, d)  embed.position (positions, d)  embed.segment (types, d)  embed.norm.*
    layers.{l}.w_q, w_k, w_v, w_o (d, d)  b_q, b_k, b_v, b_o (d,)       the attention
    layers.{l}.w_up (d, d_ff)  b_up (d_ff,)  w_down (d_ff, d)  b_down (d,)   the feed-forward
    layers.{l}.norm_attention.*  layers.{l}.norm_ff.*  final_norm.*     LayerNorms: gamma, beta (d,)
    mlm.bias (V,)                                                      a masked-word head's bias

The Llama family: w_q (d, H·d_head), w_k, w_v (d, H_kv·d_head), w_o (H·d_head, d), biases only
where the family has them (Qwen2: b_q, b_k, b_v); w_gate, w_up (d, d_ff), w_down (d_ff, d) without
biases; RMSNorms with gamma alone.

BERT (post-norm):  h₀ = LN(token + position + segment 0);
                   a = LN(h + MultiHead(h) W_O);  h' = LN(a + GELU(a W_up + b_up) W_down + b_down)
GPT-2 (pre-norm):  h₀ = token + position;
                   a = h + MultiHead(LN(h)) W_O (causal);  h' = a + GELU(LN(a) W_up + b_up) W_down + b_down;
                   the last hidden state is LN_final(h_L)
Llama family (pre-norm, RMSNorm, no position table):  h₀ = token;
                   a = h + MultiHead(RMS₁(h)) W_O, q and k rotated by their position (RoPE), the
                   H query heads sharing H_kv key/value heads (grouped-query attention), causal,
                   and for Mistral a sliding window;  h' = a + (SiLU(RMS₂(a) W_gate) ⊙ RMS₂(a) W_up) W_down;
                   the last hidden state is RMS_final(h_L)

Nothing here reads files or imports a deep-learning library.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from .attention import AttentionResult, attention, heads_attention, hidden_keys, merge_heads, split_heads

#: model_type values this module runs
ARCHITECTURES = ("bert", "gpt2", "llama", "qwen2", "mistral")
#: the Llama family: RMSNorm, rotary positions, grouped-query attention, SwiGLU
LLAMA_FAMILY = ("llama", "qwen2", "mistral")


class ModelError(ValueError):
    """A checkpoint that cannot be run: the message names the file and the tensor or field. A
    sentence a student typed that the model cannot take also has a `code` and `values`, which the
    page says in its own language (the string err_<code>), as it does for InputError."""

    def __init__(self, message: str, code: str | None = None, **values):
        super().__init__(message)
        self.code = code
        self.values = values


@dataclass(frozen=True)
class ModelConfig:
    """What the forward pass needs from config.json.

    architecture one of ARCHITECTURES; layers L, heads H, d_model, d_ff the feed-forward width,
    max_positions the longest input, eps the norm's ε, activation "gelu" (exact, erf), "gelu_new"
    (the tanh approximation) or "silu" (the Llama family's SwiGLU); causal for GPT-2 and the Llama
    family. The Llama family also has: kv_heads H_kv (H_kv divides H: each key/value head serves
    H / H_kv query heads), head_dim (else d_model / H), rope_theta (the rotation's base), window
    (Mistral's sliding window, 0: none), and which maps carry a bias (qkv_bias, o_bias, mlp_bias).
    tied: the output head is the token embeddings (else lm_head, the weight `unembed`).
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
    kv_heads: int = 0
    head_dim: int = 0
    rope_theta: float = 0.0
    window: int = 0
    qkv_bias: bool = False
    o_bias: bool = False
    mlp_bias: bool = False
    #: the output head (next-token logits) is the token embeddings (GPT-2 always; the Llama family
    #: with tie_word_embeddings), else its own weight, `unembed` (lm_head)
    tied: bool = True

    @property
    def causal(self) -> bool:
        return self.architecture != "bert"

    @property
    def d_head(self) -> int:
        return self.head_dim or self.d_model // self.heads

    @property
    def key_heads(self) -> int:
        """H_kv: the key/value heads (H without grouped-query attention)."""
        return self.kv_heads or self.heads

    @property
    def group(self) -> int:
        """How many query heads share one key/value head (1 without grouped-query attention)."""
        return self.heads // self.key_heads

    @property
    def rotary(self) -> bool:
        return self.rope_theta > 0


#: config.json's field names for each architecture: ours → theirs
_FIELDS = {
    "bert": {"layers": "num_hidden_layers", "heads": "num_attention_heads", "d_model": "hidden_size",
             "d_ff": "intermediate_size", "max_positions": "max_position_embeddings", "vocab_size": "vocab_size"},
    "gpt2": {"layers": "n_layer", "heads": "n_head", "d_model": "n_embd", "max_positions": "n_positions",
             "vocab_size": "vocab_size"},
}
_ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_new", "gelu_pytorch_tanh": "gelu_new", "gelu_fast": "gelu_new"}


_LLAMA_FIELDS = {"layers": "num_hidden_layers", "heads": "num_attention_heads", "d_model": "hidden_size",
                 "d_ff": "intermediate_size", "max_positions": "max_position_embeddings", "vocab_size": "vocab_size"}
for _family in LLAMA_FAMILY:
    _FIELDS[_family] = _LLAMA_FIELDS

#: config fields that change the Llama family's maths in ways this tool does not compute, each with
#: the values that leave it unchanged
_NEUTRAL = {"partial_rotary_factor": (None, 1, 1.0), "attn_logit_softcapping": (None,), "final_logit_softcapping": (None,),
            "query_pre_attn_scalar": (None,), "use_qk_norm": (None, False), "qk_norm": (None, False),
            "attention_multiplier": (None, 1, 1.0), "embedding_multiplier": (None, 1, 1.0),
            "residual_multiplier": (None, 1, 1.0), "logits_scaling": (None, 1, 1.0), "use_sliding_window": (None, False)}


#: The most of each size a config may ask for (ours → limit): above every released checkpoint's
#: (Llama 3.1 405B: 126 layers, 128 heads, width 16,384, 53,248 in the feed-forward; Gemma's
#: 262,144 tokens; ten million positions), so that a config asking for more is refused from the
#: config alone, before a tensor is read or a name listed (a million layers took 83 s to refuse
#: as a missing tensor).
SIZE_LIMITS = {"layers": 512, "heads": 1024, "kv_heads": 1024, "d_model": 65_536, "d_ff": 262_144,
               "head_dim": 8192, "max_positions": 16_777_216, "vocab_size": 2_097_152, "sliding_window": 16_777_216}


def _whole(config: dict, name: str, where: str, default=None, size: str | None = None) -> int:
    """config[name] as a positive whole number, at most SIZE_LIMITS[size] where a size is named."""
    value = config.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ModelError(f"{where}: {name} must be a positive whole number, got {value!r}")
    if size is not None and value > SIZE_LIMITS[size]:
        raise ModelError(f"{where}: {name} = {value:,} is more than this tool runs (at most {SIZE_LIMITS[size]:,})")
    return value


def _rope_theta(config: dict, where: str) -> float:
    """The rotation's base: rope_theta (or transformers 5's rope_parameters), refusing any scaling
    of the rotation (linear, dynamic, yarn, llama3 …), which this tool does not compute."""
    parameters = config.get("rope_parameters") or {}
    scaling = config.get("rope_scaling") or {}
    for name, found in (("rope_scaling", scaling), ("rope_parameters", parameters)):
        if not isinstance(found, dict):
            raise ModelError(f"{where}: {name} must be a JSON object or null, got {found!r}")
        kind = found.get("rope_type", found.get("type", "default"))
        if kind != "default":
            raise ModelError(f"{where}: {name} of type {kind!r} is not supported: this tool computes the plain "
                             "rotation (rope_type 'default') only")
    theta = parameters.get("rope_theta", config.get("rope_theta", 10000.0))
    if isinstance(theta, bool) or not isinstance(theta, (int, float)) or not math.isfinite(theta) or theta <= 1:
        raise ModelError(f"{where}: rope_theta must be a number above 1, got {theta!r}")
    return float(theta)


def _llama_config(config: dict, architecture: str, values: dict, where: str) -> ModelConfig:
    """The Llama family's ModelConfig: refuses what would change the maths unseen (the fields in
    _NEUTRAL set otherwise, rotation scaling, an activation other than SiLU, sliding windows on
    some layers only)."""
    for name, neutral in _NEUTRAL.items():
        if config.get(name) not in neutral:
            raise ModelError(f"{where}: {name} = {config.get(name)!r} changes the computation in a way this tool "
                             "does not compute; it runs Llama, Qwen2 and Mistral as Hugging Face defines them")
    layer_types = config.get("layer_types")
    if layer_types is not None and architecture != "mistral" and set(layer_types) - {"full_attention"}:
        raise ModelError(f"{where}: layer_types {sorted(set(layer_types))} mix sliding-window and full layers, "
                         "which this tool does not compute")
    activation = config.get("hidden_act", "silu")
    if activation != "silu":
        raise ModelError(f"{where}: hidden_act {activation!r} is not supported for {architecture} (silu)")
    heads = values["heads"]
    kv_heads = _whole(config, "num_key_value_heads", where, heads, "kv_heads") if config.get("num_key_value_heads") is not None \
        else heads
    if heads % kv_heads:
        raise ModelError(f"{where}: num_key_value_heads {kv_heads} does not divide num_attention_heads {heads}")
    head_dim = config.get("head_dim")
    head_dim = _whole(config, "head_dim", where, size="head_dim") if head_dim is not None else 0
    if not head_dim and values["d_model"] % heads:
        raise ModelError(f"{where}: {heads} heads do not divide the width {values['d_model']}")
    if (head_dim or values["d_model"] // heads) % 2:
        raise ModelError(f"{where}: the head width {head_dim or values['d_model'] // heads} is odd: "
                         "the rotation turns pairs of dimensions")
    window = config.get("sliding_window") if architecture == "mistral" else None
    window = _whole(config, "sliding_window", where, size="sliding_window") if window is not None else 0
    eps = config.get("rms_norm_eps", 1e-6)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps < 1:
        raise ModelError(f"{where}: rms_norm_eps must be a small number, got {eps!r}")
    bias = architecture == "llama" and bool(config.get("attention_bias", False))
    return ModelConfig(architecture=architecture, eps=float(eps), activation="silu", kv_heads=kv_heads,
                       head_dim=head_dim, rope_theta=_rope_theta(config, where), window=window,
                       qkv_bias=bias or architecture == "qwen2", o_bias=bias,
                       mlp_bias=architecture == "llama" and bool(config.get("mlp_bias", False)),
                       tied=config.get("tie_word_embeddings", False) is True, **values)


def model_config(config: dict, where: str = "config.json") -> ModelConfig:
    """The ModelConfig of a parsed config.json; ModelError naming the field that is missing or wrong."""
    architecture = config.get("model_type")
    if architecture not in ARCHITECTURES:
        raise ModelError(f"{where}: model_type {architecture!r} is not supported; "
                         f"this tool runs {', '.join(ARCHITECTURES)}")
    values = {ours: _whole(config, theirs, where, size=ours) for ours, theirs in _FIELDS[architecture].items()}
    if architecture in LLAMA_FAMILY:
        return _llama_config(config, architecture, values, where)
    if architecture == "bert":
        activation = config.get("hidden_act", "gelu")
        eps = config.get("layer_norm_eps", 1e-12)
        type_vocab = config.get("type_vocab_size", 2)
    else:
        activation = config.get("activation_function", "gelu_new")
        eps = config.get("layer_norm_epsilon", 1e-5)
        values["d_ff"] = _whole(config, "n_inner", where, size="d_ff") if config.get("n_inner") else 4 * values["d_model"]
        type_vocab = 0
    if activation not in _ACTIVATIONS:
        raise ModelError(f"{where}: activation {activation!r} is not supported (gelu or gelu_new)")
    if values["d_model"] % values["heads"]:
        raise ModelError(f"{where}: {values['heads']} heads do not divide the width {values['d_model']}")
    return ModelConfig(architecture=architecture, eps=float(eps), activation=_ACTIVATIONS[activation],
                       type_vocab_size=int(type_vocab), **values)


def layer_norm_steps(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float):
    """LayerNorm of (…, d) with the steps a backward pass needs: (x̂ γ + β, x̂, 1/σ), where
    x̂ = (x − mean) / σ per row and σ = √(variance + ε) (the biased variance), 1/σ of shape (…, 1)."""
    mean = x.mean(axis=-1, keepdims=True)
    inverse = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    # × 1/σ rather than ÷ σ: they differ in the last bit, and the trained model was trained with this
    normalized = (x - mean) * inverse
    return normalized * gamma + beta, normalized, inverse


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """(…, d): each row minus its mean, over √(variance + ε) (the biased variance), × γ + β."""
    return layer_norm_steps(x, gamma, beta, eps)[0]


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise. In float64 (training, the references, a traced pass) the
    math module's, exact to the last bit; in float32 (a checkpoint on show) Abramowitz and Stegun
    7.1.26, off by at most 1.5e-7, about float32's own rounding, and fast at BERT-base size (NumPy
    has no erf, and math.erf one number at a time costs 3x as much there)."""
    x = np.asarray(x)
    if x.dtype != np.float32:
        x = x.astype(np.float64, copy=False)
        return np.frompyfunc(math.erf, 1, 1)(x).astype(np.float64)
    sign, a = np.sign(x), np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def rms_norm(x: np.ndarray, gamma: np.ndarray, eps: float) -> np.ndarray:
    """(…, d): each row × 1/√(mean of its squares + ε), × γ (RMSNorm: no mean taken away, no β)."""
    return x * (1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)) * gamma


def silu(x: np.ndarray) -> np.ndarray:
    """SiLU (swish): x σ(x), the gate of the Llama family's SwiGLU."""
    return x / (1.0 + np.exp(-x))


def rotary_angles(positions, d_head: int, theta: float) -> np.ndarray:
    """(n, d_head / 2): the angle, in radians, by which pair i of a token at each position turns,
    position × θ^(−2i / d_head) (RoPE): the first pairs turn fast, the last ones slowly."""
    inverse = 1.0 / theta ** (np.arange(0, d_head, 2, dtype=np.float64) / d_head)
    return np.asarray(positions, dtype=np.float64)[:, None] * inverse[None, :]


def rotate_pairs(x: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """x (…, n, d_head) with each pair of dimensions turned by its angle (angles (n, d_head / 2)),
    in Hugging Face's half-split layout: dimension i pairs with i + d_head / 2, as
    (x₁ cos − x₂ sin, x₂ cos + x₁ sin)."""
    half = x.shape[-1] // 2
    cos, sin = np.cos(angles).astype(x.dtype, copy=False), np.sin(angles).astype(x.dtype, copy=False)
    first, second = x[..., :half], x[..., half:]
    return np.concatenate([first * cos - second * sin, second * cos + first * sin], axis=-1)


def gelu(x: np.ndarray, activation: str = "gelu") -> np.ndarray:
    """GELU: x Φ(x) exactly ("gelu", BERT), or its tanh approximation ("gelu_new", GPT-2)."""
    if activation == "gelu_new":
        return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


@dataclass(frozen=True)
class LayerAttention:
    """One layer's attention inputs as the model's maps made them: q (…, n, H·d_head), k and v
    (…, n, H_kv·d_head), split into heads of d_head columns each, before any rotation; the weights
    and every step are recomputed from them (ModelRun.attention, ModelRun.head_qkv)."""

    q: np.ndarray
    k: np.ndarray
    v: np.ndarray


@dataclass(frozen=True)
class Trace:
    """What the forward pass computed on the way, kept when asked (forward(..., trace=True)) for a
    backward pass. embeddings: {"normalized", "inverse"}: the embeddings' LayerNorm's x̂ and 1/σ
    (BERT). layers[l], by family:

    BERT   x (the layer's input), q_h, k_h, v_h (…, H, n, d_head), weights (…, H, n, n), concat,
           attention_normalized, attention_inverse, a (the attention block's output), up (before the
           GELU), activated (after it), ff_normalized, ff_inverse
    GPT-2  x, x_normed (LN₁(x)), q_h, k_h, v_h, weights, concat, a, a_normed (LN₂(a)), up, activated
    """

    embeddings: dict
    layers: tuple[dict, ...]


@dataclass(frozen=True)
class ModelRun:
    """Token ids through a model. hidden (L + 1, …, n, d_model): the embeddings' output, then
    each layer's (GPT-2's last after LN_f); layers[l]: layer l's Q, K, V; trace, when asked, the
    steps in between; weights, the model's own (attention_core.lenses reads W_O). With ids of one sentence (n,) there are no leading axes; attention() and
    head_qkv() are for that case."""

    config: ModelConfig
    ids: np.ndarray
    hidden: np.ndarray
    layers: tuple[LayerAttention, ...]
    trace: Trace | None = None
    weights: dict | None = None  # the model's (the same arrays, not a copy): W_O for the lenses

    @property
    def n(self) -> int:
        return self.ids.shape[-1]

    def attention(self, layer: int, scale: bool = True, causal: bool | None = None, *, rotate: bool = True,
                  window: int | None = None) -> AttentionResult:
        """Layer `layer`'s attention, every head and step: (H, n, n) and (H, n, d_head).
        scale, causal and window default to the model's own (√d on; the mask for GPT-2 and the
        Llama family; Mistral's window); rotate=False leaves q and k unrotated (an experiment)."""
        causal = self.config.causal if causal is None else causal
        window = self.config.window if window is None else window
        q, k, v = (merge_heads(m) for m in self.heads_qkv(layer, rotate=rotate))
        return attention(q, k, v, heads=self.config.heads, scale=scale, causal=causal, window=window)

    def heads_qkv(self, layer: int, rotate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every query head's q, k, v, each (…, H, n, d_head): q and k rotated by their positions
        where the model rotates them (unless rotate=False), each key/value head repeated for the
        query heads that share it."""
        made = self.layers[layer]
        return _head_inputs(self.config, *(np.asarray(m, dtype=np.float64) for m in (made.q, made.k, made.v)),
                            rotate=rotate)

    def head_w_o(self, layer: int, head: int) -> np.ndarray:
        """(d_head, d_model): head `head`'s rows of layer `layer`'s W_O (what its output is multiplied by)."""
        d = self.config.d_head
        return _number(self.weights[f"layers.{layer}.w_o"][head * d:(head + 1) * d])

    def head_qkv(self, layer: int, head: int, rotate: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Head `head` of layer `layer`: its q, k, v, each (n, d_head), q and k as the score sees
        them (rotated where the model rotates; rotate=False: before the rotation). Only this head
        and its key/value head are cut out and rotated."""
        made, config, d = self.layers[layer], self.config, self.config.d_head
        shared = head // config.group  # the key/value head this query head uses
        q, k, v = (np.asarray(m[..., at * d:(at + 1) * d], dtype=np.float64)
                   for m, at in ((made.q, head), (made.k, shared), (made.v, shared)))
        if config.rotary and rotate:
            angles = rotary_angles(np.arange(self.n), d, config.rope_theta)
            q, k = rotate_pairs(q, angles), rotate_pairs(k, angles)
        return q, k, v


def _check_ids(config: ModelConfig, ids) -> np.ndarray:
    ids = np.asarray(ids, dtype=np.int64)
    if ids.ndim not in (1, 2) or ids.size == 0:
        raise ModelError("the input must be at least one token: one sentence (n,) or a batch of them (B, n)")
    if ids.shape[-1] > config.max_positions:
        raise ModelError(f"the input is {ids.shape[-1]} tokens; the model takes at most {config.max_positions}",
                         "too_many_tokens", count=ids.shape[-1], limit=config.max_positions)
    if ids.min() < 0 or ids.max() >= config.vocab_size:
        raise ModelError(f"a token id lies outside the vocabulary of {config.vocab_size}")
    return ids


def forward(config: ModelConfig, weights: dict, ids, *, trace: bool = False, drop: tuple[int, int] | None = None,
            start: tuple[int, np.ndarray] | None = None, dtype=np.float64) -> ModelRun:
    """Run token ids through the model: one sentence (n,), or a batch of sentences of one length
    (B, n). weights holds the core's names (the module's docstring), as attention_core.checkpoint
    maps a checkpoint's when it loads it, or as training makes them; float32 or float64 arrays,
    taken as float64 when used. trace=True keeps the steps a backward pass needs (Trace).
    drop=(layer, head): that head removed (its output zero before W_O), an ablation.
    start=(layer, h): the run begins at that layer from its input h (…, n, d_model), another run's
    hidden[layer], so that what lies below is not computed again; hidden and layers then hold the
    layers from there on (hidden[0] is h), and nothing is traced.
    dtype: what the pass computes in. float64 (training, the references' 1e-9); float32 for a
    checkpoint on show, as PyTorch runs it: the weights are used as they are stored (float32, or
    bf16 / fp16 widened to float32 at load), never copied, each map one matrix product, all heads
    at once, GPT-2's fused q, k, v in one. The head on screen is exact whatever the pass's dtype:
    ModelRun.attention and head_qkv recompute its steps in float64 from the layer's q, k, v.
    ModelError names an input the model cannot take."""
    ids = _check_ids(config, ids)
    if start is not None and not 0 <= start[0] < config.layers:
        raise ModelError(f"a run starts at a layer from 0 to {config.layers - 1}, not {start[0]}")
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise ModelError(f"a forward pass runs in float32 or float64, not {dtype}")
    if trace and dtype != np.float64:
        raise ModelError("a traced pass (for a backward pass) runs in float64")
    if start is not None:
        start = (start[0], np.asarray(start[1], dtype=dtype))
    run = FAMILIES[config.architecture](Pass(config, weights, dtype), ids, trace and start is None, drop, start)
    return dataclasses.replace(run, weights=weights)


@dataclass(frozen=True)
class Pass:
    """One forward pass's model and the dtype it computes in: each weight taken as that dtype when
    it is used (no copy when it is stored so)."""

    config: ModelConfig
    weights: dict
    dtype: np.dtype

    def number(self, array) -> np.ndarray:
        return np.asarray(array, dtype=self.dtype)

    def has(self, name: str) -> bool:
        return name in self.weights

    def weight(self, name: str) -> np.ndarray:
        return self.number(self.weights[name])

    def linear(self, x: np.ndarray, at: str, name: str) -> np.ndarray:
        """x W + b for the layer's map `name` (q, k, v, o, gate, up, down, and GPT-2's fused qkv):
        x (…, d_in) → (…, d_out); no b where the model has none (most of the Llama family's maps)."""
        out = x @ self.weight(f"{at}w_{name}")
        bias = self.weights.get(f"{at}b_{name}")
        if bias is not None:
            out += self.number(bias)
        return out

    def norm(self, x: np.ndarray, name: str, eps: float):
        """The LayerNorm `name` (its gamma and beta) of x: (output, x̂, 1/σ)."""
        return layer_norm_steps(x, self.weight(f"{name}.gamma"), self.weight(f"{name}.beta"), eps)

    def rms(self, x: np.ndarray, name: str, eps: float) -> np.ndarray:
        return rms_norm(x, self.weight(f"{name}.gamma"), eps)


def _number(array) -> np.ndarray:
    """A weight as float64 (W_O's rows of a head on screen)."""
    return np.asarray(array, dtype=np.float64)


def _head_inputs(config: ModelConfig, q: np.ndarray, k: np.ndarray, v: np.ndarray, rotate: bool = True):
    """q (…, n, H·d_head), k, v (…, n, H_kv·d_head) as each query head uses them: (…, H, n, d_head)
    each, q and k rotated by position where the model rotates (and rotate is on), each key/value
    head repeated for the group of query heads that share it (query head h uses key/value head
    h // (H / H_kv), as Hugging Face's repeat_kv)."""
    q_h, k_h, v_h = split_heads(q, config.heads), split_heads(k, config.key_heads), split_heads(v, config.key_heads)
    if config.rotary and rotate:
        angles = rotary_angles(np.arange(q.shape[-2]), config.d_head, config.rope_theta)
        q_h, k_h = rotate_pairs(q_h, angles), rotate_pairs(k_h, angles)
    if config.group > 1:
        k_h, v_h = np.repeat(k_h, config.group, axis=-3), np.repeat(v_h, config.group, axis=-3)
    return q_h, k_h, v_h


def _attention(run: Pass, at: str, x: np.ndarray, drop: int | None = None, trace: bool = False) -> dict:
    """The layer's multi-head attention on x (…, n, d): q, k, v as the maps made them (GPT-2's fused
    c_attn in one product), the heads' steps (attention_core.attention's, the same code every
    preset runs, when traced or in float64; in float32 only the weights and the output, in place),
    q and k rotated and key/value heads shared where the model does so, concat and the output W_O."""
    config = run.config
    fused = [_fused([run.weights.get(f"{at}{kind}_{name}") for name in "qkv"]) for kind in ("w", "b")]
    if fused[0] is not None and (fused[1] is not None or f"{at}b_q" not in run.weights):
        qkv = x @ run.number(fused[0])
        if fused[1] is not None:
            qkv += run.number(fused[1])
        q, k, v = np.split(qkv, 3, axis=-1)
    else:
        q, k, v = (run.linear(x, at, name) for name in ("q", "k", "v"))
    q_h, k_h, v_h = _head_inputs(config, q, k, v)
    if trace or run.dtype == np.float64:
        heads = heads_attention(q_h, k_h, v_h, scale=True, causal=config.causal, window=config.window)
        weights, output = heads.weights, heads.output
    else:
        weights, output = _attend(q_h, k_h, v_h, config.causal, config.window)
    if drop is not None:  # the head removed (an ablation): it adds nothing to the concatenation
        output = output.copy()
        output[..., drop, :, :] = 0.0
    concat = merge_heads(output)
    return {"q": q, "k": k, "v": v, "q_h": q_h, "k_h": k_h, "v_h": v_h, "weights": weights,
            "concat": concat, "output": run.linear(concat, at, "o")}


def _fused(parts: list) -> np.ndarray | None:
    """GPT-2's c_attn as it is stored, when w_q, w_k and w_v (or the biases) are still its three
    thirds side by side in memory (a checkpoint's views, core_weights): the whole (d, 3d) (or (3d,))
    as one array for one product; None for maps of their own (a model trained here, one edited)."""
    q = parts[0]
    if any(not isinstance(part, np.ndarray) for part in parts) or q.ndim not in (1, 2):
        return None
    if any(part.shape != q.shape or part.strides != q.strides or part.dtype != q.dtype for part in parts):
        return None
    step = q.shape[-1] * q.itemsize
    if q.strides[-1] != q.itemsize or (q.ndim == 2 and q.strides[0] != 3 * step):
        return None
    if parts[1].ctypes.data - q.ctypes.data != step or parts[2].ctypes.data - q.ctypes.data != 2 * step:
        return None
    return np.lib.stride_tricks.as_strided(q, shape=(*q.shape[:-1], 3 * q.shape[-1]), strides=q.strides, writeable=False)


def _attend(q_h: np.ndarray, k_h: np.ndarray, v_h: np.ndarray, causal: bool, window: int):
    """The weights and the output of every head at once (…, H, n, n) and (…, H, n, d_v), in q's
    dtype, in place: the steps heads_attention keeps, not kept (the head on screen recomputes them)."""
    n, d_k = q_h.shape[-2], q_h.shape[-1]
    weights = q_h @ k_h.swapaxes(-1, -2)
    weights *= 1.0 / math.sqrt(d_k)  # a Python float: the array keeps its dtype
    hidden = hidden_keys(n, causal, window)
    if hidden is not None:
        weights[..., hidden] = -np.inf
    weights -= weights.max(axis=-1, keepdims=True)
    np.exp(weights, out=weights)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights, weights @ v_h


def _dropped(drop: tuple[int, int] | None, layer: int) -> int | None:
    """The head to remove in this layer, if the run removes one here."""
    return drop[1] if drop is not None and drop[0] == layer else None


def _bert(run: Pass, ids: np.ndarray, trace: bool, drop=None, start=None) -> ModelRun:
    """Post-norm: h₀ = LN(word + position + token type 0); a = LN(h + MultiHead(h) W_O);
    h' = LN(a + GELU(a W_up + b_up) W_down + b_down)."""
    config, weights = run.config, run.weights
    n, eps = ids.shape[-1], config.eps
    embeddings = {}
    if start is None:
        x = run.number(weights["embed.token"][ids]) + run.number(weights["embed.position"][:n]) + run.number(weights["embed.segment"][0])
        h, normalized, inverse = run.norm(x, "embed.norm", eps)
        embeddings = {"normalized": normalized, "inverse": inverse}
    first, h = start if start is not None else (0, h)
    hidden, layers, steps = [h], [], []
    for layer in range(first, config.layers):
        at = f"layers.{layer}."
        made = _attention(run, at, h, _dropped(drop, layer), trace)
        a, attention_normalized, attention_inverse = run.norm(h + made["output"], at + "norm_attention", eps)
        up = run.linear(a, at, "up")
        activated = gelu(up, config.activation)
        out, ff_normalized, ff_inverse = run.norm(a + run.linear(activated, at, "down"), at + "norm_ff", eps)
        layers.append(LayerAttention(made["q"], made["k"], made["v"]))
        if trace:  # kept only when asked: a large model's up and activated are (n, d_ff) per layer
            steps.append({"x": h, **{name: made[name] for name in ("q_h", "k_h", "v_h", "weights", "concat")},
                          "attention_normalized": attention_normalized, "attention_inverse": attention_inverse,
                          "a": a, "up": up, "activated": activated, "ff_normalized": ff_normalized,
                          "ff_inverse": ff_inverse})
        h = out
        hidden.append(h)
    return ModelRun(config=config, ids=ids, hidden=np.stack(hidden), layers=tuple(layers),
                    trace=Trace(embeddings, tuple(steps)) if trace else None)


def _gpt2(run: Pass, ids: np.ndarray, trace: bool, drop=None, start=None) -> ModelRun:
    """Pre-norm: h₀ = token + position; a = h + MultiHead(LN₁(h)) W_O (causal);
    h' = a + GELU(LN₂(a) W_up + b_up) W_down + b_down; the last hidden state is LN_f(h_L)."""
    config, weights = run.config, run.weights
    n, eps = ids.shape[-1], config.eps
    first, h = start if start is not None else (0, run.number(weights["embed.token"][ids]) + run.number(weights["embed.position"][:n]))
    hidden, layers, steps = [h], [], []
    for layer in range(first, config.layers):
        at = f"layers.{layer}."
        x_normed = run.norm(h, at + "norm_attention", eps)[0]
        made = _attention(run, at, x_normed, _dropped(drop, layer), trace)
        a = h + made["output"]
        a_normed = run.norm(a, at + "norm_ff", eps)[0]
        up = run.linear(a_normed, at, "up")
        activated = gelu(up, config.activation)
        layers.append(LayerAttention(made["q"], made["k"], made["v"]))
        if trace:
            steps.append({"x": h, "x_normed": x_normed, "a": a, "a_normed": a_normed, "up": up, "activated": activated,
                          **{name: made[name] for name in ("q_h", "k_h", "v_h", "weights", "concat")}})
        h = a + run.linear(activated, at, "down")
        hidden.append(h)
    hidden[-1] = run.norm(h, "final_norm", eps)[0]
    return ModelRun(config=config, ids=ids, hidden=np.stack(hidden), layers=tuple(layers),
                    trace=Trace({}, tuple(steps)) if trace else None)


def _llama(run: Pass, ids: np.ndarray, trace: bool, drop=None, start=None) -> ModelRun:
    """Pre-norm with RMSNorm: h₀ = token; a = h + MultiHead(RMS₁(h)) W_O (rotated q and k, shared
    key/value heads, causal, Mistral's window); h' = a + (SiLU(RMS₂(a) W_gate) ⊙ RMS₂(a) W_up) W_down;
    the last hidden state is RMS_f(h_L)."""
    config, weights = run.config, run.weights
    eps = config.eps
    first, h = start if start is not None else (0, run.number(weights["embed.token"][ids]))
    hidden, layers, steps = [h], [], []
    for layer in range(first, config.layers):
        at = f"layers.{layer}."
        x_normed = run.rms(h, at + "norm_attention", eps)
        made = _attention(run, at, x_normed, _dropped(drop, layer), trace)
        a = h + made["output"]
        a_normed = run.rms(a, at + "norm_ff", eps)
        activated = silu(run.linear(a_normed, at, "gate"))
        activated *= run.linear(a_normed, at, "up")
        layers.append(LayerAttention(made["q"], made["k"], made["v"]))
        if trace:
            steps.append({"x": h, "x_normed": x_normed, "a": a, "a_normed": a_normed, "activated": activated,
                          **{name: made[name] for name in ("q_h", "k_h", "v_h", "weights", "concat")}})
        h = a + run.linear(activated, at, "down")
        hidden.append(h)
    hidden[-1] = run.rms(h, "final_norm", eps)
    return ModelRun(config=config, ids=ids, hidden=np.stack(hidden), layers=tuple(layers),
                    trace=Trace({}, tuple(steps)) if trace else None)


#: each model_type's forward pass
FAMILIES = {"bert": _bert, "gpt2": _gpt2, "llama": _llama, "qwen2": _llama, "mistral": _llama}
