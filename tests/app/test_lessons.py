"""Lessons (app/lessons.py, app/lesson_check.py, docs/lessons.md): the file a lecturer writes, read
and checked against the core; the built-in lessons hold every claim they make."""
import re

import pytest

from app.cli import main
from app.lesson_check import check_stop, lesson_problems, read_view
from app.lessons import LessonError, lesson_names, parse_lesson, read_lesson
from app.questions import judge_output, make_question
from attention_core.attention import attention
from support import ROOT

GOOD = """# 작은 수업
title_en: A small lesson

## 스코어
title_en: Scores
view: preset=cat-fish&query=2&step=0
ask: top_key
claim: top 생선을
claim: score 생선을 6.0
note: "먹었다" 행은 (1, 6, 4)예요.
  계산해 보세요.
note_en: The row is (1, 6, 4).
speaker: 먼저 물어보세요.
"""


def test_a_lesson_file_is_read_into_stops_with_their_fields_and_lines():
    lesson = parse_lesson(GOOD, name="small")
    assert (lesson.name, lesson.title, lesson.title_en) == ("small", "작은 수업", "A small lesson")
    [stop] = lesson.stops
    assert stop.title == "스코어" and stop.view == "preset=cat-fish&query=2&step=0" and stop.question() == ("top_key", None)
    assert stop.note == '"먹었다" 행은 (1, 6, 4)예요.\n계산해 보세요.'  # a field runs on over its lines
    assert stop.claim == [("top 생선을", 8), ("score 생선을 6.0", 9)] and stop.lines["view"] == 6
    assert lesson.as_dict()["stops"][0]["ask"] == ["top_key", None] and lesson_problems(lesson) == []


@pytest.mark.parametrize("text, code, line", [
    ("", "no_title", 1),
    ("## 정류장\nview: preset=cat-fish\n", "no_title", 1),
    ("# 제목\n", "no_stops", None),
    ("# 제목\n## 하나\nnote: 보기가 없어요\n", "no_view", 2),
    ("# 제목\n## 하나\nview: preset=cat-fish\nvoew: preset=x\n", "unknown_field", 4),
    ("# 제목\n## 하나\nview: preset=cat-fish\nview: preset=meet-friend\n", "twice", 4),
    ("# 제목\n그냥 글\n## 하나\nview: preset=cat-fish\n", "stray_text", 2),
    ("# 제목\n# 또 제목\n", "two_titles", 2),
    ("# 제목\x00\n", "not_text", None),
])
def test_text_that_is_not_a_lesson_is_refused_naming_the_line(text, code, line):
    with pytest.raises(LessonError) as refused:
        parse_lesson(text)
    assert refused.value.code == code and refused.value.values.get("line") == line
    _expect_page_words(refused.value)


def _expect_page_words(error: LessonError) -> None:
    """The page words the problem in each language (lesson.js lessonProblem): its string, every
    placeholder filled from the values Python sends, where it is (stop, line) said."""
    from app.strings import text
    values = error.page_values()
    reason, stop, line, room = (values.pop(name, None) for name in ("reason", "stop", "line", "room"))
    for lang in ("ko", "en"):
        said = text(f"err_room_{room}" if room else f"err_lesson_{reason}", lang, **values)
        where = text("lesson_where_stop", lang, stop=stop, line=line) if stop else (
            text("lesson_where_line", lang, line=line) if line else "")
        whole = text("err_lesson", lang, where=where, problem=said)
        assert "{" not in whole.replace("{…}", ""), whole
        assert (stop is None or stop in whole) and (line is None or line in whole), whole


def _stop(view: str, **fields):
    lines = ["# 제목", "## 하나", f"view: {view}", f"note: {fields.pop('note', '글이에요.')}"] + [f"{key}: {value}" for key, value in fields.items()]
    return parse_lesson("\n".join(lines)).stops[0]


