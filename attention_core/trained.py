"""What the small Korean model learned, measured on held-out sentences through the same loading
and forward pass the app uses (attention_core.checkpoint, attention_core.transformer).

accuracy: the predicate masked, is the word the model ranks first the right one; and is its verb,
its tense and its honorific right (드셨다 is right for 먹다 and 마시다 alike).
heads: with the sentence as a student types it, the mean weight from the predicate (the query)
to the object, the time word and the subject, per layer and head.
ablation: the masked predicate's mean loss (−log p of the right word, in nats), and the same with
each head removed in turn (its output zero before W_O: transformer.forward's drop): how much the
model's task needs the head, which its weights alone do not tell.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from . import grammar
from .checkpoint import load_checkpoint
from .tiny_bert import logits
from .transformer import forward

#: the roles whose weight from the predicate the heads table measures
MEASURED = ("object", "time", "subject")


def _forms() -> dict[str, list[tuple[str, bool, str]]]:
    """Each predicate form → the (verb, honorific, tense) it can stand for."""
    forms: dict[str, list] = {}
    for verb, by_honor in grammar.PREDICATES.items():
        for honorific, by_tense in by_honor.items():
            for tense, form in by_tense.items():
                forms.setdefault(form, []).append((verb, honorific, tense))
    return forms


def step_folders(root: Path) -> list[tuple[int, Path]]:
    """The saved checkpoints under root: (step, folder), in order of step."""
    found = [(int(p.name.split("-")[1]), p) for p in Path(root).glob("step-*") if (p / "config.json").is_file()]
    return sorted(found)


def predicate_logits(checkpoint, sentence: grammar.Sentence) -> np.ndarray:
    """(V,): the masked-word head's scores at the predicate, the predicate replaced by [MASK]."""
    words = list(sentence.words)
    words[sentence.positions["predicate"]] = "[MASK]"
    ids = checkpoint.tokenizer.encode(" ".join(words)).ids
    run = forward(checkpoint.config, checkpoint.weights, ids)
    return logits(checkpoint.weights, run.hidden[-1][1 + sentence.positions["predicate"]])


def predicate_losses(checkpoint, sentences, drop: tuple[int, int] | None = None) -> np.ndarray:
    """(S,): for each sentence, −log p(the right predicate) with the predicate replaced by [MASK],
    in nats; drop=(layer, head) runs the model with that head removed. Sentences of one length and
    predicate place run as one batch."""
    vocab = checkpoint.tokenizer.get_vocab()
    losses = np.zeros(len(sentences))
    batches: dict[tuple, list[int]] = {}
    for index, sentence in enumerate(sentences):
        batches.setdefault((len(sentence.words), sentence.positions["predicate"]), []).append(index)
    for (_, predicate), indices in batches.items():
        masked = [list(sentences[i].words) for i in indices]
        for words in masked:
            words[predicate] = "[MASK]"
        ids = np.array([checkpoint.tokenizer.encode(" ".join(words)).ids for words in masked])
        run = forward(checkpoint.config, checkpoint.weights, ids, drop=drop)
        scores = logits(checkpoint.weights, run.hidden[-1][:, 1 + predicate])  # (B, V), after [CLS]
        scores = scores - scores.max(axis=-1, keepdims=True)
        log_p = scores - np.log(np.exp(scores).sum(axis=-1, keepdims=True))
        right = [vocab[sentences[i].words[predicate]] for i in indices]
        losses[indices] = -log_p[np.arange(len(indices)), right]
    return losses


def head_ablation(checkpoint, sentences) -> dict:
    """{"loss": the masked predicate's mean loss on `sentences`, "without": (layers, heads) the same
    with each head removed in turn}, in nats, rounded to 1e-4."""
    config = checkpoint.config
    without = [[float(predicate_losses(checkpoint, sentences, drop=(layer, head)).mean().round(4)) for head in range(config.heads)]
               for layer in range(config.layers)]
    return {"loss": float(predicate_losses(checkpoint, sentences).mean().round(4)), "without": without}


def measure(folder: Path, sentences) -> dict:
    """The accuracy and the heads table of one checkpoint, over `sentences`."""
    checkpoint = load_checkpoint(folder)
    vocab = checkpoint.tokenizer.get_vocab()
    words = {i: w for w, i in vocab.items()}
    forms = _forms()
    right = {"word": 0, "verb": 0, "tense": 0, "honorific": 0}
    layers, heads = checkpoint.config.layers, checkpoint.config.heads
    shares = {role: np.zeros((layers, heads)) for role in MEASURED}
    for sentence in sentences:
        guess = words[int(np.argmax(predicate_logits(checkpoint, sentence)))]
        meant = forms.get(guess, [])
        right["word"] += guess == sentence.words[-1]
        right["verb"] += any(verb == sentence.verb for verb, _, _ in meant)
        right["tense"] += any(tense == sentence.tense for _, _, tense in meant)
        right["honorific"] += any(honor == sentence.honorific for _, honor, _ in meant)
        run = forward(checkpoint.config, checkpoint.weights, checkpoint.tokenizer.encode(sentence.text).ids)
        query = 1 + sentence.positions["predicate"]
        for layer in range(layers):
            weights = run.attention(layer).weights[:, query, :]  # (heads, n)
            for role in MEASURED:
                shares[role][layer] += weights[:, 1 + sentence.positions[role]]
    count = len(sentences)
    return {"accuracy": {name: value / count for name, value in right.items()},
            "heads": {role: (value / count).round(4).tolist() for role, value in shares.items()},
            "ablation": head_ablation(checkpoint, sentences)}


def measure_all(root: Path) -> dict:
    """Every saved step measured on the held-out sentences: {"steps", "held_out", "by_step":
    {step: measure()}, "accuracy": the last step's}."""
    _, held_out = grammar.split()
    by_step = {step: measure(folder, held_out) for step, folder in step_folders(root)}
    last = max(by_step)
    return {"held_out": len(held_out), "steps": sorted(by_step), "by_step": {str(s): m for s, m in by_step.items()},
            "accuracy": by_step[last]["accuracy"]}
