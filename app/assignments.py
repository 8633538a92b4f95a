"""An assigned link (issue 37): a room's questions, for the students who missed the lecture, answered
at their own pace before a deadline, each answer judged at once by the same checker, and counted in
the room's report marked "assigned". The stores (app.rooms, app.redis_rooms) keep an assignment and
its answers; this module is what they share: the questions made from the room's report records, a
student's answer judged, and the report's records of the answers.

An assignment: {id, code (the room's), deadline (wall-clock seconds), ask_name (whether a student
gives a name or student number, so the report has a row a student), questions (app.rooms.Poll.kept
of each question, numbered from 1)}. Nothing identifies a student unless the lecturer asked.
"""
from __future__ import annotations

import math
import secrets

from .questions import answer_value, make_question
from .rooms import Poll, RoomError, answer_shown, checked_view, chosen

#: the longest name or student number kept
MAX_NAME_CHARS = 80
#: the latest deadline a link may have (a term)
MAX_DAYS = 200


def new_id() -> str:
    """An assignment's id: its link's secret part (unguessable: a link is all a student needs)."""
    return secrets.token_urlsafe(12)


def questions_of(records: list[dict], models=None) -> list[dict]:
    """The questions of an assignment: each question the room asked (its report's records), made
    again on its view (app.questions: its truth and the detail its reveal shows)."""
    made = []
    for record in records:
        question = make_question(record["view"], record["kind"], record["change"] or None, models)
        made.append(Poll.asked(len(made) + 1, record["view"], question).kept())
    if not made:
        raise RoomError("nothing_to_assign")
    return made


def lesson_records(lesson: dict) -> list[dict]:
    """A checked lesson's questions (app.lesson_check.page_lesson: each question stop's kind, switch
    and view) as the records an assignment is made from: a lesson assigned instead of a room's questions."""
    return [{"view": {**stop["question"]["view"], "note": stop_title(stop)}, "kind": stop["question"]["kind"],
             "change": stop["question"]["change"]} for stop in lesson["stops"] if stop.get("question")]


def stop_title(stop: dict) -> dict:
    """A lesson stop's title as a room's view carries it (its `note`, without the note's words): the
    report's `stop` column."""
    return {"title": stop.get("title", ""), "title_en": stop.get("title_en") or ""}


#: the most questions a lecturer's page may send for an assignment (a lesson of its own; 20 views
#: fit in a room message, MAX_MESSAGE_BYTES, with room to spare)
MAX_SENT_QUESTIONS = 20


def sent_records(questions) -> list[dict]:
    """The questions a lecturer's page sends for an assignment (those of a lesson of its own, not a
    built-in's: [{view, kind, change}], at most MAX_SENT_QUESTIONS) as the records an assignment is
    made from, each view checked as a room's is (RoomError "bad_view"); RoomError
    ("too_many_questions", most) past the most; RoomError("bad_question") for anything else. The questions' truths are made again here (questions_of), never taken."""
    if not isinstance(questions, list) or not questions:
        raise RoomError("bad_question")
    if len(questions) > MAX_SENT_QUESTIONS:
        raise RoomError("too_many_questions", most=MAX_SENT_QUESTIONS)
    records = []
    for question in questions:
        if not isinstance(question, dict) or not isinstance(question.get("kind"), str):
            raise RoomError("bad_question")
        change = question.get("change")
        if change is not None and not isinstance(change, str):
            raise RoomError("bad_question")
        records.append({"view": checked_view(question.get("view")), "kind": question["kind"], "change": change})
    return records


def checked_deadline(deadline, now: float) -> float:
    """The deadline a lecturer asked for: wall-clock seconds, after now and within MAX_DAYS."""
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not now < deadline <= now + MAX_DAYS * 86400:
        raise RoomError("bad_deadline", days=MAX_DAYS)
    return float(deadline)


def checked_name(name, ask_name: bool) -> str:
    """A student's name or number where the lecturer asked for one (as text, at most MAX_NAME_CHARS),
    else nothing kept."""
    if not ask_name:
        return ""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME_CHARS:
        raise RoomError("need_name", most=MAX_NAME_CHARS)
    return name.strip()


