"""Practice problems on the page, served and in the exported file: `?practice=N` opens problem N
with Q, K, V given and everything else hidden; each row is checked on its own, with the core's
verdict; four right rows (or "show the answers") open the explorer on that problem."""

import pytest
from playwright.sync_api import expect

from app.strings import text
from attention_core.practice import ROWS, check_row, practice_problem, practice_rows
from explorer_page import ExplorerPage, assert_table_matches, settled_url
from support import verdict_words

pytestmark = pytest.mark.browser
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}


def numbers(values, digits=3) -> str:
    return ", ".join(f"{x:.{digits}f}" for x in values)


def open_practice(page, base_url: str, number) -> None:
    page.goto(f"{base_url}?practice={number}")
    expect(page.locator("[data-testid=practice-title]")).to_be_visible(timeout=20_000)


def answer_row(page, row: str, typed: str):
    page.locator(f"[data-testid=practice-input-{row}]").fill(typed)
    page.locator(f"[data-testid=practice-input-{row}]").press("Enter")
    result = page.locator(f"[data-testid=practice-result-{row}]")
    expect(result).not_to_be_empty()
    return result


def said(verdict) -> str:
    return verdict_words(verdict.key, verdict.values, "practice_hint_")


def given_table(page) -> list[list[str]]:
    rows = page.locator("[data-testid=practice-given] tbody tr")
    return [[cell.strip() for cell in rows.nth(i).inner_text().split("\t")] for i in range(rows.count())]


def expect_unsolved(page, problem) -> None:
    """The problem as given, and nothing that would give its rows away."""
    expect(page.locator("[data-testid=practice-title]")).to_have_text(f"연습 문제 {problem.number}")
    assert given_table(page) == [[token] + [f"({int(m[i][0])}, {int(m[i][1])})" for m in (problem.q, problem.k, problem.v)]
                                 for i, token in enumerate(problem.tokens)]
    expect(page.locator("[data-testid=practice-task]")).to_contain_text(f"Query 토큰: {problem.tokens[problem.query]}.")
    for hidden in ("weights-table", "calc-table", "bars", "heatmap"):
        expect(page.locator(f"[data-testid={hidden}]")).to_be_hidden()
    expect(page.locator("[data-testid=sentence-origin]")).to_have_text(text("origin_practice", "ko"))


def test_an_exported_problem_is_checked_row_by_row_as_the_core_checks_it(page, exported, console_errors):
    """The page's verdict (status, slip and words) is the core's, for right rows, rounded rows,
    each row's slips at two and three decimals, unreadable and short answers."""
    seen = set()
    for number in (1, 2, 3, 58):
        problem = practice_problem(number)
        open_practice(page, exported.as_uri(), number)
        expect_unsolved(page, problem)
        rows = practice_rows(problem)
        above = None  # what the row above holds: each row is judged after it
        shown = {}    # each row's last verdict on screen
        for row in ROWS:
            truth = rows[row].truth
            typed = [numbers(truth, 2), "0.5 0.5", "x", numbers(truth[:1])]
            typed += [numbers(path, digits) for _, path in rows[row].slips for digits in (2, 3)]
            for answer in typed:
                result = answer_row(page, row, answer)
                verdict = check_row(answer, problem, row, above)
                case = (number, row, answer)
                expect(result).to_have_attribute("data-status", verdict.status)
                # the slip and the words, read in one round trip
                hint, words = result.evaluate("(el) => [el.getAttribute('data-hint'), el.innerText]")
                assert hint == verdict.slip, case
                if verdict.status == "carried":  # the page says in which row the slip is
                    first = next(i for i, name in enumerate(ROWS) if shown.get(name) == "wrong")
                    verdict = verdict.__class__(verdict.status, verdict.slip, verdict.key, {**verdict.values, "first": "①②③④"[first]})
                assert words == said(verdict), case
                seen |= {verdict.status, verdict.slip}
            above = typed[-1]
            shown[row] = verdict.status
    assert {"correct", "rounded", "wrong", "invalid", "recheck", "forgot_scale", "not_normalised",
            "column_not_row", "value_of_top"} <= seen, seen
    expect(page.locator("[data-testid=weights-table]")).to_be_hidden()  # wrong answers open nothing
    assert console_errors == []


