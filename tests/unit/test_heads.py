"""Attention of every layer and head (attention_core.heads) and weights imported from elsewhere
(attention_core.imported): 어절 merging, special tokens, summaries, the overview, strongest keys,
and every bad import's message."""
from __future__ import annotations

import numpy as np
import pytest

from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.heads import digest, from_run, grouped_weights, group_labels, ranked, token_groups
from attention_core.imported import from_attentions, load_npz
from attention_core.transformer import ModelError
from tiny_models import write_bert

SENTENCE = "나는 어제 학교에서 친구를 만났다"


@pytest.fixture(scope="module")
def bert_set(tmp_path_factory):
    checkpoint = load_checkpoint(write_bert(tmp_path_factory.mktemp("m") / "bert"))
    return from_run("bert", *run_checkpoint(checkpoint, SENTENCE))


def test_merged_weights_sum_key_pieces_and_average_query_pieces(bert_set):
    groups = token_groups(bert_set, merge=True, special=False)
    assert group_labels(bert_set, groups, merge=True) == SENTENCE.split()
    w = bert_set.layer_weights(1)[0]
    merged = grouped_weights(w, groups)
    for a, qa in enumerate(groups):
        for b, kb in enumerate(groups):
            assert merged[a, b] == pytest.approx(sum(sum(w[i, j] for j in kb) for i in qa) / len(qa))
    # what the rows lack is the weight on [CLS] and [SEP], averaged the same way
    specials = [i for i, s in enumerate(bert_set.special) if s]
    for a, qa in enumerate(groups):
        assert 1 - merged[a].sum() == pytest.approx(np.mean([w[i, specials].sum() for i in qa]))


def test_sub_words_with_special_tokens_are_the_model_s_own_tokens(bert_set):
    groups = token_groups(bert_set, merge=False, special=True)
    assert groups == [[i] for i in range(bert_set.n)]
    assert group_labels(bert_set, groups, merge=False) == list(bert_set.pieces)
    shown = token_groups(bert_set, merge=True, special=True)
    assert group_labels(bert_set, shown, merge=True) == ["[CLS]", *SENTENCE.split(), "[SEP]"]


def test_summaries_are_averages_over_queries(bert_set):
    s = digest(bert_set)[2]
    w = bert_set.layer_weights(1)[1]
    n = bert_set.n
    assert s["first"][1, 1] == pytest.approx(np.mean(w[:, 0]))
    assert s["self"][1, 1] == pytest.approx(np.mean([w[i, i] for i in range(n)]))
    assert s["previous"][1, 1] == pytest.approx(np.mean([w[i, i - 1] for i in range(1, n)]))
    assert s["entropy"][1, 1] == pytest.approx(np.mean([-sum(x * np.log2(x) for x in row if x > 0) for row in w]))
    # a head that looks only at the previous token: entropy 0, previous share 1
    one_hot = np.eye(4, k=-1)
    one_hot[0, 0] = 1
    imported = from_attentions(list("abcd"), one_hot[None, None])
    s = digest(imported)[2]
    # a causal set (its weights hide the future): the first query, which sees only the first
    # token, is not counted in `first`: queries 2 to 4 give it 1, 0, 0
    assert imported.causal
    assert s["entropy"][0, 0] == 0 and s["previous"][0, 0] == 1 and s["first"][0, 0] == pytest.approx(1 / 3)


def test_overview_pools_by_the_merge_rule_and_quantizes(bert_set):
    pixels, blocks, _ = digest(bert_set, cells=4)
    assert pixels.dtype == np.uint8 and pixels.shape == (2, 2, 4, 4)
    assert sorted(i for b in blocks for i in b) == list(range(bert_set.n))
    exact = grouped_weights(bert_set.layer_weights(0), blocks)
    assert np.max(np.abs(pixels[0] / 255 - exact)) <= 0.5 / 255 + 1e-12
    full, _, _ = digest(bert_set, cells=64)  # short input: one cell per token
    assert full.shape[-1] == bert_set.n


def test_ranked_lists_keys_heaviest_first_and_the_weight_left(bert_set):
    w = bert_set.layer_weights(0)[0]
    rank, rest = ranked(w)
    for i in range(bert_set.n):
        order = [int(j) for j in rank[i]]
        assert sorted(order) == list(range(bert_set.n))
        assert all(w[i, order[r]] >= w[i, order[r + 1]] for r in range(bert_set.n - 1))
        for r in range(bert_set.n):
            assert rest[i, r] == pytest.approx(sum(w[i, order[t]] for t in range(r + 1, bert_set.n)), abs=1e-12)


def test_head_attention_recomputes_every_step_as_the_model(bert_set):
    made = bert_set.head_attention(1, 0)
    np.testing.assert_allclose(made.weights[0], bert_set.layer_weights(1)[0], atol=1e-15)
    what_if = bert_set.head_attention(1, 0, scale=False)
    np.testing.assert_array_equal(what_if.scores, made.scores)
    assert not np.allclose(what_if.weights, made.weights)


