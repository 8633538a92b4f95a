"""A note is checked by its words (app/note_reader.py reads what a sentence asserts, app/note_check.py
checks it against the stop's numbers): planted false sentences of every kind are refused with their
line, in the lesson's language; true sentences pass without a `claim:`."""
import pytest

from app.cli import main
from app.lesson_check import check_stop, lesson_problems
from app.lessons import LessonError, lesson_names, parse_lesson, read_lesson
from app.note_reader import read_note, read_sentence, sentences

CAT = "preset=cat-fish&query=2&heads=1&scale=1&causal=0"  # scores (1, 6, 4), scaled (0.71, 4.24, 2.83), weights (0.023, 0.786, 0.191)
CAT_RAW = "preset=cat-fish&query=2&heads=1&scale=0&causal=0"  # weights (0.006, 0.876, 0.118)
MEET = "preset=meet-friend&query=4&heads=1&scale=1&causal=0"  # 친구를 0.463
COFFEE_MASK = "preset=coffee-today&query=3&heads=1&scale=1&causal=1"  # 산 0.578; 오늘, 마셨다 masked
COFFEE = "preset=coffee-today&query=5&heads=1&scale=1&causal=0"  # 커피를 0.535, 오늘 0.246; scores 6.8, 4.6
WHY = "preset=why-scale&query=3&heads=1&scale=0&causal=0"  # (2, 4, 20, 3): 생선을 1.000, the rest ~1e-8
HEAD1 = "preset=coffee-today&query=5&heads=2&head_view=0&scale=1&causal=0"  # 커피를 0.692

#: (view, field, sentence, kind of mistake): each false at its view
PLANTED = [
    # a wrong integer: a row of scores, d, d_k, √d, the number of tokens
    (CAT, "note", '"먹었다" 행의 스코어는 (2, 5, 4)예요.', "integer"),
    (CAT, "note_en", "The scores of 먹었다 are (1, 6, 5).", "integer"),
    (CAT, "note", "d = 3이니 √3으로 나눠요.", "integer"),
    (CAT, "note_en", "Here d_k = 4.", "integer"),
    (CAT, "note", "토큰 4개로 된 문장이에요.", "integer"),
    (CAT, "note_en", "We divide by √4 = 2.", "integer"),
    (COFFEE, "note", '"커피를"의 스코어는 7이에요.', "integer"),  # 6.8: an integer is exact
    (COFFEE, "note", "d_k = 4예요.", "integer"),  # at a sentence's start (one head: 8)
    # a wrong decimal
    (CAT, "note", '"생선을"의 가중치는 0.768이에요.', "decimal"),
    (CAT, "note_en", "생선을's weight is 0.79 and 먹었다's is 0.20.", "decimal"),
    (CAT, "speaker", "나눈 스코어는 (0.71, 4.25, 2.83)이에요.", "decimal"),
    (CAT, "note", "새 표현은 (0.214, 0.978)이에요.", "decimal"),
    (CAT, "note_en", "With d = 2 we divide by √2 ≈ 1.41 and get 4.23 for 생선을.", "decimal"),
    (MEET, "note", '"만났다"는 "친구를"에 0.436을 줘요.', "decimal"),
    # the right number on the wrong key
    (CAT, "note", '"먹었다"는 "고양이가"에 0.786을 줘요.', "wrong key"),
    (CAT, "note_en", "먹었다 gives 먹었다 0.786.", "wrong key"),
    (COFFEE, "note", '"마셨다"는 "오늘"에 0.535, "커피를"에 0.246을 줘요.', "wrong key"),
    (COFFEE, "note_en", "In 마셨다's row, 오늘 scores 6.8.", "wrong key"),
    (COFFEE_MASK, "note", '"산"의 가중치는 0.422예요.', "wrong key"),
    # a comparison the wrong way round
    (CAT, "note", "√d로 나누지 않으면 분포가 더 평평해져요.", "reversed"),
    (CAT, "note_en", "Without the division by √d the weights get flatter.", "reversed"),
    (CAT_RAW, "note", "√d로 나누면 더 뾰족하게 몰려요.", "reversed"),
    (CAT, "note_en", "Dividing by √d makes the weights sharper.", "reversed"),
    (COFFEE_MASK, "note", '마스크를 켜면 "산"의 가중치가 작아져요.', "reversed"),
    (HEAD1, "note", "한 헤드 때보다 덜 뾰족하고 더 평평해요.", "reversed"),
    (CAT, "note", "이 나눗셈이 Softmax를 한 곳에 더 몰리게 해요.", "reversed"),
    # the wrong largest or smallest key
    (CAT, "note", '"고양이가"가 가장 큰 가중치를 받아요.', "top"),
    (CAT, "note_en", "먹었다 gives 먹었다 the most weight.", "top"),
    (MEET, "note", '"만났다"는 "어제"에 가장 집중해요.', "top"),
    (COFFEE, "note_en", "오늘 gets the heaviest weight.", "top"),
    (CAT, "note", '"생선을"이 가장 작은 가중치를 받아요.', "bottom"),
    (CAT, "note", '"먹었다" 행은 (1, 6, 4): "먹었다"의 키와 가장 잘 맞아요.', "top"),
    # "0" said of a tiny weight, "almost 0" of an exact 0
    (WHY, "note", "나머지는 0이 돼요.", "zero"),
    (WHY, "note_en", "생선을 takes 1.000 and the rest 0.", "zero"),
    (WHY, "note", '"고양이가"의 가중치는 정확히 0이에요.', "zero"),
    (COFFEE_MASK, "note", '"오늘"의 가중치는 거의 0이에요.', "zero"),
    (COFFEE, "note", "가려진 두 키의 가중치는 정확히 0이에요.", "zero"),  # the mask is off
    # a masked key that is not, equal weights that are not, the sum, the query
    (COFFEE_MASK, "note", '"산"의 점수는 -∞로 가려요.', "masked"),
    (CAT, "note_en", "고양이가 and 생선을 get the same weight.", "equal"),
    (CAT, "note", "가중치를 모두 더하면 합이 2예요.", "sum"),
    (CAT, "note", '쿼리는 "생선을"이에요.', "query"),
    (CAT, "note_en", "The query is 고양이가.", "query"),
    # softmax of the scores, not of the scaled scores (the forgot-÷√d slip, taught)
    (CAT, "note", "Softmax가 스코어를 가중치로 바꿔요: (0.023, 0.786, 0.191).", "softmax"),
    # a comparison with nothing to compare with
    (CAT, "note_en", "The weights are sharper.", "compare what"),
]

