"""Train the small Korean BERT (attention_core.tiny_bert) on the grammar's sentences
(attention_core.grammar), save checkpoints along the way in the format attention_core.checkpoint
loads, and measure what it learned.

Masked words, not the next word: the predicate is always masked (or, as BERT does, now and then
replaced or left), with 15 % of the other words, so the model must find the predicate from the
object (its verb), the time word (its tense) and the subject (its honorific). With the predicate
as the query, attention to those three words is what a student can watch appear. A decoder
predicting the next word would have to choose the predicate from the object's position instead,
where no query is "the predicate".

    python -m attention_core.training OUT_DIR      # what `make train` runs
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from . import grammar
from .checkpoint import checkpoint_tensors
from .tiny_bert import Size, init_params, loss_and_grads

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
#: the training run: seed, steps, batch, Adam's learning rate, and the steps saved
SEED = 0
STEPS = 2000
BATCH = 64
LEARNING_RATE = 3e-3
SAVED = (0, 50, 200, 1000, STEPS)
MASK_OTHERS = 0.15
#: how a checkpoint folder of step s is named
FOLDER = "step-{:04d}"


def tokens() -> tuple[str, ...]:
    """The model's vocabulary: the special tokens, then the grammar's words."""
    return SPECIALS + grammar.vocabulary()


def make_tokenizer():
    """A word-level tokenizer.json: one token per word, [UNK] for any other, [CLS] … [SEP] around."""
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {token: i for i, token in enumerate(tokens())}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
    return tokenizer


def encode(sentences) -> np.ndarray:
    """(B, 7): [CLS], the five words, [SEP], as token ids."""
    index = {token: i for i, token in enumerate(tokens())}
    return np.array([[index["[CLS]"], *(index[w] for w in s.words), index["[SEP]"]] for s in sentences])


def masked(ids: np.ndarray, rng: np.random.Generator):
    """BERT's masking: the predicate (position 5) always chosen, each other word with 15 %; a
    chosen word becomes [MASK] 80 % of the time, a random word 10 %, itself 10 %.
    Returns (inputs, targets, where), where[i, t] marking the chosen positions."""
    first = len(SPECIALS)
    where = np.zeros(ids.shape, dtype=bool)
    where[:, 1:6] = rng.random((ids.shape[0], 5)) < MASK_OTHERS
    where[:, 5] = True
    roll = rng.random(ids.shape)
    inputs = ids.copy()
    inputs[where & (roll < 0.8)] = SPECIALS.index("[MASK]")
    swap = where & (roll >= 0.8) & (roll < 0.9)
    inputs[swap] = rng.integers(first, len(tokens()), size=int(swap.sum()))
    return inputs, ids, where


def size() -> Size:
    return Size(vocab=len(tokens()), positions=8)


def save(folder: Path, params: dict, model_size: Size) -> None:
    """A checkpoint folder as save_pretrained writes it: config.json, model.safetensors (float32,
    under Hugging Face's names), tokenizer.json."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(model_size.config(), indent=1), encoding="utf-8")
    tensors = checkpoint_tensors(model_size.model(), params)
    save_file({name: np.ascontiguousarray(value, dtype=np.float32) for name, value in tensors.items()},
              str(folder / "model.safetensors"), metadata={"format": "pt"})
    make_tokenizer().save(str(folder / "tokenizer.json"))


def train(out: Path | None = None, steps: int = STEPS, seed: int = SEED, saved=SAVED, log=print) -> list[float]:
    """Adam on masked words from grammar.corpus(); saves the steps in `saved` under out/step-NNNN
    (when out is given) and returns the loss of every step."""
    model_size = size()
    params = init_params(model_size, seed=seed)
    moments = {name: (np.zeros_like(v), np.zeros_like(v)) for name, v in params.items()}
    ids = encode(grammar.corpus(seed=seed))
    rng = np.random.default_rng(seed + 1)
    losses = []
    beta1, beta2 = 0.9, 0.999
    for step in range(steps + 1):
        if out is not None and step in saved:
            save(out / FOLDER.format(step), params, model_size)
        if step == steps:
            break
        batch = ids[rng.integers(0, len(ids), BATCH)]
        loss, grads = loss_and_grads(params, model_size, *masked(batch, rng))
        losses.append(loss)
        rate = LEARNING_RATE * min(1.0, (step + 1) / 100)  # a short warm-up
        for name, grad in grads.items():
            m, v = moments[name]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            params[name] -= rate * (m / (1 - beta1 ** (step + 1))) / (np.sqrt(v / (1 - beta2 ** (step + 1))) + 1e-8)
        if log and (step % 250 == 0 or step == steps - 1):
            log(f"step {step:5d}  loss {np.mean(losses[-50:]):.4f}")
    return losses


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else Path(__file__).parent / "data" / "tiny-korean"
    start = time.perf_counter()
    train(out)
    print(f"trained {STEPS} steps in {time.perf_counter() - start:.0f} s; checkpoints in {out}")
    from .trained import measure_all
    metrics = measure_all(out)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(metrics["accuracy"], ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
