"""The small Korean model: its grammar, the hand-written backward pass (a gradient check), a few
training steps, and the committed checkpoints: they load through the app's own loader, give the
accuracy metrics.json (and the README) states, and the heads table holds on held-out sentences."""
from __future__ import annotations

import json

import numpy as np
import pytest

from attention_core import grammar, training
from attention_core.tiny_bert import Size, init_params, loss_and_grads
from attention_core.checkpoint import load_checkpoint
from attention_core.trained import MEASURED, measure, step_folders

from support import ROOT

TRAINED = ROOT / "attention_core" / "data" / "tiny-korean"


def test_the_grammar_ties_each_predicate_to_its_object_time_and_subject():
    sentences = grammar.all_sentences()
    assert len(sentences) == len({s.text for s in sentences}) == 5760
    for s in sentences[::37]:
        predicate = s.words[s.positions["predicate"]]
        assert predicate == grammar.PREDICATES[s.verb][s.honorific][s.tense]
        assert dict(grammar.OBJECTS)[s.words[s.positions["object"]]] == s.verb
        assert dict(grammar.TIMES)[s.words[s.positions["time"]]] == s.tense
        assert dict(grammar.SUBJECTS)[s.words[s.positions["subject"]]] == s.honorific
    assert "할머니께서 어제 집에서 밥을 드셨다" in {s.text for s in sentences}
    train, held_out = grammar.split()
    assert not {s.text for s in train} & {s.text for s in held_out} and len(held_out) == 1152
    corpus = grammar.corpus(count=1000)
    assert corpus == grammar.corpus(count=1000) and {s.text for s in corpus} <= {s.text for s in train}


def test_the_backward_pass_is_the_gradient_of_the_forward_pass():
    """Central differences on every parameter of a small model, in float64, through the forward
    pass every loaded BERT runs (transformer.forward)."""
    size = Size(vocab=11, positions=6, d=8, heads=2, layers=2, ff=12, eps=1e-5)
    params = init_params(size, seed=1, std=0.5)
    rng = np.random.default_rng(2)
    ids, targets = rng.integers(0, 11, (3, 5)), rng.integers(0, 11, (3, 5))
    where = rng.random((3, 5)) < 0.5
    where[0, 0] = True
    _, grads = loss_and_grads(params, size, ids, targets, where)
    for name, value in params.items():
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            old = value[index]
            value[index] = old + 1e-6
            up, _ = loss_and_grads(params, size, ids, targets, where)
            value[index] = old - 1e-6
            down, _ = loss_and_grads(params, size, ids, targets, where)
            value[index] = old
            numeric[index] = (up - down) / 2e-6
        # relative to the gradient's size (a key bias's gradient is 0: softmax ignores a shift)
        assert np.max(np.abs(numeric - grads[name])) <= 1e-5 * max(np.max(np.abs(numeric)), 1e-3), name


def test_training_lowers_the_loss_and_does_so_reproducibly():
    first = training.train(None, steps=120, log=None)
    again = training.train(None, steps=120, log=None)
    assert first == again
    assert np.mean(first[-10:]) < 0.5 * np.mean(first[:10])


@pytest.fixture(scope="module")
def metrics():
    return json.loads((TRAINED / "metrics.json").read_text(encoding="utf-8"))


def test_the_committed_checkpoints_are_the_steps_saved_and_small():
    assert [step for step, _ in step_folders(TRAINED)] == list(training.SAVED)
    assert sum(p.stat().st_size for p in TRAINED.rglob("*") if p.is_file()) < 500_000


def sample(count: int = 300):
    """A fixed random sample of the held-out sentences (every k-th would fix some words)."""
    _, held_out = grammar.split()
    return [held_out[i] for i in np.random.default_rng(11).choice(len(held_out), count, replace=False)]


def test_the_committed_model_gives_the_accuracy_metrics_and_the_readme_state(metrics):
    final = step_folders(TRAINED)[-1][1]
    measured = measure(final, sample())  # a sample: the full count is metrics.json's
    for name, value in metrics["accuracy"].items():
        assert abs(measured["accuracy"][name] - value) <= 0.02, name
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for step in training.SAVED:  # the README's table is metrics.json's, row by row
        found = metrics["by_step"][str(step)]
        accuracy = " | ".join(f"{found['accuracy'][name]:.1%}" for name in ("word", "verb", "tense", "honorific"))
        heads = found["heads"]
        shares = f"{heads['object'][1][1]:.2f} | {heads['time'][1][2]:.2f} | {heads['subject'][1][0]:.2f}"
        assert f"| {step} | {accuracy} | {shares} |" in readme, step
    best_object_200 = max((heads, l, h) for l, row in enumerate(metrics["by_step"]["200"]["heads"]["object"])
                          for h, heads in enumerate(row))
    assert best_object_200[1:] == (0, 3) and f"L0 H3 ({best_object_200[0]:.2f})" in readme


def test_the_heads_table_holds_on_held_out_sentences(metrics):
    """The README's table of what each head learned is what a new measurement gives."""
    for step, folder in step_folders(TRAINED)[::2]:
        measured = measure(folder, sample())
        for role in MEASURED:
            np.testing.assert_allclose(measured["heads"][role], metrics["by_step"][str(step)]["heads"][role], atol=0.04)


def test_head_ablation_on_the_held_out_sentences_is_what_metrics_json_states(metrics):
    """The loss of the masked predicate with each head removed, measured again here on every
    held-out sentence at the last step (and at step 200 on a sample, one sentence at a time:
    the batched loss is each sentence's −log p), is metrics.json's, which the page quotes."""
    from attention_core.trained import head_ablation, predicate_logits, predicate_losses

    step, folder = step_folders(TRAINED)[-1]
    _, held_out = grammar.split()
    assert head_ablation(load_checkpoint(folder), held_out) == metrics["by_step"][str(step)]["ablation"]
    early = load_checkpoint(dict(step_folders(TRAINED))[200])
    some = sample(12)
    vocab = early.tokenizer.get_vocab()
    one_by_one = []
    for sentence in some:
        scores = predicate_logits(early, sentence)
        one_by_one.append(np.log(np.exp(scores - scores.max()).sum()) + scores.max() - scores[vocab[sentence.words[-1]]])
    np.testing.assert_allclose(predicate_losses(early, some), one_by_one, rtol=1e-9)
    # the heads the task needs most at the end are in the second layer (the README says so)
    without = np.array(metrics["by_step"][str(step)]["ablation"]["without"])
    assert without[1].max() > 5 * without[0].max() and without.min() >= metrics["by_step"][str(step)]["ablation"]["loss"] - 0.005
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    loss = metrics["by_step"][str(step)]["ablation"]["loss"]
    assert (f"at step {step} the loss is {loss:.3f}\nnats; without L1 H2 it is {without[1, 2]:.3f}, without L1 H0 {without[1, 0]:.3f} "
            f"and without L1 H1 {without[1, 1]:.3f}, while the most any\nhead of layer 0 raises it to is {without[0].max():.3f}.") in readme
