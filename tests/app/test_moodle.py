"""The practice problems as a Moodle question bank (app/moodle.py, docs/lms.md): the file's structure
as Moodle XML and its Cloze syntax, and its grading against our checker's, simulated on honest
students (every way of rounding along the calculation, written at two and three decimals) and on
slipped ones (every slip the checker names, at two and three decimals)."""
import re
import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

from app.cli import main
from app.moodle import moodle_xml
from attention_core.honest import rounded, variants
from attention_core.practice import ROW_CHAINS, ROWS, check_row, practice_problem, practice_rows
from attention_core.words import text

#: a Cloze NUMERICAL blank, and each of its answers: %fraction% (or = for 100), value:tolerance, #feedback
BLANK = re.compile(r"\{1:NUMERICAL:((?:[^{}\\]|\\.)*)\}")
ANSWER = re.compile(r"^(=|%(\d+)%)(-?\d+\.\d+):(\d+\.\d+)#(.*)$", re.S)
PROBLEMS = range(1, 41)


def _answers(blank: str) -> list[tuple[float, float, float, str]]:
    """A blank's answers in order: (fraction, value, tolerance, feedback as shown)."""
    made = []
    for part in re.split(r"(?<!\\)~", blank):
        found = ANSWER.match(part)
        assert found, part
        fraction = 100.0 if found.group(1) == "=" else float(found.group(2))
        feedback = re.sub(r"\\(.)", r"\1", found.group(5))
        made.append((fraction, float(found.group(3)), float(found.group(4)), feedback))
    return made


def _moodle_grades(answers, typed: float) -> tuple[float, str]:
    """What Moodle's numerical grading gives a typed number: the first answer whose range holds it
    (its fraction and feedback), else 0 and no feedback."""
    for fraction, value, tolerance, feedback in answers:
        if abs(typed - value) <= tolerance:
            return fraction, feedback
    return 0.0, ""


def _question_blanks(xml: str) -> dict[int, dict[str, list]]:
    """Problem number → row → its blanks' answers, read from the file as Moodle reads it."""
    quiz = ElementTree.fromstring(xml)
    made = {}
    for question in quiz.findall("question[@type='cloze']"):
        number = int(question.find("idnumber").text.rsplit("-", 1)[1])
        body = question.find("questiontext/text").text
        blanks = [_answers(blank) for blank in BLANK.findall(body)]
        sizes = [len(practice_rows(practice_problem(number))[row].truth) for row in ROWS]
        starts = np.cumsum([0, *sizes])
        made[number] = {row: blanks[starts[i]:starts[i + 1]] for i, row in enumerate(ROWS)}
    return made


@pytest.fixture(scope="module")
def bank():
    return moodle_xml(len(PROBLEMS))


def test_the_bank_is_moodle_xml_one_cloze_question_a_problem(bank):
    quiz = ElementTree.fromstring(bank)
    assert quiz.tag == "quiz"
    category, *questions = quiz.findall("question")
    assert category.get("type") == "category" and category.find("category/text").text.startswith("$course$/")
    assert [q.get("type") for q in questions] == ["cloze"] * len(PROBLEMS)
    assert len({q.find("idnumber").text for q in questions}) == len(PROBLEMS)
    for number, question in zip(PROBLEMS, questions):
        problem = practice_problem(number)
        assert question.find("name/text").text == text("practice_title", "ko", number=number)
        body = question.find("questiontext/text").text
        assert question.find("questiontext").get("format") == "html"
        assert problem.tokens[problem.query] in body and "</table>" in body
        assert len(BLANK.findall(body)) == 3 + 3 + 3 + 2  # a blank a number
        assert "③" in question.find("generalfeedback/text").text  # the worked solution
    assert bank.startswith('<?xml version="1.0" encoding="UTF-8"?>')


