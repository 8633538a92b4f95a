"""The answer checker on the page (static/explorer/checker.js) gives the core's verdict
(attention_core.answer via app.lab.answer_result) in the exported file with no server at all: same
status, same slip, same words. The rules case by case are the golden file's (tests/golden/, run
against the core in tests/unit and against checker.js in tests/node); these few cases hold the
whole path end to end: the typed field, the rules shipped in the page, the cube, the words."""
import pytest
from playwright.sync_api import expect

from app.lab import answer_result
from app.strings import text
from attention_core import PRESETS, attention
from explorer_page import ExplorerPage
from support import verdict_words

pytestmark = pytest.mark.browser


def numbers(vector) -> str:
    return ", ".join(f"{x:.3f}" for x in vector)


MEET = PRESETS["meet-friend"]
MEET_4 = attention(MEET.q, MEET.k, MEET.v, heads=4)
CAT = PRESETS["cat-fish"]

# (preset, view: query, heads, head_view (-1 = all), scale, causal, typed answer)
CASES = [
    ("cat-fish", 2, 1, -1, True, False, "\ufeff0.214,\u00a00.977"),
    ("cat-fish", 2, 1, -1, True, False, "\uff080.21\uff0c 0.98\uff09"),
    ("cat-fish", 2, 1, -1, True, False, numbers(attention(CAT.q, CAT.k, CAT.v, scale=False).output[0, 2])),
    ("cat-fish", 2, 1, -1, True, False, "1/0, 1"),
    ("cat-fish", 2, 1, -1, False, False, "\x1c0.214 0.977"),
    ("cat-fish", 1, 1, -1, True, True, numbers(attention(CAT.q, CAT.k, CAT.v).output[0, 1])),
    ("meet-friend", 4, 4, -1, True, False, numbers(MEET_4.output[:, 4].reshape(-1))),
    ("meet-friend", 4, 4, 2, True, False, numbers(MEET_4.output[0, 4])),
]


def test_the_page_and_the_core_give_the_same_verdict_in_the_exported_file(page, exported, console_errors):
    seen = set()
    for name, query, heads, head_view, scale, causal, answer in CASES:
        explorer = ExplorerPage(page, exported.as_uri()).open(
            preset=name, query=str(query), heads=str(heads), scale=str(int(scale)), causal=str(int(causal)))
        if head_view >= 0:
            page.locator(f"[data-testid=head-view-{head_view}]").click()
        shown = explorer.check_answer(answer)
        alone = head_view >= 0 or heads == 1
        truth = answer_result(PRESETS[name], answer, query=query, heads=heads, head=max(head_view, 0),
                              scale=scale, causal=causal, all_heads=not alone)
        result = page.locator("[data-testid=answer-result]")
        case = (name, query, heads, head_view, scale, causal, answer)
        assert result.get_attribute("data-status") == truth["status"], case
        assert result.get_attribute("data-hint") == truth["slip"], case
        words = verdict_words(truth["key"], truth["values"], "hint_") + " " + text("answer_checked", "ko", **truth["values"])
        assert shown == words, case
        seen |= {truth["status"], truth["slip"]}
    # each verdict at least once, end to end
    assert {"correct", "rounded", "wrong", "invalid", "forgot_scale", "other_head"} <= seen, seen
    assert console_errors == []


def test_a_right_answer_in_the_exported_file_reveals_a_problem_worked_there(page, exported):
    explorer = ExplorerPage(page, exported.as_uri()).open(preset="cat-fish", query="2")
    page.locator("[data-testid=check-mode]").click()
    expect(page.locator("[data-testid=output-vector]")).to_have_count(0)
    explorer.check_answer("0.214, 0.977")
    expect(page.locator("[data-testid=output-vector]")).to_have_text("(0.214, 0.977)")


def test_an_output_computed_right_from_the_students_own_weights_gets_its_credit(page, exported, console_errors):
    """cat-fish, 먹었다 (v rows (1, 0), (0, 1), (1, 1)): weights 0.5, 0.3, 0.2 typed beside the output
    0.7, 0.5 made from them: 'carried', in words that send the student back to the weights; the
    right weights to two decimals and their output: right; the field empty: the output alone."""
    explorer = ExplorerPage(page, exported.as_uri()).open(preset="cat-fish", query="2")
    page.locator("[data-testid=check-mode]").click()
    result = page.locator("[data-testid=answer-result]")
    # each box says what it takes (lecture mode hides the hint above them)
    expect(page.locator("[data-testid=answer-input]")).to_have_attribute("placeholder", "출력 벡터 (예: 1.234, 5.678)")
    expect(page.locator("[data-testid=answer-weights]")).to_have_attribute("placeholder", "가중치 (선택)")
    page.locator("[data-testid=answer-weights]").fill("0.5, 0.3, 0.2")
    explorer.check_answer("0.7, 0.5")
    expect(result).to_have_attribute("data-status", "carried")
    expect(result).to_contain_text("입력한 가중치로 맞게 계산했어요")
    expect(page.locator("[data-testid=output-vector]")).to_have_count(0)  # not the answer: nothing revealed
    page.locator("[data-testid=answer-weights]").fill("")
    explorer.check_answer("0.7, 0.5")
    expect(result).to_have_attribute("data-status", "wrong")
    page.locator("[data-testid=answer-weights]").fill("0.02, 0.79, 0.19")
    explorer.check_answer("0.21, 0.98")
    expect(result).to_have_attribute("data-status", "rounded")
    expect(page.locator("[data-testid=output-vector]")).to_have_text("(0.214, 0.977)")
    assert console_errors == []


def test_a_rounded_answer_reads_as_right_in_the_colour_of_right(page, exported):
    """'Right up to rounding' is right: the same colour as an exact answer, not near-black."""
    explorer = ExplorerPage(page, exported.as_uri()).open(preset="cat-fish", query="2")
    result = page.locator("[data-testid=answer-result]")
    colour = "(el) => getComputedStyle(el).color"
    explorer.check_answer("0.214, 0.977")
    expect(result).to_have_attribute("data-status", "correct")
    right = result.evaluate(colour)
    explorer.check_answer("0.21, 0.98")
    expect(result).to_have_attribute("data-status", "rounded")
    assert result.evaluate(colour) == right == "rgb(10, 107, 46)"
