"""The hand-calculation lab in a real browser: own sentences, own numbers, steps, answers and hostile input.
What the page does alone (steps, the answer check, links it reads itself) runs in the exported file;
what needs Python (a typed sentence, edited numbers) in the served page."""
import re

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_core import PRESETS, attention, custom_preset
from app.strings import text
from explorer_page import ExplorerPage, assert_table_matches, settled_url

pytestmark = pytest.mark.browser
CAT = PRESETS["cat-fish"]


def test_a_typed_sentence_shows_the_cores_weights_and_goes_into_the_url(explorer):
    explorer.open(preset="meet-friend")
    sentence = "우리는 어제 도서관에서 책을 빌렸다"
    explorer.apply_sentence(sentence)
    preset = custom_preset(sentence)
    explorer.expect_query("빌렸다")
    for heads, causal in [(1, False), (4, True)]:
        explorer.set_heads(heads)
        explorer.set_checkbox("causal-toggle", causal)
        explorer.click_token(1)
        explorer.expect_query("어제")
        r = attention(preset.q, preset.k, preset.v, heads=heads, causal=causal)
        assert_table_matches(explorer.weights()[1], r.weights[:, 1, :])
    url = settled_url(explorer.page)
    assert "text=" in url and "preset=custom" in url


def test_a_sentence_in_the_url_opens_it(explorer):
    explorer.open(text="the cat sat on the mat", query="1")
    explorer.expect_query("cat")
    url = settled_url(explorer.page)
    assert "text=the+cat+sat" in url and "query=1" in url
    preset = custom_preset("the cat sat on the mat")
    assert_table_matches(explorer.weights()[1], attention(preset.q, preset.k, preset.v).weights[:, 1, :])


def test_a_bad_sentence_gets_a_message_and_the_previous_one_stays(explorer):
    explorer.open(preset="meet-friend")
    explorer.token_button("어제").click()
    # each refused in turn in the one page; the messages differ, so each is waited for
    for text, message in [("   ", "비어 있어요"), (" ".join(["말"] * 25), "25개")]:
        explorer.apply_sentence(text)
        expect(explorer.page.locator("[data-testid=sentence-error]")).to_contain_text(message)
        explorer.expect_query("어제")
        assert explorer.weights()[0] == list(PRESETS["meet-friend"].tokens), text


def test_editing_a_cell_of_cat_fish_recomputes_every_view(explorer):
    explorer.open(preset="cat-fish")
    explorer.open_editor()
    explorer.edit_cell("q", 2, 0, "2")  # 먹었다's query becomes (2, 3)
    q = CAT.q.copy()
    q[2, 0] = 2
    r = attention(q, CAT.k, CAT.v)
    expect(explorer.page.locator("[data-testid=output-vector]")).to_have_text(
        "(" + ", ".join(f"{x:.3f}" for x in r.output[0, 2]) + ")")
    assert_table_matches(explorer.weights()[1], r.weights[:, 2, :])
    lines = explorer.page.locator("[data-testid=lines-figure] line[data-key]")
    # a line's width is 1.5 + 12 × its weight, to 2 decimals
    drawn = sorted((float(lines.nth(i).get_attribute("stroke-width")) - 1.5) / 12 for i in range(lines.count()))
    assert np.allclose(drawn, sorted(r.weights[0, 2]), rtol=0, atol=0.005 / 12 + 1e-9)
    expect(explorer.page.locator("[data-testid=calc-table]")).to_contain_text("(2.00, 3.00)·(0.00, 2.00) = 6.000")


def test_fractions_work_in_cells(explorer):
    explorer.open(preset="cat-fish")
    explorer.open_editor()
    explorer.edit_cell("v", 1, 0, "1/2")
    v = CAT.v.copy()
    v[1, 0] = 0.5
    r = attention(CAT.q, CAT.k, v)
    expect(explorer.page.locator("[data-testid=output-vector]")).to_have_text(
        "(" + ", ".join(f"{x:.3f}" for x in r.output[0, 2]) + ")")


INVALID_CELLS = ["abc", "", "nan", "inf", "1e9", "1/0", "<img src=x onerror=window.__xss=1>"]


