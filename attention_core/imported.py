"""Attention weights computed elsewhere, checked and turned into an AttentionSet: an .npz with
`tokens` and `attentions` (layers, heads, n, n) and perhaps `q`, `k`, `v` (layers, heads, n,
d_head); the tuple `outputs.attentions` that transformers returns with output_attentions=True
(one (batch, heads, n, n) array per layer; batch 0 is taken); CircuitsVis's (heads, n, n)."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import numpy as np

from .attention import attention, causal_mask
from .heads import AttentionSet
from .transformer import ModelError

#: how far a row of weights may sum from 1, and given Q and K from the weights they give
ROW_TOLERANCE = 1e-3
STEP_TOLERANCE = 1e-4

#: tokens that mark the sentence rather than stand for a word: [CLS], [SEP], [PAD], <s>, </s>,
#: <pad>, <|endoftext|>; an unknown or masked word ([UNK], [MASK], <unk>) is a word of the sentence
_SPECIAL = re.compile(r"^(\[(CLS|SEP|PAD)\]|<\|[a-z_]+\|>|<s>|</s>|<pad>)$")


def _array(name: str, values) -> np.ndarray:
    if hasattr(values, "detach"):  # a torch tensor, if the caller passes one
        values = values.detach().cpu().numpy()
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise ModelError(f"{name} must be numbers: {error}") from None


def _stacked(attentions) -> np.ndarray:
    """(layers, heads, n, n) from any of the three forms."""
    if isinstance(attentions, (tuple, list)) and attentions and np.ndim(_array("attentions[0]", attentions[0])) == 4:
        layers = [_array(f"attentions[{i}]", a) for i, a in enumerate(attentions)]
        shapes = {a.shape[1:] for a in layers}
        if len(shapes) != 1:
            raise ModelError(f"the layers of outputs.attentions differ in shape: {sorted(a.shape for a in layers)}")
        return np.stack([a[0] for a in layers])  # batch 0
    array = _array("attentions", attentions)
    if array.ndim == 3:  # CircuitsVis: one layer's heads
        return array[None]
    if array.ndim != 4:
        raise ModelError("attentions must be (layers, heads, n, n), a tuple of (batch, heads, n, n) per layer, "
                         f"or (heads, n, n); got shape {array.shape}")
    return array


def _words(tokens: list[str], special: list[bool]) -> tuple[list[int], list[str]]:
    """어절 from the tokens' own marks: "##" continues a word (WordPiece); "Ġ" or "▁" starts one
    (byte-level BPE, SentencePiece), and without either mark a piece continues the word before."""
    marked = any(t.startswith(("Ġ", "▁")) for t in tokens)
    words, texts = [], []
    for index, token in enumerate(tokens):
        if special[index]:
            words.append(-1)
            continue
        begins = token.startswith(("Ġ", "▁")) if marked else not token.startswith("##")
        bare = token.lstrip("Ġ▁") if marked else token.removeprefix("##")
        if begins or not words or words[-1] == -1:
            texts.append(bare)
        else:
            texts[-1] += bare
        words.append(len(texts) - 1)
    return words, texts


def from_attentions(tokens, attentions, q=None, k=None, v=None, source: str = "imported") -> AttentionSet:
    """Check weights computed elsewhere and make them an AttentionSet. tokens: n strings. ModelError
    says what does not fit: the shape against the tokens, a row that does not sum to 1, or Q and
    K that do not give these weights."""
    tokens = [str(t) for t in tokens]
    weights = _stacked(attentions)
    n = len(tokens)
    if n == 0:
        raise ModelError("tokens is empty")
    if weights.shape[0] == 0 or weights.shape[1] == 0:
        raise ModelError(f"attentions has no {'layer' if weights.shape[0] == 0 else 'head'} (shape {weights.shape})")
    if weights.shape[-2:] != (n, n):
        raise ModelError(f"attentions are {weights.shape[-2]}×{weights.shape[-1]} per head but there are {n} tokens")
    if not np.all(np.isfinite(weights)):
        raise ModelError("attentions hold NaN or infinity")
    if weights.min() < 0:
        where = np.unravel_index(np.argmin(weights), weights.shape)
        raise ModelError(f"layer {where[0]} head {where[1]} query {where[2]}: a weight is negative ({weights[where]:.3g}): "
                         "are these scores before the softmax?")
    sums = weights.sum(axis=-1)
    if np.max(np.abs(sums - 1)) > ROW_TOLERANCE:
        where = np.unravel_index(np.argmax(np.abs(sums - 1)), sums.shape)
        raise ModelError(f"layer {where[0]} head {where[1]} query {where[2]} ({tokens[where[2]]}): its weights sum to "
                         f"{sums[where]:.4f}, not 1: these are not softmax weights of one sentence")
    causal = bool(n > 1 and np.all(weights[..., causal_mask(n)] == 0))
    given = [name for name, m in (("q", q), ("k", k), ("v", v)) if m is not None]
    if given and len(given) != 3:
        raise ModelError(f"give q, k and v together (got only {', '.join(given)})")
    if given:
        q, k, v = (_array(name, m) for name, m in (("q", q), ("k", k), ("v", v)))
        for name, m in (("q", q), ("k", k), ("v", v)):
            if m.ndim != 4 or m.shape[:3] != weights.shape[:3]:
                raise ModelError(f"{name} must be (layers, heads, n, d_head) = {weights.shape[:3]} + (d_head,), "
                                 f"got {m.shape}")
        for layer in range(weights.shape[0]):
            for head in range(weights.shape[1]):
                made = attention(q[layer, head], k[layer, head], v[layer, head], heads=1, causal=causal).weights[0]
                worst = float(np.max(np.abs(made - weights[layer, head])))
                if worst > STEP_TOLERANCE:
                    raise ModelError(f"layer {layer} head {head}: softmax(q kᵀ/√d) differs from its attentions by "
                                     f"{worst:.3g}: these q and k do not give these weights")
    special = [bool(_SPECIAL.match(t)) for t in tokens]
    words, texts = _words(tokens, special)
    return AttentionSet(source=source, pieces=tuple(tokens), words=tuple(words), word_texts=tuple(texts),
                        special=tuple(special), layers=weights.shape[0], heads=weights.shape[1], causal=causal,
                        weights=weights, q=q if given else None, k=k if given else None, v=v if given else None)


def load_npz(path) -> AttentionSet:
    """An .npz with `tokens` (n strings) and `attentions`, and perhaps q, k, v; see from_attentions."""
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such file")
    if not zipfile.is_zipfile(path):
        raise ModelError(f"{path}: not an .npz file (an .npz is a zip archive of arrays, as numpy.savez writes it)")
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except ValueError:  # NumPy's words advise loading it unsafely: ours say what to change
        raise ModelError(f"{path}: an array in it holds Python objects, which are not read: save tokens as strings "
                         f"(numpy.array(tokens, dtype=str)) and numbers as numbers") from None
    except (OSError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"{path}: not a readable .npz file: {error}") from None
    for name in ("tokens", "attentions"):
        if name not in arrays:
            raise ModelError(f"{path}: has no array '{name}' (it has: {', '.join(sorted(arrays)) or 'nothing'})")
    try:
        return from_attentions(list(arrays["tokens"]), arrays["attentions"], arrays.get("q"), arrays.get("k"),
                               arrays.get("v"), source=path.stem)
    except ModelError as error:
        raise ModelError(f"{path}: {error}") from None