# ---- imported weights ----------------------------------------------------------------------
def softmax_rows(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


TOKENS = ["[CLS]", "나는", "어", "##제", "[SEP]"]


def test_the_three_forms_of_imported_weights_are_one_set():
    rng = np.random.default_rng(3)
    weights = softmax_rows(rng.normal(size=(2, 3, 5, 5)))
    stacked = from_attentions(TOKENS, weights)
    as_outputs = from_attentions(TOKENS, tuple(w[None] for w in weights))  # outputs.attentions: (1, heads, n, n) per layer
    circuits = from_attentions(TOKENS, weights[1])
    np.testing.assert_array_equal(stacked.layer_weights(1), as_outputs.layer_weights(1))
    np.testing.assert_array_equal(circuits.layer_weights(0), weights[1])
    assert (stacked.layers, stacked.heads, circuits.layers) == (2, 3, 1)
    assert stacked.special == (True, False, False, False, True) and stacked.word_texts == ("나는", "어제")
    assert not stacked.has_steps and stacked.head_attention(0, 0) is None


def test_imported_q_k_v_give_every_step(tmp_path):
    rng = np.random.default_rng(4)
    q, k, v = (rng.normal(size=(1, 2, 5, 4)) for _ in range(3))
    weights = softmax_rows(q @ k.transpose(0, 1, 3, 2) / 2)
    np.savez(tmp_path / "a.npz", tokens=np.array(TOKENS), attentions=weights, q=q, k=k, v=v)
    loaded = load_npz(tmp_path / "a.npz")
    assert loaded.has_steps
    np.testing.assert_allclose(loaded.head_attention(0, 1).weights[0], weights[0, 1], atol=1e-12)


@pytest.mark.parametrize("tokens, attentions, extra, message", [
    (TOKENS, np.full((1, 1, 4, 4), 0.25), {}, "4×4 per head but there are 5 tokens"),
    (TOKENS, np.full((1, 1, 5, 5), 0.3), {}, r"layer 0 head 0 query 0 \(\[CLS\]\): its weights sum to 1\.5000, not 1"),
    (TOKENS, np.full((5, 5), 0.2), {}, r"must be \(layers, heads, n, n\).*got shape \(5, 5\)"),
    (TOKENS, np.full((1, 1, 5, 5), -0.2), {}, "a weight is negative"),
    (TOKENS, np.full((1, 1, 5, 5), np.nan), {}, "NaN or infinity"),
    (TOKENS, np.full((1, 1, 5, 5), 0.2), {"q": np.zeros((1, 1, 5, 2))}, "give q, k and v together"),
    (TOKENS, np.full((1, 1, 5, 5), 0.2), {"q": np.zeros((1, 1, 5, 2)), "k": np.zeros((1, 2, 5, 2)),
                                         "v": np.zeros((1, 1, 5, 2))}, r"k must be \(layers, heads, n, d_head\)"),
    (TOKENS, np.full((1, 1, 5, 5), 0.2), {name: np.arange(10.0).reshape(1, 1, 5, 2) for name in "qkv"},
     "these q and k do not give these weights"),
])
def test_bad_imported_weights_say_what_is_wrong(tokens, attentions, extra, message):
    with pytest.raises(ModelError, match=message):
        from_attentions(tokens, attentions, **extra)


def test_bad_npz_files_are_named(tmp_path):
    with pytest.raises(ModelError, match="no such file"):
        load_npz(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"junk")
    with pytest.raises(ModelError, match="junk.npz: not an .npz file") as error:
        load_npz(tmp_path / "junk.npz")
    assert "allow_pickle" not in str(error.value)  # never NumPy's advice to load it unsafely
    np.savez(tmp_path / "objects.npz", tokens=np.array(TOKENS, dtype=object), attentions=np.full((1, 1, 5, 5), 0.2))
    with pytest.raises(ModelError, match="objects.npz: an array in it holds Python objects") as error:
        load_npz(tmp_path / "objects.npz")
    assert "allow_pickle" not in str(error.value)
    np.savez(tmp_path / "partial.npz", tokens=np.array(TOKENS))
    with pytest.raises(ModelError, match="partial.npz: has no array 'attentions' \\(it has: tokens\\)"):
        load_npz(tmp_path / "partial.npz")
    np.savez(tmp_path / "wrong.npz", tokens=np.array(TOKENS[:2]), attentions=np.full((1, 1, 5, 5), 0.2))
    with pytest.raises(ModelError, match="wrong.npz: attentions are 5×5 per head but there are 2 tokens"):
        load_npz(tmp_path / "wrong.npz")


def test_unknown_and_masked_words_are_words_not_special_tokens():
    tokens = ["[CLS]", "나는", "[UNK]", "[MASK]", "<unk>", "[SEP]"]
    imported = from_attentions(tokens, np.full((1, 1, 6, 6), 1 / 6))
    assert imported.special == (True, False, False, False, False, True)
    assert from_attentions(["<s>", "a", "</s>", "<|endoftext|>"], np.full((1, 1, 4, 4), 0.25)).special == (True, False, True, True)


def test_weights_with_no_layer_or_no_head_are_refused_by_name():
    with pytest.raises(ModelError, match="attentions has no head"):
        from_attentions(TOKENS, np.zeros((1, 0, 5, 5)))
    with pytest.raises(ModelError, match="attentions has no layer"):
        from_attentions(TOKENS, np.zeros((0, 2, 5, 5)))
