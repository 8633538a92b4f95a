"""The messages between the page and Python: a request {id, type, …} from the page gets exactly one
reply {id, type, ok, …} from Python, carrying the entries it made or why it refused. The fields
of each request are checked here, once; the handlers (app/explorer.py) see well-formed values.
docs/architecture.md lists every message with its fields and errors."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

#: The longest request id the page may send: a counter, or a short string.
MAX_ID_CHARS = 64

#: Each request type's fields and the kind each must be, for the errors a bad field gets.
#: "str": a string; "int": an int (not a bool); "num": a finite int or float (not a bool); "bool": a
#: bool; "?" also allows null (or missing);
#: "grid": anything, checked cell by cell by app.lab, which marks every bad cell. A request with a
#: field of another kind is refused with "bad_request" naming the field.
#: A request carries all it needs: the fields FROM_VIEW names are the view's params (app/view_params.py),
#: which the sender fills with the view as it sends (the page's, or the notebook's: with_view) where
#: it leaves them out, so a handler never reads the view it was sent from.
REQUESTS: dict[str, dict[str, str]] = {
    "sentence": {"text": "str", "query": "int?", "model": "str?", "merge": "bool", "special": "bool"},
    "numbers": {"tokens": "grid", "q": "grid", "k": "grid", "v": "grid", "heads": "int", "query": "int"},
    "layer": {"base": "str", "w_q": "grid", "w_k": "grid", "w_v": "grid", "query": "int"},
    "practice": {"number": "int"},
    "head": {"model": "str", "layer": "int", "head": "int", "merge": "bool", "special": "bool", "rope": "bool?", "window": "int?"},
    "ablation": {"model": "str", "layer": "int", "head": "int"},
    "next": {"model": "str", "top_k": "int", "temperature": "num"},
    "lens": {"model": "str", "top_k": "int"},
    "restore": {},
    "entry": {"kind": "str", "name": "str"},
    "lesson": {"name": "str?", "text": "str?"},
    "lesson_check": {"text": "str"},
}
#: Each request type's fields that are the view's params of the same name.
FROM_VIEW: dict[str, tuple[str, ...]] = {"sentence": ("merge", "special"), "numbers": ("heads", "query"), "layer": ("query",)}


class Refused(Exception):
    """A request Python will not carry out: a UI string code (err_<code> in the page's words), its
    placeholder values, and for typed grids every bad cell ({where, row, col, code, values})."""

    def __init__(self, code: str, values: dict | None = None, cells: list | None = None):
        super().__init__(code)
        self.code = code
        self.values = {key: str(value) for key, value in (values or {}).items()}
        self.cells = list(cells or [])

    def as_dict(self) -> dict:
        error = {"code": self.code, "values": self.values}
        return {**error, "cells": self.cells} if self.cells else error


@dataclass(frozen=True)
class Made:
    """What a request made: the entries the page adds to what it offers (sentences or models), and
    the view to show then (params to set), or None to leave the view as it is."""

    entries: list = field(default_factory=list)
    view: dict | None = None
    #: a lesson the request read and checked (app.lesson_check.page_lesson), for the page to show
    lesson: dict | None = None


def _is_kind(value, kind: str) -> bool:
    if kind == "grid":
        return True
    if value is None:
        return kind.endswith("?")
    kind = kind.rstrip("?")
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "num":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    raise ValueError(f"unknown field kind {kind!r}")


def request_id(message) -> int | str | None:
    """The id a reply must carry, or None for a message that cannot be answered."""
    if not isinstance(message, dict):
        return None
    value = message.get("id")
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2 ** 53:
        return value
    if isinstance(value, str) and 0 < len(value) <= MAX_ID_CHARS:
        return value
    return None


def checked_fields(message: dict) -> tuple[str, dict]:
    """(type, fields) of a request, each field of its kind (a missing optional one is None).
    Raises Refused("bad_request") naming the type or the first field that does not fit."""
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in REQUESTS:
        raise Refused("bad_request", {"field": "type"})
    fields = {}
    for name, expected in REQUESTS[kind].items():
        value = message.get(name)
        if not _is_kind(value, expected):
            raise Refused("bad_request", {"field": name})
        fields[name] = value
    return kind, fields


def with_view(message: dict, view: dict) -> dict:
    """`message` with each of its type's FROM_VIEW fields that it does not carry, filled with the
    view's value. A message of another type is left as it is."""
    fields = FROM_VIEW.get(message.get("type"), ()) if isinstance(message.get("type"), str) else ()
    return {**{name: view[name] for name in fields if name not in message}, **message}


def reply(identifier, kind, made: Made | None = None, refused: Refused | None = None) -> dict:
    """The reply to request `identifier` of type `kind`: {id, type, ok: true, entries, view} or
    {id, type, ok: false, error: {code, values[, cells]}}."""
    if refused is not None:
        return {"id": identifier, "type": kind, "ok": False, "error": refused.as_dict()}
    answer = {"id": identifier, "type": kind, "ok": True, "entries": list(made.entries), "view": made.view}
    return {**answer, "lesson": made.lesson} if made.lesson is not None else answer
