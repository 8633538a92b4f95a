"""A model's attention (attention_core.heads) as the entries the browser indexes: one entry for the
model (its layers × heads overview and per-head summaries) and one per head and token view
(sub-words or 어절, special tokens shown or not), made when asked for (served) or all at once (an
exported file, within its limits)."""
from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from attention_core.attention import hidden_keys
from attention_core.cube import SWITCHES, TOKEN_ROWS, Named, cube_payload, state_cube, weights_payload
from attention_core.heads import (AttentionSet, digest, group_labels, grouped_weights, even_first, packed_overview, ranked, sink_heads,
                                  token_groups)
from attention_core.lenses import DRAWN, difference, moved_share, value_norms, value_weighted, without_first
from attention_core.rotary import rotation_view
from attention_core.words import every_language

from .constants import OWN_MODEL
from .kinds import MODEL_KINDS

#: A head's every step (its cube: scores, ÷√d, the mask and softmax as experiments) travels up to
#: this many of the model's tokens; a longer sentence's head travels as its weights alone, at the
#: model's own switches (about 1 MB a head at 128 tokens, 13 MB at 512: bench/model.py).
STEPS_MAX = 128
#: An exported file carries the heads in tiers, each whole or not at all, while the file's
#: numbers stay under this many bytes: every head's first view (어절, no special tokens), then
#: every head on the model's own tokens (every step), then the other two views.
EXPORT_BUDGET = 24_000_000
#: what the numbers of a model's head travel as: the model's own weights are float32
MODEL_FLOATS = "f4"
#: a head's keys ranked, per query: rank/1 (the keys from the heaviest down) and rest/1 (the weight
#: left after the first r + 1), with the scale and causal axes where the head has every step
RANKED = ("head", "query", "rank")
#: the token views, as "merge special" codes: "10" is 어절 without special tokens (the default)
VIEWS = ("00", "01", "10", "11")


#: the sliding windows a causal model's head can be tried with, besides none and its own (those
#: shorter than the sentence): an experiment, as √d off is
WINDOW_CHOICES = (1, 2, 4, 8, 16, 32, 64)


def experiment_offer(aset: AttentionSet) -> dict:
    """The experiments a model run here offers on a head besides √d and the mask: rope, q and k
    left unrotated (the Llama family); windows, a sliding window of each of these sizes (a causal
    model's: 0 for none, its own, and WINDOW_CHOICES shorter than the sentence)."""
    if aset.run is None:
        return {"rope": False, "windows": []}
    windows = sorted({0, aset.window, *(w for w in WINDOW_CHOICES if w < aset.n)}) if aset.causal else []
    return {"rope": bool(aset.run.config.rotary), "windows": windows}


def experiment_code(aset: AttentionSet, rotate: bool = True, window: int | None = None) -> str:
    """The experiment's part of a head's entry name: "" at the model's own rotation and window;
    "r0" for q and k unrotated, "w3" for a window of 3 (0: none), or both ("r0w3")."""
    return experiment_of(rotate, window, aset.window)


def experiment_of(rotate: bool, window: int | None, own_window: int) -> str:
    """experiment_code for a model whose own window is `own_window` (an entry's `window`)."""
    return ("" if rotate else "r0") + ("" if window is None or window == own_window else f"w{window}")


def view_code(merge: bool, special: bool) -> str:
    return f"{int(bool(merge))}{int(bool(special))}"


def view_groups(aset: AttentionSet, code: str) -> list[list[int]]:
    """The tokens shown in token view `code` ("merge special"), as token_groups gives them."""
    return token_groups(aset, code[0] == "1", code[1] == "1")


def canonical_views(aset: AttentionSet) -> dict[str, str]:
    """Each view code → the first code with the same tokens under the same labels (e.g. with no
    special tokens, showing or hiding them is one view), so that one entry serves both. (Merged
    into 어절, a SentencePiece piece ▁나는 that is a whole word reads 나는: another view.)"""
    seen: dict[str, str] = {}
    canonical = {}
    for code in VIEWS:
        groups = view_groups(aset, code)
        canonical[code] = seen.setdefault(repr((groups, group_labels(aset, groups, code[0] == "1"))), code)
    return canonical


