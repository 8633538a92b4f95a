"""A room's report (issue 37): what the class answered to each question asked, kept after the room
closes, for the lecturer to plan the next lecture from. A store (app.rooms, app.redis_rooms) keeps
one record a question (app.rooms.Poll.record); `report_csv` writes the records as the lecturer
downloads them.

A record: number, kind, change, to, piece, view (the room's view the question was about), tokens,
truth, counts (students per choice or outcome), answered, eligible (students who could answer),
median_seconds (from the question to each student's first answer; None before any), mode ("live").
Anonymous: no student is in it.

The CSV: UTF-8 with a byte-order mark (so Excel opens Korean as Korean), a header row, one row a
question: its words, kind, the lesson stop it was asked at, sentence, query, view, students,
answers, correct, median seconds, mode, the right answer, and a column per outcome counted (each choice of a what-if, each outcome of a
typed output: right, rounded, each named slip; each key of a which-key question). A cell that a
spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first) is written with
a ' before it.
"""
from __future__ import annotations

import csv
import io

from .constants import OUTCOMES, WHAT_IF
from .questions import question_words

#: how many keys a which-key question's columns run to (the longest book sentence's tokens)
MAX_KEYS = 24
#: what a spreadsheet reads as the start of a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _student_row(kept: dict) -> dict:
    """A named student's row (an assigned link that asked for names): their name, answered, right."""
    return {"number": "", "question": kept["name"], "kind": "student", "answers": kept["answered"], "correct": kept["right"],
            "mode": kept["mode"]}


def right_count(kept: dict) -> int:
    """How many answered right: the truth's choice, or a typed output right or honestly rounded."""
    if kept["kind"] == "output":
        return kept["counts"][OUTCOMES.index("correct")] + kept["counts"][OUTCOMES.index("rounded")]
    return kept["counts"][kept["truth"]]


def _labels(kept: dict) -> list[str]:
    """Each choice's or outcome's name, as the CSV's columns say it."""
    if kept["kind"] == "top_key":
        return kept["tokens"]
    return list(WHAT_IF if kept["kind"] == "what_if" else OUTCOMES)


def _stop_words(view: dict, lang: str) -> str:
    """The title of the lesson stop a question was asked at (its view's note), in `lang` where the
    lesson has it; empty for a question asked outside a lesson."""
    note = view.get("note") or {}
    return (note.get("title_en") if lang == "en" else "") or note.get("title", "")


def _view_words(view: dict) -> str:
    """The view as the page's link says it (the parameters a student would open it with)."""
    said = {"preset": view["source"]["name"], "query": view["query"], "heads": view.get("heads"),
            "head_view": view.get("head_view"), "scale": int(bool(view.get("scale"))),
            "causal": int(bool(view.get("causal")))}
    if view["source"]["kind"] != "preset":
        said.update(layer=view.get("layer"), head=view.get("head"))
    return "&".join(f"{key}={value}" for key, value in said.items() if value is not None)


def _cell(value):
    """A cell as written: text that a spreadsheet would take for a formula gets a ' first."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def report_rows(records: list[dict], lang: str) -> tuple[list[str], list[dict]]:
    """(the header, one row a question) of the records, in `lang`."""
    outcome_columns = [f"what_if: {name}" for name in WHAT_IF] + [f"output: {name}" for name in OUTCOMES]
    key_columns = [f"key {i + 1}" for i in range(min(MAX_KEYS, max((len(r["tokens"]) for r in records
                                                                     if r["kind"] == "top_key"), default=0)))]
    header = ["number", "question", "kind", "stop", "sentence", "query", "view", "students", "answers", "correct",
              "median_seconds", "mode", "truth", "keys", *key_columns, *outcome_columns]
    rows = []
    for kept in records:
        if kept["kind"] == "student":
            rows.append(_student_row(kept))
            continue
        labels = _labels(kept)
        row = {"number": kept["number"], "question": question_words(kept, lang), "kind": kept["kind"],
               "stop": _stop_words(kept["view"], lang),
               "sentence": kept["view"]["source"]["name"], "query": kept["view"]["query"], "view": _view_words(kept["view"]),
               "students": kept["eligible"], "answers": kept["answered"], "correct": right_count(kept),
               "median_seconds": "" if kept["median_seconds"] is None else kept["median_seconds"], "mode": kept["mode"],
               "truth": "correct" if kept["kind"] == "output" else labels[kept["truth"]]}
        if kept["kind"] == "top_key":
            row["keys"] = " | ".join(labels)
            row.update({column: count for column, count in zip(key_columns, kept["counts"])})
        else:
            row.update({f"{kept['kind']}: {name}": count for name, count in zip(labels, kept["counts"])})
        rows.append(row)
    return header, rows


def report_csv(records: list[dict], lang: str) -> str:
    """The records as the CSV the lecturer downloads (module docstring)."""
    header, rows = report_rows(records, lang)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header, restval="", lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _cell(value) for key, value in row.items()})
    return "\ufeff" + out.getvalue()
