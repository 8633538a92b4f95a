"""The view's parameters, declared once: what the student asked to see (the source, the query, the
switches, the heads, the step, a model's layer and head, …). Each is a param with its type, default
and range; its metadata says where else it goes:

  room  "follow": a room carries it and each student's page follows it (app/rooms.py checks it
        from this declaration); "carry": a room carries it, but a student keeps their own (the
        language: the rules need it)
  link  how the page's link reads and writes it (static/explorer/url.js), in declaration order:
        "write": "always", or "changed" (only where it is not the default); "read": "page" (read
        whatever the source is), "view" (read after the source's own opening view: a model opens
        with its switches), or "own" (its valid values depend on the entry on show: url.js reads it
        with code of its own); "key": its name in the link, where that is not the param's.
        A param without `link` is not in the link, or (a model's layer, head, …) only in url.js's
        model view.

The explorer component (app/explorer.py AttentionView) is made of these params; the page mirrors
every one (static/explorer/page_store.js) from view_table(), which Python sends with its constants,
so a new parameter is declared here and nowhere else (docs/architecture.md "Where a change goes").
"""
from __future__ import annotations

import re

import param

from attention_core import DEFAULT_PRESET, HEAD_CHOICES
from attention_core.lenses import DRAWN
from attention_core.why_scale import BOOK_D, DIMENSIONS
from attention_core.words import LANGUAGES

from .kinds import source_problem

#: Normal, lecture mode for a projector, or a lesson walked alone (a question's answer hidden until
#: the student predicts it: static/explorer/lesson_predict.js).
MODES = ("normal", "lecture", "self")
#: The steps of the step-by-step reveal: scores, ÷√d_k, mask, softmax, weight × v, output.
STEPS = 6
#: The d the "why √d" slider starts at: the book's example's.
WHY_D = BOOK_D
#: A model's lines and bars show at first this many strongest keys of the query.
MODEL_TOP_K = 10

FOLLOW = {"room": "follow"}


def _link(read: str, write: str, **more) -> dict:
    return {"link": {"read": read, "write": write, **more}}


class Source(param.Dict):
    """The entry on show, typed: {kind, name} (app/kinds.py). Its form is checked here; on a view
    that checks sources (AttentionView._check_source), its name is checked in its kind's catalog
    too. A source refused raises ValueError, and the last good one stays."""

    def _validate_value(self, value, allow_None):
        super()._validate_value(value, allow_None)
        problem = source_problem(value)
        if problem is not None:
            raise ValueError(f"source {value!r}: {problem}")

    def __set__(self, obj, val):
        if getattr(obj, "_sources_checked", False):
            obj._check_source(val)
        super().__set__(obj, val)


