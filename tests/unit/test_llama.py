"""The Llama family (Llama, Qwen2, Mistral) from a save_pretrained folder: bfloat16, float16 and
float32 files, shards, every config field that changes the maths, and the forward pass held to a
plain-loop reference (tests/llama_reference.py) layer by layer."""
import json

import numpy as np
import pytest

from attention_core.checkpoint import load_checkpoint, run_checkpoint, safetensors_arrays
from attention_core.transformer import ModelError, forward
from llama_reference import reference_forward
from tiny_models import as_bfloat16, edit_config, llama_tensors, write_llama

SENTENCE = "나는 어제 학교에서 냥이를 만났다"  # 냥 is not in the tokenizers' corpus: byte pieces

#: each family as the issue names it: Llama with two query heads per key/value head and a
#: bfloat16 file; Qwen2 with biases, tied embeddings and one key/value head; Mistral with a
#: window shorter than the sentence
FAMILIES = {"llama": {"kv_heads": 2, "dtype": "BF16"}, "qwen2": {"kv_heads": 1, "dtype": "BF16"},
            "mistral": {"kv_heads": 2, "dtype": "F32", "window": 3}}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    return {family: write_llama(tmp_path_factory.mktemp(family) / family, family, **options)
            for family, options in FAMILIES.items()}


def file_values(folder, dtype: str = "BF16", seed: int = 3) -> dict:
    """The tensors the writer put in the folder, as the file holds them (rounded to bfloat16 or
    float16), computed again without reading the file."""
    config = json.loads((folder / "config.json").read_text())
    tensors = llama_tensors(config, np.random.default_rng(seed))
    if dtype == "BF16":
        return {name: as_bfloat16(value) for name, value in tensors.items()}
    return {name: value.astype(np.float16).astype(np.float32) if dtype == "F16" else value
            for name, value in tensors.items()}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_each_family_computes_the_references_weights_and_hidden_states_layer_by_layer(folders, family):
    """In float64 to the reference's 1e-9; as a checkpoint is shown (run_checkpoint: float32, the
    head's steps recomputed in float64) to 1e-5."""
    folder = folders[family]
    checkpoint = load_checkpoint(folder)
    encoded, shown = run_checkpoint(checkpoint, SENTENCE)
    run = forward(checkpoint.config, checkpoint.weights, encoded.ids)
    config = json.loads((folder / "config.json").read_text())
    hidden, weights = reference_forward(config, file_values(folder, FAMILIES[family]["dtype"]), list(encoded.ids))
    for layer in range(checkpoint.config.layers):
        assert np.allclose(run.attention(layer).weights, np.array(weights[layer]), atol=1e-9, rtol=0), layer
        assert np.allclose(run.hidden[layer + 1], np.array(hidden[layer + 1]), atol=1e-8, rtol=1e-9), layer
        assert np.allclose(shown.attention(layer).weights, np.array(weights[layer]), atol=1e-5, rtol=0), layer
        assert np.allclose(shown.hidden[layer + 1], np.array(hidden[layer + 1]), atol=1e-5, rtol=1e-5), layer


def test_qwen2_reads_its_biases_and_shares_one_key_value_head_among_every_query_head(folders):
    checkpoint = load_checkpoint(folders["qwen2"])
    assert checkpoint.config.key_heads == 1 and checkpoint.config.group == checkpoint.config.heads == 4
    assert checkpoint.config.qkv_bias and not checkpoint.config.o_bias
    assert "layers.0.b_q" in checkpoint.weights and "layers.0.b_o" not in checkpoint.weights
    _, run = run_checkpoint(checkpoint, SENTENCE)
    keys = [run.head_qkv(0, head)[1] for head in range(4)]
    assert all(np.array_equal(keys[0], other) for other in keys[1:])  # one key head, four query heads


def test_a_mistral_window_hides_the_keys_it_leaves_behind_and_each_row_still_sums_to_one(folders):
    _, run = run_checkpoint(load_checkpoint(folders["mistral"]), SENTENCE)
    weights = run.attention(0).weights
    n = weights.shape[-1]
    i, j = np.indices((n, n))
    assert n > 3 and np.all(weights[:, (i - j >= 3) | (j > i)] == 0)
    assert np.all(weights[:, (i - j < 3) & (j <= i)] > 0)
    assert np.allclose(weights.sum(axis=-1), 1.0)
    wider = run.attention(0, window=0).weights  # the experiment: no window, the plain causal mask
    assert np.all(wider[:, i - j >= 3] > 0)


