"""A Hugging Face BERT or GPT-2 run in NumPy (attention_core.transformer, .checkpoint): checked
against a plain implementation written here with loops and the math module, layer by layer, on
tiny checkpoints the tests write (tests/tiny_models.py), and every bad input's message."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest
from safetensors.numpy import load_file, save_file

from attention_core.checkpoint import checkpoint_tensors, encode, load_checkpoint, run_checkpoint
from attention_core.transformer import ModelError, erf, forward, gelu, layer_norm
from tiny_models import edit_config, write_bert, write_gpt2

SENTENCE = "나는 어제 학교에서 친구를 만났다"


# ---- the plain implementation: one number at a time ---------------------------------------
def matmul(a, b):
    return [[sum(a[i][t] * b[t][j] for t in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def linear(x, w_in_out, bias):
    y = matmul(x, w_in_out)
    return [[y[i][j] + float(bias[j]) for j in range(len(bias))] for i in range(len(y))]


def plain_layer_norm(x, gamma, beta, eps):
    out = []
    for row in x:
        mean = sum(row) / len(row)
        var = sum((r - mean) ** 2 for r in row) / len(row)
        out.append([(r - mean) / math.sqrt(var + eps) * float(g) + float(b) for r, g, b in zip(row, gamma, beta)])
    return out


def plain_gelu(value, activation):
    if activation == "gelu":
        return 0.5 * value * (1 + math.erf(value / math.sqrt(2)))
    return 0.5 * value * (1 + math.tanh(math.sqrt(2 / math.pi) * (value + 0.044715 * value ** 3)))


def plain_attention(q, k, v, heads, causal):
    """Multi-head attention with loops: returns (concat rows, weights[head][i][j])."""
    n, d = len(q), len(q[0])
    dh = d // heads
    out = [[0.0] * d for _ in range(n)]
    weights = []
    for h in range(heads):
        cols = range(h * dh, (h + 1) * dh)
        head = []
        for i in range(n):
            scores = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(dh) if not (causal and j > i) else None
                      for j in range(n)]
            top = max(s for s in scores if s is not None)
            exps = [math.exp(s - top) if s is not None else 0.0 for s in scores]
            total = sum(exps)
            row = [e / total for e in exps]
            head.append(row)
            for c in cols:
                out[i][c] = sum(row[j] * v[j][c] for j in range(n))
        weights.append(head)
    return out, weights


def add(a, b):
    return [[x + y for x, y in zip(ra, rb)] for ra, rb in zip(a, b)]


def plain_bert(t, config, ids, p="bert."):
    T = lambda name: t[p + name].astype(float).T.tolist()  # noqa: E731  nn.Linear stores (out, in)
    B = lambda name: t[p + name].astype(float).tolist()  # noqa: E731
    eps, heads = config["layer_norm_eps"], config["num_attention_heads"]
    word, pos, typ = (t[p + f"embeddings.{n}_embeddings.weight"].astype(float) for n in ("word", "position", "token_type"))
    x = [[float(word[i][c] + pos[s][c] + typ[0][c]) for c in range(word.shape[1])] for s, i in enumerate(ids)]
    h = plain_layer_norm(x, B("embeddings.LayerNorm.weight"), B("embeddings.LayerNorm.bias"), eps)
    hidden, all_weights = [h], []
    for layer in range(config["num_hidden_layers"]):
        at = f"encoder.layer.{layer}."
        q, k, v = (linear(h, T(at + f"attention.self.{n}.weight"), B(at + f"attention.self.{n}.bias"))
                   for n in ("query", "key", "value"))
        concat, weights = plain_attention(q, k, v, heads, causal=False)
        all_weights.append(weights)
        o = linear(concat, T(at + "attention.output.dense.weight"), B(at + "attention.output.dense.bias"))
        a = plain_layer_norm(add(h, o), B(at + "attention.output.LayerNorm.weight"), B(at + "attention.output.LayerNorm.bias"), eps)
        up = linear(a, T(at + "intermediate.dense.weight"), B(at + "intermediate.dense.bias"))
        up = [[plain_gelu(x, "gelu") for x in row] for row in up]
        down = linear(up, T(at + "output.dense.weight"), B(at + "output.dense.bias"))
        h = plain_layer_norm(add(a, down), B(at + "output.LayerNorm.weight"), B(at + "output.LayerNorm.bias"), eps)
        hidden.append(h)
    return hidden, all_weights


def plain_gpt2(t, config, ids, p="transformer."):
    W = lambda name: t[p + name].astype(float).tolist()  # noqa: E731  Conv1D stores (in, out)
    eps, heads, d = config["layer_norm_epsilon"], config["n_head"], config["n_embd"]
    wte, wpe = t[p + "wte.weight"].astype(float), t[p + "wpe.weight"].astype(float)
    h = [[float(wte[i][c] + wpe[s][c]) for c in range(d)] for s, i in enumerate(ids)]
    hidden, all_weights = [h], []
    for layer in range(config["n_layer"]):
        at = f"h.{layer}."
        x = plain_layer_norm(h, W(at + "ln_1.weight"), W(at + "ln_1.bias"), eps)
        qkv = linear(x, W(at + "attn.c_attn.weight"), W(at + "attn.c_attn.bias"))
        q, k, v = ([row[s * d:(s + 1) * d] for row in qkv] for s in range(3))
        concat, weights = plain_attention(q, k, v, heads, causal=True)
        all_weights.append(weights)
        a = add(h, linear(concat, W(at + "attn.c_proj.weight"), W(at + "attn.c_proj.bias")))
        up = linear(plain_layer_norm(a, W(at + "ln_2.weight"), W(at + "ln_2.bias"), eps), W(at + "mlp.c_fc.weight"),
                    W(at + "mlp.c_fc.bias"))
        up = [[plain_gelu(x, "gelu_new") for x in row] for row in up]
        h = add(a, linear(up, W(at + "mlp.c_proj.weight"), W(at + "mlp.c_proj.bias")))
        hidden.append(h)
    hidden[-1] = plain_layer_norm(h, W("ln_f.weight"), W("ln_f.bias"), eps)
    return hidden, all_weights


# ---- fixtures ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return {"bert": write_bert(root / "bert"), "bert-bare": write_bert(root / "bert-bare", prefix=""),
            "gpt2": write_gpt2(root / "gpt2"), "gpt2-bare": write_gpt2(root / "gpt2-bare", prefix="")}


@pytest.mark.parametrize("name", ["bert", "bert-bare", "gpt2", "gpt2-bare"])
def test_forward_equals_a_plain_implementation_layer_by_layer(checkpoints, name):
    checkpoint = load_checkpoint(checkpoints[name])
    encoded, shown = run_checkpoint(checkpoint, SENTENCE)  # float32, as a checkpoint is shown
    run = forward(checkpoint.config, checkpoint.weights, encoded.ids)  # float64
    config = json.loads((checkpoints[name] / "config.json").read_text())
    tensors = load_file(str(checkpoints[name] / "model.safetensors"))
    prefix = {"bert": "bert.", "bert-bare": "", "gpt2": "transformer.", "gpt2-bare": ""}[name]
    plain = plain_bert if name.startswith("bert") else plain_gpt2
    hidden, weights = plain(tensors, config, encoded.ids, prefix)
    assert run.hidden.shape == (config.get("num_hidden_layers", config.get("n_layer")) + 1, len(encoded.ids),
                                config.get("hidden_size", config.get("n_embd")))
    for layer, expected in enumerate(hidden):  # embeddings, then every layer (LayerNorm and GELU inside)
        np.testing.assert_allclose(run.hidden[layer], expected, rtol=0, atol=1e-9, err_msg=f"hidden state {layer}")
    for layer, expected in enumerate(weights):
        np.testing.assert_allclose(run.attention(layer).weights, expected, atol=1e-6, err_msg=f"layer {layer}")
        np.testing.assert_allclose(shown.attention(layer).weights, expected, atol=1e-5, err_msg=f"layer {layer}")


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_a_run_started_at_a_layer_from_its_input_is_the_whole_run_from_there(checkpoints, name):
    """forward(start=(l, hidden[l])): the layers from l on, as the whole run computed them (post-norm
    BERT takes the previous layer's output, pre-norm GPT-2 the residual; the last keeps LN_f); with
    a head dropped at l, the same as the whole run with it dropped. A layer outside is refused."""
    checkpoint = load_checkpoint(checkpoints[name])
    run = forward(checkpoint.config, checkpoint.weights, encode(checkpoint.tokenizer, SENTENCE).ids)
    layers = checkpoint.config.layers
    for layer in range(layers):
        started = forward(checkpoint.config, checkpoint.weights, run.ids, start=(layer, run.hidden[layer]))
        np.testing.assert_allclose(started.hidden, run.hidden[layer:], rtol=0, atol=1e-12)
        assert len(started.layers) == layers - layer
        np.testing.assert_allclose(started.layers[0].q, run.layers[layer].q, rtol=0, atol=1e-12)
        dropped = forward(checkpoint.config, checkpoint.weights, run.ids, drop=(layer, 1), start=(layer, run.hidden[layer]))
        whole = forward(checkpoint.config, checkpoint.weights, run.ids, drop=(layer, 1))
        np.testing.assert_allclose(dropped.hidden[-1], whole.hidden[-1], rtol=0, atol=1e-12)
        assert not np.allclose(dropped.hidden[-1], run.hidden[-1])
    with pytest.raises(ModelError, match=f"from 0 to {layers - 1}, not {layers}"):
        forward(checkpoint.config, checkpoint.weights, run.ids, start=(layers, run.hidden[-1]))


def test_gpt2_masks_the_future_and_bert_does_not(checkpoints):
    _, gpt = run_checkpoint(load_checkpoint(checkpoints["gpt2"]), SENTENCE)
    _, bert = run_checkpoint(load_checkpoint(checkpoints["bert"]), SENTENCE)
    future = np.triu(np.ones((gpt.n, gpt.n), dtype=bool), k=1)
    assert np.all(gpt.attention(0).weights[0][future] == 0)
    future = np.triu(np.ones((bert.n, bert.n), dtype=bool), k=1)
    assert np.all(bert.attention(0).weights[0][future] > 0)


def test_each_head_is_the_layer_attention_s_slice(checkpoints):
    _, run = run_checkpoint(load_checkpoint(checkpoints["bert"]), SENTENCE)
    q, k, v = run.head_qkv(1, 1)
    layer = run.attention(1)
    from attention_core import attention
    alone = attention(q, k, v)
    np.testing.assert_array_equal(alone.weights[0], layer.weights[1])
    np.testing.assert_array_equal(alone.scores[0], layer.scores[1])


def test_erf_and_gelu_match_the_math_module():
    xs = np.linspace(-7, 7, 2001)
    exact = np.array([math.erf(x) for x in xs])
    np.testing.assert_array_equal(erf(xs), exact)  # float64: the math module's own
    xs32 = xs.astype(np.float32)  # float32: A&S 7.1.26 (1.5e-7) and float32 arithmetic (3.6e-7 in all)
    assert erf(xs32).dtype == np.float32
    assert np.max(np.abs(erf(xs32) - [math.erf(float(x)) for x in xs32])) < 4e-7
    np.testing.assert_allclose(gelu(xs, "gelu_new"), [plain_gelu(x, "gelu_new") for x in xs], atol=1e-12)
    np.testing.assert_allclose(gelu(xs), [plain_gelu(x, "gelu") for x in xs], rtol=0, atol=1e-15)
    row = np.array([[1.0, 2.0, 4.0]])
    np.testing.assert_allclose(layer_norm(row, np.ones(3), np.zeros(3), 0.0), plain_layer_norm(row.tolist(), [1] * 3, [0] * 3, 0))


def test_tokens_know_their_word_and_special_tokens(checkpoints):
    encoded = encode(load_checkpoint(checkpoints["bert"]).tokenizer, SENTENCE)
    assert encoded.pieces[0] == "[CLS]" and encoded.pieces[-1] == "[SEP]"
    assert encoded.special[0] and encoded.special[-1] and not any(encoded.special[1:-1])
    assert encoded.word_texts == tuple(SENTENCE.split())
    for piece, word in zip(encoded.pieces[1:-1], encoded.words[1:-1]):  # each piece lies in its 어절
        assert piece.removeprefix("##") in SENTENCE.split()[word]
    gpt = encode(load_checkpoint(checkpoints["gpt2"]).tokenizer, SENTENCE)
    assert sorted(set(gpt.words)) == list(range(5)) and not any(gpt.special)


# ---- bad inputs ----------------------------------------------------------------------------
def broken(tmp_path, source, change):
    """A copy of checkpoint `source` with `change(directory)` applied."""
    target = tmp_path / "broken"
    target.mkdir()
    for name in ("config.json", "model.safetensors", "tokenizer.json"):
        (target / name).write_bytes((source / name).read_bytes())
    change(target)
    return target


def edit_tensors(edit):
    def change(directory):
        tensors = load_file(str(directory / "model.safetensors"))
        edit(tensors)
        save_file(tensors, str(directory / "model.safetensors"))
    return change


@pytest.mark.parametrize("change, message", [
    (lambda d: (d / "config.json").unlink(), r"config\.json: the file is missing"),
    (lambda d: (d / "tokenizer.json").unlink(), r"tokenizer\.json: the file is missing"),
    (lambda d: ((d / "model.safetensors").unlink(), (d / "pytorch_model.bin").write_bytes(b"x")),
     r"model\.safetensors: the file is missing \(save with safe_serialization=True"),
    (lambda d: (d / "config.json").write_text("{not json"), r"config\.json: not readable JSON"),
    (edit_config(model_type="t5"), r"config\.json: model_type 't5' is not supported; this tool runs bert, gpt2, llama, qwen2, mistral"),
    (edit_config(num_attention_heads=3), r"config\.json: 3 heads do not divide the width 8"),
    (edit_config(hidden_size=None), r"config\.json: hidden_size must be a positive whole number"),
    (lambda d: (d / "model.safetensors").write_bytes(b"garbage"), r"model\.safetensors: not a readable safetensors"),
    (lambda d: (d / "tokenizer.json").write_text("{}"), r"tokenizer\.json: not a readable tokenizer"),
    (edit_tensors(lambda t: t.pop("bert.encoder.layer.1.attention.self.key.weight")),
     r"model\.safetensors: the tensor bert\.encoder\.layer\.1\.attention\.self\.key\.weight is missing"),
    (edit_tensors(lambda t: t.update({"bert.encoder.layer.0.output.dense.weight": np.zeros((8, 8), np.float32)})),
     r"the tensor bert\.encoder\.layer\.0\.output\.dense\.weight has shape \(8, 8\), the config asks for \(8, 16\)"),
    (edit_tensors(lambda t: [t.pop(key) for key in list(t) if key.startswith("bert.embeddings.word")]),
     r"the tensor bert\.embeddings\.word_embeddings\.weight or embeddings\.word_embeddings\.weight is missing"),
])
def test_a_bad_checkpoint_gets_a_message_naming_the_file_and_tensor(checkpoints, tmp_path, change, message):
    directory = broken(tmp_path, checkpoints["bert"], change)
    with pytest.raises(ModelError, match=message):
        run_checkpoint(load_checkpoint(directory), SENTENCE)


@pytest.mark.parametrize("field, value, limit", [("num_hidden_layers", 1_000_000, "512"), ("num_attention_heads", 10 ** 9, "1,024"),
                                                 ("hidden_size", 2 ** 20, "65,536"), ("vocab_size", 10 ** 12, "2,097,152"),
                                                 ("max_position_embeddings", 2 ** 40, "16,777,216")])
def test_a_config_asking_for_more_than_the_tool_runs_is_refused_from_the_config_alone(checkpoints, tmp_path, field, value,
                                                                                       limit):
    # the weights file is garbage: the refusal must come before any tensor is read or any name listed
    directory = broken(tmp_path, checkpoints["bert"],
                       lambda d: (edit_config(**{field: value})(d), (d / "model.safetensors").write_bytes(b"garbage")))
    with pytest.raises(ModelError, match=rf"config\.json: {field} = {value:,} is more than this tool runs \(at most {limit}\)"):
        load_checkpoint(directory)


def test_missing_directory_empty_and_too_long_sentences_are_named(checkpoints, tmp_path):
    with pytest.raises(ModelError, match="no such directory"):
        load_checkpoint(tmp_path / "nowhere")
    checkpoint = load_checkpoint(checkpoints["bert"])
    with pytest.raises(ModelError, match="the sentence is empty"):
        run_checkpoint(checkpoint, "   ")
    with pytest.raises(ModelError, match=r"the sentence is \d+ tokens; bert takes at most 64"):
        run_checkpoint(checkpoint, " ".join([SENTENCE] * 10))
    with pytest.raises(ModelError, match="outside the vocabulary"):
        forward(checkpoint.config, checkpoint.weights, [0, 10 ** 6])


def test_a_tokenizer_that_pads_or_truncates_still_gives_the_whole_sentence(checkpoints, tmp_path):
    """A tokenizer.json saved with padding or truncation on: no [PAD] goes through the model (there
    is no attention mask) and no word is cut off."""
    def pad_and_cut(directory):
        from tokenizers import Tokenizer
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
        tokenizer.enable_padding(length=40, pad_token="[PAD]", pad_id=tokenizer.token_to_id("[PAD]"))
        tokenizer.enable_truncation(max_length=6)
        tokenizer.save(str(directory / "tokenizer.json"))
    plain = encode(load_checkpoint(checkpoints["bert"]).tokenizer, SENTENCE)
    padded = encode(load_checkpoint(broken(tmp_path, checkpoints["bert"], pad_and_cut)).tokenizer, SENTENCE)
    assert padded.pieces == plain.pieces and "[PAD]" not in padded.pieces


# ---- names mapped at load, one forward pass for one sentence and for a batch --------------------
@pytest.mark.parametrize("name", ["bert", "bert-bare", "gpt2", "gpt2-bare"])
def test_names_are_mapped_at_load_and_map_back_to_the_same_tensors(checkpoints, name):
    """The forward pass reads the core's names only; the table that maps them at load maps them back
    (what training saves), tensor for tensor, for every tensor the forward pass uses."""
    checkpoint = load_checkpoint(checkpoints[name])
    d = checkpoint.config.d_model
    assert checkpoint.weights["layers.1.w_q"].shape == (d, d) and checkpoint.weights["embed.token"].shape[1] == d
    assert all(key.split(".")[0] in ("embed", "layers", "final_norm", "mlm") for key in checkpoint.weights)
    tensors = load_file(str(checkpoints[name] / "model.safetensors"))
    back = checkpoint_tensors(checkpoint.config, checkpoint.weights)  # saved with the prefix of a model with a head
    bare = {key.removeprefix("bert.").removeprefix("transformer."): key for key in tensors}
    assert {key.removeprefix("bert.").removeprefix("transformer.") for key in back} == set(bare)
    for key, value in back.items():
        np.testing.assert_array_equal(value, tensors[bare[key.removeprefix("bert.").removeprefix("transformer.")]],
                                      err_msg=key)


def test_a_weight_with_no_checkpoint_name_is_refused_when_saving(checkpoints):
    checkpoint = load_checkpoint(checkpoints["bert"])
    with pytest.raises(ValueError, match=r"no checkpoint name for \['layers\.9\.w_q'\]"):
        checkpoint_tensors(checkpoint.config, {**checkpoint.weights, "layers.9.w_q": np.zeros((8, 8))})


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_a_batch_of_sentences_runs_as_each_sentence_alone(checkpoints, name):
    """Training runs the forward pass on a batch (B, n), the app on one sentence (n,): one function,
    the same numbers, and the trace keeps what the backward pass reads."""
    checkpoint = load_checkpoint(checkpoints[name])
    rng = np.random.default_rng(5)
    ids = rng.integers(0, checkpoint.config.vocab_size, (3, 6))
    batch = forward(checkpoint.config, checkpoint.weights, ids, trace=True)
    assert batch.hidden.shape == (checkpoint.config.layers + 1, 3, 6, checkpoint.config.d_model)
    assert batch.trace.layers[1]["weights"].shape == (3, checkpoint.config.heads, 6, 6)
    for row in range(3):
        alone = forward(checkpoint.config, checkpoint.weights, ids[row])
        assert alone.trace is None
        np.testing.assert_allclose(batch.hidden[:, row], alone.hidden, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batch.layers[1].q[row], alone.layers[1].q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batch.trace.layers[1]["weights"][row], alone.attention(1).weights, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["bert", "gpt2"])
def test_the_ablation_figure_compares_the_output_after_the_final_normalisation(checkpoints, name):
    # what the lenses card says ("마지막 정규화 뒤의 출력"): the vectors compared are the last
    # normalisation's output, x̂ γ + β with x̂ of mean 0 and variance 1 in every row; before it the
    # figure can differ by tens of points (issue 40)
    from attention_core.lenses import ablation_change, removed_run
    checkpoint = load_checkpoint(checkpoints[name])
    run = forward(checkpoint.config, checkpoint.weights, run_checkpoint(checkpoint, SENTENCE)[0].ids)
    last = "final_norm" if name == "gpt2" else f"layers.{checkpoint.config.layers - 1}.norm_ff"
    gamma, beta = (np.asarray(checkpoint.weights[f"{last}.{part}"], dtype=np.float64) for part in ("gamma", "beta"))
    for hidden in (run.hidden[-1], removed_run(run, 0, 1).hidden[-1]):
        normalised = (hidden - beta) / gamma
        np.testing.assert_allclose(normalised.mean(axis=-1), 0, atol=1e-9)
        np.testing.assert_allclose(normalised.var(axis=-1), 1, atol=1e-4)  # ε in the variance
    removed = removed_run(run, 0, 1).hidden[-1]
    np.testing.assert_allclose(ablation_change(run, 0, 1),
                               np.linalg.norm(removed - run.hidden[-1], axis=-1) / np.linalg.norm(run.hidden[-1], axis=-1))