class ViewParams(param.Parameterized):
    """What the student asked to see. Picking a token, a toggle or a head count changes these in
    the browser, which repaints with no round trip; Python sees the new values afterwards (and can
    set them, e.g. from a notebook)."""

    source = Source(default={"kind": "preset", "name": DEFAULT_PRESET},
                    metadata={**FOLLOW, **_link("own", "always", key="preset")},
                    doc="The entry on show, typed: {kind, name}, found in its kind's catalog (a model kind's in "
                        "`models`, else in `sentences`). `preset=<name>` still opens one (the constructor, links).")
    query = param.Integer(default=0, bounds=(0, None), metadata={**FOLLOW, **_link("own", "always")},
                          doc="Index of the query token.")
    scale = param.Boolean(default=True, metadata={**FOLLOW, **_link("view", "always")}, doc="Divide scores by √d_k.")
    causal = param.Boolean(default=False, metadata={**FOLLOW, **_link("view", "always")}, doc="Mask future keys.")
    heads = param.Selector(default=HEAD_CHOICES[0], objects=list(HEAD_CHOICES),
                           metadata={**FOLLOW, **_link("own", "always")},
                           doc="Number of heads; the browser shows 1 where the sentence does not offer it.")
    head_view = param.Integer(default=-1, bounds=(-1, max(HEAD_CHOICES) - 1),
                              metadata={**FOLLOW, **_link("view", "changed")},
                              doc="Head shown alone, or -1 for all.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES),
                          metadata={"room": "carry", **_link("page", "always")})
    mode = param.Selector(default=MODES[0], objects=list(MODES), metadata=_link("page", "always"))
    url_sync = param.Boolean(default=False, doc="Read and write the page URL's query string.")
    step = param.Integer(default=-1, bounds=(-1, STEPS - 1), metadata=FOLLOW,
                         doc="Step-by-step reveal: -1 shows everything, 0 to STEPS - 1 one step.")
    lab = param.Boolean(default=True, doc="Offer the parts that need Python: own sentence, own numbers.")
    why_d = param.Selector(default=WHY_D, objects=list(DIMENSIONS), metadata=_link("page", "changed"),
                           doc="The d of the 'why √d' view.")
    position = param.Boolean(default=True, metadata=_link("page", "changed"),
                             doc="The order view adds its position vectors.")
    layer = param.Integer(default=0, bounds=(0, None), metadata=FOLLOW, doc="A model's layer shown, from 0.")
    head = param.Integer(default=0, bounds=(0, None), metadata=FOLLOW, doc="A model's head shown, from 0.")
    merge = param.Boolean(default=True, metadata=FOLLOW,
                          doc="A model's tokens as whole 어절 (sum over key pieces, mean over query pieces), or as its "
                              "sub-word tokens.")
    special = param.Boolean(default=False, metadata=FOLLOW, doc="Show a model's special tokens ([CLS], [SEP], …).")
    top_k = param.Integer(default=MODEL_TOP_K, bounds=(1, None), doc="A model's lines and bars show this many "
                                                                     "strongest keys.")
    threshold = param.Number(default=0.0, bounds=(0.0, 1.0), doc="… and only keys of at least this weight.")
    lens = param.Selector(default=DRAWN[0], objects=list(DRAWN), metadata={**FOLLOW, **_link("view", "changed")},
                          doc="What a model's lines, bars and heatmap draw: the weights, or (at the model's own "
                              "switches) the share of what each key moves, the rollout to this layer, or the row "
                              "without the first token (attention_core.lenses).")
    rope = param.Boolean(default=True, metadata=FOLLOW,
                         doc="A Llama-family model's q and k rotated by position (RoPE), as the model does; False: "
                             "the experiment without the rotation, on the head shown.")
    compare = param.String(default="", metadata=FOLLOW,
                           doc="The checkpoint a model's heads are compared with (A1 - A2), by its entry name among "
                               "the model entry's `compared`; empty: the first.")
    window = param.Integer(default=-1, bounds=(-1, None), metadata=FOLLOW,
                           doc="A causal model's sliding window on the head shown: -1 the model's own, 0 none, else "
                               "that many keys back (an experiment; app.models.experiment_offer).")
    stop = param.Integer(default=1, bounds=(1, None), metadata=_link("page", "changed"),
                         doc="The stop of the lesson on show, from 1 (its view is the stop's: app/lessons.py).")
    checking = param.Boolean(default=False, doc="The student works an answer: the weights and the output stay hidden "
                                                "until it is right, or revealed.")


def _described(name: str, parameter: param.Parameter) -> dict:
    """One param as the page reads it: name, kind (bool | int | number | choice | text | source),
    default, its range or choices, and its metadata."""
    if isinstance(parameter, param.Boolean):
        kind = {"kind": "bool"}
    elif isinstance(parameter, param.Selector):
        kind = {"kind": "choice", "choices": list(parameter.objects)}
    elif isinstance(parameter, param.Integer):
        kind = {"kind": "int", "low": parameter.bounds[0], "high": parameter.bounds[1]}
    elif isinstance(parameter, param.Number):
        kind = {"kind": "number", "low": parameter.bounds[0], "high": parameter.bounds[1]}
    elif isinstance(parameter, Source):
        kind = {"kind": "source"}
    elif isinstance(parameter, param.String):
        kind = {"kind": "text"}
    else:
        raise TypeError(f"view param {name!r}: no kind for {type(parameter).__name__}")
    return {"name": name, **kind, "default": parameter.default, **(parameter.metadata or {})}


def view_table() -> list[dict]:
    """Every view param, in declaration order, as _described: what static/explorer reads."""
    return [_described(name, parameter) for name, parameter in ViewParams.param.objects("existing").items()
            if name != "name"]


def room_defaults() -> dict:
    """The view a room carries, each param at its default (a test's or a benchmark's view starts here)."""
    return {row["name"]: row["default"] for row in view_table() if row.get("room")}


def param_value(row: dict, value, *, written: bool = False):
    """A value of the view param `row` (a view_table row), as it came: a JSON value (a room's
    view), or with `written` a link's text (a lesson's view: 1 or 0, a number, a choice's name);
    None when it is not one the param takes (another kind, outside its range or choices). A param
    of kind "text" or "source" is its caller's to check."""
    kind = row["kind"]
    if written:
        if not isinstance(value, str):
            return None
        if kind == "bool":
            value = {"1": True, "0": False}.get(value)
        elif kind == "int":
            value = int(value) if re.fullmatch(r"-?\d+", value) else None
        elif kind == "choice":
            value = next((choice for choice in row["choices"] if str(choice) == value), None)
    if kind == "bool":
        return value if isinstance(value, bool) else None
    if kind == "choice":
        return value if any(value == choice and type(value) is type(choice) for choice in row["choices"]) else None
    if kind == "int":
        inside = isinstance(value, int) and not isinstance(value, bool) and value >= row["low"]
        return value if inside and (row["high"] is None or value <= row["high"]) else None
    return value