@pytest.mark.parametrize("view, fields, code", [
    ("preset=nope", {}, "view_preset"),
    ("preset=cat-fish&query=3", {}, "view_query"),  # three tokens: 0 to 2
    ("preset=cat-fish&heads=4", {}, "view_heads"),  # d = 2: one head or two
    ("preset=cat-fish&heads=2&head_view=2", {}, "view_value"),
    ("preset=cat-fish&scale=yes", {}, "view_value"),
    ("preset=cat-fish&step=6", {}, "view_value"),
    ("preset=cat-fish&colour=red", {}, "view_param"),
    ("preset=cat-fish&query=1&query=2", {}, "view_twice"),
    ("preset=custom", {}, "view_text"),  # a typed sentence's stop gives its text
    ("preset=custom&text=%20", {}, "view_text"),
    ("preset=custom&text=나는 책을 읽었다&query=3", {}, "view_query"),
    ("practice=0", {}, "view_value"),
    ("practice=3", {"note": '"편지를"의 가중치는 0.999예요.'}, "note_false"),
    ("preset=meet-friend&heads=2", {"ask": "top_key"}, "ask"),  # two heads at once: which one is asked?
    ("preset=meet-friend&query=1&heads=1", {"ask": "top_key"}, "ask"),  # 어제 ties 친구를 and itself at 0.366
    ("preset=cat-fish&query=2&heads=2&head_view=0", {"ask": "what_if heads"}, "ask"),  # no more heads to split into
    ("preset=cat-fish&query=2", {"ask": "guess"}, "ask"),
    ("preset=cat-fish&query=2", {"claim": "top 먹었다"}, "claim_false"),
    ("preset=cat-fish&query=2", {"claim": "weight 생선을 0.78"}, "claim_false"),  # 0.786 shows as 0.79
    ("preset=cat-fish&query=2", {"claim": "output 0.214, 0.978"}, "claim_false"),
    ("preset=cat-fish&query=2", {"claim": "flip scale flatter"}, "claim_false"),  # it gets sharper
    ("preset=cat-fish&query=2&causal=1", {"claim": "masked 고양이가"}, "claim_false"),  # a key before the query
    ("preset=cat-fish&query=2", {"claim": "top 강아지가"}, "claim_token"),
    ("preset=cat-fish&query=2", {"claim": "bigger 생선을"}, "claim_unknown"),
    ("preset=cat-fish&query=2", {"note_en": "The weight is 0.785."}, "note_false"),
    ("preset=cat-fish&query=2", {"speaker": "가중치는 0.29로 줄어요."}, "note_false"),  # a particle after it: still read
    ("preset=cat-fish&query=2", {"card": "slides"}, "card"),
    ("preset=coffee-today&query=5", {"card": "concatWo"}, "card_view"),  # coffee-today has no W_O
    ("preset=meet-friend&query=4&step=1", {"card": "concatWo"}, "card_view"),  # no output before softmax
    ("preset=meet-friend&query=4", {"card": "qkvOrigin"}, "card_view"),  # only cat-fish has its layer
    ("preset=cat-fish&query=2", {"card": "lenses"}, "card_view"),  # a model's card
    # a stop on the model trained here: its head named, inside the model, of its tokens
    ("preset=trained&query=4", {}, "view_model_head"),
    ("preset=trained&layer=2&head=0", {}, "view_value"),  # two layers: 0 and 1
    ("preset=trained&layer=1&head=4", {}, "view_value"),  # four heads
    ("preset=trained&layer=1&head=0&heads=2", {}, "view_param"),
    ("preset=cat-fish&layer=1&head=0", {}, "view_param"),  # a book sentence has no layers
    ("preset=trained&layer=1&head=0&query=7", {}, "view_query"),  # [CLS] … [SEP]: 0 to 6
    ("preset=trained&layer=1&head=0&query=4", {"claim": "top 나는"}, "claim_false"),
    ("preset=trained&layer=1&head=0&query=4", {"note": "가중치는 9.876이에요."}, "note_false"),
    # a word that says what the numbers do is checked against them (app/note_reader.py)
    ("preset=cat-fish&query=2&scale=0", {"note": "나누지 않으면 분포가 더 평평해졌어요."}, "note_false"),
    ("preset=cat-fish&query=2&scale=0", {"note_en": "The weights are sharper."}, "note_false"),  # than what?
    ("preset=cat-fish&query=2", {"note": "고양이가가 가장 큰 가중치를 받아요."}, "note_false"),
    ("preset=cat-fish&query=2", {"speaker_en": "먹었다 gets the most weight."}, "note_false"),
])
def test_the_checker_names_each_problem_a_stop_can_have(view, fields, code):
    with pytest.raises(LessonError) as refused:
        check_stop(_stop(view, **fields), 1)
    assert refused.value.code == code, refused.value
    assert refused.value.values["stop"] == 1 and refused.value.values["line"] >= 3  # where to look
    _expect_page_words(refused.value)


def test_a_true_sentence_passes_without_a_claim_and_a_question_asserts_nothing():
    check_stop(_stop("preset=cat-fish&query=2&scale=0", note="√d로 나누지 않으면 분포가 더 뾰족해졌어요."), 1)
    check_stop(_stop("preset=cat-fish&query=2", note="√d로 나누지 않으면 더 뾰족하게 몰려요. 생선을에 가장 큰 가중치를 줘요."), 1)
    check_stop(_stop("preset=cat-fish&query=2", note_en="생선을 gets the most weight."), 1)
    check_stop(_stop("preset=cat-fish&query=2", note="더 뾰족해질까요, 더 평평해질까요? 골라 보세요."), 1)