def shows_steps(aset: AttentionSet, groups: list[list[int]]) -> bool:
    """Whether a head in the token view `groups` shows every step (a cube with √d and the mask as
    switches): the tokens are the model's own, all shown, at most STEPS_MAX (else its weights alone)."""
    return aset.n <= STEPS_MAX and groups == [[i] for i in range(aset.n)]


def head_name(model: str, layer: int, head: int, code: str, experiment: str = "") -> str:
    """The entry name of one head in one token view (and experiment, experiment_code)."""
    return f"{model}|{layer}|{head}|{code}" + (f"|{experiment}" if experiment else "")


def lens_arrays(aset: AttentionSet, layer: int, head: int, weights: np.ndarray, v: np.ndarray,
                ablation: bool = True) -> dict[str, Named]:
    """One head's lenses for its cube, from its weights (n, n) at the model's own switches and its
    v (n, d_head), as its cube has them: lens/moved (query, key) α_ij ‖v_j W_O^h‖; lens/vnorm (key,)
    ‖v_j W_O^h‖; lens/no_sink (query, key) each row without the first token, renormalised;
    lens/rollout (query, key) the rollout to this layer; lens/top_weight and lens/top_moved
    (query,) the key with the largest weight and the one that moves the most (first on ties);
    lens/ablation_percent (query,) how much the last hidden state changes, in %, with the head removed
    (only where `ablation` asks: the model run again, which a served page asks for apart, ablation_entry);
    and what the lines, bars and heatmap draw through each lens of DRAWN but the weight itself:
    lens/drawn (lens, query, key), with its keys ranked as the weights' are (lens/rank, lens/rest:
    heads.ranked) for a long sentence's strongest keys; with a sliding window, the keys each lens
    hides (lens/mask: the model's mask, but the rollout reaches past the window through the layers below)."""
    norms = value_norms(v, aset.run.head_w_o(layer, head))
    moved = value_weighted(weights, norms)
    no_sink, rolled = without_first(weights), aset.rollouts[layer]
    drawn = np.stack([{"moved": moved_share(moved), "rollout": rolled, "no_sink": no_sink}[lens] for lens in DRAWN[1:]])
    rank, rest = ranked(drawn)
    lens_axes = ("lens", "query", "rank")
    return {"lens/moved": Named(moved, ("query", "key")), "lens/vnorm": Named(norms, ("key",)),
            "lens/no_sink": Named(no_sink, ("query", "key")),
            "lens/rollout": Named(rolled, ("query", "key")),
            "lens/drawn": Named(drawn, ("lens", "query", "key")),
            "lens/rank": Named(rank, lens_axes), "lens/rest": Named(rest, lens_axes),
            # with a sliding window, the rollout's mask is the future only (else every lens's is the model's)
            **({"lens/mask": Named(np.stack([hidden_keys(aset.n, aset.causal, 0 if lens == "rollout" else aset.window)
                                             for lens in DRAWN[1:]]), ("lens", "query", "key"))} if aset.window else {}),
            "lens/top_weight": Named(np.argmax(weights, axis=-1).astype(np.float64), ("query",)),
            "lens/top_moved": Named(np.argmax(moved, axis=-1).astype(np.float64), ("query",)),
            **({"lens/ablation_percent": Named(100 * aset.ablation(layer, head), ("query",))} if ablation else {})}


def ablation_entry(aset: AttentionSet, model: str, layer: int, head: int) -> dict:
    """The head removed and the model run again (AttentionSet.ablation), as the entry a served page
    asks for apart from the head's (the ablation request: a forward pass from the head's layer up,
    too slow at a large model's size to make with every head opened): percent (n,), for each token
    as a query, ‖h′_L − h_L‖ / ‖h_L‖ in %; and for a model that predicts the next token, `next`:
    its top token after the last one, its probability before and after, the top token after and
    whether it changed (AttentionSet.next_change)."""
    said = aset.next_change(layer, head)
    return {"kind": "ablation", "name": f"{model}|{layer}|{head}|ablation",
            "model_head": {"model": model, "layer": layer, "head": head},
            "percent": [float(value) for value in 100 * aset.ablation(layer, head)],
            **({"next": {key: said[key] for key in ("top", "top_token", "before", "after", "top_after", "top_after_token",
                                                     "changed")}} if said else {})}