def test_an_invalid_cell_is_marked_and_nothing_else_changes(explorer):
    explorer.open(preset="cat-fish")
    before = explorer.weights()
    explorer.open_editor()
    cell = explorer.cell("k", 1, 1)
    errors = explorer.page.locator("[data-testid=numbers-errors]")
    failures = []
    # each value in turn in the one page; the cell goes back to its own 2 (cat-fish's K[1][1]) between them
    for value in INVALID_CELLS:
        try:
            explorer.edit_cell("k", 1, 1, value)
            expect(cell).to_have_attribute("aria-invalid", "true")
            expect(errors).not_to_be_empty()
            assert explorer.weights() == before
            assert explorer.page.evaluate("window.__xss") is None
            explorer.edit_cell("k", 1, 1, "2")
            expect(cell).not_to_have_attribute("aria-invalid", "true")
            expect(errors).to_be_empty()
        except AssertionError as error:
            failures.append(f"cell value {value!r}: {error}")
    assert not failures, "\n".join(failures)


def test_a_d_that_does_not_fit_the_heads_is_marked(explorer):
    explorer.open(preset="cat-fish", heads="2")
    before = explorer.weights()
    explorer.open_editor()
    explorer.page.locator("[data-testid=numbers-d]").select_option("3")
    expect(explorer.page.locator("[data-testid=numbers-errors]")).to_contain_text("d = 3")
    assert explorer.weights() == before


def test_adding_and_removing_tokens_and_reset(explorer):
    explorer.open(preset="cat-fish")
    explorer.open_editor()
    explorer.page.locator("[data-testid=numbers-add]").click()
    expect(explorer.token_buttons()).to_have_count(4)
    explorer.edit_cell("token", 3, 0, "야옹")
    expect(explorer.token_button("야옹")).to_be_visible()
    explorer.page.locator("[data-testid=numbers-remove]").click()
    explorer.page.locator("[data-testid=numbers-remove]").click()
    expect(explorer.token_buttons()).to_have_count(2)
    explorer.page.locator("[data-testid=numbers-reset]").click()
    expect(explorer.token_buttons()).to_have_count(3)
    expect(explorer.cell("q", 2, 1)).to_have_value("3")


def test_step_by_step_with_buttons_and_the_space_bar(in_file):
    in_file.open(preset="cat-fish")
    in_file.page.locator("[data-testid=step-toggle]").click()
    table = in_file.page.locator("[data-testid=calc-table]")
    expect(table.locator("thead th")).to_have_count(2)  # key + scores
    expect(in_file.page.locator("[data-testid=lines-figure] line")).to_have_count(0)
    in_file.page.locator("[data-testid=step-next]").click()
    expect(table.locator("thead th")).to_have_count(3)
    assert "step=1" in settled_url(in_file.page)
    # on a button, Space is the button's: it picks that token and leaves the step alone
    in_file.page.locator("[data-testid=token-buttons] button").first.focus()
    in_file.page.keyboard.press("Space")
    expect(in_file.token_button("고양이가")).to_have_attribute("aria-pressed", "true")
    expect(in_file.page.locator("[data-testid=step-label]")).to_contain_text("2/6")
    # anywhere else on the page, Space steps
    in_file.page.locator("[data-testid=calculation]").click()
    in_file.page.keyboard.press("Space")
    in_file.page.keyboard.press("Space")
    expect(in_file.page.locator("[data-testid=step-label]")).to_contain_text("4/6")
    expect(in_file.page.locator("[data-testid=lines-figure] line[data-key]")).to_have_count(3)
    in_file.page.keyboard.press("Shift+Space")
    expect(in_file.page.locator("[data-testid=step-label]")).to_contain_text("3/6")
    for _ in range(3):
        in_file.page.locator("[data-testid=step-next]").click()
    expect(in_file.page.locator("[data-testid=step-next]")).to_be_disabled()
    expect(in_file.page.locator("[data-testid=output-vector]")).to_have_text("(0.752, 0.752)")  # 고양이가's
    assert "step=5" in settled_url(in_file.page)


def test_a_verdict_disappears_when_the_view_changes(in_file):
    in_file.open(preset="cat-fish", query="2")
    assert "맞았어요" in in_file.check_answer("0.214, 0.977")
    in_file.set_checkbox("causal-toggle", True)
    expect(in_file.page.locator("[data-testid=answer-result]")).to_be_empty()


