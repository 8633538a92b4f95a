"""The core against the golden file (tests/golden/answers.json): every typed answer is read, and
every verdict given, as the file says; and it reaches
every status, slip and error the checker has, so that the page's agreement with it
(tests/node/checker.test.mjs) means the page applies every rule."""
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

import golden_answers
from attention_core import PRESETS, InputError
from attention_core import answer, numbers, practice
from attention_core.answer import parse_vector
from attention_core.practice import rule_book

GOLDEN = golden_answers.load()
CASES = GOLDEN["cases"]


def exactly(value) -> str:
    """A value as JSON, so that -0.0 and 0.0 (and every last bit) differ."""
    return json.dumps(value, sort_keys=True)


def reading(text: str) -> dict:
    try:
        return {"numbers": [float(x) for x in parse_vector(text)]}
    except InputError as error:
        return {"error": [f"err_{error.code}", dict(error.values)]}


def verdict_on(case: dict) -> dict:
    """The core's verdict now (check_answer or check_row, as the generator asks for it)."""
    return golden_answers.judged(case)


def test_every_typed_answer_reads_as_the_golden_file_says():
    read = [(case["text"], reading(case["text"]), case["parse"]) for case in CASES]
    differ = [item for item in read if exactly(item[1]) != exactly(item[2])]
    assert differ[:10] == [], f"{len(differ)} of {len(CASES)} differ"


def test_every_verdict_is_the_golden_files_on_presets_and_practice_rows():
    checked = [case for case in CASES if "check" in case]
    judged = [(case["text"], case["check"], verdict_on(case), case["verdict"]) for case in checked]
    differ = [item for item in judged if exactly(item[2]) != exactly(item[3])]
    assert differ[:10] == [], f"{len(differ)} of {len(checked)} differ"


def test_the_committed_file_holds_the_checkers_rule_book_of_today():
    # that the rest of the file is a fresh generation: tests/app/test_golden_generation.py (7 s)
    assert GOLDEN["checker"] == rule_book()


def test_the_file_has_thousands_of_readings_and_hundreds_of_verdicts_on_every_kind_of_view():
    checked = [case["check"] for case in CASES if "check" in case]
    views = [check["view"] for check in checked if "view" in check]
    assert len(CASES) >= 2000 and len(checked) >= 500
    assert {check["entry"] for check in checked if "view" in check} == {"cat-fish", "meet-friend"}
    assert {(v["heads"], v["scale"], v["causal"], v["all_heads"]) for v in views} >= {
        (h, s, c, a) for h in (1, 2, 4) for s in (True, False) for c in (True, False) for a in (h > 1, False)}
    assert {check["row"] for check in checked if "row" in check} == set(practice.ROWS)


def _raised_codes(module) -> set[str]:
    """The InputError codes a module's source raises."""
    return set(re.findall(r'InputError\("(\w+)"', Path(module.__file__).read_text(encoding="utf-8")))


def test_the_file_reaches_every_status_every_slip_and_every_error_of_the_reader():
    verdicts = [case["verdict"] for case in CASES if "verdict" in case]
    on_views = [case["verdict"] for case in CASES if "view" in case.get("check", {})]
    on_rows = [case["verdict"] for case in CASES if "row" in case.get("check", {})]
    assert {v["status"] for v in on_views} == {"correct", "rounded", "carried", "wrong", "invalid"}
    assert {v["status"] for v in on_rows} == {"correct", "rounded", "carried", "wrong", "invalid"}
    assert {v["slip"] for v in on_views} == {"", *answer.SLIPS}
    assert {v["slip"] for v in on_rows} == {"", "recheck", *practice.SLIPS}
    assert {"answer_length", "practice_length"} <= {v["key"] for v in verdicts}
    # every error parse_vector and parse_number raise, but parse_number's "empty": parse_vector
    # never hands it an empty part
    errors = {case["parse"]["error"][0] for case in CASES if "error" in case["parse"]}
    raised = _raised_codes(numbers) | _raised_codes(answer)
    assert errors == {f"err_{code}" for code in raised - {"empty", "empty_matrix", "ragged"}}
    assert {v["key"] for v in verdicts if v["status"] == "invalid"} >= {"err_not_number", "err_div_zero"}


@pytest.mark.parametrize("character", ["\ufeff", "\u200b", "\u200d", "\u2060", "\u00ad"])
def test_the_file_covers_each_invisible_character_inside_a_read_answer(character):
    assert any(character in case["text"] and "numbers" in case["parse"] for case in CASES)


@pytest.mark.parametrize("character", ["\u00a0", "\u2000", "\u2009", "\u3000", "\u2028", "\u2029", "\x1c", "\x85"])
def test_the_file_covers_each_kind_of_space_between_read_numbers(character):
    assert any(character in case["text"].strip(character) and len(case["parse"].get("numbers", [])) > 1
               for case in CASES)