#: true sentences, as lecturers write them, each at its view: pass without a claim
TRUE = [
    (CAT, "note", "√d로 나누지 않으면 더 뾰족하게 몰려요."),
    (CAT, "note", '"생선을"에 가장 큰 가중치를 줘요.'),
    (CAT, "note", '"먹었다" 행의 스코어는 (1, 6, 4)예요. "생선을"의 스코어는 6이에요.'),
    (CAT, "note_en", "Without √d the weights would be sharper: 생선을 would take 0.876."),
    (CAT, "note", "d = 2이니 √2 ≈ 1.414로 나눠요. 나눈 스코어는 (0.71, 4.24, 2.83)이에요."),
    (CAT, "note_en", "The weights add up to 1: (0.023, 0.786, 0.191)."),
    (CAT, "note", "0.023 × (1, 0) + 0.786 × (0, 1) + 0.191 × (1, 1) = (0.214, 0.977)."),
    (CAT, "note", '"먹었다"는 "생선을"에 0.786, 자기 자신에 0.191을 줘요.'),
    (CAT, "note_en", "Dividing by √d keeps softmax from piling everything on one key."),
    (CAT_RAW, "note", '나누지 않으면 "생선을"의 가중치가 0.876으로 커져요.'),
    (WHY, "note", '"생선을" 하나가 1.000을 가져가요. 나머지는 거의 0이 돼요.'),
    (WHY, "note_en", "생선을 takes 1.000, the rest almost 0."),
    (COFFEE_MASK, "note", "가려진 두 키의 가중치는 정확히 0이에요."),
    (COFFEE_MASK, "note", '"오늘"과 "마셨다"의 점수는 -∞로 가려요.'),
    (COFFEE_MASK, "note", '마스크를 켜면 "산"의 가중치가 0.578로 커져요.'),
    (COFFEE_MASK, "note_en", "Under the mask 산 gets the most, 0.578."),
    (HEAD1, "note", '첫 헤드에서 "마셨다"는 "커피를"에 0.692를 줘요. 한 헤드 때보다 더 집중해요.'),
    (MEET, "note", '"만났다"는 "친구를"에 0.463으로 가장 집중해요.'),
    ("preset=meet-friend&query=1&heads=1&scale=1&causal=0", "note_en",
     "With 어제 as the query, the weight splits evenly between 친구를 and itself, 0.366 each."),
    (COFFEE, "note", '"마셨다" 행에서 "커피를"은 6.8, "오늘"은 4.6이에요.'),
    (COFFEE, "note", "계산해 보세요. 어텐션은 1등 하나만 고르지 않아요."),  # 산 in 계산 is no key; 1등 is no value
    (CAT, "note", "더 뾰족해질까요, 더 평평해질까요?"),  # a question asserts nothing
]


def _stop(view: str, field: str, sentence: str):
    lines = ["# 제목", "## 하나", f"view: {view}", "note: 보기예요." if field != "note" else f"note: {sentence}"]
    if field != "note":
        lines.append(f"{field}: {sentence}")
    return parse_lesson("\n".join(lines)).stops[0]