def test_the_editor_says_why_scale_is_too_wide_and_disables_its_tools(explorer):
    explorer.open(preset="why-scale")
    explorer.open_editor()
    expect(explorer.page.locator("[data-testid=numbers-grid]")).to_contain_text("d = 64")
    expect(explorer.page.locator("[data-testid=numbers-add]")).to_be_disabled()
    expect(explorer.page.locator("[data-testid=numbers-reset]")).to_be_disabled()


def test_the_step_in_the_url_opens_that_step(in_file):
    in_file.open(preset="cat-fish", step="0")
    expect(in_file.page.locator("[data-testid=step-label]")).to_contain_text("1/6")


ANSWERS = [  # (answer, expected words, data-status, data-hint)
    ("0.214, 0.977", "맞았어요", "correct", ""),
    ("0.21, 0.98", "반올림한 만큼만", "rounded", ""),
    ("(0.124, 0.994)", "√d_k로 나누는 단계를 빠뜨린", "wrong", "forgot_scale"),
    ("0.12, 0.99", "√d_k로 나누는 단계를 빠뜨린", "wrong", "forgot_scale"),
    ("0.455, 0.909", "합으로 나눈", "wrong", "sum_not_softmax"),
    ("0.5 0.5", "계산 표와 한 줄씩", "wrong", "recheck"),
    ("0.214", "2개여야", "wrong", ""),
    ("<b>x</b>", "숫자가 아니에요", "invalid", ""),
]


def test_check_my_answer_says_right_or_where_it_went_wrong(in_file):
    in_file.open(preset="cat-fish", query="2")
    page = in_file.page
    result = page.locator("[data-testid=answer-result]")

    def check(answer, status):  # the verdict on screen once its status is there
        page.locator("[data-testid=answer-input]").fill(answer)
        page.locator("[data-testid=answer-check]").click()
        expect(result).to_have_attribute("data-status", status)
        return result.inner_text()

    failures = []
    for answer, expected, status, hint in ANSWERS:
        try:
            # first a verdict of another status, so that this answer's verdict is seen to arrive
            check(*(("0.214, 0.977", "correct") if status == "invalid" else ("<b>x</b>", "invalid")))
            text = check(answer, status)
            assert expected in text and "Query 먹었다, head 1" in text, text
            expect(result).to_have_attribute("data-hint", hint)
        except AssertionError as error:
            failures.append(f"answer {answer!r}: {error}")
    assert not failures, "\n".join(failures)


def test_with_all_heads_shown_one_heads_output_is_accepted_and_named(in_file):
    in_file.open(preset="meet-friend", query="4", heads="4")
    p = PRESETS["meet-friend"]
    third = attention(p.q, p.k, p.v, heads=4).output[2, 4]
    text = in_file.check_answer(", ".join(f"{x:.3f}" for x in third))
    assert "head 3" in text
    expect(in_file.page.locator("[data-testid=answer-result]")).to_have_attribute("data-status", "correct")


HOSTILE = [
    "<img src=x onerror=window.__xss=1>",
    "<script>window.__xss=1</script> 안녕",
    '<a href="javascript:window.__xss=1">click</a>',
    '" onmouseover="window.__xss=1" x="',
    "&lt;b&gt;entity&lt;/b&gt; &amp;",
    "x" * 100_000,
    "a\x00b\x07c \x1b[31mred",
    "zero\u200bwidth \u202eright-to-left\u202c mark",
    "😀 🇰🇷 👩‍💻 emoji",
    "한국어 English 日本語 العربية",
    "the the the cat cat",
]


def test_hostile_input_through_the_text_box_is_only_ever_text(explorer):
    explorer.open(preset="meet-friend")
    explorer.apply_sentence("마지막 좋은 문장")
    explorer.expect_query("문장")
    for text in HOSTILE:
        explorer.apply_sentence(text)
        explorer.page.wait_for_timeout(150)
        assert explorer.page.evaluate("window.__xss") is None
        assert explorer.page.locator("img[src=x]").count() == 0
        explorer.click_token(0)  # the page still answers a click
        expect(explorer.token_buttons().first).to_have_attribute("aria-pressed", "true")
    # the literal markup is shown as text
    explorer.apply_sentence(HOSTILE[0])
    expect(explorer.token_button("<img")).to_be_visible()
    # the long one was refused with a message; the last good sentence is intact
    explorer.apply_sentence("x" * 100_000)
    expect(explorer.page.locator("[data-testid=sentence-error]")).to_contain_text("너무 길어요")
    expect(explorer.token_button("<img")).to_be_visible()


