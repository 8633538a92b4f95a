"""The state cube: every view of one sentence, computed at once and packed for a browser."""
from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass

import numpy as np

from .attention import AttentionResult, as_matrix, attention, hidden_keys
from .scale_effect import scale_effects

#: Head counts the UI offers; a sentence gets those that divide its widths.
HEAD_CHOICES = (1, 2, 4, 8)


def head_counts(d_model: int, dv_model: int) -> tuple[int, ...]:
    """The entries of HEAD_CHOICES that divide both d_model and dv_model."""
    return tuple(h for h in HEAD_CHOICES if d_model % h == 0 and dv_model % h == 0)


#: axis names the layouts use (docs/architecture.md, "The state cube")
SWITCHES = ("scale", "causal")       # 0 off, 1 on
HEAD_MATRIX = ("head", "query", "key")
HEAD_ROWS = ("head", "query", "dim")
TOKEN_ROWS = ("token", "dim")
SWITCH_ROWS = ("causal", "head", "query")


@dataclass(frozen=True)
class Named:
    """An array with a name for each of its axes: the browser indexes it by those names, so no
    caller depends on their order, and an axis an array lacks is a switch it does not vary with.

    values: any shape; axes: one name per axis of values
    """

    values: np.ndarray
    axes: tuple[str, ...]

    def __post_init__(self):
        object.__setattr__(self, "values", np.asarray(self.values, dtype=np.float64))
        object.__setattr__(self, "axes", tuple(self.axes))
        if self.values.ndim != len(self.axes) or len(set(self.axes)) != len(self.axes):
            raise ValueError(f"{self.values.ndim} axes need as many distinct names, not {self.axes}")


@dataclass(frozen=True)
class StateCube:
    """Attention of one sentence for every head count, √d on/off and causal on/off.

    q, k: (n, d_model); v: (n, dv_model)
    results[(heads, scale, causal)]: the AttentionResult of that view
    window: a sliding window the mask adds to the causal one (Mistral's), 0 for none
    """

    tokens: tuple[str, ...]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    head_counts: tuple[int, ...]
    results: dict
    window: int = 0

    @property
    def n(self) -> int:
        return len(self.tokens)

    def result(self, heads: int, scale: bool, causal: bool) -> AttentionResult:
        return self.results[(int(heads), bool(scale), bool(causal))]


def state_cube(tokens, q, k, v, head_choices=None, window: int = 0) -> StateCube:
    """Compute every view of a sentence. tokens: n strings; q, k: (n, d_model); v: (n, dv_model).
    head_choices: the head counts to offer (default HEAD_CHOICES), of those that divide the widths.
    window: a model's sliding window, part of its mask (with the mask off, no window either)."""
    tokens = tuple(str(t) for t in tokens)
    q, k, v = as_matrix("Q", q), as_matrix("K", k), as_matrix("V", v)
    if len(tokens) != q.shape[0]:
        raise ValueError(f"{len(tokens)} tokens but Q has {q.shape[0]} rows: give one Q/K/V row per token")
    counts = tuple(h for h in head_counts(q.shape[1], v.shape[1]) if h in (head_choices or HEAD_CHOICES))
    results = {
        (h, scale, causal): attention(q, k, v, heads=h, scale=scale, causal=causal, window=window if causal else 0)
        for h in counts for scale in (False, True) for causal in (False, True)
    }
    return StateCube(tokens=tokens, q=q, k=k, v=v, head_counts=counts, results=results, window=window)


def one_head(cube: StateCube, causal: bool) -> AttentionResult:
    """The sentence at one head with √d on (the heads note compares each head with it), also where
    the cube does not offer one head."""
    if (1, True, causal) in cube.results:
        return cube.result(1, True, causal)
    return attention(cube.q, cube.k, cube.v, heads=1, scale=True, causal=causal, window=cube.window if causal else 0)


