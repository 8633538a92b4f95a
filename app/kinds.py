"""The kinds of entry the page can show, and the typed source of what is on show: {kind, name}."""
from __future__ import annotations

#: The kinds of sentence entry (the `sentences` catalog): a preset, a sentence typed in the page or
#: given to the exporter, typed numbers (or typed W), a practice problem.
SENTENCE_KINDS = ("preset", "sentence", "numbers", "practice")
#: The kinds of model entry (the `models` catalog): a checkpoint's sentences, imported weights, the
#: model trained here at one of its saved steps. One head of one of them is an entry of kind "head".
TRAINED_KIND = "trained"
MODEL_KINDS = ("model", "imported", TRAINED_KIND)
#: The kinds a source may name: every entry the page can put on show (a head is shown through its model).
SOURCE_KINDS = SENTENCE_KINDS + MODEL_KINDS
#: The longest name a source may carry.
MAX_NAME_CHARS = 200


def source_of(entry: dict) -> dict:
    """The source that names `entry` (a sentence or model entry): {kind, name}."""
    return {"kind": entry["kind"], "name": entry["name"]}


def source_problem(source) -> str | None:
    """Why `source` is not a well-formed source, in words, or None: a dict of exactly `kind`
    (one of SOURCE_KINDS) and `name` (a non-empty string of at most MAX_NAME_CHARS)."""
    if not isinstance(source, dict) or set(source) != {"kind", "name"}:
        return "a source is a dict of exactly 'kind' and 'name'"
    if source["kind"] not in SOURCE_KINDS:
        return f"unknown kind {source['kind']!r}; choose from {', '.join(SOURCE_KINDS)}"
    if not isinstance(source["name"], str) or not 0 < len(source["name"]) <= MAX_NAME_CHARS:
        return f"its name must be a string of 1 to {MAX_NAME_CHARS} characters"
    return None


def entry_of(source: dict, sentences, models) -> dict | None:
    """The entry `source` names, searched in its kind's catalog only (a model kind: `models`; else
    `sentences`) and of that kind; None when that catalog has no entry of this kind and name."""
    catalog = models if source["kind"] in MODEL_KINDS else sentences
    return next((e for e in catalog if e.get("name") == source["name"] and e.get("kind") == source["kind"]), None)


def travelling_later(entry: dict) -> dict:
    """What a served page first receives of an entry not on show (`later`: true), whose whole entry
    it asks for (the `entry` request) once the student opens it. A preset: its tokens and sizes,
    without its captions or numbers (cube `data` null, no layout). A model at one saved step: its
    name, titles and `training` (the step slider's steps), without its overview or words."""
    if entry.get("kind") in MODEL_KINDS:
        kept = ("kind", "name", "link", "titles", "source", "training")
        return {**{key: entry[key] for key in kept if key in entry}, "later": True}
    cube = {key: value for key, value in entry["cube"].items() if key != "layout"}
    fields = {key: value for key, value in entry.items() if key != "captions"}
    return {**fields, "cube": {**cube, "data": None}, "later": True}
