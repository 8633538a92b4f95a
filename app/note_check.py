"""What a note says (app/note_reader.py) checked against the stop's numbers: the first assertion that
is false, worded in each language with the numbers as they are.

`at(switches, heads)` gives the stop's numbers at its view with `switches` set ({"scale": bool,
"causal": bool}, the stop's own where not said) and, where `heads` is given, that head count (head 0):
a dict of (keys,) rows for the head shown — scores, scaled, weights, output (d_v,), v (keys, d_v),
each None where the view has its weights alone — and d_k, d_model, masked (keys,) booleans.
A number is checked at the decimals it is written with; an integer is an exact value (a weight of
0 is a masked key's, not one of 1e-8); a key's number given to another key is named as that key's.
"""
from __future__ import annotations

import math

import numpy as np

from attention_core import words

from .note_reader import Said

#: a weight shown as 0.000 at three decimals, and a change a student reading three decimals sees
UNSEEN = 0.0005
#: the quantities a number of a key may be
QUANTITIES = ("scores", "scaled", "weights", "output", "v")


def decimals(written: str) -> int:
    """How many decimals a number is written with."""
    return len(written.partition(".")[2])


def _read(written: str) -> float:
    written = written.replace("−", "-")
    return -math.inf if written == "-∞" else math.inf if written == "∞" else float(written)


def same(written: str, value: float) -> bool:
    """Whether `value` shows as `written` at its decimals; an integer is that integer (to 3
    decimals: a score of 6.8 is not "7"); −∞ is a masked score."""
    said = _read(written)
    if math.isinf(said) or math.isinf(value):
        return said == value
    places = decimals(written)
    return abs(said - value) <= (0.5 * 10 ** -places + 1e-9 if places else UNSEEN)


def _shown(value: float, written: str = "0.000") -> str:
    if math.isinf(value):
        return "-∞"
    return f"{value:.{max(3, decimals(written))}f}"


def _row(values, written=("0.000",)) -> str:
    """A row as a note would write it: integers as integers, else at the written decimals (3 at least)."""
    values = [float(x) for x in values]
    if all(math.isinf(x) or x == int(x) for x in values):
        return "(" + ", ".join("-∞" if math.isinf(x) else str(int(x)) for x in values) + ")"
    return "(" + ", ".join(_shown(x, written[0] if written else "0.000") for x in values) + ")"


class False_(Exception):
    """A false assertion: the catalog key saying how it is, and its values."""

    def __init__(self, code: str, **values):
        super().__init__(code)
        self.key, self.values = code, values

    def words(self, lang: str) -> str:
        values = {name: words.text(f"note_quantity_{value}", lang, "notes") if name == "quantity" else value
                  for name, value in self.values.items()}
        return words.text(f"note_truth_{self.key}", lang, "notes", **values)