def cube_arrays(cube: StateCube) -> dict[str, Named]:
    """Every array the browser needs, by name, each with its axes (docs/architecture.md, "The state
    cube"); with n tokens and per head count h:
      scores/h  (head, query, key)                        q·k
      scaled/h  (head, query, key)                        with √d on; with it off, scaled equals scores
      weights/h (scale, causal, head, query, key)         scale and causal: 0 off, 1 on
      output/h  (scale, causal, head, query, dim)
      effect/h  (causal, head, query)                     what ÷√d_k does to the query's weights,
                an index into scale_effect.EFFECTS; and for h > 1 sharpening/h (SHARPENINGS) and
                modelmax/h, the largest weight ÷√d_model instead (the heads note)
    and q, k, v (token, dim), and mask (query, key): 1 where the mask hides key from query (the
    causal mask, and a model's sliding window),
    so that the browser never decides that itself. (The answer checker's slips are not here: the
    page runs their ways on the scores and V, attention_core.honest.)
    """
    arrays = {"q": Named(cube.q, TOKEN_ROWS), "k": Named(cube.k, TOKEN_ROWS), "v": Named(cube.v, TOKEN_ROWS),
              "mask": Named(hidden_keys(cube.n, True, cube.window), ("query", "key"))}
    pick = cube.result

    def by_switch(values) -> np.ndarray:
        """values(scale, causal) for every switch, stacked as [scale][causal]."""
        return np.stack([np.stack([values(s, c) for c in (False, True)]) for s in (False, True)])

    for h in cube.head_counts:
        arrays[f"scores/{h}"] = Named(pick(h, False, False).scores, HEAD_MATRIX)
        arrays[f"scaled/{h}"] = Named(pick(h, True, False).scaled, HEAD_MATRIX)
        arrays[f"weights/{h}"] = Named(by_switch(lambda s, c: pick(h, s, c).weights), SWITCHES + HEAD_MATRIX)
        arrays[f"output/{h}"] = Named(by_switch(lambda s, c: pick(h, s, c).output), SWITCHES + HEAD_ROWS)
        # which sentence the page says beside each query's weights (attention_core.scale_effect)
        effect, sharpening, model_max = scale_effects({(s, c): pick(h, s, c) for s in (False, True) for c in (False, True)},
                                                      cube.q.shape[1], h, {c: one_head(cube, c) for c in (False, True)})
        arrays[f"effect/{h}"] = Named(effect, SWITCH_ROWS)
        if sharpening is not None:
            arrays[f"sharpening/{h}"] = Named(sharpening, SWITCH_ROWS)
            arrays[f"modelmax/{h}"] = Named(model_max, SWITCH_ROWS)
    return arrays


#: how the blob's numbers travel, by the layout's `dtype`: little-endian floats, and integers in the
#: narrowest type that holds them exactly (a practice problem's Q, K, V, the mask, a model's ranks)
DTYPES = {"f8": "<f8", "f4": "<f4", "u2": "<u2", "i2": "<i2", "u1": "|u1", "i1": "|i1"}
_INTEGERS = (("u1", 0, 255), ("i1", -128, 127), ("u2", 0, 65535), ("i2", -32768, 32767))
ENCODING = "zlib-base64"


def travel_dtype(values: np.ndarray, floats: str = "f8") -> str:
    """The layout dtype an array travels as: the narrowest integer type when every number is an
    integer it holds exactly, else `floats`."""
    if values.size and np.all(np.isfinite(values)) and np.array_equal(values, np.round(values)):
        low, high = float(values.min()), float(values.max())
        for name, least, most in _INTEGERS:
            if least <= low and high <= most:
                return name
    return floats


def pack_arrays(arrays: dict[str, Named], floats: str = "f8") -> dict:
    """Arrays by name as one blob: their numbers little-endian (each as travel_dtype says: exact),
    concatenated, zlib-compressed and base64-encoded, with `layout[name] = {offset, shape, axes,
    dtype}` (offset in bytes). Wider types come first, so that each array starts at a multiple of
    its item size and the browser reads it in place."""
    if floats not in ("f8", "f4"):
        raise ValueError(f"floats must be f8 or f4, not {floats!r}")
    kinds = {name: travel_dtype(named.values, floats) for name, named in arrays.items()}
    order = sorted(arrays, key=lambda name: -np.dtype(DTYPES[kinds[name]]).itemsize)
    layout, offset, parts = {}, 0, []
    for name in order:
        values = np.ascontiguousarray(arrays[name].values, dtype=DTYPES[kinds[name]])
        layout[name] = {"offset": offset, "shape": list(values.shape), "axes": list(arrays[name].axes),
                        "dtype": kinds[name]}
        offset += values.nbytes
        parts.append(values.tobytes())
    return {"encoding": ENCODING, "layout": {name: layout[name] for name in arrays},
            "data": base64.b64encode(zlib.compress(b"".join(parts), 9)).decode("ascii")}


