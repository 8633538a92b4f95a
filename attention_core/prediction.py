"""What a causal model says next, and where in its layers that guess formed.

The next token: the model's last hidden state at a position (after its final norm) times the
output head, W_U (V, d_model): the token embeddings where they are tied (GPT-2, Qwen2.5-0.5B), else
lm_head; logits z = h W_Uᵀ, probabilities softmax(z / T) at temperature T, the top k of them.

The logit lens (nostalgebraist, 2020): the same head read off every layer's hidden state, each
passed through the final norm first (the last one already is): layer 0 is the embeddings, layer L
the model's own output. A BERT-like model (bidirectional, a masked-word head) predicts no next
token: PredictionError says so.

A masked word (masked_word): the model trained here is BERT-like; it fills a [MASK] instead,
its head the token embeddings plus a bias (attention_core.tiny_bert.logits), read off the masked
position of every layer's output the same way (BERT's layers end in their own norm).

Shapes: hidden (L + 1, n, d_model) as ModelRun keeps it; logits (V,); a lens (L + 1, P, k) for P
positions. Probabilities are computed in float64 from the float32 pass's hidden states.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .tiny_bert import logits as mlm_logits
from .transformer import LLAMA_FAMILY, ModelError, ModelRun, forward, layer_norm, rms_norm

#: the largest top-k and the temperatures a reader may ask for
MAX_TOP_K = 100
MIN_TEMPERATURE, MAX_TEMPERATURE = 0.05, 10.0


class PredictionError(ModelError):
    """A prediction a model or a request cannot give (code and values for the page's words)."""


@dataclass(frozen=True)
class Prediction:
    """The top k next tokens at one position: ids (k,) and their probabilities (k,), most likely
    first (ties: the lower id first), at `temperature`."""

    position: int
    ids: np.ndarray
    probabilities: np.ndarray
    temperature: float


def token_text(tokenizer, token_id: int) -> tuple[str, bool]:
    """(what token `token_id` writes, whether it is only part of a character): a piece of a
    character's bytes writes nothing readable, so it is named by the vocabulary's own name for it,
    in ⟨⟩ (never blank)."""
    said = tokenizer.decode([int(token_id)])
    if said and "\ufffd" not in said:
        return said, False
    return f"⟨{tokenizer.id_to_token(int(token_id))}⟩", True


def predicts_next(run: ModelRun) -> bool:
    """Whether the model is causal, with an output head: GPT-2 and the Llama family."""
    return run.config.causal


def output_head(run: ModelRun) -> np.ndarray:
    """W_U (V, d_model): the token embeddings where they are tied, else the checkpoint's lm_head.
    PredictionError for a BERT-like model, or an untied one whose folder has no lm_head."""
    if not predicts_next(run):
        raise PredictionError(f"{run.config.architecture} reads the whole sentence both ways and fills in masked words: "
                              "it does not predict the next token", "no_next_token", architecture=run.config.architecture)
    if run.config.tied:
        return run.weights["embed.token"]
    if "unembed" not in run.weights:
        raise PredictionError("the folder has no lm_head.weight (and its embeddings are not tied): "
                              "the model's next token cannot be computed", "no_output_head")
    return run.weights["unembed"]


def final_normed(run: ModelRun, layer: int) -> np.ndarray:
    """(n, d_model): hidden[layer] as the output head reads it, through the model's final norm
    (hidden[L] already is)."""
    h = np.asarray(run.hidden[layer], dtype=np.float64)
    if layer == len(run.hidden) - 1:
        return h
    gamma = np.asarray(run.weights["final_norm.gamma"], dtype=np.float64)
    if run.config.architecture in LLAMA_FAMILY:
        return rms_norm(h, gamma, run.config.eps)
    return layer_norm(h, gamma, np.asarray(run.weights["final_norm.beta"], dtype=np.float64), run.config.eps)


def checked_request(run: ModelRun, top_k, temperature=1.0) -> tuple[int, float]:
    """(k, T) as asked, or PredictionError naming what is out of range."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= MAX_TOP_K:
        raise PredictionError(f"top-k is a whole number from 1 to {MAX_TOP_K}, not {top_k!r}", "bad_top_k",
                              most=MAX_TOP_K, value=str(top_k)[:20])
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) \
            or not MIN_TEMPERATURE <= temperature <= MAX_TEMPERATURE:
        raise PredictionError(f"the temperature is from {MIN_TEMPERATURE} to {MAX_TEMPERATURE}, not {temperature!r}",
                              "bad_temperature", low=MIN_TEMPERATURE, high=MAX_TEMPERATURE, value=str(temperature)[:20])
    return min(top_k, run.config.vocab_size), float(temperature)


def probabilities(logits: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """softmax(logits / T) over the last axis, in float64."""
    z = np.asarray(logits, dtype=np.float64) / temperature
    p = np.exp(z - z.max(axis=-1, keepdims=True))
    return p / p.sum(axis=-1, keepdims=True)


def softmax_top(logits: np.ndarray, k: int, temperature: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The top k of softmax(logits / T) over the last axis: (ids (…, k), probabilities (…, k)),
    most likely first, ties to the lower id. The k largest logits are found first, then their
    probabilities exp(z − log Σ exp z), the sum taken in float64, without a float64 copy of the
    logits (the lens's P × V are the largest arrays it makes)."""
    z = np.asarray(logits) / temperature
    top = np.argpartition(-z, k - 1, axis=-1)[..., :k] if k < z.shape[-1] else np.broadcast_to(np.arange(z.shape[-1]), z.shape)
    largest = z.max(axis=-1, keepdims=True)
    total = np.exp(z - largest).sum(axis=-1, keepdims=True, dtype=np.float64)
    chosen = np.exp(np.take_along_axis(z, top, axis=-1).astype(np.float64) - largest) / total
    order = np.lexsort((top, -chosen), axis=-1)
    return np.take_along_axis(top, order, axis=-1), np.take_along_axis(chosen, order, axis=-1)


def logits_at(run: ModelRun, position: int) -> np.ndarray:
    """(V,): the output head on the model's last hidden state at `position` (one product, float32)."""
    h = final_normed(run, len(run.hidden) - 1)[position]
    return np.asarray(output_head(run), dtype=np.float32) @ h.astype(np.float32)


def next_tokens(run: ModelRun, top_k: int = 10, temperature: float = 1.0, position: int = -1) -> Prediction:
    """The model's top k next tokens after `position` (the last by default)."""
    k, temperature = checked_request(run, top_k, temperature)
    at = position % run.n
    ids, chances = softmax_top(logits_at(run, at), k, temperature)
    return Prediction(position=at, ids=ids, probabilities=chances, temperature=temperature)


def logit_lens(run: ModelRun, positions=None, top_k: int = 5) -> tuple[np.ndarray, np.ndarray]:
    """Each layer's guess at each of `positions` (default: every position): the final norm and the
    output head applied to hidden[l]: (ids (L + 1, P, k), probabilities (L + 1, P, k)), layer 0
    the embeddings, layer L the model's output, at temperature 1."""
    k, _ = checked_request(run, top_k)
    head = np.asarray(output_head(run), dtype=np.float32)
    positions = list(range(run.n)) if positions is None else [p % run.n for p in positions]
    ids, chances = [], []
    for layer in range(len(run.hidden)):
        h = final_normed(run, layer)[positions].astype(np.float32)
        top = softmax_top(h @ head.T, k)
        ids.append(top[0])
        chances.append(top[1])
    return np.stack(ids), np.stack(chances)



def without_head(run: ModelRun, layer: int, head: int, top_k: int = 5, position: int = -1,
                 removed: ModelRun | None = None) -> dict:
    """What removing head `head` of layer `layer` does to the next token (the run again from that
    layer up: `removed`, attention_core.lenses.removed_run's, made here when not given): the top
    token before, its probability before and after, the top token after and whether it changed,
    and the top k after."""
    from .lenses import removed_run

    if not 0 <= layer < run.config.layers or not 0 <= head < run.config.heads:
        raise PredictionError(f"no head {head} in layer {layer}", "no_head", layer=layer, head=head)
    before = next_tokens(run, top_k, position=position)
    removed = removed if removed is not None else removed_run(run, layer, head)
    logits = logits_at(removed, before.position)
    after = probabilities(logits)
    ids, chances = softmax_top(logits, before.ids.size)
    top = int(before.ids[0])
    return {"top": top, "before": float(before.probabilities[0]), "after": float(after[top]),
            "top_after": int(ids[0]), "changed": int(ids[0]) != top,
            "ids_after": ids.tolist(), "probabilities_after": chances.tolist()}


@dataclass(frozen=True)
class MaskedWord:
    """What a masked-word model fills in at `position` once its token is [MASK]: the token it
    hid (`hidden_id`), the top k ids (k,) and probabilities (k,), and the lens: each layer's top k
    there, ids and probabilities (L + 1, k), layer 0 the embeddings, the last the output."""

    position: int
    hidden_id: int
    ids: np.ndarray
    probabilities: np.ndarray
    lens_ids: np.ndarray
    lens_probabilities: np.ndarray


def masked_word(run: ModelRun, position: int, mask_id: int, top_k: int = 5) -> MaskedWord:
    """The sentence of `run` again with the token at `position` replaced by `mask_id`, and what
    the masked-word head (h Eᵀ + b: the model trained here, attention_core.tiny_bert.logits) makes
    of that position at every layer. PredictionError for a causal model, or one without that head
    (mlm.bias: a checkpoint whose head has more to it, as BERT-base's, is not read)."""
    if run.config.causal or "mlm.bias" not in run.weights:
        raise PredictionError("only a masked-word model with its head (the model trained here) fills a masked word",
                              "no_masked_word", architecture=run.config.architecture)
    k, _ = checked_request(run, top_k)
    at = position % run.n
    ids = np.array(run.ids, copy=True)
    hidden_id = int(ids[at])
    ids[at] = mask_id
    masked = forward(run.config, run.weights, ids)
    lens_ids, lens_chances = softmax_top(mlm_logits(run.weights, np.stack([h[at] for h in masked.hidden])), k)
    return MaskedWord(position=at, hidden_id=hidden_id, ids=lens_ids[-1], probabilities=lens_chances[-1],
                      lens_ids=lens_ids, lens_probabilities=lens_chances)