def test_each_blank_grants_our_checkers_band_and_names_each_slip_of_its_row(bank):
    from attention_core.practice import row_bands
    made = _question_blanks(bank)
    for number in PROBLEMS:
        problem = practice_problem(number)
        for name, row in practice_rows(problem).items():
            bands = row_bands(problem, name, row)
            for i, answers in enumerate(made[number][name]):
                # first the truth itself (what Moodle shows as the correct answer), inside the band
                fraction, value, tolerance, _ = answers[0]
                (low, high), = bands["truth"]
                assert fraction == 100 and abs(value - row.truth[i]) < 1e-6
                assert value - tolerance >= low[i] - 2e-6 and value + tolerance <= high[i] + 2e-6
                # then the whole honest band
                fraction, value, tolerance, feedback = answers[1]
                assert fraction == 100 and value - tolerance <= low[i] and value + tolerance >= high[i]
                assert value - tolerance >= low[i] - 2e-6 and value + tolerance <= high[i] + 2e-6  # no wider
                hints = {text(f"practice_hint_{slip}", "ko") for slip in bands if slip != "truth"}
                assert {feedback for _, _, _, feedback in answers[2:]} == hints


def test_the_answer_moodle_shows_as_correct_is_the_truth_for_every_blank(bank):
    """Moodle's "The correct answer is" shows a blank's first 100 % answer: the core's truth, at
    three decimals, for every blank of the bank (it was the middle of the honest band)."""
    made = _question_blanks(bank)
    shown = right = 0
    for number in PROBLEMS:
        for name, row in practice_rows(practice_problem(number)).items():
            for i, answers in enumerate(made[number][name]):
                best = next(value for fraction, value, _, _ in answers if fraction == 100)
                shown += 1
                right += f"{best:.3f}" == f"{row.truth[i]:.3f}"
    assert shown >= 100 and right == shown, (right, shown)


def _written(values, digits: int) -> np.ndarray:
    return rounded(np.asarray(values, dtype=float), digits)


def test_honest_students_get_full_marks_and_slipped_ones_are_told_their_step(bank):
    """Both kinds of error, measured: an honest number Moodle refuses (must be none), a slipped row
    Moodle gives full marks (must be none), and how often a slipped row's feedback names the slip
    our checker names for it."""
    made = _question_blanks(bank)
    honest = refused = slipped = passed = named = 0
    for number in PROBLEMS:
        problem = practice_problem(number)
        scores = problem.q[problem.query] @ problem.k.T
        for name, row in practice_rows(problem).items():
            ways = variants(scores, ROW_CHAINS[name]["truth"], d_k=2, v=problem.v)
            for way in ways:
                for digits in (2, 3):
                    typed = _written(way, digits)
                    if check_row(", ".join(map(str, typed)), problem, name).status not in ("correct", "rounded"):
                        continue  # not what our checker calls honest (none are, by construction)
                    honest += 1
                    grades = [_moodle_grades(answers, x)[0] for answers, x in zip(made[number][name], typed)]
                    refused += min(grades) < 100
            for slip, path in row.slips:
                for digits in (2, 3):
                    typed = _written(path, digits)
                    verdict = check_row(", ".join(map(str, typed)), problem, name)
                    graded = [_moodle_grades(answers, x) for answers, x in zip(made[number][name], typed)]
                    slipped += 1
                    passed += all(fraction == 100 for fraction, _ in graded)
                    named += text(f"practice_hint_{verdict.slip}", "ko") in {feedback for _, feedback in graded}
    print(f"honest rows {honest}: refused by Moodle {refused}; slipped rows {slipped}: full marks {passed}, "
          f"the checker's slip named in a blank's feedback {named} ({named / slipped:.1%})")
    assert honest > 1000 and refused == 0
    assert passed == 0 and named / slipped >= 0.95


def test_the_command_writes_the_bank_and_refuses_what_it_cannot(tmp_path, capsys):
    out = tmp_path / "bank.xml"
    assert main(["export", str(out), "--moodle-xml", "--practice", "3", "--lang", "en"]) == 0
    quiz = ElementTree.fromstring(out.read_text(encoding="utf-8"))
    assert len(quiz.findall("question[@type='cloze']")) == 3
    assert "Practice problem 1" in out.read_text(encoding="utf-8")
    assert main(["export", str(tmp_path / "none.xml"), "--moodle-xml", "--practice", "0"]) == 2
    assert main(["export", str(tmp_path / "mixed.xml"), "--moodle-xml", "--lesson", "hand-calculation"]) == 2
    said = capsys.readouterr().err
    assert "--practice must be 1 to 9999" in said and "drop --lesson" in said
    assert not (tmp_path / "none.xml").exists() and not (tmp_path / "mixed.xml").exists()