@pytest.mark.parametrize("view, field, sentence, kind", PLANTED)
def test_a_planted_false_sentence_is_refused_naming_its_line_and_the_numbers(view, field, sentence, kind):
    with pytest.raises(LessonError) as refused:
        check_stop(_stop(view, field, sentence), 1)
    problem = refused.value
    assert problem.code == "note_false", (kind, problem)
    assert problem.values["line"] == 4 + (field != "note") and problem.values["field"] == field
    assert problem.values["truth_ko"] and problem.values["truth_en"] and "{" not in problem.words("ko") + problem.words("en")


def test_the_planted_suite_covers_at_least_forty_sentences_of_eight_kinds():
    assert len(PLANTED) >= 40 and len({kind for *_, kind in PLANTED}) >= 8


@pytest.mark.parametrize("view, field, sentence", TRUE)
def test_a_true_sentence_passes_without_a_claim(view, field, sentence):
    check_stop(_stop(view, field, sentence), 1)


def test_every_sentence_of_the_built_in_lessons_is_read_and_true():
    """Every lesson passes, and the reader finds assertions in most stops (so the check is not
    vacuous): at least 40 across the two lessons."""
    said = 0
    for name in lesson_names():
        lesson = read_lesson(name)
        assert lesson_problems(lesson) == [], name
        from app.lesson_check import read_view
        for index, stop in enumerate(lesson.stops, start=1):
            shown = read_view(stop, index)
            for field, lang in (("note", "ko"), ("note_en", "en")):
                said += len(read_note(getattr(stop, field), shown.tokens, shown.view["query"], lang))
    assert said >= 80


def test_what_the_reader_hears_in_a_sentence():
    tokens = ("고양이가", "생선을", "먹었다")
    assert sentences("가중치는 0.786이에요. 다음 문장이에요.") == ["가중치는 0.786이에요.", "다음 문장이에요."]
    assert sentences("첫 줄이\n  이어져요.") == ["첫 줄이 이어져요."]  # a field's lines are one text
    [value] = read_sentence('"생선을"의 가중치는 0.786이에요.', tokens, 2, "ko")
    assert (value.kind, value.keys, value.quantity, value.written) == ("value", (1,), "weights", ("0.786",))
    [compare] = read_sentence("√d로 나누지 않으면 더 뾰족하게 몰려요.", tokens, 2, "ko")
    assert (compare.kind, compare.direction, compare.switches) == ("compare", "sharper", {"scale": False})
    [flat] = read_sentence("Dividing by √d keeps softmax from piling up.", tokens, 2, "en")
    assert (flat.kind, flat.direction, flat.switches) == ("compare", "flatter", {"scale": True})
    assert read_sentence("어느 키가 가장 클까요?", tokens, 2, "ko") == []
    [row] = [s for s in read_sentence("스코어는 (1, 6, 4)예요.", tokens, 2, "ko") if s.kind == "row"]
    assert row.written == ("1", "6", "4") and row.quantity == "scores"


def test_lesson_check_speaks_the_lessons_language(tmp_path, capsys):
    lesson = tmp_path / "mine.md"
    lesson.write_text('# 내 수업\n## 하나\nview: preset=cat-fish&query=2\nnote: "고양이가"의 가중치는 0.786이에요.\n', encoding="utf-8")
    assert main(["lesson", "check", str(lesson)]) == 2
    said = capsys.readouterr().err
    assert "정류장 1, 4번째 줄" in said and "0.786: “생선을” 키의 가중치 값이에요" in said and "0.023" in said
    assert main(["lesson", "check", "--lang", "en", str(lesson)]) == 2
    assert "0.786 is 생선을's weight; 고양이가's is 0.023" in capsys.readouterr().err


def test_a_corpus_written_apart_from_the_rules_is_read_right():
    """tests/app/data/held_out_notes.json: 70 sentences (30 true, 40 false; half Korean) a helper
    wrote and labelled from the core's numbers without seeing the reader. At first contact the
    reader refused 36 of the 40 false and accepted 23 of the 30 true; the general rules added after
    (the "off" phrase wins where conditions overlap, "from A to B", "X gives", "nearly 1") read all
    70. It is no longer unseen: a new corpus measures the next change."""
    import json

    from support import ROOT

    corpus = json.loads((ROOT / "tests" / "app" / "data" / "held_out_notes.json").read_text(encoding="utf-8"))
    wrong = []
    for entry in corpus:
        stop = _stop(entry["view"], entry["field"], entry["sentence"])
        try:
            check_stop(stop, 1)
            refused = False
        except LessonError:
            refused = True
        if refused != (entry["label"] == "false"):
            wrong.append(entry["sentence"])
    assert len(corpus) == 70 and wrong == []


def test_the_node_tests_read_the_problems_python_sends_now():
    """tests/node/fixtures/lesson_problems.json: drafts with the problems the page receives and the
    words Python says them in (tests/node/lesson.test.mjs says them as the page does)."""
    from support import node_fixture

    committed, made = node_fixture("lesson_problems")
    assert committed == made, "run tests/node/fixtures/lesson_problems_fixture.py and commit"