def test_bfloat16_float16_and_float32_files_and_shards_read_as_the_float32_values_they_hold(tmp_path):
    for dtype in ("BF16", "F16", "F32"):
        folder = write_llama(tmp_path / dtype, "llama", dtype=dtype)
        held = file_values(folder, dtype)
        read = safetensors_arrays(folder / "model.safetensors")
        assert all(read[name].dtype == np.float32 for name in read)  # bf16 and fp16 widened to float32, no further
        assert all(np.array_equal(read[name].astype(np.float32), held[name]) for name in held), dtype
    whole = load_checkpoint(tmp_path / "BF16")
    sharded = load_checkpoint(write_llama(tmp_path / "sharded", "llama", shards=3))
    assert not (tmp_path / "sharded" / "model.safetensors").exists()
    assert whole.weights.keys() == sharded.weights.keys()
    assert all(np.array_equal(whole.weights[name], sharded.weights[name]) for name in whole.weights)


def test_byte_fallback_pieces_read_as_the_character_they_spell_and_join_its_word(folders):
    encoded, _ = run_checkpoint(load_checkpoint(folders["llama"]), SENTENCE)
    assert encoded.pieces[0] == "<s>" and encoded.special[0]
    thirds = [index for index, piece in enumerate(encoded.pieces) if piece.startswith("냥(")]
    assert [encoded.pieces[i] for i in thirds] == ["냥(1/3)", "냥(2/3)", "냥(3/3)"]
    assert {encoded.words[i] for i in thirds} == {3}  # the fourth 어절, 냥이를
    assert not any("<0x" in piece for piece in encoded.pieces)


@pytest.mark.parametrize("change, message", [
    (edit_config(rope_scaling={"rope_type": "llama3", "factor": 8.0}), r"rope_scaling of type 'llama3' is not supported"),
    (edit_config(rope_scaling={"type": "linear", "factor": 2.0}), r"rope_scaling of type 'linear' is not supported"),
    (edit_config(rope_parameters={"rope_type": "yarn", "rope_theta": 1e6}), r"rope_parameters of type 'yarn' is not supported"),
    (edit_config(partial_rotary_factor=0.5), r"partial_rotary_factor = 0\.5 changes the computation"),
    (edit_config(use_sliding_window=True), r"use_sliding_window = True changes the computation"),
    (edit_config(layer_types=["full_attention", "sliding_attention"]), r"layer_types .* mix sliding-window and full layers"),
    (edit_config(hidden_act="gelu"), r"hidden_act 'gelu' is not supported for llama \(silu\)"),
    (edit_config(num_key_value_heads=3), r"num_key_value_heads 3 does not divide num_attention_heads 4"),
    (edit_config(head_dim=3), r"the head width 3 is odd"),
    (edit_config(rope_theta=-1), r"rope_theta must be a number above 1"),
    (lambda folder: (folder / "model.safetensors").rename(folder / "elsewhere.safetensors"), r"model\.safetensors: the file is missing"),
    (lambda folder: ((folder / "model.safetensors").unlink(),
                     (folder / "model.safetensors.index.json").write_text('{"weight_map": {"x": "model-1.safetensors"}}')),
     r"lists the shard 'model-1\.safetensors', which is not in the folder"),
    (lambda folder: ((folder / "model.safetensors").unlink(), (folder / "model.safetensors.index.json").write_text("[1]")),
     r"model\.safetensors\.index\.json: not a readable index of shards"),
    (lambda folder: (folder / "model.safetensors").write_bytes(b"\x08" + b"\x00" * 7 + b"{broken}"),
     r"model\.safetensors: not a readable safetensors file"),
])
def test_a_llama_folder_this_tool_cannot_compute_is_refused_with_a_message_naming_what(tmp_path, change, message):
    folder = write_llama(tmp_path / "model", "llama")
    change(folder)
    with pytest.raises(ModelError, match=message):
        load_checkpoint(folder)


