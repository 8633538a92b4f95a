"""The float32 forward pass (forward(..., dtype=np.float32), what a checkpoint on show runs in):
every family's attention weights within 1e-5 of the float64 pass, the weights used as stored (no
copy), GPT-2's fused q, k, v in one product, and the head on screen exact whatever the pass: its
steps recomputed in float64, agreeing with each other to float64's last bits."""
import numpy as np
import pytest

from attention_core.attention import softmax
from attention_core.checkpoint import encode, load_checkpoint
from attention_core.transformer import ModelError, Pass, _fused, forward
from tiny_models import write_bert, write_gpt2, write_llama

SENTENCE = "나는 어제 학교에서 친구를 만났다 고양이가 생선을 먹었다"
WRITERS = {
    "bert": lambda folder: write_bert(folder, layers=2, heads=2, d=16),
    "gpt2": lambda folder: write_gpt2(folder, layers=2, heads=2, d=16),
    "llama": lambda folder: write_llama(folder, "llama", kv_heads=2),
    "qwen2": lambda folder: write_llama(folder, "qwen2", kv_heads=1),
    "mistral": lambda folder: write_llama(folder, "mistral", kv_heads=2, dtype="F32", window=3),
}


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    return {family: load_checkpoint(write(tmp_path_factory.mktemp(family) / family)) for family, write in WRITERS.items()}


@pytest.mark.parametrize("family", list(WRITERS))
def test_float32_weights_are_within_1e_5_of_float64_and_the_head_on_screen_is_float64(checkpoints, family):
    checkpoint = checkpoints[family]
    ids = encode(checkpoint.tokenizer, SENTENCE).ids
    wide = forward(checkpoint.config, checkpoint.weights, ids)
    narrow = forward(checkpoint.config, checkpoint.weights, ids, dtype=np.float32)
    assert narrow.hidden.dtype == np.float32 and wide.hidden.dtype == np.float64
    scale = np.abs(wide.hidden).max()
    assert np.abs(narrow.hidden - wide.hidden).max() <= 1e-5 * max(1.0, scale)
    for layer in range(checkpoint.config.layers):
        exact, shown = wide.attention(layer), narrow.attention(layer)
        assert shown.weights.dtype == np.float64
        assert np.abs(shown.weights - exact.weights).max() <= 1e-5, (family, layer)
        # the calculation table agrees with itself: weights = softmax(masked), output = weights V,
        # scaled = scores / √d_k, at float64's precision
        assert np.allclose(shown.weights, softmax(shown.masked), rtol=0, atol=1e-15)
        assert np.allclose(shown.scaled, shown.scores / np.sqrt(shown.d_k), rtol=0, atol=1e-12)
        q, k, v = narrow.head_qkv(layer, 0)
        assert q.dtype == k.dtype == v.dtype == np.float64
        assert np.allclose(shown.output[0], shown.weights[0] @ v, rtol=0, atol=1e-12)


@pytest.mark.parametrize("family", ["gpt2", "llama"])
def test_a_float32_pass_uses_the_weights_as_stored_without_a_copy(checkpoints, family):
    checkpoint = checkpoints[family]
    run = Pass(checkpoint.config, checkpoint.weights, np.dtype(np.float32))
    for name, stored in checkpoint.weights.items():
        if stored.dtype == np.float32:
            assert np.shares_memory(run.weight(name), stored), name


def test_gpt2s_c_attn_is_one_product_and_maps_of_their_own_are_three(checkpoints):
    weights = checkpoints["gpt2"].weights
    parts = [weights[f"layers.0.w_{name}"] for name in "qkv"]
    fused = _fused(parts)
    assert fused is not None and fused.shape == (parts[0].shape[0], 3 * parts[0].shape[1])
    assert np.array_equal(fused, np.concatenate(parts, axis=-1))
    assert _fused([weights[f"layers.0.b_{name}"] for name in "qkv"]) is not None
    assert _fused([part.copy() for part in parts]) is None  # a model's own maps: no fusing across arrays
    assert _fused([parts[1], parts[0], parts[2]]) is None   # out of order: not c_attn


def test_a_pass_runs_in_float32_or_float64_and_a_traced_one_in_float64(checkpoints):
    checkpoint = checkpoints["gpt2"]
    with pytest.raises(ModelError, match="float32 or float64"):
        forward(checkpoint.config, checkpoint.weights, [1, 2], dtype=np.float16)
    with pytest.raises(ModelError, match="traced"):
        forward(checkpoint.config, checkpoint.weights, [1, 2], dtype=np.float32, trace=True)