def test_a_typed_sentence_and_a_practice_problem_are_stops_checked_at_their_numbers():
    """text= (with preset=custom) is read as the page's Python reads a typed sentence (app.lab);
    practice=N is problem N, one head, ÷√d, no mask; a note is checked at their numbers."""
    from app.lab import sentence_preset
    from attention_core.practice import practice_preset, practice_problem

    typed = sentence_preset("나는 오늘 책을 읽었다")[0]
    row = attention(typed.q, typed.k, typed.v, heads=1, scale=True, causal=False).weights[0, 3]
    shown = check_stop(_stop("preset=custom&text=나는 오늘 책을 읽었다&query=3",
                             note=f'"{typed.tokens[int(row.argmax())]}"의 가중치는 {row.max():.3f}예요.'), 1)
    assert shown.tokens == typed.tokens and shown.view["source"] == {"kind": "sentence", "name": "custom"}
    problem = practice_preset(practice_problem(3))
    weights = attention(problem.q, problem.k, problem.v, heads=1, scale=True, causal=False).weights[0, problem.default_query]
    shown = check_stop(_stop("practice=3", note=f"가중치는 {_row(weights)}예요."), 1)
    assert shown.tokens == problem.tokens and shown.view["query"] == problem.default_query


def _row(values) -> str:
    return "(" + ", ".join(f"{x:.3f}" for x in values) + ")"


def test_a_stop_on_the_trained_models_head_is_checked_against_that_head():
    """Its claims and numbers are the head's weights as the page shows them (app.questions
    model_row, the rooms' reader), its question asked as a room asks it of a model's head."""
    from app.lesson_check import page_lesson, served
    from app.questions import model_row

    stop = _stop("preset=trained&layer=1&head=0&query=4", ask="top_key")
    shown = check_stop(stop, 1)
    row, labels, result = model_row(shown.view, served)
    assert shown.preset is None and shown.tokens == tuple(labels) and result is not None
    assert shown.view["source"]["name"] == "trained-2000" and shown.view["special"] is True  # as the model opens
    top = labels[int(row.argmax())]
    check_stop(_stop("preset=trained&layer=1&head=0&query=4", claim=f"top {top}",
                     note=f"가장 큰 가중치는 {row.max():.3f}예요."), 1)
    lesson = parse_lesson("# 모델\n## 하나\nview: preset=trained&layer=1&head=0&query=4\nask: top_key\nnote: 골라 보세요.\n")
    assert page_lesson(lesson)["stops"][0]["question"]["truth"] == int(row.argmax())


def test_every_card_a_stop_may_name_is_a_view_of_the_page():
    from app.lessons import CARDS
    layout = (ROOT / "static" / "explorer" / "layout.js").read_text(encoding="utf-8")
    names = set(re.findall(r'^  \["(\w+)",', layout, flags=re.M))
    assert set(CARDS) <= names, set(CARDS) - names


def test_a_true_claim_and_a_number_the_page_shows_pass_at_the_decimals_written():
    stop = _stop("preset=cat-fish&query=2", claim="weight 생선을 0.79", note_en="0.786 and 0.79 and 4.24 and 1.414")
    stop.claim = [("weight 생선을 0.786", 5), ("output 0.21, 0.98", 5), ("flip scale sharper", 5), ("top 생선을", 5)]
    check_stop(stop, 1)
    masked = _stop("preset=cat-fish&query=0&causal=1")
    masked.claim = [("masked 생선을", 5), ("weight 고양이가 1.000", 5)]
    check_stop(masked, 1)


def test_the_built_in_lessons_hold_every_claim_and_have_their_predictions():
    assert lesson_names() == ["hand-calculation", "scale-mask-heads"]
    for name in lesson_names():
        lesson = read_lesson(name)
        assert lesson_problems(lesson) == [], name
        asks = [stop for stop in lesson.stops if stop.ask]
        assert len(lesson.stops) >= 15 and len(asks) >= 5, name
        for stop in lesson.stops:  # in Korean with the English switch
            assert stop.note and stop.note_en and stop.title_en, (name, stop.title)
            assert re.search(r"요[.!?]", stop.note) and not re.search(r"요[.!?]", stop.note_en), (name, stop.title)