# Links the page reads alone (url.js): checked in the exported file, one page load each.
BAD_LINKS = [
    ({"preset": "nope"}, "그런 예문이 없어 기본 예문을 보여 줘요 (preset=nope)"),
    ({"preset": "meet-friend", "query": "99"}, "query=99"),
    ({"preset": "meet-friend", "heads": "3"}, "heads=3"),
    ({"preset": "meet-friend", "heads": "abc"}, "heads=abc"),
    ({"preset": "meet-friend", "scale": "yes"}, "scale=yes"),
    ({"preset": "meet-friend", "lang": "fr"}, "lang=fr"),
    ({"preset": "meet-friend", "step": "9"}, "step=9"),
    ({"numbers": "x~y"}, "링크에 숫자가 없거나"),
    ({"preset": "numbers", "numbers": "a,%E0%A4%A~<img src=x onerror=window.__xss=1>~1~1"}, "링크에 숫자가 없거나"),
]
# Links with a sentence or numbers the page sends to Python: checked in the served page.
BAD_LINKS_TO_PYTHON = [
    ({"text": "<script>window.__xss=1</script>"}, None),
    ({"preset": "numbers", "numbers": "a,b~<img src=x onerror=window.__xss=1>~1~1"}, None),
    ({"text": "<img src=x onerror=window.__xss=1>", "query": "-1"}, "query=-1"),
]


def fall_back_to_a_valid_view(explorer, cases) -> list[str]:
    """Open each link in turn in the one page; what went wrong, named by the link's parameters."""
    failures = []
    for params, notice in cases:
        try:
            explorer.open(**params)
            if notice:
                expect(explorer.page.locator("[data-testid=notices]")).to_contain_text(notice)
            assert explorer.page.evaluate("window.__xss") is None
            if "text" in params:  # the typed sentence comes from Python: wait for it before clicking
                expect(explorer.token_buttons().first).to_have_text(params["text"].split()[0])
            explorer.click_token(0)
            expect(explorer.token_buttons().first).to_have_attribute("aria-pressed", "true")
            assert len(explorer.weights()[0]) == explorer.token_buttons().count()
        except AssertionError as error:
            failures.append(f"{params}: {error}")
    return failures


def test_bad_url_parameters_fall_back_to_a_valid_view_and_say_so(in_file):
    failures = fall_back_to_a_valid_view(in_file, BAD_LINKS)
    assert not failures, "\n".join(failures)


def test_a_bad_sentence_or_numbers_in_the_url_falls_back_to_a_valid_view(explorer):
    failures = fall_back_to_a_valid_view(explorer, BAD_LINKS_TO_PYTHON)
    assert not failures, "\n".join(failures)


def test_a_link_with_a_bad_value_keeps_it_until_the_student_changes_the_view(in_file):
    """The notice at the top names the value; the address bar still holds the link as typed, so the
    lecturer can mend it; the first change of view writes the view shown."""
    page = in_file.page
    in_file.open(preset="meet-friend", heads="3", query="99")
    expect(page.locator("[data-testid=notices]")).to_contain_text("heads=3")
    notices, figure = page.locator("[data-testid=notices]").bounding_box(), page.locator("[data-testid=lines-figure]").bounding_box()
    assert notices["y"] + notices["height"] <= figure["y"]  # at the top, above the figure
    page.wait_for_timeout(400)  # past the pause after which the page writes its view
    assert "heads=3" in page.url and "query=99" in page.url
    in_file.click_token(1)
    expect(page).to_have_url(re.compile(r"query=1"))
    assert "heads=3" not in settled_url(page)


