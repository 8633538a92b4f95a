"""What a lesson's stop shows before its question is answered (app/stop_shows.py), and the check's
refusals of questions that are not real ones (app/lesson_check.py _check_question)."""
from __future__ import annotations

import pytest

from app.lesson_check import check_stop, lesson_problems
from app.lessons import lesson_names, parse_lesson, read_lesson
from app.stop_shows import HELD, MODES, STEP_QUANTITIES, WORKED_IN, missing, read_off, shown

def _lesson(*stops: str):
    """A lesson of stops, each 'view|ask|note' (ask may be empty; more fields after a newline)."""
    lines = ["# 내 수업", ""]
    for number, stop in enumerate(stops, start=1):
        view, ask, note = stop.split("|")
        lines += [f"## 정류장 {number}", f"view: {view}", *( [f"ask: {ask}"] if ask else []), f"note: {note}", ""]
    return parse_lesson("\n".join(lines))


def _codes(lesson) -> list[tuple]:
    return [(p.values.get("stop"), p.code) for p in lesson_problems(lesson)]


@pytest.mark.parametrize("name", lesson_names())
def test_every_built_in_question_is_worked_from_its_screen_and_not_read_off_it(name):
    lesson = read_lesson(name)
    assert lesson_problems(lesson) == []
    asked = 0
    for index, stop in enumerate(lesson.stops, start=1):
        if not stop.question():
            continue
        asked += 1
        view = check_stop(stop, index)
        d_k = view.preset.q.shape[1] // view.view["heads"]
        held = shown(view.view, stop.card, stop.question(), True, d_k)
        assert not read_off(stop.question(), held) and not missing(stop.question(), held), (index, held)
        # the same stop not held (the lecturer's laptop) shows more than the held one
        assert held.quantities <= shown(view.view, stop.card, stop.question(), False, d_k).quantities | set(HELD[stop.question()[0]]["inputs"])
    assert asked == 6


def test_the_modes_hold_a_question_by_its_kind_where_it_is_worked_and_by_the_poll_in_a_room():
    assert set(WORKED_IN) == {"lecture", "deck", "self", "scorm", "assigned"}
    assert {MODES[m]["until"] for m in ("self", "scorm", "assigned")} == {"answer"}
    assert {MODES[m]["until"] for m in ("lecture", "deck")} == {"reveal"}
    assert MODES["normal"]["held"] is None and MODES["normal"]["handout"] == "lecturer"
    assert {MODES[m]["handout"] for m in ("self", "scorm", "assigned")} == {"after_finish"}
    assert all(MODES[m]["handout"] is None for m in ("lecture", "deck", "lecture_room", "phone"))
    # a top key held shows no step (q and k written out instead); an output held stops before the weights
    view = {"step": -1, "scale": True, "heads": 1}
    assert shown(view, "", ("top_key", None), True, 2).quantities == {"q", "k"}
    assert shown(view, "", ("output", None), True, 2).quantities == {"score", "scaled", "mask", "q", "k", "v", "caption"}
    assert set(STEP_QUANTITIES[:4]) <= shown(view, "", ("what_if", "scale"), True, 2).quantities
    assert "flipped_scale" not in shown(view, "whyScale", ("what_if", "scale"), True, 2).quantities
    assert "flipped_scale" in shown(view, "whyScale", None, False, 2).quantities


def test_a_question_with_nothing_on_screen_to_work_it_from_is_refused_saying_what_is_missing():
    # q and k of d_k = 8 are not written out; a what-if on splitting into heads has nothing to reason from
    lesson = _lesson("preset=coffee-today&query=5&step=0|top_key|골라 보세요.",
                     "preset=meet-friend&query=4|what_if heads|어떻게 될까요?")
    problems = lesson_problems(lesson)
    assert [(p.values["stop"], p.code) for p in problems] == [(1, "ask_unworkable"), (2, "ask_unworkable")]
    assert "query의 q" in problems[0].words("ko") and "the keys' k" in problems[0].words("en")
    assert "head마다 나뉜 q와 k" in problems[1].words("ko")
    # the same question where q and k are short (two heads: d_k = 4) is a real one
    assert _codes(_lesson("preset=coffee-today&query=5&heads=2&head_view=0&step=0|top_key|골라 보세요.")) == []


def test_a_question_whose_note_gives_the_answer_is_refused_as_read_off():
    lesson = _lesson('preset=cat-fish&query=2&step=0|top_key|"먹었다"는 "생선을"에 가장 큰 가중치를 줘요.')
    assert _codes(lesson) == [(1, "ask_read_off")]
    assert "가중치" in lesson_problems(lesson)[0].words("ko")


def test_a_question_an_earlier_stop_answered_is_refused_unless_it_says_recall():
    shown_first = ("preset=cat-fish&query=2|", "먹었다의 가중치예요.")
    lesson = _lesson(shown_first[0] + "|" + shown_first[1], "preset=cat-fish&query=2&step=0|top_key|골라 보세요.")
    problems = lesson_problems(lesson)
    assert [(p.values["stop"], p.code, p.values["earlier"]) for p in problems] == [(2, "ask_shown_before", 1)]
    assert "recall: yes" in problems[0].words("ko")
    recalled = parse_lesson(lesson_text := "\n".join([
        "# 내 수업", "", "## 하나", "view: preset=cat-fish&query=2", "note: 먹었다의 가중치예요.", "",
        "## 둘", "view: preset=cat-fish&query=2&step=0", "ask: top_key", "recall: yes", "note: 기억나요?", ""]))
    assert lesson_text and _codes(recalled) == []
    # the √d card's example answers a what-if on √d_k asked after it, whatever the view
    after_card = _lesson("preset=why-scale&query=3&scale=0||점수를 그대로 넣어요.",
                         "preset=cat-fish&query=0&step=1|what_if scale|어떻게 될까요?")
    assert _codes(after_card) == []
    with_card = parse_lesson("\n".join(["# 내 수업", "", "## 하나", "view: preset=why-scale&query=3&scale=0", "card: whyScale",
                                        "note: 점수를 그대로 넣어요.", "", "## 둘", "view: preset=cat-fish&query=0&step=1",
                                        "ask: what_if scale", "note: 어떻게 될까요?", ""]))
    assert _codes(with_card) == [(2, "ask_shown_before")]
    # a question once answered shows its answer's step: after a top key answered at the same view the
    # weights show, and the calculation's scale line beside them answers a what-if on √d_k
    assert _codes(_lesson("preset=cat-fish&query=2&step=0|top_key|골라 보세요.",
                          "preset=cat-fish&query=2&step=1|what_if scale|어떻게 될까요?")) == [(2, "ask_shown_before")]
    assert _codes(_lesson("preset=cat-fish&query=2&step=0|top_key|골라 보세요.",
                          "preset=cat-fish&query=0&step=1|what_if scale|어떻게 될까요?")) == []


def test_the_graded_lessons_fixture_is_what_python_sends_now():
    from support import node_fixture

    committed, made = node_fixture("graded_lessons")
    assert committed == made, "run tests/node/fixtures/graded_lessons_fixture.py and commit"


def test_lesson_check_shows_what_each_question_holds_back(capsys):
    from app.cli import main

    assert main(["lesson", "check", "--shows", "hand-calculation"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[0] == "hand-calculation: OK (20 stops, 6 questions)"
    assert said[1] == "  stop 3 (top_key): held: k, q; laptop: caption, k, q, score"  # no caption naming the key while held
    assert said[3].startswith("  stop 9 (output): held: caption, k, mask, q, scaled, score, v; laptop: ") and "weights" in said[3]
    assert len(said) == 7
