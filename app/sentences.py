"""Presets and custom sentences turned into the entries the browser view indexes."""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from attention_core import PRESETS, Named, Preset, cube_payload, state_cube
from attention_core import attention
from attention_core.cube import SWITCHES, TOKEN_ROWS, cube_arrays, cube_meta, pack_arrays, stack_arrays
from attention_core.layer import attention_layer, output_projection
from attention_core.lenses import moved_share, value_weighted
from attention_core.practice import practice_preset, practice_problem, practice_rows



def caption_scope(preset: Preset, heads: int) -> list[list[list[int]]]:
    """For each head's caption, the (query, key) token indices it speaks of; [] for a general one.
    A claim names tokens by their text (a designed preset) or by index (a typed sentence)."""
    index = lambda token: token if isinstance(token, int) else preset.tokens.index(token)  # noqa: E731
    claims = preset.claims.get(heads, [[] for _ in range(heads)])
    return [[[index(claim[0]), index(claim[1])] for claim in head] for head in claims]


#: a weight matrix's axes: a row per input dimension, a column per output dimension
MATRIX = ("in", "out")


def layer_arrays(preset: Preset) -> dict[str, Named]:
    """The rest of the layer, for the cube, where the preset shows it (attention_core.layer):
      layer/e, layer/p, layer/x (token, dim); layer/w_q, layer/w_k, layer/w_v (in, out): where
      Q, K, V come from (X W_Q, X W_K, X W_V are the cube's q, k, v); layer/w_o (in, out) and
      layer/out/h (scale, causal, token, dim) for each head count h: the heads' outputs
      concatenated and multiplied by W_O."""
    arrays = {}
    if preset.layer is not None:
        made = attention_layer(**preset.layer)
        arrays |= {"layer/e": Named(made.embeddings, TOKEN_ROWS), "layer/p": Named(made.positions, TOKEN_ROWS),
                   "layer/x": Named(made.x, TOKEN_ROWS),
                   **{f"layer/{name}": Named(preset.layer[name], MATRIX) for name in ("w_q", "w_k", "w_v")}}
    if preset.w_o is not None:
        arrays["layer/w_o"] = Named(preset.w_o, MATRIX)
        for h in preset.offered_heads():
            arrays[f"layer/out/{h}"] = Named(np.stack([np.stack([
                output_projection(attention(preset.q, preset.k, preset.v, heads=h, scale=s, causal=c).concat, preset.w_o)
                for c in (False, True)]) for s in (False, True)]), SWITCHES + TOKEN_ROWS)
    return arrays


def sentence_fields(preset: Preset, name: str | None = None, kind: str = "preset") -> dict:
    """A sentence's entry but its cube: its kind (app.kinds.SENTENCE_KINDS), name, how a link makes it
    again, titles, per-head captions, default query, origin and roles."""
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
    }


def preset_cube(preset: Preset):
    """The preset's StateCube, at the head counts it offers."""
    return state_cube(preset.tokens, preset.q, preset.k, preset.v, preset.head_choices)


def one_head_lens(cube) -> dict[str, Named]:
    """A sentence's lens at one head (the book's), at every switch: lens/drawn (scale, causal, lens,
    query, key) with its one lens, "moved" (attention_core.lenses.DRAWN's first after the weight):
    the share of what each key adds to the query's output, α_ij ‖v_j‖ over the row's sum."""
    norms = np.linalg.norm(cube.v, axis=-1)
    drawn = np.stack([np.stack([moved_share(value_weighted(cube.result(1, scale, causal).weights[0], norms))
                                for causal in (False, True)]) for scale in (False, True)])
    return {"lens/drawn": Named(drawn[:, :, None], SWITCHES + ("lens", "query", "key"))}


def sentence_entry(preset: Preset, name: str | None = None, extra: dict[str, Named] | None = None,
                   kind: str = "preset") -> dict:
    """One sentence for the view: sentence_fields and the packed cube (with the layer's arrays, its
    one-head lens but for a practice problem, and `extra` arrays, in its blob, see cube_payload)."""
    cube = preset_cube(preset)
    lens = one_head_lens(cube) if kind != "practice" else {}
    return {**sentence_fields(preset, name, kind),
            "cube": cube_payload(cube, {**layer_arrays(preset), **lens, **(extra or {})})}


@lru_cache(maxsize=None)
def _preset_entry(name: str) -> dict:
    return sentence_entry(PRESETS[name])


def preset_entries(names=None) -> list[dict]:
    """Entries for the named presets (default: all), each computed once per process."""
    return [_preset_entry(name) for name in (names or PRESETS)]


def practice_parts(number: int) -> tuple[Preset, dict[str, Named], dict]:
    """Practice problem `number` as (its sentence, the rows the student writes as arrays, the
    entry's `practice`). Row r's truth and slips are the array `practice/r` (path, dim): the truth
    first, then the slips named, in order, by practice["slips"][r]. Raises InputError for a
    number with no problem."""
    problem = practice_problem(number)
    rows = practice_rows(problem)
    arrays = {f"practice/{name}": Named(np.stack([row.truth, *(path for _, path in row.slips)]), ("path", "dim"))
              for name, row in rows.items()}
    practice = {"number": problem.number, "query": problem.query,
                "slips": {name: [slip for slip, _ in row.slips] for name, row in rows.items()}}
    return practice_preset(problem), arrays, practice


@lru_cache(maxsize=256)
def practice_entry(number: int) -> dict:
    """Practice problem `number` as an entry: the problem as a sentence (one head), and the rows
    the student writes (attention_core.practice, see practice_parts), which the page's checker
    looks up. Raises InputError for a number with no problem."""
    preset, arrays, practice = practice_parts(number)
    return {**sentence_entry(preset, extra=arrays, kind="practice"), "practice": practice}


def practice_bank(count: int, one_blob: bool = False) -> list[dict]:
    """Problems 1 to `count` as entries, for a page with no server to ask. one_blob=True: one
    blob and one layout for them all (each array gains a first axis, `problem`), which every
    entry's cube names and picks its own problem from with `select`; the standalone file stores
    that repeated blob and layout once (app.export.share_repeats), and the blob compresses the
    problems' many shared numbers together (41 kB for 100, against 73 kB apart)."""
    if not one_blob:
        return [practice_entry(number) for number in range(1, count + 1)]
    made = [practice_parts(number) for number in range(1, count + 1)]
    if not made:
        return []
    cubes = [preset_cube(preset) for preset, _, _ in made]
    packed = pack_arrays(stack_arrays([{**cube_arrays(cube), **layer_arrays(preset), **arrays}
                                       for cube, (preset, arrays, _) in zip(cubes, made)], "problem"))
    return [{**sentence_fields(preset, kind="practice"), "cube": {**cube_meta(cube), **packed, "select": {"problem": index}},
             "practice": practice}
            for index, (cube, (preset, _, practice)) in enumerate(zip(cubes, made))]