def public(assignment: dict, now: float) -> dict:
    """What a student's page gets: the questions without their truth, the deadline, whether it asks
    for a name. RoomError("assignment_closed") after the deadline."""
    if now > assignment["deadline"]:
        raise RoomError("assignment_closed")
    return {"id": assignment["id"], "deadline": assignment["deadline"], "ask_name": assignment["ask_name"],
            "questions": [Poll(**kept).public() for kept in assignment["questions"]]}


def judged(assignment: dict, number, value) -> tuple[object, dict]:
    """A student's answer to question `number`: (what is kept, what the student sees at once: the
    question revealed, its truth and detail, and their answer with its verdict)."""
    if not (isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= len(assignment["questions"])):
        raise RoomError("no_poll")
    poll = Poll(**assignment["questions"][number - 1])
    kept = answer_value(poll, value)
    poll.revealed = True
    return kept, {"number": number, "poll": poll.public(), "answer": answer_shown(kept, True)}


#: the longest time on one question a report counts (a page left open overnight is not an answer time)
MAX_SECONDS = 6 * 3600


def timed(kept, seconds) -> dict:
    """What a store keeps of a student's answer: the answer (app.questions.answer_value's) and the
    seconds their page showed the question before it was answered, as the page says them (None for
    anything but a number from 0 to MAX_SECONDS: the report's median leaves it out)."""
    fine = (isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and math.isfinite(seconds)
            and 0 <= seconds <= MAX_SECONDS)
    return {"answer": kept, "seconds": float(seconds) if fine else None}


def _answer(stored):
    """The answer of what a store keeps (timed; an answer kept bare before it was timed)."""
    return stored["answer"] if isinstance(stored, dict) and "answer" in stored else stored


def judged_again(assignment: dict, number: int, stored) -> dict:
    """A kept answer as its student sees it again (a reload): the question revealed, their verdict."""
    poll = Poll(**assignment["questions"][number - 1])
    poll.revealed = True
    return {"number": number, "poll": poll.public(), "answer": answer_shown(_answer(stored), True)}


def assigned_records(assignment: dict, answers: dict, names: dict) -> list[dict]:
    """The report's records of an assignment's answers (mode "assigned"): answers (number, student)
    → what the store kept (timed); names: student → name, for a row a student where the lecturer
    asked. The median time is of each student's time on the question on their own page."""
    records = []
    for number, kept in enumerate(assignment["questions"], start=1):
        poll = Poll(**kept)
        poll.counts = [0] * poll.choices
        seconds = []
        for (asked, _), stored in answers.items():
            if asked == number:
                poll.counts[chosen(_answer(stored))] += 1
                poll.answered += 1
                if isinstance(stored, dict) and stored.get("seconds") is not None and "answer" in stored:
                    seconds.append(stored["seconds"])
        poll.eligible = len({student for _, student in answers})
        records.append(poll.record(seconds, mode="assigned"))
    return records


def student_rows(assignment: dict, answers: dict, names: dict) -> list[dict]:
    """A record a named student (kind "student"): their name, how many they answered, how many right."""
    rows = {}
    for (number, student), answer in sorted(answers.items()):
        row = rows.setdefault(student, {"kind": "student", "number": None, "name": names.get(student, ""), "answered": 0,
                                        "right": 0, "mode": "assigned"})
        row["answered"] += 1
        row["right"] += right_choice(assignment["questions"][number - 1], chosen(_answer(answer)))
    return [row for row in rows.values() if row["name"]]


def right_choice(question: dict, choice: int) -> bool:
    """Whether `choice` is a right answer to `question` (a typed output right or honestly rounded)."""
    return choice in (0, 1) if question["kind"] == "output" else choice == question["truth"]


def assignment_report(assignment: dict, answers: dict, names: dict) -> list[dict]:
    """An assignment's part of its room's report: its questions' records, then a row a named student."""
    return assigned_records(assignment, answers, names) + student_rows(assignment, answers, names)