#: the logit lens's grid: the sentence's last this many positions (each layer's guess at each is
#: the output head over the whole vocabulary: about 0.17 s a position at Qwen2.5-0.5B's size,
#: bench/next_token.py), and this many tokens a cell
LENS_POSITIONS = 16
LENS_TOP = 5


def said_tokens(aset: AttentionSet, ids, probabilities, digits: int | None = None) -> list[dict]:
    """Tokens a model says, each {id, token (what it writes; a piece of a character's bytes by
    its vocabulary name, in ⟨⟩, with partial: true), probability (rounded to `digits` decimals)}."""
    made = []
    for i, p in zip(ids, probabilities):
        token, partial = aset.token_piece(int(i))
        p = float(p) if digits is None else round(float(p), digits)
        made.append({"id": int(i), "token": token, "probability": p, **({"partial": True} if partial else {})})
    return made


def next_entry(aset: AttentionSet, model: str, top_k: int, temperature: float) -> dict:
    """What a causal model says after the sentence's last token (the next request;
    attention_core.prediction): its top k next tokens at `temperature` (said_tokens), and the
    logit lens there: each layer's top k (layer 0 the embeddings, the last the model's output).
    PredictionError for a model that predicts no next token or a request out of range."""
    from attention_core.prediction import logit_lens, next_tokens

    made = next_tokens(aset.run, top_k, temperature)
    ids, chances = logit_lens(aset.run, positions=[-1], top_k=min(top_k, LENS_TOP))
    # the sentence it goes on from (its 어절 as the model read them), for the page to write a token onto
    return {"kind": "next", "name": f"{model}|next|{top_k}|{temperature:g}", "model": model, "top_k": top_k,
            "text": " ".join(aset.word_texts),
            "temperature": float(temperature), "position": made.position,
            "after": aset.token_piece(int(aset.run.ids[made.position]))[0], "top": said_tokens(aset, made.ids, made.probabilities),
            "lens": [said_tokens(aset, ids[layer, 0], chances[layer, 0]) for layer in range(ids.shape[0])]}


def masked_entry(aset: AttentionSet, top_k: int = LENS_TOP) -> dict:
    """What the masked-word model trained here fills in for the sentence's last word (the
    predicate it was trained to find) once it is [MASK] (attention_core.prediction.masked_word):
    {position, word (the token it hid), top (said_tokens), lens (each layer's top k there)}, the
    probabilities to 8 decimals (a float32 pass's are not exact further; an exported file carries
    one for every training step)."""
    from attention_core.prediction import masked_word

    position = max(i for i, special in enumerate(aset.special) if not special)
    made = masked_word(aset.run, position, aset.tokenizer.token_to_id("[MASK]"), top_k)
    return {"position": made.position, "word": aset.token_piece(made.hidden_id)[0],
            "top": said_tokens(aset, made.ids, made.probabilities, 8),
            "lens": [said_tokens(aset, ids, chances, 8) for ids, chances in zip(made.lens_ids, made.lens_probabilities)]}


def lens_entry(aset: AttentionSet, model: str, top_k: int) -> dict:
    """The logit lens as a layers × positions grid (the lens request): at each of the sentence's
    last LENS_POSITIONS positions, each layer's top k (≤ LENS_TOP) at temperature 1, cells[layer]
    [column] (layer 0 the embeddings, the last the model's output); each column's position and the
    token there. PredictionError as next_entry's."""
    from attention_core.prediction import logit_lens

    n = aset.run.n
    positions = list(range(max(0, n - LENS_POSITIONS), n))
    ids, chances = logit_lens(aset.run, positions=positions, top_k=min(top_k, LENS_TOP))
    return {"kind": "lens", "name": f"{model}|lens|{top_k}", "model": model, "top_k": int(ids.shape[-1]),
            "positions": positions, "tokens": [aset.token_piece(int(aset.run.ids[p]))[0] for p in positions],
            "cells": [[said_tokens(aset, ids[layer, column], chances[layer, column]) for column in range(len(positions))]
                      for layer in range(ids.shape[0])]}


