"""The Llama family's forward pass written out as plain loops over numbers, from Hugging Face's
definitions (modeling_llama.py, modeling_qwen2.py, modeling_mistral.py), as the reference the
tests hold attention_core.transformer to: RMSNorm, the rotation of each pair of dimensions (the
half-split layout), query heads sharing key/value heads, the causal mask and Mistral's window,
softmax, SwiGLU. It reads the checkpoint's tensors under their own names and shares no code with
the core."""
from __future__ import annotations

import math


def _matvec(weight, x, bias=None):
    """nn.Linear: weight (d_out, d_in) as nested lists, x (d_in,): y_o = Σ_i W[o][i] x_i + b_o."""
    return [sum(w * v for w, v in zip(row, x)) + (bias[o] if bias is not None else 0.0) for o, row in enumerate(weight)]


def _rms(x, gamma, eps):
    scale = 1.0 / math.sqrt(sum(v * v for v in x) / len(x) + eps)
    return [v * scale * g for v, g in zip(x, gamma)]


def _rotate(vector, position, theta):
    """One head's vector turned by its position: dimension i pairs with i + d/2 and turns by
    position × θ^(−2i/d)."""
    d = len(vector)
    half = d // 2
    out = list(vector)
    for i in range(half):
        angle = position * theta ** (-2 * i / d)
        a, b = vector[i], vector[i + half]
        out[i] = a * math.cos(angle) - b * math.sin(angle)
        out[i + half] = b * math.cos(angle) + a * math.sin(angle)
    return out


def reference_forward(config: dict, tensors: dict, ids: list[int]):
    """(hidden, weights): hidden[l] the residual stream after layer l (hidden[0] the embeddings,
    the last after the final norm), each n lists of d floats; weights[l][h][i][j] the weight of
    query i on key j in head h of layer l."""
    t = {name: value.tolist() for name, value in tensors.items()}
    family = config["model_type"]
    d, heads = config["hidden_size"], config["num_attention_heads"]
    kv_heads = config.get("num_key_value_heads") or heads
    d_head = config.get("head_dim") or d // heads
    eps, theta = config["rms_norm_eps"], config.get("rope_theta", 10000.0)
    window = config.get("sliding_window") if family == "mistral" else None
    n = len(ids)
    h = [list(t["model.embed_tokens.weight"][i]) for i in ids]
    hidden, all_weights = [h], []
    for layer in range(config["num_hidden_layers"]):
        at = f"model.layers.{layer}."
        bias = (lambda name: t.get(f"{at}self_attn.{name}.bias"))
        x = [_rms(row, t[f"{at}input_layernorm.weight"], eps) for row in h]
        q = [_matvec(t[f"{at}self_attn.q_proj.weight"], row, bias("q_proj")) for row in x]
        k = [_matvec(t[f"{at}self_attn.k_proj.weight"], row, bias("k_proj")) for row in x]
        v = [_matvec(t[f"{at}self_attn.v_proj.weight"], row, bias("v_proj")) for row in x]
        concat = [[] for _ in range(n)]
        layer_weights = []
        for head in range(heads):
            kv = head // (heads // kv_heads)  # the key/value head this query head shares
            qs = [_rotate(q[i][head * d_head:(head + 1) * d_head], i, theta) for i in range(n)]
            ks = [_rotate(k[j][kv * d_head:(kv + 1) * d_head], j, theta) for j in range(n)]
            vs = [v[j][kv * d_head:(kv + 1) * d_head] for j in range(n)]
            rows = []
            for i in range(n):
                seen = [j for j in range(n) if j <= i and (window is None or i - j < window)]
                scores = {j: sum(a * b for a, b in zip(qs[i], ks[j])) / math.sqrt(d_head) for j in seen}
                top = max(scores.values())
                total = sum(math.exp(s - top) for s in scores.values())
                row = [math.exp(scores[j] - top) / total if j in scores else 0.0 for j in range(n)]
                rows.append(row)
                concat[i] += [sum(row[j] * vs[j][c] for j in range(n)) for c in range(d_head)]
            layer_weights.append(rows)
        all_weights.append(layer_weights)
        o_bias = t.get(f"{at}self_attn.o_proj.bias")
        a = [[hv + ov for hv, ov in zip(h[i], _matvec(t[f"{at}self_attn.o_proj.weight"], concat[i], o_bias))] for i in range(n)]
        out = []
        for row in a:
            y = _rms(row, t[f"{at}post_attention_layernorm.weight"], eps)
            gate = _matvec(t[f"{at}mlp.gate_proj.weight"], y)
            up = _matvec(t[f"{at}mlp.up_proj.weight"], y)
            mixed = [g / (1.0 + math.exp(-g)) * u for g, u in zip(gate, up)]
            out.append([r + m for r, m in zip(row, _matvec(t[f"{at}mlp.down_proj.weight"], mixed))])
        h = out
        hidden.append(h)
    hidden[-1] = [_rms(row, t["model.norm.weight"], eps) for row in h]
    return hidden, all_weights
