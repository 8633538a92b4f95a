"""The next token and the logit lens (attention_core.prediction) against transformers' own,
recorded for the tests' tiny GPT-2, Llama and Qwen2 checkpoints by scripts/record_next_token.py
(tests/golden/next_token.json): probabilities within 1e-4, the same tokens in the same order; a
head removed changes the prediction as running the model without it does; refusals name what."""
import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.prediction import (MAX_TOP_K, PredictionError, logit_lens, logits_at, next_tokens, probabilities,
                                       softmax_top, without_head)
from attention_core.transformer import forward
from tiny_models import NEXT_TOKEN_CHECKPOINTS

ROOT = Path(__file__).resolve().parents[2]
RECORDED = json.loads((ROOT / "tests" / "golden" / "next_token.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    made = {}
    for name, write in NEXT_TOKEN_CHECKPOINTS.items():  # the same writers and sizes the recording used
        checkpoint = load_checkpoint(write(tmp_path_factory.mktemp(name) / name))
        made[name] = run_checkpoint(checkpoint, RECORDED["sentence"])
    return made


def _same_top(ids, chances, expected_ids, expected, where):
    """The same probabilities within 1e-4, and the same tokens wherever no two are that close."""
    assert np.allclose(chances, expected, atol=1e-4, rtol=0), where
    for i, (got, want) in enumerate(zip(ids, expected_ids)):
        tied = any(abs(expected[i] - expected[j]) < 1e-4 for j in range(len(expected)) if j != i)
        assert got == want or tied, (where, i)


@pytest.mark.parametrize("name", list(RECORDED["checkpoints"]))
def test_the_next_token_and_the_lens_are_transformers_own(runs, name):
    recorded = RECORDED["checkpoints"][name]
    encoded, run = runs[name]
    assert list(encoded.ids) == recorded["ids"]
    made = next_tokens(run, top_k=len(recorded["next"]["ids"]))
    _same_top(made.ids.tolist(), made.probabilities, recorded["next"]["ids"], recorded["next"]["probabilities"], "next")
    ids, chances = logit_lens(run, top_k=len(recorded["lens"][0]["ids"][0]))
    assert ids.shape == (len(recorded["lens"]), run.n, len(recorded["lens"][0]["ids"][0]))
    for layer, expected in enumerate(recorded["lens"]):
        for position in range(run.n):
            _same_top(ids[layer, position].tolist(), chances[layer, position], expected["ids"][position],
                      expected["probabilities"][position], (layer, position))
    # the lens's last layer is the model's own prediction
    assert ids[-1, -1].tolist() == made.ids[:ids.shape[-1]].tolist()


def test_temperature_sharpens_or_flattens_and_top_k_cuts(runs):
    _, run = runs["qwen2"]
    cool, plain, warm = (next_tokens(run, top_k=5, temperature=t) for t in (0.5, 1.0, 2.0))
    assert cool.probabilities[0] > plain.probabilities[0] > warm.probabilities[0]
    assert cool.ids[0] == plain.ids[0] == warm.ids[0]
    assert next_tokens(run, top_k=1).ids.tolist() == [plain.ids[0]]
    ids, p = softmax_top(np.array([1.0, 3.0, 3.0, 0.0]), 3)
    assert ids.tolist() == [1, 2, 0] and np.isclose(p.sum() + np.exp(0) / np.exp([1, 3, 3, 0]).sum(), 1)


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_removing_a_head_moves_the_next_token_as_the_model_without_it_says(runs, name):
    _, run = runs[name]
    said = without_head(run, 1, 0, top_k=3)
    alone = forward(run.config, run.weights, run.ids, drop=(1, 0), dtype=np.float32)
    removed = next_tokens(alone, top_k=3)
    assert said["ids_after"] == removed.ids.tolist()
    assert np.allclose(said["probabilities_after"], removed.probabilities, atol=1e-6)
    assert said["top"] == next_tokens(run, top_k=1).ids[0] and said["changed"] == (said["top_after"] != said["top"])
    assert np.isclose(said["after"], probabilities(logits_at(alone, run.n - 1))[said["top"]], atol=1e-6)


def test_a_bert_predicts_no_next_token_and_requests_out_of_range_are_refused(runs, tmp_path):
    from tiny_models import write_bert

    _, bert = run_checkpoint(load_checkpoint(write_bert(tmp_path / "bert")), RECORDED["sentence"])
    with pytest.raises(PredictionError, match="does not predict the next token") as refused:
        next_tokens(bert)
    assert refused.value.code == "no_next_token"
    _, run = runs["gpt2"]
    for top_k in (0, MAX_TOP_K + 1, 10 ** 9, 2.5, True):
        with pytest.raises(PredictionError, match="top-k"):
            next_tokens(run, top_k=top_k)
    for temperature in (0, -1, 100, float("nan")):
        with pytest.raises(PredictionError, match="temperature"):
            next_tokens(run, temperature=temperature)
    with pytest.raises(PredictionError, match="no head"):
        without_head(run, 9, 0)


def test_the_masked_word_is_what_the_training_measure_scores_and_the_trained_model_finds_the_predicate():
    """masked_word on the model trained here: its last layer is softmax of attention_core.trained's
    predicate_logits (the path the training's accuracy was measured on), its lens ends there, and
    at the last step its first guess is the hidden predicate as often as metrics.json says."""
    from attention_core import grammar
    from attention_core.prediction import masked_word
    from attention_core.trained import predicate_logits

    trained = Path(__file__).resolve().parents[2] / "attention_core" / "data" / "tiny-korean"
    metrics = json.loads((trained / "metrics.json").read_text())
    step = metrics["steps"][-1]
    checkpoint = load_checkpoint(trained / f"step-{step:04d}")
    mask = checkpoint.tokenizer.token_to_id("[MASK]")
    _, held_out = grammar.split()
    right = 0
    for sentence in held_out:
        _, run = run_checkpoint(checkpoint, sentence.text)
        position = 1 + sentence.positions["predicate"]
        made = masked_word(run, position, mask, 5)
        right += int(made.ids[0]) == checkpoint.tokenizer.token_to_id(sentence.words[-1])
    for sentence in held_out[:20]:
        _, run = run_checkpoint(checkpoint, sentence.text)
        made = masked_word(run, 1 + sentence.positions["predicate"], mask, 5)
        expected = probabilities(predicate_logits(checkpoint, sentence))
        np.testing.assert_allclose(made.probabilities, np.sort(expected)[::-1][:5], atol=1e-9)
        assert made.lens_ids.shape == (checkpoint.config.layers + 1, 5) and (made.lens_ids[-1] == made.ids).all()
        assert made.hidden_id == checkpoint.tokenizer.token_to_id(sentence.words[-1])
    assert right / len(held_out) == pytest.approx(metrics["by_step"][str(step)]["accuracy"]["word"], abs=1e-12)
    # a causal model fills no masked word, nor a BERT without the head it was trained with
    for other in (dataclasses.replace(run, config=dataclasses.replace(run.config, architecture="gpt2")),
                  dataclasses.replace(run, weights={k: v for k, v in run.weights.items() if k != "mlm.bias"})):
        with pytest.raises(PredictionError) as refused:
            masked_word(other, 1, mask)
        assert refused.value.code == "no_masked_word"