def difference_arrays(aset: AttentionSet, layer: int, head: int, weights: np.ndarray, groups: list[list[int]]) -> dict[str, Named]:
    """The head against each checkpoint it is compared with (aset.compared), from its weights
    (m, m) at the model's own switches in the token view `groups`: diff/weights (other, query, key)
    A₁ − A₂ and diff/top (other, query) the key that changed the most
    (attention_core.lenses.difference); none without a comparison."""
    if not aset.compared:
        return {}
    others = np.stack([grouped_weights(other.head_weights(layer, head), groups) for _, other in aset.compared])
    change, top = difference(weights, others)
    return {"diff/weights": Named(change, ("other", "query", "key")), "diff/top": Named(top.astype(np.float64), ("other", "query"))}


def head_entry(aset: AttentionSet, model: str, title: dict, layer: int, head: int, code: str,
               steps: bool = True, rotate: bool = True, window: int | None = None, ablation: bool = True) -> dict:
    """One head in one token view, as a sentence entry. Every step (a cube of the head's q, k, v,
    with √d and the mask as experiments) when Q and K are known, the tokens are the model's own
    (sub-words, special tokens shown), there are at most STEPS_MAX and `steps` asks for them; else
    its weights alone, grouped by the merge rule, with hidden/1 (m,): what each shown query gives
    to tokens not shown. rotate=False (q and k unrotated) or another window (0: none) is an
    experiment on this head (experiment_offer): its every view, without the lenses and the
    rotation's step, which are the model's own. ablation=False: without the head's ablation (the
    model run again), which a served page asks for apart (ablation_entry)."""
    code = canonical_views(aset)[code]
    experiment = experiment_code(aset, rotate, window)
    window = aset.window if window is None else window
    merge, special = code[0] == "1", code[1] == "1"
    groups = token_groups(aset, merge, special)
    labels = group_labels(aset, groups, merge)
    qkv = aset.head_qkv(layer, head, rotate=rotate) if steps and shows_steps(aset, groups) else None
    rotation = None
    if qkv is not None:
        cube = state_cube(labels, *qkv, head_choices=(1,), window=window)
        weights = np.stack([np.stack([cube.result(1, s, c).weights for c in (False, True)]) for s in (False, True)])
        rank, rest = ranked(weights)
        extra = {"rank/1": Named(rank, SWITCHES + RANKED), "rest/1": Named(rest, SWITCHES + RANKED)}
        own = aset.run is not None and not experiment
        rotation = rotation_view(aset.run, layer, head) if own and aset.run.config.rotary else None
        if own:  # what the weights do not tell (attention_core.lenses), at the model's own switches
            own_weights = cube.result(1, True, aset.causal).weights[0]
            extra.update(lens_arrays(aset, layer, head, own_weights, qkv[2], ablation))
            extra.update(difference_arrays(aset, layer, head, own_weights, groups))
        if rotation:  # the Llama family: the rotation's step (attention_core.rotary)
            extra.update({"rope/angle": Named(rotation["angles"], ("token", "pair")),
                          "rope/q_plain": Named(rotation["q_plain"], TOKEN_ROWS),
                          "rope/k_plain": Named(rotation["k_plain"], TOKEN_ROWS),
                          "rope/scores_plain": Named(rotation["scores_plain"], ("query", "key"))})
        payload = cube_payload(cube, extra, floats=MODEL_FLOATS)
    else:
        weights = grouped_weights(aset.head_weights(layer, head, rotate, window), groups)
        rank, rest = ranked(weights)
        payload = weights_payload(labels, weights, {"rank/1": Named(rank[None], RANKED), "rest/1": Named(rest[None], RANKED),
                                                    "hidden/1": Named(np.clip(1 - weights.sum(axis=-1), 0, None), ("query",)),
                                                    **({} if experiment else difference_arrays(aset, layer, head, weights, groups))},
                                  MODEL_FLOATS)
    return {
        "kind": "head",
        "name": head_name(model, layer, head, code, experiment),
        "titles": {lang: f"{text} · L{layer} H{head}" for lang, text in title.items()},
        "captions": {}, "default_query": last_word(aset, groups), "origin": "model", "roles": [],
        "cube": payload,
        "model_head": {"model": model, "layer": layer, "head": head, "merge": merge, "special": special,
                       "steps": qkv is not None, "own": {"scale": True, "causal": aset.causal}, "groups": groups,
                       # "" at the model's own rotation and window; else the experiment (experiment_code) and its settings
                       "experiment": experiment, "rope": rotate, "window": window,
                       **({"rotation": {"theta": aset.run.config.rope_theta, "shift": rotation["shift"],
                                        "shift_difference": rotation["shift_difference"]}} if qkv is not None and rotation else {})},
    }