@pytest.mark.parametrize("numbers, cell, problem", [
    ("a,b~1,2/3,NaN~1,0/0,1~1,2/3,4", "Q 2, 2: ", "err_not_number"),
    ("a,b~1,2/3,abc~1,0/0,1~1,2/3,4", "Q 2, 2: ", "err_not_number"),
    ("a,b~1,2/3,1e999~1,0/0,1~1,2/3,4", "Q 2, 2: ", "err_too_large"),
])
def test_numbers_in_a_link_python_refuses_are_named_at_the_top_and_the_link_is_kept(explorer, numbers, cell, problem):
    page = explorer.page
    explorer.open(preset="numbers", numbers=numbers)
    notice = page.locator("[data-testid=notices]")
    expect(notice).to_contain_text("링크의 숫자를 쓸 수 없어 기본 예문을 보여 줘요")
    expect(notice).to_contain_text(cell)
    expect(notice).to_contain_text(text(problem, "ko", text="", limit=0).split(":")[0])  # the problem, in words
    page.wait_for_timeout(400)  # past the pause after which the page writes its view
    assert "preset=numbers" in page.url and "numbers=" in page.url
    explorer.click_token(0)  # the page works on the default example meanwhile
    expect(explorer.token_buttons().first).to_have_attribute("aria-pressed", "true")


def test_a_query_past_the_end_of_a_typed_sentence_in_the_link_says_so(explorer):
    explorer.open(text="하나 둘 셋", query="7")
    explorer.expect_query("셋")
    expect(explorer.page.locator("[data-testid=notices]")).to_contain_text("query=7")
    expect(explorer.page.locator("[data-testid=notices]")).to_contain_text("고른 토큰: 셋")


def test_with_d_k_1_the_scale_note_says_dividing_changes_nothing(in_file):
    in_file.open(preset="cat-fish", heads="2")
    expect(in_file.page.locator("[data-testid=scale-effect]")).to_have_text(
        "d_k = 1이라 √d_k = 1이에요. 나누어도 스코어가 그대로여서 가중치도 같아요.")


def test_a_100000_character_text_in_the_url_gets_a_message_and_a_working_page(explorer):
    explorer.open(preset="cat-fish", text="x" * 100_000)
    expect(explorer.page.locator("[data-testid=sentence-error]")).to_contain_text("너무 길어요")
    explorer.click_token(0)
    explorer.expect_query("고양이가")


def test_a_sentence_or_numbers_in_one_page_never_appear_in_another(explorer, context, served_app):
    explorer.open(preset="cat-fish")
    other = ExplorerPage(context.new_page(), served_app).open(preset="cat-fish")
    explorer.apply_sentence("비밀 문장 하나")
    explorer.expect_query("하나")
    other.open_editor()
    other.edit_cell("q", 2, 0, "5")
    other.page.wait_for_timeout(300)
    assert other.weights()[0] == list(CAT.tokens)
    assert "비밀" not in other.page.locator("[data-testid=explorer]").inner_text()
    explorer.open_editor()
    expect(explorer.cell("q", 0, 0)).not_to_have_value("5")
    assert explorer.weights()[0] == ["비밀", "문장", "하나"]


def test_a_bad_cell_stays_marked_through_a_resize_and_is_marked_again_after_a_reset(explorer):
    explorer.open(preset="cat-fish")
    explorer.open_editor()
    explorer.edit_cell("k", 1, 1, "abc")
    expect(explorer.cell("k", 1, 1)).to_have_attribute("aria-invalid", "true")
    explorer.page.locator("[data-testid=numbers-add]").click()  # the grid is rebuilt with a fourth token
    expect(explorer.cell("token", 3, 0)).to_be_visible()
    expect(explorer.cell("k", 1, 1)).to_have_attribute("aria-invalid", "true")
    explorer.page.locator("[data-testid=numbers-reset]").click()
    expect(explorer.cell("k", 1, 1)).not_to_have_attribute("aria-invalid", "true")
    explorer.edit_cell("k", 1, 1, "abc")  # the very same error as before the reset
    expect(explorer.cell("k", 1, 1)).to_have_attribute("aria-invalid", "true")
    expect(explorer.page.locator("[data-testid=numbers-errors]")).to_contain_text("숫자가 아니에요")


def test_a_refused_sentence_says_why_in_the_language_chosen_after(explorer):
    explorer.open(preset="cat-fish")
    explorer.apply_sentence("   ")
    expect(explorer.page.locator("[data-testid=sentence-error]")).to_contain_text("비어 있어요")
    explorer.page.locator("[data-testid=lang-toggle]").click()
    expect(explorer.page.locator("[data-testid=sentence-error]")).to_contain_text("The sentence is empty")


