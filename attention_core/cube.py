"""The state cube: every view of one sentence, computed at once and packed for a browser."""
from __future__ import annotations

import base64
import zlib
from dataclasses import dataclass

import numpy as np

from .answer import softmax_slips
from .attention import AttentionResult, as_matrix, attention, causal_mask

#: Head counts the UI offers; a sentence gets those that divide its widths.
HEAD_CHOICES = (1, 2, 4, 8)


def head_counts(d_model: int, dv_model: int) -> tuple[int, ...]:
    """The entries of HEAD_CHOICES that divide both d_model and dv_model."""
    return tuple(h for h in HEAD_CHOICES if d_model % h == 0 and dv_model % h == 0)


@dataclass(frozen=True)
class StateCube:
    """Attention of one sentence for every head count, √d on/off and causal on/off.

    q, k: (n, d_model); v: (n, dv_model)
    results[(heads, scale, causal)]: the AttentionResult of that view
    """

    tokens: tuple[str, ...]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    head_counts: tuple[int, ...]
    results: dict

    @property
    def n(self) -> int:
        return len(self.tokens)

    def result(self, heads: int, scale: bool, causal: bool) -> AttentionResult:
        return self.results[(int(heads), bool(scale), bool(causal))]


def state_cube(tokens, q, k, v, head_choices=None) -> StateCube:
    """Compute every view of a sentence. tokens: n strings; q, k: (n, d_model); v: (n, dv_model).
    head_choices: the head counts to offer (default HEAD_CHOICES), of those that divide the widths."""
    tokens = tuple(str(t) for t in tokens)
    q, k, v = as_matrix("Q", q), as_matrix("K", k), as_matrix("V", v)
    if len(tokens) != q.shape[0]:
        raise ValueError(f"{len(tokens)} tokens but Q has {q.shape[0]} rows: give one Q/K/V row per token")
    counts = tuple(h for h in head_counts(q.shape[1], v.shape[1]) if h in (head_choices or HEAD_CHOICES))
    results = {
        (h, scale, causal): attention(q, k, v, heads=h, scale=scale, causal=causal)
        for h in counts for scale in (False, True) for causal in (False, True)
    }
    return StateCube(tokens=tokens, q=q, k=k, v=v, head_counts=counts, results=results)


def _cube_arrays(cube: StateCube, slips: bool = True) -> dict[str, np.ndarray]:
    """Every array the browser needs, by name; with n tokens and per head count h:
      scores/h  (h, n, n)
      scaled/h  (h, n, n)            with √d on; with it off, scaled equals scores
      weights/h (2, 2, h, n, n)      [scale][causal]
      output/h  (2, 2, h, n, dv/h)   [scale][causal]
      skipped/h, sumnorm/h (2, 2, h, n, dv/h)  the outputs with softmax skipped, or the scores
                divided by their sum (NaN where that sum is 0): the answer checker's slips
    and q, k (n, d_model), v (n, dv_model), and mask (n, n): 1 where the causal mask hides key j
    from query i, so that the browser never decides that itself. slips=False leaves the slips out.
    """
    arrays = {"q": cube.q, "k": cube.k, "v": cube.v, "mask": causal_mask(cube.n).astype(np.float64)}
    pick = cube.result
    for h in cube.head_counts:
        arrays[f"scores/{h}"] = pick(h, False, False).scores
        arrays[f"scaled/{h}"] = pick(h, True, False).scaled
        arrays[f"weights/{h}"] = np.stack([np.stack([pick(h, s, c).weights for c in (False, True)])
                                           for s in (False, True)])
        arrays[f"output/{h}"] = np.stack([np.stack([pick(h, s, c).output for c in (False, True)])
                                          for s in (False, True)])
        if not slips:
            continue
        # the answer checker's slips that are no other view's output, from the results already here
        made = {(s, c): softmax_slips(pick(h, s, c), cube.v) for s in (False, True) for c in (False, True)}
        for index, name in enumerate(("skipped", "sumnorm")):
            arrays[f"{name}/{h}"] = np.stack([np.stack([made[(s, c)][index] for c in (False, True)])
                                              for s in (False, True)])
    return arrays


#: how a payload's numbers may travel: exact float64, or float32 (a real model's weights are float32)
ENCODINGS = {"zlib-float64le-base64": "<f8", "zlib-float32le-base64": "<f4"}


def pack_arrays(arrays: dict[str, np.ndarray], dtype: str = "<f8") -> dict:
    """Arrays by name as one blob: their numbers little-endian, concatenated, zlib-compressed and
    base64-encoded, with `layout` giving each array's offset (in numbers) and shape."""
    layout, offset, parts = {}, 0, []
    for name, array in arrays.items():
        layout[name] = {"offset": offset, "shape": list(np.shape(array))}
        offset += int(np.size(array))
        parts.append(np.ascontiguousarray(array, dtype=dtype).tobytes())
    encoding = next(name for name, kind in ENCODINGS.items() if kind == dtype)
    return {"encoding": encoding, "layout": layout,
            "data": base64.b64encode(zlib.compress(b"".join(parts), 9)).decode("ascii")}


def cube_payload(cube: StateCube, extra: dict[str, np.ndarray] | None = None, *, slips: bool = True,
                 dtype: str = "<f8") -> dict:
    """The cube as JSON-ready data for the browser: metadata, plus every array in one blob.

    The blob (pack_arrays) holds exact numbers in a few kilobytes (masked zeros and uniform rows
    compress well). The browser only indexes these numbers; it never recomputes them. `extra`:
    more arrays by name, packed in the same blob (where they repeat the cube's numbers, the
    compression takes them almost free). slips=False leaves out the answer checker's slips;
    dtype "<f4" sends float32.
    """
    return {
        "tokens": list(cube.tokens),
        "n": cube.n,
        "d_model": int(cube.q.shape[1]),
        "dv_model": int(cube.v.shape[1]),
        "head_counts": list(cube.head_counts),
        "blocks": {str(h): {"d_k": cube.q.shape[1] // h, "sqrt_d_k": float(np.sqrt(cube.q.shape[1] // h)),
                            "d_v": cube.v.shape[1] // h} for h in cube.head_counts},
        **pack_arrays({**_cube_arrays(cube, slips), **(extra or {})}, dtype),
    }


def weights_payload(tokens, weights: np.ndarray, extra: dict[str, np.ndarray] | None = None,
                    dtype: str = "<f8") -> dict:
    """A payload of weights alone (m tokens, weights (m, m)), where Q and K are not known or the
    tokens are not the model's own: `weights/1` (1, 1, 1, m, m), one head at the model's own
    switches, which the browser then cannot change. No scores, no outputs."""
    weights = np.asarray(weights, dtype=np.float64)
    return {
        "tokens": [str(t) for t in tokens], "n": len(tokens), "d_model": 0, "dv_model": 0, "head_counts": [1],
        "blocks": {"1": {"d_k": 0, "sqrt_d_k": 0.0, "d_v": 0}}, "weights_only": True,
        **pack_arrays({"weights/1": weights[None, None, None], **(extra or {})}, dtype),
    }


def decode_payload(payload: dict) -> dict[str, np.ndarray]:
    """Inverse of cube_payload's blob: every array by name, as the browser sees it."""
    numbers = np.frombuffer(zlib.decompress(base64.b64decode(payload["data"])), dtype=ENCODINGS[payload["encoding"]])
    return {name: numbers[spec["offset"]:spec["offset"] + int(np.prod(spec["shape"]))].reshape(spec["shape"])
            for name, spec in payload["layout"].items()}