def export_bank(aset: AttentionSet, name: str, title: dict, budget: int, steps: bool = True) -> list[dict]:
    """Every head's entries for a file with no Python to ask, in tiers (see EXPORT_BUDGET): a tier
    goes in whole when the entries so far and it stay within `budget` bytes of JSON, else stops.
    steps=False: every head as its weights alone (head_entry)."""
    canonical = canonical_views(aset)
    views = list(dict.fromkeys(canonical[code] for code in ("10", "01", "00", "11")))
    # then each experiment a page offers (experiment_offer) in every view, as the page offers it there
    offer = experiment_offer(aset)
    windows = [window for window in offer["windows"] if window != aset.window]
    variants = [(True, None)] + ([(False, None)] if offer["rope"] else []) + [(True, window) for window in windows] \
        + ([(False, window) for window in windows] if offer["rope"] else [])
    every = [(layer, head) for layer in range(aset.layers) for head in range(aset.heads)]

    def tier_of(code, rotate, window, ablation):
        """The tier's entries and their bytes, or None once they pass the budget (made no further)."""
        tier, tier_size = [], 0
        for layer, head in every:
            tier.append(head_entry(aset, name, title, layer, head, code, steps, rotate, window, ablation))
            tier_size += len(json.dumps(tier[-1]))
            if size + tier_size > budget:
                return None
        return tier, tier_size

    bank, size = [], 0
    for rotate, window, code in ((rotate, window, code) for rotate, window in variants for code in views):
        # first without the heads' ablations (a forward pass each: minutes at a large model's size),
        # which are made only for a tier that fits
        made = tier_of(code, rotate, window, False)
        if made is not None and any("lens/moved" in entry["cube"].get("layout", {}) for entry in made[0]):
            made = tier_of(code, rotate, window, True) or made  # (the ablations not fitting: the tier without them)
        if made is None:
            break
        bank += made[0]
        size += made[1]
    return bank


def model_entry(aset: AttentionSet, name: str, title: dict, bank: bool = False, kind: str = "model",
                typable: bool = False, typed_name: str | None = None, bank_steps: bool = True) -> dict:
    """The model on offer, of `kind` (app.kinds.MODEL_KINDS): its size, tokens, the layers ×
    heads overview (uint8, base64; see attention_core.heads.digest) and summaries (layers, heads)
    each; with bank=True the heads an exported file carries (export_bank); typable: a sentence
    typed in the page goes through it, and makes the model entry `typed_name` (which a link names);
    bank_steps=False: the banked heads travel as their weights alone (an exported file's trained
    model before its last step: bench/export_size.py)."""
    pixels, blocks, summaries = digest(aset)
    canonical = canonical_views(aset)
    groups = {code: view_groups(aset, code) for code in sorted(set(canonical.values()))}
    return {
        "kind": kind, "name": name, "link": "name", "titles": title, "source": aset.source, "layers": aset.layers, "heads": aset.heads,
        # changes with the sentence (a typed one keeps its entry's name): the page redraws on it
        "version": hashlib.sha1(json.dumps([aset.source, aset.pieces], ensure_ascii=False).encode("utf-8")).hexdigest()[:12],
        "causal": aset.causal, "steps": aset.has_steps, "steps_max": STEPS_MAX, "n": aset.n,
        # the Llama family's: a sliding window (0: none), the query heads sharing each key/value head,
        # and the heads whose queries park half their weight or more on the first token, and twice
        # an even spread's, where they could attend elsewhere (attention sinks)
        "window": aset.window, "kv_groups": aset.kv_groups,
        "sinks": sink_heads(summaries["first"], even_first(aset.n, aset.causal, aset.window)),
        # the experiments its heads offer besides √d and the mask: q and k unrotated, other windows
        "experiments": experiment_offer(aset),
        # the checkpoints its heads are compared with (A₁ − A₂, the head's diff/* arrays), in order
        "compared": [label for label, _ in aset.compared],
        "views": canonical,
        "groups": groups,
        "labels": {code: group_labels(aset, shown, code[0] == "1") for code, shown in groups.items()},
        # the query each token view opens at: its last token that is not a special token
        "opens_at": {code: last_word(aset, shown) for code, shown in groups.items()},
        "overview": {"cells": int(pixels.shape[-1]), "blocks": [[b[0], b[-1] + 1] for b in blocks],
                     **packed_overview(pixels)},
        "summaries": {key: np.round(value, 6).tolist() for key, value in summaries.items()},
        "bank": export_bank(aset, name, title, EXPORT_BUDGET, bank_steps) if bank else [],
        "in_file": bank,
        "bank_steps": bank_steps,
        "typable": typable,
        **({"typed_name": typed_name} if typable and typed_name else {}),
    }