def test_the_rotation_view_turns_each_pair_by_position_times_its_frequency_and_keeps_only_relative_position(folders):
    from attention_core.rotary import rotation_view
    from llama_reference import _rotate

    checkpoint = load_checkpoint(folders["llama"])
    _, run = run_checkpoint(checkpoint, SENTENCE)
    d, theta = checkpoint.config.d_head, checkpoint.config.rope_theta
    view = rotation_view(run, 1, 2)
    n = run.n
    assert view["angles"].shape == (n, d // 2)
    assert np.allclose(view["angles"], [[p * theta ** (-2 * i / d) for i in range(d // 2)] for p in range(n)])
    # the card's claim: at every position after the first, the first pairs turn faster than the last
    assert np.all(np.diff(view["angles"][1:], axis=-1) < 0)
    q, k, _ = run.head_qkv(1, 2)
    # the reference's rotation of the plain q and k gives the q and k the scores use
    assert np.allclose(q, [_rotate(list(row), p, theta) for p, row in enumerate(view["q_plain"])], atol=1e-12)
    assert np.allclose(k, [_rotate(list(row), p, theta) for p, row in enumerate(view["k_plain"])], atol=1e-12)
    assert np.allclose(view["scores_plain"], view["q_plain"] @ view["k_plain"].T)
    assert not np.allclose(view["scores_plain"], q @ k.T)  # the rotation does change the scores
    assert view["shift"] == 100 and view["shift_difference"] < 1e-12  # moved 100 places: the same scores


def test_the_lenses_are_what_their_definitions_say(folders):
    """Value-weighted attention, rollout and the row without its first token, each against a
    computation written out here (for a Llama run; the lenses take any model run's arrays)."""
    from attention_core.heads import from_run
    from attention_core.lenses import value_norms, value_weighted, without_first

    checkpoint = load_checkpoint(folders["llama"])
    model = from_run("llama", *run_checkpoint(checkpoint, SENTENCE))
    layer, head, d = 1, 3, checkpoint.config.d_head
    weights = model.head_attention(layer, head).weights[0]
    v = model.run.head_qkv(layer, head)[2]
    w_o = np.asarray(checkpoint.weights[f"layers.{layer}.w_o"], dtype=np.float64)[head * d:(head + 1) * d]
    moved = value_weighted(weights, value_norms(v, w_o))
    for i in range(model.n):
        for j in range(model.n):
            assert np.isclose(moved[i, j], np.linalg.norm(weights[i, j] * v[j] @ w_o))
    # the largest weight and what moves the most need not be the same key (here, query 4)
    assert weights[4].argmax() != moved[4].argmax()
    rest = without_first(weights)
    assert np.all(rest[:, 0] == 0) and np.all(rest[0] == 0)  # the first query of a causal model sees only key 0
    assert np.allclose(rest[1:].sum(axis=-1), 1) and np.allclose(rest[2, 1:], weights[2, 1:] / weights[2, 1:].sum())
    half = [0.5 * model.layer_weights(l).mean(axis=0) + 0.5 * np.eye(model.n) for l in range(2)]
    assert np.allclose(model.rollouts[0], half[0]) and np.allclose(model.rollouts[1], half[1] @ half[0])
    assert np.allclose(model.rollouts.sum(axis=-1), 1)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_one_heads_q_k_v_are_that_head_of_every_heads(folders, family):
    """head_qkv cuts out and rotates one head alone: the same numbers as every head's at once."""
    _, run = run_checkpoint(load_checkpoint(folders[family]), SENTENCE)
    for rotate in (True, False):
        every = run.heads_qkv(1, rotate=rotate)
        for head in range(run.config.heads):
            assert all(np.array_equal(one, many[head]) for one, many in zip(run.head_qkv(1, head, rotate=rotate), every))


@pytest.mark.parametrize("family", list(FAMILIES))
@pytest.mark.parametrize("layer", [0, 1])
def test_removing_a_head_is_running_the_model_with_its_rows_of_w_o_set_to_zero(folders, family, layer):
    """The ablation by another route: the head's rows of W_O zeroed in a copy of the weights, the
    whole model run again (the ablation itself runs from the head's layer up)."""
    from attention_core.heads import from_run
    from attention_core.transformer import forward

    checkpoint = load_checkpoint(folders[family])
    model = from_run(family, *run_checkpoint(checkpoint, SENTENCE))
    head, d = 1, checkpoint.config.d_head
    zeroed = dict(checkpoint.weights)
    w_o = np.array(zeroed[f"layers.{layer}.w_o"])
    w_o[head * d:(head + 1) * d] = 0
    zeroed[f"layers.{layer}.w_o"] = w_o
    # the pass's own dtype (float32, as shown): the same products, so the same numbers up to the
    # order float32 sums them in
    last = model.run.hidden[-1].astype(np.float64)
    changed = forward(checkpoint.config, zeroed, model.run.ids, dtype=model.run.hidden.dtype).hidden[-1]
    expected = np.linalg.norm(changed - last, axis=-1) / np.linalg.norm(last, axis=-1)
    assert np.allclose(model.ablation(layer, head), expected, rtol=1e-4, atol=1e-6)
    assert np.all(expected > 0) and model.ablation(layer, head) is model.ablation(layer, head)  # run once, kept
