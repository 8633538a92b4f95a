"""Simulated students on an assigned link (app/assignments.py: a built-in lesson's questions, each
answer judged by the server as it comes): honest students, whatever their rounding habit, get every
question right; unprepared ones (guessing, skipping) stay below a mastery score of 80 %. The SCORM
package's walk is simulated in tests/node/graded_walk.test.mjs."""
from __future__ import annotations

import random

import numpy as np
import pytest

from app.assignments import judged, lesson_records, questions_of, right_choice
from app.lesson_check import built_in_page_lesson
from app.lessons import lesson_names
from app.rooms import RoomError
from attention_core import PRESETS
from attention_core.attention import attention, softmax

MASTERY = 80


def _assignment(name: str) -> dict:
    return {"id": "x", "deadline": float("inf"), "ask_name": False,
            "questions": questions_of(lesson_records(built_in_page_lesson(name)))}


def _row(view: dict):
    """The query's scaled scores (masked: -inf), v and output in the head asked about."""
    preset = PRESETS[view["source"]["name"]]
    result = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"], causal=view["causal"])
    head, query = max(0, view["head_view"]), view["query"]
    d_v = preset.v.shape[1] // view["heads"]
    return result.masked[head, query], preset.v[:, head * d_v:(head + 1) * d_v], result.output[head, query]


#: how an honest student writes an output: the exact output at some decimals, or each step rounded
#: on the way (the weights to 2 or 3 decimals, then the weighted sum at as many)
HABITS = {
    "exact-4": lambda masked, v, out: np.round(out, 4),
    "exact-3": lambda masked, v, out: np.round(out, 3),
    "exact-2": lambda masked, v, out: np.round(out, 2),
    "weights-3": lambda masked, v, out: np.round(np.round(softmax(masked), 3) @ v, 3),
    "weights-2": lambda masked, v, out: np.round(np.round(softmax(masked), 2) @ v, 2),
    "scaled-2": lambda masked, v, out: np.round(np.round(softmax(np.round(masked, 2)), 3) @ v, 3),
}


def _score(assignment: dict, answer) -> float:
    """The percent right of a student who answers question q with answer(q, number) (None: skips it)."""
    right = 0
    for number, question in enumerate(assignment["questions"], start=1):
        value = answer(question, number)
        if value is None:
            continue
        try:
            kept, _ = judged(assignment, number, value)
        except RoomError:
            continue
        right += right_choice(question, kept if isinstance(kept, int) else (kept["outcome"]))
    return 100 * right / len(assignment["questions"])


@pytest.mark.parametrize("name", lesson_names())
def test_honest_students_score_100_whatever_their_rounding_habit(name):
    assignment = _assignment(name)
    for habit, written in HABITS.items():
        def honest(question, number):
            if question["kind"] != "output":
                return question["truth"]
            return ", ".join(f"{x:g}" for x in written(*_row(question["view"])))
        assert _score(assignment, honest) == 100, (name, habit)


@pytest.mark.parametrize("name", lesson_names())
def test_unprepared_students_stay_below_the_mastery_score(name):
    assignment = _assignment(name)
    draw = random.Random(52)
    guesses = []
    for _ in range(300):
        guesses.append(_score(assignment, lambda q, n: draw.randrange(q["choices"]) if q["kind"] != "output"
                              else ", ".join(f"{draw.uniform(-1, 2):.3f}" for _ in range(2))))
    skipping = _score(assignment, lambda q, n: None)
    reached = sum(score >= MASTERY for score in guesses) / len(guesses)
    print(name, "guessing: median", sorted(guesses)[len(guesses) // 2], "max", max(guesses), "reached", reached)
    assert skipping == 0 and reached <= 0.01