def check_said(said: Said, tokens: tuple, query: int, at) -> None:
    """Raise False_ when `said` is not so at the stop (None where it is, or where it is a kind
    of statement these numbers cannot settle)."""
    numbers = at(said.switches, None)
    name = lambda key: tokens[key]  # noqa: E731
    weights = numbers["weights"]
    real = lambda keys: [k for k in keys if 0 <= k < len(tokens)]  # noqa: E731
    masked_keys = [k for k in range(len(tokens)) if numbers["masked"][k]]
    keys = tuple(dict.fromkeys(k2 for k in said.keys for k2 in ([k] if k >= 0 else masked_keys)))

    def row_of(quantity):
        row = numbers.get(quantity)
        if row is None:
            raise False_("weights_alone", quantity=quantity)
        return row

    if said.kind == "value":
        written = said.written[0]
        quantities = [said.quantity] if said.quantity in QUANTITIES else ["scores", "scaled", "weights", "output", "v"]
        if said.quantity == "sum":
            return
        for key in real(keys):
            if not any(numbers.get(q) is not None and q not in ("output", "v") and same(written, float(numbers[q][key])) for q in quantities):
                q = quantities[0] if said.quantity else "weights"
                if numbers.get(q) is None:
                    raise False_("weights_alone", quantity=q)
                owner = [tokens[j] for j in range(len(tokens)) if same(written, float(numbers[q][j]))]
                if owner:
                    raise False_("other_key", number=written, key=name(key), owner=", ".join(owner), quantity=q,
                                 value=_shown(float(numbers[q][key]), written))
                raise False_("value", number=written, key=name(key), quantity=q, value=_shown(float(numbers[q][key]), written))
        if not real(keys):
            pool = [float(x) for q in quantities if numbers.get(q) is not None for x in np.ravel(numbers[q])]
            pool += [math.sqrt(numbers["d_k"])] if numbers["d_k"] and not said.quantity else []
            if not any(same(written, x) for x in pool):
                if said.quantity in QUANTITIES and numbers.get(said.quantity) is not None:
                    raise False_("none_of", number=written, quantity=said.quantity, values=_row(np.ravel(numbers[said.quantity]), said.written))
                raise False_("no_number", number=written)
    elif said.kind == "row":
        candidates = [said.quantity] if said.quantity in ("scores", "scaled", "weights", "output") else ["scores", "scaled", "weights", "output"]
        for q in candidates:
            row = numbers.get(q)
            if row is not None and len(row) == len(said.written) and all(same(w, float(x)) for w, x in zip(said.written, row)):
                return
        if said.quantity not in ("scores", "scaled", "weights", "output") and numbers.get("v") is not None and any(
                len(v) == len(said.written) and all(same(w, float(x)) for w, x in zip(said.written, v)) for v in numbers["v"]):
            return
        q = said.quantity if said.quantity in ("scores", "scaled", "weights", "output") else (
            "output" if numbers.get("output") is not None and len(said.written) == len(numbers["output"]) != len(tokens) else "scores")
        if numbers.get(q) is None:
            raise False_("weights_alone", quantity=q)
        raise False_("row", said="(" + ", ".join(said.written) + ")", quantity=q, value=_row(numbers[q], said.written))
    elif said.kind == "vector":
        v = numbers.get("v")
        if v is not None and not any(len(row) == len(said.written) and all(same(w, float(x)) for w, x in zip(said.written, row)) for row in v):
            raise False_("vector", said="(" + ", ".join(said.written) + ")", values=", ".join(f"{tokens[j]} {_row(v[j], said.written)}" for j in range(len(tokens))))
    elif said.kind in ("top", "bottom"):
        row = row_of(said.quantity or "weights")
        row = np.where(np.isinf(row), np.nan, row) if said.kind == "bottom" else row
        if said.kind == "top":
            extreme = np.flatnonzero(row >= np.nanmax(row) - UNSEEN)
        else:
            extreme = np.flatnonzero(row <= np.nanmin(row) + UNSEEN)
        if list(extreme) != [keys[0]]:
            raise False_(said.kind, key=name(keys[0]), quantity=said.quantity or "weights",
                         owner=", ".join(tokens[j] for j in extreme), value=_shown(float(row[extreme[0]])))
    elif said.kind == "equal":
        chosen = real(keys) or [k for k in range(len(tokens)) if not numbers["masked"][k]]
        values = [round(float(weights[k]), 3) for k in chosen]
        if len(set(values)) > 1:
            raise False_("equal", values=", ".join(f"{tokens[k]} {weights[k]:.3f}" for k in chosen))
    elif said.kind in ("zero", "near_zero"):
        for key in real(keys):
            value = float(weights[key])
            if said.kind == "zero" and value != 0.0:
                raise False_("zero", key=name(key), value=f"{value:.3g}" if value < UNSEEN else f"{value:.3f}")
            if said.kind == "near_zero" and value == 0.0:
                raise False_("exactly_zero", key=name(key))
            if said.kind == "near_zero" and value >= UNSEEN:
                raise False_("not_near_zero", key=name(key), value=f"{value:.3f}")
        if -1 in said.keys and not masked_keys:
            raise False_("none_masked")
    elif said.kind == "masked":
        for key in real(keys):
            if not numbers["masked"][key]:
                raise False_("masked", key=name(key), value=f"{float(weights[key]):.3f}")
    elif said.kind == "sum":
        if not same(said.written[0], float(np.sum(weights))):
            raise False_("sum", number=said.written[0])
    elif said.kind == "d":
        d = {"d": (numbers["d_k"], numbers["d_model"]), "d_k": (numbers["d_k"],), "d_model": (numbers["d_model"],)}[said.which]
        if numbers["d_k"] is not None and int(said.written[0]) not in d:
            raise False_("d", which=said.which, number=said.written[0], value=str(d[-1] if said.which != "d" else d[0]))
    elif said.kind == "root":
        if numbers["d_k"] is None:
            return
        if int(said.written[0]) not in (numbers["d_k"],):
            raise False_("root", number=said.written[0], value=str(numbers["d_k"]))
        if len(said.written) > 1 and not same(said.written[1], math.sqrt(int(said.written[0]))):
            raise False_("root_value", number=said.written[0], said=said.written[1], value=f"{math.sqrt(int(said.written[0])):.3f}")
    elif said.kind == "tokens":
        if int(said.written[0]) != len(tokens):
            raise False_("tokens", number=said.written[0], value=str(len(tokens)))
    elif said.kind == "query":
        if keys[0] != query:
            raise False_("query", key=name(keys[0]), value=tokens[query])
    elif said.kind in ("compare", "change"):
        if said.base.get("heads"):
            this, other = numbers, at(said.switches, 1)
            against = "one_head"
        elif said.switches:
            switch, on = next(iter(said.switches.items()))
            other = at({switch: not on}, None)
            this = numbers
            against = f"{switch}_{'off' if on else 'on'}"
        else:
            raise False_("compare_what")
        if other is None:
            raise False_("compare_what")
        if said.kind == "compare":
            before, after = float(np.max(other["weights"])), float(np.max(this["weights"]))
            seen = "sharper" if after > before + UNSEEN else "flatter" if after < before - UNSEEN else "same"
            if seen != said.direction:
                raise False_("compare", said=said.direction, seen=seen, against=against, before=f"{before:.3f}", after=f"{after:.3f}")
        else:
            key = keys[0] if real(keys) else int(np.argmax(other["weights"]))
            before, after = float(other["weights"][key]), float(this["weights"][key])
            seen = "grows" if after > before + UNSEEN else "shrinks" if after < before - UNSEEN else "same"
            if seen != said.direction:
                raise False_("change", key=name(key), said=said.direction, seen=seen, against=against,
                             before=f"{before:.3f}", after=f"{after:.3f}")
    elif said.kind == "softmax_of_scores":
        scores = numbers.get("scores")
        if scores is not None and numbers["scaled"] is not None and not np.allclose(scores, numbers["scaled"]):
            shifted = np.where(np.isinf(numbers["scaled"]), -np.inf, scores)
            plain = np.exp(shifted - np.max(shifted))
            raise False_("softmax_of_scores", scores=_row(scores, ("0.0",)), plain=_row(plain / plain.sum()),
                         scaled=_row(numbers["scaled"], ("0.00",)))


def _mark(key: str, lang: str) -> str:
    return words.text(f"note_word_{key}", lang, "notes")


def worded(problem: False_) -> dict:
    """The problem's words in every language: {truth_ko, truth_en} (the sharper / flatter / grows
    words and what they were compared with, in that language)."""
    out = {}
    for lang in ("ko", "en"):
        values = dict(problem.values)
        for name in ("said", "seen", "against"):
            if name in values and values[name] in ("sharper", "flatter", "same", "grows", "shrinks", "one_head", "scale_on",
                                                   "scale_off", "causal_on", "causal_off"):
                values[name] = _mark(values[name], lang)
        out[f"truth_{lang}"] = False_(problem.key, **values).words(lang)
    return out