def test_edited_numbers_go_into_the_link_and_reopen_on_reload(explorer):
    explorer.open(preset="cat-fish")
    explorer.open_editor()
    explorer.edit_cell("q", 2, 0, "2")
    explorer.edit_cell("token", 0, 0, "고양이,가~")  # a comma or a tilde inside a token survives the link
    expect(explorer.token_button("고양이,가~")).to_be_visible()
    explorer.click_token(0)
    url = settled_url(explorer.page)
    assert "preset=numbers" in url and "numbers=" in url
    q = CAT.q.copy()
    q[2, 0] = 2
    truth = attention(q, CAT.k, CAT.v).weights[:, 2, :]
    explorer.page.reload()
    explorer.page.locator("[data-testid=calc-table]").wait_for(timeout=20_000)
    expect(explorer.token_button("고양이,가~")).to_be_visible()
    explorer.expect_query("고양이,가~")  # the link's query, on the link's numbers
    explorer.click_token(2)
    explorer.expect_query("먹었다")
    assert_table_matches(explorer.weights()[1], truth)
    explorer.open_editor()
    expect(explorer.cell("q", 2, 0)).to_have_value("2")  # the editor holds the link's numbers
    expect(explorer.page.locator("[data-testid=notices]")).to_be_empty()


def test_a_link_to_numbers_without_them_says_so(in_file):
    in_file.open(preset="numbers")
    expect(in_file.page.locator("[data-testid=notices]")).to_contain_text("링크에 숫자가 없거나")
    in_file.click_token(0)
    expect(in_file.token_buttons().first).to_have_attribute("aria-pressed", "true")


def test_a_typed_sentence_says_where_its_numbers_come_from(explorer):
    explorer.open(preset="meet-friend", heads="4")
    explorer.apply_sentence("나는 오늘 도서관에서 책을 읽었다")
    explorer.expect_query("읽었다")
    origin = explorer.page.locator("[data-testid=sentence-origin]")
    expect(origin).to_have_text("규칙으로 만든 Q·K (V는 임의의 값) — 학습된 모델이 아니에요. 조사와 어미로 읽은 역할: "
                                "주어 나는 · 시간 오늘 · 장소 도서관에서 · 목적어 책을 · 서술어 읽었다")
    expect(explorer.page.locator("[data-testid=head-captions] li").first).to_have_text(
        "head 1: 목적어를 보는 head (성립하는 Query: 읽었다)")
    explorer.apply_sentence("민수가 사과를 철수 줬어")  # 철수 without 에게: the rules cannot read it
    explorer.expect_query("줬어")
    expect(origin).to_have_text("규칙으로 만든 Q·K (V는 임의의 값) — 학습된 모델이 아니에요. 조사와 어미로 읽은 역할: "
                                "주어 민수가 · 목적어 사과를 · 서술어 줬어 규칙이 읽지 못한 말: 철수 — 역할 없이 두었어요.")
    explorer.apply_sentence("the cat sat on the mat")
    explorer.expect_query("mat")
    expect(origin).to_contain_text("임의의 값 — 의미 없음")
    explorer.open(preset="cat-fish")
    expect(origin).to_be_hidden()  # a designed example needs no such label


def test_working_an_answer_hides_the_weights_and_the_output_until_it_is_right(in_file):
    in_file.open(preset="cat-fish", query="2")
    page = in_file.page
    page.locator("[data-testid=check-mode]").click()
    expect(page.locator("[data-testid=check-mode]")).to_have_attribute("aria-pressed", "true")
    for hidden in ("[data-testid=weights-table]", "[data-testid=output-vector]", "[data-testid=lines-figure] line",
                   "[data-testid=bars] .ae-bar", "[data-testid=heatmap] rect"):
        expect(page.locator(hidden)).to_have_count(0)
    expect(page.locator("[data-testid=lines-figure]")).to_contain_text("정답 보기")
    expect(page.locator("[data-testid=calc-table] thead th")).to_have_count(4)  # key, q·k, ÷√d_k, mask
    assert "반올림한 만큼만" in in_file.check_answer("0.21, 0.98")  # right: everything shows again
    expect(page.locator("[data-testid=output-vector]")).to_have_text("(0.214, 0.977)")
    expect(page.locator("[data-testid=check-mode]")).to_have_attribute("aria-pressed", "false")
    page.locator("[data-testid=check-mode]").click()
    expect(page.locator("[data-testid=weights-table]")).to_have_count(0)
    page.locator("[data-testid=check-mode]").click()  # 정답 보기
    expect(page.locator("[data-testid=weights-table]")).to_have_count(1)
