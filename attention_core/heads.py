"""Attention of one sentence in every layer and head of a model, and what the views need from it:
the tokens grouped into 어절 or not, special tokens shown or not, per-head summaries, the layers ×
heads overview, and each query's strongest keys.

An AttentionSet comes from a checkpoint run in NumPy (attention_core.checkpoint: Q and K known, so
every step can be shown) or from weights computed elsewhere (attention_core.imported: perhaps only
the weights).
"""
from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .attention import AttentionResult, attention, hidden_keys
from .checkpoint import Encoded
from . import lenses
from .lenses import rollout
from .transformer import ModelRun

#: the overview's matrices are at most this many cells a side: longer inputs are pooled
OVERVIEW_CELLS = 32


@dataclass(frozen=True)
class AttentionSet:
    """Attention of one sentence, n tokens, in `layers` layers of `heads` heads.

    pieces (n,) the model's tokens as shown; words (n,) each token's 어절 index, -1 for a special
    token; word_texts the 어절; special (n,) booleans.
    Either run (a model run here: Q, K, V known) or weights (layers, heads, n, n) given, with
    q, k, v (layers, heads, n, d_head) where they are known too.
    causal: whether the model masks future keys (its own setting; scale is always √d on);
    window: its sliding window where it has one (Mistral's), 0 for none; key_heads: its key/value
    heads where query heads share them (grouped-query attention), 0 for one each.
    """

    source: str
    pieces: tuple[str, ...]
    words: tuple[int, ...]
    word_texts: tuple[str, ...]
    special: tuple[bool, ...]
    layers: int
    heads: int
    causal: bool
    run: ModelRun | None = None
    weights: np.ndarray | None = None
    q: np.ndarray | None = None
    k: np.ndarray | None = None
    v: np.ndarray | None = None
    window: int = 0
    key_heads: int = 0
    #: other checkpoints with the same tokenizer run on the same sentence, to compare with (lenses.difference):
    #: ({"name": entry name, "step": training step} or {"name": …, "folder": folder name}, AttentionSet) each
    compared: tuple = ()
    #: the checkpoint's tokenizer (a run's set): what the predicted next tokens write
    tokenizer: object = None

    @property
    def n(self) -> int:
        return len(self.pieces)

    @property
    def kv_groups(self) -> list[list[int]]:
        """The query heads that share each key/value head, in order (one head each without
        grouped-query attention): query head h uses key/value head h // (heads / key_heads)."""
        share = self.heads // (self.key_heads or self.heads)
        return [list(range(g * share, (g + 1) * share)) for g in range(self.heads // share)]

    @cached_property
    def rollouts(self) -> np.ndarray:
        """(layers, n, n): attention rollout to each layer (attention_core.lenses.rollout), at the
        model's own switches; computed once."""
        return rollout([self.layer_weights(layer) for layer in range(self.layers)])

    @cached_property
    def _ablations(self) -> dict:
        return {}

    def ablation(self, layer: int, head: int) -> np.ndarray:
        """(n,): how much each query's last hidden state changes with this head removed
        (attention_core.lenses.ablation_change), run once per head and kept."""
        if (layer, head) not in self._ablations:
            self._remove(layer, head)
        return self._ablations[(layer, head)]

    def next_change(self, layer: int, head: int) -> dict | None:
        """What removing this head does to the model's next token after the last one
        (attention_core.prediction.without_head, with each token's text), or None for a model that
        predicts no next token (BERT) or weights from elsewhere; run once per head and kept."""
        if not self._predicts_next():
            return None
        if ("next", layer, head) not in self._ablations:
            self._remove(layer, head)
        return self._ablations[("next", layer, head)]

    def _predicts_next(self) -> bool:
        """Whether the run has a next token to tell: causal, with an output head."""
        from .prediction import output_head, predicts_next
        from .transformer import ModelError

        if self.run is None or not predicts_next(self.run):
            return False
        try:
            output_head(self.run)
        except ModelError:  # an untied model without lm_head: no next token to tell
            return False
        return True

    def _remove(self, layer: int, head: int) -> None:
        """The model run again once without the head (lenses.removed_run), and kept of it: the
        ablation's change per query and, for a model that predicts the next token, the next
        token's change (the run itself, (L + 1, n, d_model), is not kept)."""
        from .prediction import without_head

        removed = lenses.removed_run(self.run, layer, head)
        self._ablations[(layer, head)] = lenses.ablation_change(self.run, layer, head, removed)
        if self._predicts_next():
            said = without_head(self.run, layer, head, top_k=3, removed=removed)
            said["top_token"], said["top_after_token"] = (self.token_text(said[name]) for name in ("top", "top_after"))
            self._ablations[("next", layer, head)] = said

    def token_text(self, token_id: int) -> str:
        """What token `token_id` writes (a piece of a character's bytes: its vocabulary name, in ⟨⟩)."""
        return self.token_piece(token_id)[0]

    def token_piece(self, token_id: int) -> tuple[str, bool]:
        """(token_text, whether the token is only a piece of a character's bytes, or unknown)."""
        from .prediction import token_text

        return token_text(self.tokenizer, token_id) if self.tokenizer is not None else (f"#{token_id}", True)

    @property
    def has_steps(self) -> bool:
        """Whether Q, K and V are known, so that every step can be shown (else only the weights)."""
        return self.run is not None or self.q is not None

    def layer_weights(self, layer: int) -> np.ndarray:
        """(heads, n, n): layer `layer`'s weights, as the model computed them."""
        if self.run is not None:
            return self.run.attention(layer).weights
        return self.weights[layer]

    def head_weights(self, layer: int, head: int, rotate: bool = True, window: int | None = None) -> np.ndarray:
        """(n, n): one head's weights as the model computed them (one head recomputed, not the
        layer); rotate=False or another window: that experiment on this head (a model run here)."""
        if self.run is not None:
            return self.head_attention(layer, head, rotate=rotate, window=window).weights[0]
        return self.weights[layer, head]

    def head_qkv(self, layer: int, head: int, rotate: bool = True):
        """(q, k, v), each (n, d_head), of one head; None where only the weights are known.
        rotate=False: q and k before the rotation (the Llama family; an experiment)."""
        if self.run is not None:
            return self.run.head_qkv(layer, head, rotate=rotate)
        if self.q is None:
            return None
        return self.q[layer, head], self.k[layer, head], self.v[layer, head]

    def head_attention(self, layer: int, head: int, scale: bool = True, causal: bool | None = None,
                       rotate: bool = True, window: int | None = None) -> AttentionResult | None:
        """Every step of one head, recomputed by attention() from its q, k, v (one head); None
        without them. scale, causal and window (0: none) default to the model's own; rotate=False
        leaves q and k unrotated. Another rotation or window is an experiment on this head alone."""
        qkv = self.head_qkv(layer, head, rotate=rotate)
        if qkv is None:
            return None
        causal = self.causal if causal is None else causal
        window = self.window if window is None else window
        return attention(*qkv, heads=1, scale=scale, causal=causal, window=window if causal else 0)


def from_run(source: str, encoded: Encoded, run: ModelRun, tokenizer=None) -> AttentionSet:
    """The AttentionSet of a sentence run through a checkpoint (with its tokenizer, the next
    tokens it predicts can be written)."""
    return AttentionSet(source=source, pieces=encoded.pieces, words=encoded.words, word_texts=encoded.word_texts,
                        special=encoded.special, layers=run.config.layers, heads=run.config.heads,
                        causal=run.config.causal, run=run, window=run.config.window,
                        key_heads=run.config.key_heads, tokenizer=tokenizer)


def token_groups(aset: AttentionSet, merge: bool, special: bool) -> list[list[int]]:
    """The tokens as shown, each a list of the model's token indices: one per token (merge off)
    or one per 어절 (merge on); special tokens each alone when shown, left out when not."""
    groups: list[list[int]] = []
    for index, (word, is_special) in enumerate(zip(aset.words, aset.special)):
        if is_special:
            if special:
                groups.append([index])
        elif merge and groups and word >= 0 and aset.words[groups[-1][-1]] == word \
                and not aset.special[groups[-1][-1]]:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def group_labels(aset: AttentionSet, groups: list[list[int]], merge: bool) -> list[str]:
    """Each shown token's text: the 어절 when merged (a special token keeps its own), else the piece."""
    def label(group):
        first = group[0]
        if merge and not aset.special[first] and aset.words[first] >= 0:
            return aset.word_texts[aset.words[first]]
        return aset.pieces[first]
    return [label(group) for group in groups]


def grouped_weights(weights: np.ndarray, groups: list[list[int]]) -> np.ndarray:
    """(…, m, m) from (…, n, n): the weight of shown query a on shown key b is the sum over b's
    key pieces, averaged over a's query pieces. A row sums to 1 less what hidden tokens take."""
    keys = np.stack([weights[..., group].sum(axis=-1) for group in groups], axis=-1)
    return np.stack([keys[..., group, :].mean(axis=-2) for group in groups], axis=-2)


def ranked(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For rows of weights (…, n): rank (…, n), the key indices from the heaviest down (ties by
    index), and rest (…, n), the weight the row's keys after the first r + 1 of them carry."""
    rank = np.argsort(-weights, axis=-1, kind="stable")
    in_order = np.take_along_axis(weights, rank, axis=-1)
    total = in_order.sum(axis=-1, keepdims=True)
    rest = np.clip(total - np.cumsum(in_order, axis=-1), 0.0, None)
    return rank.astype(np.float64), rest


SUMMARIES = ("entropy", "first", "self", "previous")
#: a head is an attention sink (its badge in the overview) when the queries that could attend to
#: another key give the first token this share of their weight or more on average…
SINK_SHARE = 0.5
#: …and this many times what an even spread over the keys each of them may see would give it (at
#: 4 causal tokens an even spread gives the first key 0.361 over queries 2 to 4)
SINK_OVER_EVEN = 2.0


def choosing_queries(n: int, causal: bool, window: int = 0) -> np.ndarray:
    """(n,) bool: the queries that see the first token and at least one other key. A causal
    model's first query sees only itself, and a query past a sliding window does not see the
    first token: their weight on it says nothing about a sink."""
    hidden = hidden_keys(n, causal, window)
    seen = np.ones((n, n), dtype=bool) if hidden is None else ~hidden
    return seen[:, 0] & (seen.sum(axis=-1) >= 2)


def even_first(n: int, causal: bool, window: int = 0) -> float:
    """What an even spread over the keys each choosing query may see (choosing_queries) gives the
    first token, averaged over those queries: the weight on it that is no sign of a sink. 1.0
    where no query chooses (a sentence of one token)."""
    hidden = hidden_keys(n, causal, window)
    seen = np.ones((n, n), dtype=bool) if hidden is None else ~hidden
    rows = choosing_queries(n, causal, window)
    return float((1.0 / seen[rows].sum(axis=-1)).mean()) if rows.any() else 1.0


def sink_heads(first: np.ndarray, even: float) -> list[list[int]]:
    """[layer, head] of each attention sink: a head whose choosing queries' mean weight on the
    first token (layer_summaries' `first`, (layers, heads)) is SINK_SHARE or more and at least
    SINK_OVER_EVEN times `even` (even_first's)."""
    first = np.asarray(first)
    sinks = (first >= SINK_SHARE) & (first >= SINK_OVER_EVEN * even)
    return [[int(layer), int(head)] for layer, head in zip(*np.nonzero(sinks))]


def layer_summaries(w: np.ndarray, causal: bool = False, window: int = 0) -> dict[str, np.ndarray]:
    """Per head of one layer's weights w (heads, n, n), averaged over the queries: entropy (bits)
    of a query's weights; first: the weight on the first token, over the queries that could
    attend elsewhere (choosing_queries; every query where none can); self: on the query itself;
    previous: on the token just before it (queries from the second on). Each (heads,)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log2(np.where(w > 0, w, 1.0)), 0.0)
    n = w.shape[-1]
    rows = choosing_queries(n, causal, window)
    first = w[:, rows, 0] if rows.any() else w[:, :, 0]
    return {"entropy": terms.sum(axis=-1).mean(axis=-1), "first": first.mean(axis=-1),
            "self": np.diagonal(w, axis1=1, axis2=2).mean(axis=-1),
            "previous": np.diagonal(w, offset=-1, axis1=1, axis2=2).mean(axis=-1) if n > 1 else np.zeros(w.shape[0])}


def overview_blocks(n: int, cells: int = OVERVIEW_CELLS) -> list[list[int]]:
    """The token axis cut into at most `cells` consecutive blocks of near-equal length."""
    edges = np.linspace(0, n, min(n, cells) + 1).round().astype(int)
    return [list(range(a, b)) for a, b in zip(edges[:-1], edges[1:])]


def packed_overview(pixels: np.ndarray) -> dict:
    """The overview's pixels (layers, heads, m, m) uint8 as they travel: when every head's keys
    after its query are 0 (a causal model's) only each matrix's lower triangle, row by row
    (triangle: true; m (m + 1) / 2 bytes a head), zlib-compressed, base64 (data). A causal
    Qwen2.5-0.5B-size model's 336 heads at 31 tokens: 322,896 bytes as a whole square,
    about 118 kB so (bench/model.py)."""
    triangle = not np.triu(pixels, 1).any()
    kept = pixels[..., *np.tril_indices(pixels.shape[-1])] if triangle else pixels
    packed = zlib.compress(np.ascontiguousarray(kept).tobytes(), 9)
    return {"triangle": bool(triangle), "data": base64.b64encode(packed).decode("ascii")}


def digest(aset: AttentionSet, cells: int = OVERVIEW_CELLS):
    """What the overview shows of every head, each layer's weights computed once:
    pixels (layers, heads, m, m) uint8: the weights of the model's tokens (specials included)
    pooled into m ≤ cells blocks by the merge rule (sum over a block's keys, mean over its
    queries), quantized to round(255 w); the blocks; and the summaries (layer_summaries),
    (layers, heads) each."""
    blocks = overview_blocks(aset.n, cells)
    pooled, summaries = [], {name: [] for name in SUMMARIES}
    for layer in range(aset.layers):
        w = aset.layer_weights(layer)
        pooled.append(grouped_weights(w, blocks))
        for name, values in layer_summaries(w, aset.causal, aset.window).items():
            summaries[name].append(values)
    pixels = np.clip(np.round(np.stack(pooled) * 255), 0, 255).astype(np.uint8)
    return pixels, blocks, {name: np.stack(values) for name, values in summaries.items()}