def test_every_built_in_question_is_answerable_and_its_truth_judged_right():
    for name in lesson_names():
        for index, stop in enumerate(read_lesson(name).stops, start=1):
            if not stop.ask:
                continue
            view = read_view(stop, index).view
            kind, change = stop.question()
            question = make_question(view, kind, change)
            if kind == "output":
                answer = ", ".join(f"{x:.3f}" for x in question.detail["exact"])
                assert judge_output(view, answer)["status"] in ("correct", "rounded"), (name, index)
            else:
                assert 0 <= question.truth < question.choices, (name, index)


def test_lesson_check_says_ok_or_names_each_stop_and_line_with_exit_status_2(tmp_path, capsys):
    assert main(["lesson", "check", "hand-calculation", str(ROOT / "app" / "lesson_files" / "scale-mask-heads.md")]) == 0
    assert "hand-calculation: OK (" in capsys.readouterr().out
    broken = tmp_path / "broken.md"
    broken.write_text(GOOD.replace("query=2", "query=7") + "\n## 둘\nview: preset=cat-fish&heads=4\nnote: 글\n", encoding="utf-8")
    random = tmp_path / "random.md"
    random.write_bytes(bytes(range(256)) * 4)
    truncated = tmp_path / "truncated.md"
    truncated.write_text(GOOD[:GOOD.index("view:")], encoding="utf-8")
    assert main(["lesson", "check", "--lang", "en", str(broken), str(random), str(truncated), "nope"]) == 2
    said = capsys.readouterr().err
    assert "broken.md: stop 1, line 6: view: query=7 is past the sentence" in said
    assert "broken.md: stop 2, line 16: view: heads=4: cat-fish offers 1, 2" in said
    assert "random.md: a lesson is UTF-8 text" in said and "truncated.md: stop 1, line 4: every stop has a view" in said
    assert "nope: no lesson 'nope': the lessons are hand-calculation, scale-mask-heads" in said


def test_export_and_serve_refuse_a_bad_lesson_with_the_checks_own_words(tmp_path, capsys):
    broken = tmp_path / "broken.md"
    broken.write_text(GOOD.replace("claim: top 생선을", "claim: top 먹었다"), encoding="utf-8")
    out = tmp_path / "out.html"
    assert main(["export", str(out), "--lesson", str(broken)]) == 2
    assert main(["serve", "--port", "1", "--lesson", str(broken)]) == 2  # refused before it serves
    said = capsys.readouterr().err
    assert said.count("stop 1, line 8: claim: 'top 먹었다' is false: the heaviest is 생선을 (0.786)") == 2
    assert main(["export", str(out), "--lesson", "hand-calculation", "--preset", "meet-friend"]) == 2
    assert "shows cat-fish, which the file does not carry (add --preset cat-fish)" in capsys.readouterr().err
    # a stop on the trained model needs the model in the file
    model_lesson = tmp_path / "model.md"
    model_lesson.write_text("# 모델\n## 하나\nview: preset=trained&layer=1&head=0\nnote: 모델의 head예요.\n", encoding="utf-8")
    assert main(["export", str(out), "--lesson", str(model_lesson), "--preset", "cat-fish"]) == 2
    assert "shows trained-2000, which the file does not carry (add --preset trained)" in capsys.readouterr().err
    assert not out.exists()


def test_a_lesson_request_reads_and_checks_a_linked_lesson_and_never_a_servers_file(tmp_path):
    from app import AttentionView
    from support import ask

    view = AttentionView()
    named = ask(view, {"type": "lesson", "name": "hand-calculation"})
    assert named["ok"] and named["lesson"]["name"] == "hand-calculation" and len(named["lesson"]["stops"]) == 20
    assert named["lesson"]["stops"][2]["question"]["truth"] == 1  # 생선을: the truth travels for a student alone
    carried = ask(view, {"type": "lesson", "text": GOOD})
    assert carried["ok"] and carried["lesson"]["stops"][0]["note"].startswith('"먹었다" 행은')
    wrong = ask(view, {"type": "lesson", "text": GOOD.replace("top 생선을", "top 먹었다")})
    assert wrong["error"] == {"code": "lesson", "values": {
        "problem": "stop 1, line 8: claim: 'top 먹었다' is false: the heaviest is 생선을 (0.786)",
        "reason": "claim_false", "stop": "1", "line": "8", "claim": "top 먹었다"}}  # the page words it (lesson.js)
    secret = tmp_path / "secret.md"
    secret.write_text(GOOD, encoding="utf-8")
    for name in (str(secret), "../app/lesson_files/hand-calculation", "/etc/passwd"):
        refused = ask(view, {"type": "lesson", "name": name})
        assert refused["error"]["code"] == "lesson" and refused["error"]["values"]["problem"].startswith("no lesson")
    assert ask(view, {"type": "lesson", "text": 5})["error"] == {"code": "bad_request", "values": {"field": "text"}}
