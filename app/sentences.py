"""Presets and custom sentences turned into the entries the browser view indexes."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from attention_core import PRESETS, Preset, cube_payload, state_cube
from attention_core import attention
from attention_core.layer import attention_layer, output_projection
from attention_core.practice import practice_preset, practice_problem, practice_rows

from .kinds import MODEL_KINDS, SENTENCE_KINDS  # noqa: F401 (callers import them from here too)


def caption_scope(preset: Preset, heads: int) -> list[list[list[int]]]:
    """For each head's caption, the (query, key) token indices it speaks of; [] for a general one.
    A claim names tokens by their text (a designed preset) or by index (a typed sentence)."""
    index = lambda token: token if isinstance(token, int) else preset.tokens.index(token)  # noqa: E731
    claims = preset.claims.get(heads, [[] for _ in range(heads)])
    return [[[index(claim[0]), index(claim[1])] for claim in head] for head in claims]


def layer_arrays(preset: Preset) -> dict[str, np.ndarray]:
    """The rest of the layer, for the cube, where the preset shows it (attention_core.layer):
      layer/e, layer/p, layer/x (n, d_model); layer/w_q, layer/w_k (d_model, d_qk); layer/w_v
      (d_model, d_v): where Q, K, V come from (X W_Q, X W_K, X W_V are the cube's q, k, v);
      layer/w_o (dv_model, d_out) and layer/out/h (2, 2, n, d_out) [scale][causal] for each head
      count h: the heads' outputs concatenated and multiplied by W_O."""
    arrays = {}
    if preset.layer is not None:
        made = attention_layer(**preset.layer)
        arrays |= {"layer/e": made.embeddings, "layer/p": made.positions, "layer/x": made.x,
                   **{f"layer/{name}": np.asarray(preset.layer[name], dtype=float) for name in ("w_q", "w_k", "w_v")}}
    if preset.w_o is not None:
        arrays["layer/w_o"] = np.asarray(preset.w_o, dtype=float)
        for h in preset.offered_heads():
            arrays[f"layer/out/{h}"] = np.stack([np.stack([
                output_projection(attention(preset.q, preset.k, preset.v, heads=h, scale=s, causal=c).concat, preset.w_o)
                for c in (False, True)]) for s in (False, True)])
    return arrays


def sentence_entry(preset: Preset, name: str | None = None, extra: dict | None = None, kind: str = "preset") -> dict:
    """One sentence for the view: its kind (SENTENCE_KINDS), titles, per-head captions, default
    query and the packed cube (with the layer's arrays, and `extra` arrays, in its blob, see cube_payload)."""
    return {
        "kind": kind,
        "name": name or preset.name,
        # how the page's link makes it again: by its name, or (numbers typed in the page) by its matrices
        "link": "matrices" if kind == "numbers" else "name",
        "titles": {"ko": preset.title_ko, "en": preset.title_en},
        "captions": {str(h): {**by_lang, "scope": caption_scope(preset, h)} for h, by_lang in preset.captions.items()},
        "default_query": preset.default_query,
        "origin": preset.origin,
        "roles": list(preset.roles),
        "cube": cube_payload(state_cube(preset.tokens, preset.q, preset.k, preset.v, preset.head_choices),
                             {**layer_arrays(preset), **(extra or {})}),
    }


@lru_cache(maxsize=None)
def _preset_entry(name: str) -> dict:
    return sentence_entry(PRESETS[name])


def preset_entries(names=None) -> list[dict]:
    """Entries for the named presets (default: all), each computed once per process."""
    return [_preset_entry(name) for name in (names or PRESETS)]


@lru_cache(maxsize=256)
def practice_entry(number: int) -> dict:
    """Practice problem `number` as an entry: the problem as a sentence (one head), and the rows
    the student writes (attention_core.practice), which the page's checker looks up. Row r's
    truth and slips travel in the cube as the array `practice/r` (1 + slips, m): the truth
    first, then the slips named, in order, by entry["practice"]["slips"][r]. Raises InputError
    for a number with no problem."""
    problem = practice_problem(number)
    rows = practice_rows(problem)
    arrays = {f"practice/{name}": np.stack([row.truth, *(path for _, path in row.slips)]) for name, row in rows.items()}
    return {**sentence_entry(practice_preset(problem), extra=arrays, kind="practice"),
            "practice": {"number": problem.number, "query": problem.query,
                         "slips": {name: [slip for slip, _ in row.slips] for name, row in rows.items()}}}


def practice_bank(count: int) -> list[dict]:
    """Problems 1 to `count` as entries, for a page with no server to ask."""
    return [practice_entry(number) for number in range(1, count + 1)]