def wired_entry(entry: dict) -> dict:
    """An entry as the served page's socket (or a notebook's comm) carries it: a model entry's
    overview data as its bytes, which Bokeh sends as a binary frame, a quarter less than the base64
    text it is everywhere else (an exported file, the schema, Python's params)."""
    if entry.get("kind") not in MODEL_KINDS or "overview" not in entry:
        return entry
    overview = entry["overview"]
    return {**entry, "overview": {**overview, "data": base64.b64decode(overview["data"])}}


def on_the_wire(answer: dict) -> dict:
    """A reply (app.protocol.reply) as the socket carries it: its entries wired (wired_entry)."""
    return {**answer, "entries": [wired_entry(entry) for entry in answer["entries"]]} if answer.get("entries") else answer


class SharedHeads:
    """Head entries of the models every session of a server shares, each made once (least
    recently used first out): a hundred students opening one head cost one computation."""

    def __init__(self, sets, size: int = 256):
        self._sets = {name: (aset, titles) for name, aset, titles in sets}
        self._make = lru_cache(maxsize=size)(self._entry)

    def _entry(self, name: str, layer: int, head: int, code: str, rotate: bool, window: int | None) -> dict:
        aset, titles = self._sets[name]
        return head_entry(aset, name, titles, layer, head, code, rotate=rotate, window=window, ablation=False)

    def get(self, name: str, aset: AttentionSet, layer: int, head: int, code: str, rotate: bool = True,
            window: int | None = None) -> dict | None:
        """The entry, if `aset` is the shared set of that name; None for a session's own sentence."""
        shared = self._sets.get(name)
        if not (shared and shared[0] is aset):
            return None
        return self._make(name, layer, head, canonical_views(aset)[code], rotate, None if window == aset.window else window)


#: the sentence a model opens with when none is given: the book's
DEFAULT_SENTENCE = "나는 어제 학교에서 친구를 만났다"


def sentence_set(checkpoint, name: str, text: str) -> tuple[str, AttentionSet, dict]:
    """One sentence run through a loaded checkpoint, as (name, AttentionSet, titles)."""
    from attention_core.checkpoint import run_checkpoint
    from attention_core.heads import from_run

    encoded, run = run_checkpoint(checkpoint, text)
    source = f"{checkpoint.name} ({checkpoint.config.architecture})"
    return name, from_run(source, encoded, run, checkpoint.tokenizer), every_language("model", "titles", model=checkpoint.name,
                                                                                     sentence=text)


@dataclass(frozen=True)
class Typing:
    """What a sentence typed in the page goes through: the loaded checkpoint, and the checkpoint
    its heads are compared with (`serve --compare`), or None."""

    checkpoint: object
    compare: object = None

    def sentence_set(self, name: str, text: str) -> tuple[str, AttentionSet, dict]:
        """The sentence run through the checkpoint (and compared, as compared_sets); ModelError
        names a sentence that does not work (or that the two tokenizers split differently)."""
        made = sentence_set(self.checkpoint, name, text)
        return compared_sets([made], self.checkpoint, self.compare)[0] if self.compare is not None else made