def stack_arrays(many: list[dict[str, Named]], axis: str) -> dict[str, Named]:
    """Several payloads' arrays (the same names and axes in each) as one set with a new first axis
    `axis`: one blob and one layout for all, each entry picking its own with `select` (e.g. the
    practice problems of an exported file). An array shorter in one payload than another is
    padded with NaN, which no one reads (a practice row with fewer slips)."""
    stacked = {}
    for name, first in many[0].items():
        parts = [arrays[name].values for arrays in many]
        if any(arrays[name].axes != first.axes for arrays in many):
            raise ValueError(f"{name} has different axes in different payloads")
        shape = np.max([part.shape for part in parts], axis=0)
        padded = np.full((len(parts), *shape), np.nan)
        for index, part in enumerate(parts):
            padded[(index, *(slice(0, size) for size in part.shape))] = part
        stacked[name] = Named(padded, (axis, *first.axes))
    return stacked


def cube_meta(cube: StateCube) -> dict:
    """What the browser knows of a cube before its numbers: tokens, widths, head counts, blocks."""
    return {
        "tokens": list(cube.tokens),
        "n": cube.n,
        "d_model": int(cube.q.shape[1]),
        "sqrt_d_model": float(np.sqrt(cube.q.shape[1])),  # what one head divides by (the heads note)
        "dv_model": int(cube.v.shape[1]),
        "head_counts": list(cube.head_counts),
        "blocks": {str(h): {"d_k": cube.q.shape[1] // h, "sqrt_d_k": float(np.sqrt(cube.q.shape[1] // h)),
                            "d_v": cube.v.shape[1] // h} for h in cube.head_counts},
    }


def cube_payload(cube: StateCube, extra: dict[str, Named] | None = None, *,
                 floats: str = "f8") -> dict:
    """The cube as JSON-ready data for the browser: metadata, plus every array in one blob.

    The blob (pack_arrays) holds exact numbers in a few kilobytes (masked zeros and uniform rows
    compress well). The browser only indexes these numbers, by axis name; it never recomputes
    them. `extra`: more arrays by name, packed in the same blob (where they repeat the cube's
    numbers, the compression takes them almost free). floats "f4" sends float32.
    """
    return {**cube_meta(cube), **pack_arrays({**cube_arrays(cube), **(extra or {})}, floats)}


def weights_payload(tokens, weights: np.ndarray, extra: dict[str, Named] | None = None,
                    floats: str = "f8") -> dict:
    """A payload of weights alone (m tokens, weights (m, m)), where Q and K are not known or the
    tokens are not the model's own: `weights/1` (head, query, key) with one head, at the model's
    own switches: it has no scale or causal axis, so the browser's switches do not apply to it.
    No scores, no outputs."""
    weights = np.asarray(weights, dtype=np.float64)
    return {
        "tokens": [str(t) for t in tokens], "n": len(tokens), "d_model": 0, "dv_model": 0, "head_counts": [1],
        "blocks": {"1": {"d_k": 0, "sqrt_d_k": 0.0, "d_v": 0}}, "weights_only": True,
        **pack_arrays({"weights/1": Named(weights[None], HEAD_MATRIX), **(extra or {})}, floats),
    }


def decode_payload(payload: dict) -> dict[str, np.ndarray]:
    """Inverse of pack_arrays: every array by name, as the browser sees it (with the payload's
    `select` applied: each named axis fixed at its index, and gone)."""
    if payload["encoding"] != ENCODING:
        raise ValueError(f"unknown payload encoding {payload['encoding']!r}")
    blob = zlib.decompress(base64.b64decode(payload["data"]))
    arrays = {}
    for name, spec in payload["layout"].items():
        array = np.frombuffer(blob, dtype=DTYPES[spec["dtype"]], count=int(np.prod(spec["shape"])),
                              offset=spec["offset"]).reshape(spec["shape"])
        picked = tuple(payload.get("select", {}).get(axis, slice(None)) for axis in spec["axes"])
        arrays[name] = array[picked]
    return arrays


def payload_axes(payload: dict) -> dict[str, list[str]]:
    """Each array's axis names, as the browser indexes them (select's axes gone)."""
    select = payload.get("select", {})
    return {name: [axis for axis in spec["axes"] if axis not in select] for name, spec in payload["layout"].items()}