@pytest.mark.parametrize("where", ["served", "exported"])
def test_rows_computed_right_after_a_slip_get_their_credit_and_open_the_explorer(page, served_app, exported, where,
                                                                                console_errors):
    """Problem 1 (scores 7, 6, 4): a student slips in row ① (8, 6, 4), then divides their own row by
    √2, takes its softmax and its weighted sum: rows ②–④ are 'carried', in their own colour and
    words; a row that does not follow from the row above is still wrong; the explorer opens once
    row ① is right too (the rows below judged again from it)."""
    open_practice(page, served_app if where == "served" else exported.as_uri(), 1)
    problem = practice_problem(1)
    assert list(problem.q[problem.query] @ problem.k.T) == [7, 6, 4]
    expect(answer_row(page, "scores", "8, 6, 4")).to_have_attribute("data-status", "wrong")
    result = answer_row(page, "scaled", "5.66, 4.24, 2.83")
    expect(result).to_have_attribute("data-status", "carried")
    carried = check_row("5.66, 4.24, 2.83", problem, "scaled", "8, 6, 4")
    expect(result).to_have_text(text(carried.key, "ko", first="①", **carried.values))  # where the slip is
    color = result.evaluate("(el) => getComputedStyle(el).color")
    assert color == "rgb(27, 79, 138)", color  # not the wrong row's colour, nor quite the right one's
    expect(answer_row(page, "weights", "0.77, 0.19, 0.05")).to_have_attribute("data-status", "carried")
    expect(page.locator("[data-testid=weights-table]")).to_be_hidden()
    wrong = answer_row(page, "output", "0.5, 0.5")
    expect(wrong).to_have_attribute("data-status", "wrong")
    expect(answer_row(page, "output", "1.2, 1.06")).to_have_attribute("data-status", "carried")
    expect(page.locator("[data-testid=weights-table]")).to_be_hidden()  # row ① is still wrong
    # row ① fixed: the rows below are judged again after it, and no longer follow from it
    expect(answer_row(page, "scores", "7, 6, 4")).to_have_attribute("data-status", "correct")
    expect(page.locator("[data-testid=practice-result-scaled]")).to_have_attribute("data-status", "wrong")
    for row, typed in (("scaled", "4.95, 4.24, 2.83"), ("weights", "0.62, 0.31, 0.07"), ("output", "1.31, 1.07")):
        expect(answer_row(page, row, typed)).to_have_attribute("data-status", "rounded")
    expect(page.locator("[data-testid=practice-solved]")).to_be_visible()
    expect(page.locator("[data-testid=weights-table]")).to_be_visible()
    assert console_errors == []


def test_four_right_rows_open_the_explorer_on_the_problem_and_new_problem_draws_the_next(page, exported, console_errors):
    problem = practice_problem(5)
    open_practice(page, exported.as_uri(), 5)
    assert "practice=5" in settled_url(page)
    explorer = ExplorerPage(page, exported.as_uri())
    expect(explorer.token_buttons().nth((problem.query + 1) % 3)).to_be_disabled()  # the problem asks about its query
    rows = practice_rows(problem)
    for row in ROWS:
        expect(page.locator("[data-testid=weights-table]")).to_be_hidden()
        expect(page.locator("[data-testid=practice-solved]")).to_be_hidden()   # "all four right" only when they are
        answer_row(page, row, numbers(rows[row].truth))
    expect(page.locator("[data-testid=practice-solved]")).to_be_visible()
    expect(page.locator("[data-testid=weights-table]")).to_be_visible()
    explorer.expect_query(problem.tokens[problem.query])
    _, shown = explorer.weights()
    assert_table_matches(shown, rows["weights"].truth[None, :])
    expect(page.locator("[data-testid=output-vector]")).to_have_text("(" + numbers(rows["output"].truth) + ")")
    page.screenshot(path="screenshots/practice-solved.png", full_page=True)

    page.locator("[data-testid=practice-next]").click()
    expect_unsolved(page, practice_problem(6))
    assert all(page.locator(f"[data-testid=practice-input-{row}]").input_value() == "" for row in ROWS)
    expect(page.locator("[data-testid=practice-result-scores]")).to_be_empty()
    page.wait_for_function("() => location.search.includes('practice=6')")
    assert console_errors == []


def test_a_number_the_file_does_not_carry_gets_a_notice_and_the_page_keeps_working(page, exported, console_errors):
    ExplorerPage(page, exported.as_uri()).open(practice="101")
    expect(page.locator("[data-testid=notices]")).to_contain_text("practice=101")
    expect(page.locator("[data-testid=notices]")).to_contain_text("1–100")
    expect(page.locator("[data-testid=practice]")).to_be_hidden()
    ExplorerPage(page, exported.as_uri()).open(practice="abc")
    expect(page.locator("[data-testid=notices]")).to_contain_text("practice=abc")
    page.locator("[data-testid=practice-open]").click()          # the button opens problem 1
    expect_unsolved(page, practice_problem(1))
    assert console_errors == []


def test_the_served_page_asks_python_for_any_problem_and_reveal_shows_every_rows_values(page, served_app, console_errors):
    page.set_viewport_size({"width": 1280, "height": 720})
    problem = practice_problem(4321)
    open_practice(page, served_app, 4321)
    expect_unsolved(page, problem)
    rows = practice_rows(problem)
    answer_row(page, "scores", numbers(rows["scores"].truth, 0))
    page.locator("[data-testid=practice-reveal]").click()
    expect(page.locator("[data-testid=weights-table]")).to_be_visible()
    expect(page.locator("[data-testid=practice-exact-scores]")).to_be_hidden()   # answered right already
    for row in ROWS[1:]:
        expect(page.locator(f"[data-testid=practice-exact-{row}]")).to_have_text(
            "정확한 값: (" + numbers(rows[row].truth) + ")")
    expect(page.locator("[data-testid=practice-reveal]")).to_be_hidden()
    page.wait_for_function("() => location.search.includes('practice=4321')")
    ExplorerPage(page, served_app).open(practice="10000")
    expect(page.locator("[data-testid=notices]")).to_contain_text("1–9999")
    assert console_errors == []


def test_on_a_phone_a_problem_fits_the_screen_with_readable_inputs(browser, exported):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_practice(page, exported.as_uri(), 7)
    width = page.evaluate("() => document.documentElement.clientWidth")
    for testid in ["practice-given", *(f"practice-input-{row}" for row in ROWS), *(f"practice-check-{row}" for row in ROWS)]:
        box = page.locator(f"[data-testid={testid}]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, testid
    size = page.locator("[data-testid=practice-input-scores]").evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 16  # no zoom-in on focus, readable
    page.screenshot(path="screenshots/practice-phone.png", full_page=True)
    context.close()