def checkpoint_sets(checkpoint, sentences=()) -> list[tuple[str, AttentionSet, dict]]:
    """Each sentence (default: the book's) run through a loaded checkpoint, as (name,
    AttentionSet, titles). ModelError names a sentence that does not work."""
    return [sentence_set(checkpoint, f"model-{number}", text)
            for number, text in enumerate(sentences or [DEFAULT_SENTENCE], start=1)]


def last_word(aset: AttentionSet, groups: list[list[int]]) -> int:
    """Of the tokens shown (groups), the last that is not a special token: where a model opens."""
    shown = [i for i, group in enumerate(groups) if not aset.special[group[0]]]
    return shown[-1] if shown else len(groups) - 1


def default_query(aset: AttentionSet, merge: bool = True, special: bool = False) -> int:
    """The query a model opens at in the token view (merge, special); by default the first view,
    어절 without special tokens."""
    return last_word(aset, token_groups(aset, merge, special))


def kind_of(name: str) -> str:
    """The kind of a model entry by the name page_sets or from_attentions gives it."""
    return "imported" if name == "imported" or name.startswith("imported-") else "model"


def model_params(sets, bank: bool = False, checkpoint: Typing | None = None) -> dict:
    """The AttentionView params that offer these models, the first on show: (name, AttentionSet,
    titles) each; bank=True carries every head in the page (an exported file); checkpoint: what a
    sentence typed in the page goes through (Typing)."""
    models = [model_entry(aset, name, titles, bank=bank, kind=kind_of(name), typable=checkpoint is not None and aset.run is not None,
                          typed_name=OWN_MODEL) for name, aset, titles in sets]
    name, aset, _ = sets[0]
    return {"models": models, "attention_sets": {name: (aset, titles) for name, aset, titles in sets},
            "checkpoint": checkpoint,
            "source": {"kind": kind_of(name), "name": name}, "query": default_query(aset), "heads": 1, "scale": True, "causal": aset.causal}


def compared_sets(sets, checkpoint, other) -> list[tuple[str, AttentionSet, dict]]:
    """Each (name, AttentionSet, titles) of `checkpoint` with the same sentence run through the
    checkpoint `other` to compare with (AttentionSet.compared): ModelError unless both have the
    same layers and heads and split every sentence into the same tokens."""
    from dataclasses import replace

    from attention_core.transformer import ModelError

    if (other.config.layers, other.config.heads) != (checkpoint.config.layers, checkpoint.config.heads):
        raise ModelError(f"{other.name} has {other.config.layers} layers × {other.config.heads} heads and {checkpoint.name} "
                         f"{checkpoint.config.layers} × {checkpoint.config.heads}: only checkpoints of one shape can be compared")
    made = []
    for name, aset, titles in sets:
        _, theirs, _ = sentence_set(other, name, " ".join(aset.word_texts))
        if theirs.pieces != aset.pieces:
            raise ModelError(f"{other.name} and {checkpoint.name} split the sentence into different tokens "
                             f"({len(theirs.pieces)} and {len(aset.pieces)}): only checkpoints with the same tokenizer can be compared")
        made.append((name, replace(aset, compared=(({"name": other.name, "folder": other.name}, theirs),)), titles))
    return made


def page_sets(model=None, attentions=None, sentences=(), compare=None):
    """What `serve` and `export` offer: the sentences run through the checkpoint folder `model`
    (each compared with the checkpoint folder `compare`, when given: compared_sets), then the
    weights of the .npz `attentions` (either may be None); and what a typed sentence goes through
    (Typing: the loaded checkpoint and the one compared with), or None.
    ModelError names the folder, file, tensor or sentence that does not work."""
    from attention_core.checkpoint import load_checkpoint
    from attention_core.imported import load_npz
    from attention_core.transformer import ModelError

    checkpoint = load_checkpoint(model) if model else None
    sets = checkpoint_sets(checkpoint, sentences) if model else []
    if compare and not model:
        raise ModelError("--compare needs --model: the checkpoint to compare it with")
    other = load_checkpoint(compare) if compare else None
    if other is not None:
        sets = compared_sets(sets, checkpoint, other)
    if attentions:
        aset = load_npz(attentions)
        sets.append((f"imported-{len(sets) + 1}", aset, {"ko": aset.source, "en": aset.source}))
    return sets, Typing(checkpoint, other) if checkpoint is not None else None
