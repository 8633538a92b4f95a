"""A lesson presented in the served explorer (docs/lessons.md): every stop of both built-in lessons
opens its view without a notice and shows the core's weights; the clicker's keys and the buttons
walk it; the link keeps the stop; the projector hides the speaker notes."""
import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from app.lesson_check import page_lesson, read_view
from app.lessons import lesson_names, read_lesson
from attention_core import PRESETS
from attention_core.answer import check_answer
from attention_core.attention import attention
from support import SCREENSHOTS, run_export

pytestmark = pytest.mark.browser
#: a right prediction: exact at the decimals shown, or honestly rounded
RIGHT = re.compile("^(correct|rounded)$")


def _lesson(page):
    return page.locator("[data-testid=lesson]")


def _expect_stop(explorer, lesson, index: int, lang: str = "ko") -> None:
    """The page shows stop `index` (from 1) of `lesson`: its number, its note, its view's query and
    the core's weights of that query, and no notice."""
    page, stop = explorer.page, lesson.stops[index - 1]
    expect(_lesson(page)).to_have_attribute("data-stop", str(index))
    expect(page.locator("[data-testid=lesson-note]")).to_have_text(stop.note if lang == "ko" else stop.note_en)
    expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
    shown = read_view(stop, index)
    view, preset = shown.view, shown.preset
    expect(page.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text(preset.tokens[view["query"]])
    if 0 <= view["step"] < 3:  # a step before softmax: no weights yet; the stage shows the row so far
        expect(explorer.weights_table).to_have_count(0)
        _expect_step_stage(page, shown)
        assert page.locator("[data-testid=notices] .ae-notice").count() == 0, index
        return
    explorer.expect_query(preset.tokens[view["query"]])
    keys, columns = explorer.weights()
    result = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"], causal=view["causal"])
    heads = [view["head_view"]] if view["head_view"] >= 0 else range(view["heads"])
    assert keys == list(preset.tokens)
    for column, head in zip(columns, heads):
        assert all(abs(a - b) <= 0.0005 + 1e-9 for a, b in zip(column, result.weights[head][view["query"]])), (index, column)
    assert page.locator("[data-testid=notices] .ae-notice").count() == 0, (index, page.locator("[data-testid=notices]").inner_text())


def _expect_step_stage(page, shown) -> None:
    """Where the lines will be, the query's row as far as the step goes, the core's numbers: q·k,
    then ÷√d_k, then the mask's −∞."""
    from app.strings import text

    view, preset = shown.view, shown.preset
    stage = page.locator("[data-testid=lines-figure] [data-testid=step-stage]")
    expect(stage).to_have_attribute("data-step", str(view["step"]))
    # its caption names the query, the step and the head shown, as they are
    expect(page.locator("[data-testid=step-stage-caption]")).to_have_text(text(
        "step_stage_caption", "ko", query=preset.tokens[view["query"]], head=max(0, view["head_view"]) + 1,
        heads=view["heads"], step=text(f"step_name_{view['step']}", "ko")))
    result = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"], causal=view["causal"])
    head, query = max(0, view["head_view"]), view["query"]
    for key, token in enumerate(preset.tokens):
        row = stage.locator(f"tr[data-key='{key}']")
        expect(row.locator("th")).to_have_text(token)
        expect(row.locator("[data-cell=score]")).to_have_text(f"{result.scores[head, query, key]:.3f}".replace("-", "−"))
        if view["step"] >= 1 and view["scale"]:
            expect(row.locator("[data-cell=scaled]")).to_have_text(f"{result.scaled[head, query, key]:.3f}".replace("-", "−"))
        if view["step"] >= 2:
            expect(row.locator("[data-cell=mask]")).to_have_text("−∞" if result.weights[head, query, key] == 0 and view["causal"] else "—")


@pytest.mark.parametrize("viewport", [(1280, 720), (1920, 1080)])
def test_a_step_stop_shows_its_numbers_on_the_projectors_first_screen(explorer, viewport):
    """A stop at the scores, ÷√d_k or the mask: the stage holds the query's row as far as the step
    goes, every number inside the screen and large enough to read from the back (24 px at 720p)."""
    page = explorer.page
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    try:
        for name, stop in (("hand-calculation", 4), ("hand-calculation", 5), ("scale-mask-heads", 5), ("scale-mask-heads", 9)):
            page.goto(f"{explorer.base_url}?lesson={name}&stop={stop}&mode=lecture")
            expect(_lesson(page)).to_have_attribute("data-stop", str(stop), timeout=20_000)
            expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
            lesson = read_lesson(name)
            _expect_step_stage(page, read_view(lesson.stops[stop - 1], stop))
            cells = page.locator("[data-testid=step-stage] td")
            for index in range(cells.count()):
                box = cells.nth(index).bounding_box()
                assert box["y"] + box["height"] <= viewport[1] and box["x"] + box["width"] <= viewport[0], (name, stop, index, box)
            size = float(cells.first.evaluate("cell => getComputedStyle(cell).fontSize")[:-2])
            assert size >= 24 * viewport[1] / 720, (name, stop, size)
            page.screenshot(path=str(SCREENSHOTS / f"lesson-step-{name}-{stop}-{viewport[0]}.png"))
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})


@pytest.mark.parametrize("name", lesson_names())
def test_every_stop_of_a_built_in_lesson_opens_its_view_with_the_cores_weights_and_no_notice(explorer, name):
    lesson = read_lesson(name)
    explorer.page.goto(f"{explorer.base_url}?lesson={name}")
    expect(_lesson(explorer.page)).to_have_attribute("data-stops", str(len(lesson.stops)), timeout=20_000)
    _expect_stop(explorer, lesson, 1)
    for index in range(2, len(lesson.stops) + 1):
        explorer.page.keyboard.press("PageDown")  # the key a presentation clicker sends
        _expect_stop(explorer, lesson, index)
    explorer.page.keyboard.press("PageDown")  # past the last stop: it stays
    expect(_lesson(explorer.page)).to_have_attribute("data-stop", str(len(lesson.stops)))


def test_the_clicker_keys_and_buttons_walk_the_lesson_and_the_link_keeps_the_stop(explorer):
    page, lesson = explorer.page, read_lesson("hand-calculation")
    page.goto(f"{explorer.base_url}?lesson=hand-calculation")
    expect(_lesson(page)).to_have_attribute("data-stop", "1", timeout=20_000)
    for key, stop in (("ArrowRight", 2), ("Space", 3), ("PageUp", 2), ("ArrowLeft", 1), ("ArrowLeft", 1)):
        page.keyboard.press(key)
        expect(_lesson(page)).to_have_attribute("data-stop", str(stop))
    for _ in range(7):
        page.locator("[data-testid=lesson-next]").click()
    _expect_stop(explorer, lesson, 8)  # softmax: 생선을 0.786
    assert "0.786" in page.locator("[data-testid=lesson-note]").inner_text()
    page.locator("[data-testid=lesson-prev]").click()
    expect(_lesson(page)).to_have_attribute("data-stop", "7")
    # a key in a text field types; it does not move the lesson
    field = page.locator("[data-testid=sentence-input]")
    if field.count():
        field.first.focus()
        page.keyboard.press("PageDown")
        page.keyboard.press("Space")
        expect(_lesson(page)).to_have_attribute("data-stop", "7")
        page.locator("[data-testid=explorer]").focus()
    # the link says the stop once the student pauses; a reload opens it there
    expect(page.locator("[data-testid=explorer]")).not_to_have_attribute("data-url-pending", "true")
    assert parse_qs(urlparse(page.url).query)["stop"] == ["7"]
    page.reload()
    _expect_stop(explorer, lesson, 7)
    # the lecturer's laptop shows the speaker notes; the projector (lecture mode) does not
    for _ in range(2):
        page.keyboard.press("PageDown")
    speaker = page.locator("[data-testid=lesson-speaker]")
    expect(speaker).to_contain_text(lesson.stops[8].speaker)
    page.goto(f"{explorer.base_url}?lesson=hand-calculation&stop=9&mode=lecture&lang=en")
    # a prediction on the projector: its answer held (app/stop_shows.py) — the steps to the mask and
    # each v written out, no weights, the question on screen; the first PageDown reveals, the next moves on
    expect(_lesson(page)).to_have_attribute("data-held", "output", timeout=20_000)
    expect(page.locator("[data-testid=lesson-question]")).to_be_visible()
    expect(page.locator("[data-testid=lesson-predict-input]")).to_be_hidden()  # the class answers, not the projector
    expect(explorer.weights_table).to_have_count(0)
    preset = PRESETS["cat-fish"]
    v_cells = page.locator("[data-testid=calc-table] tbody tr td:first-of-type")
    assert v_cells.all_inner_texts() == ["(" + ", ".join(f"{x:.2f}" for x in row) + ")" for row in preset.v]  # each key's v
    expect(speaker).to_be_hidden()
    page.screenshot(path=str(SCREENSHOTS / "lesson-lecture-1280.png"))
    page.locator("[data-testid=explorer]").focus()
    page.keyboard.press("PageDown")
    expect(_lesson(page)).to_have_attribute("data-held", "")
    _expect_stop(explorer, lesson, 9, lang="en")  # revealed: the core's weights, the output shown
    expect(page.locator("[data-testid=output-vector]")).to_be_visible()
    page.keyboard.press("PageDown")
    expect(_lesson(page)).to_have_attribute("data-stop", "10")
    # on a 1080p projector: the page's first screen exactly, its header in sight, the lesson's note
    # and the bars' numbers at least 24 px (what reads from the back of a hall, as the figures)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{explorer.base_url}?lesson=hand-calculation&stop=8&mode=lecture")
    expect(_lesson(page)).to_have_attribute("data-sight", "lesson", timeout=20_000)
    px = lambda selector: float(page.locator(selector).first.evaluate("(el) => getComputedStyle(el).fontSize")[:-2])  # noqa: E731
    assert min(px("[data-testid=lesson-note]"), px("[data-testid=lesson-stop-title]"), px(".ae-bar-value"),
               px("[data-testid=lesson-next]")) >= 24
    header, first = page.locator(".ae-header").bounding_box(), page.locator(".ae-first").bounding_box()
    assert header["y"] >= 0 and 0 <= first["y"] <= 8 and first["y"] + first["height"] <= 1080, (header, first)
    note = page.locator("[data-testid=lesson-note]").bounding_box()
    assert note["y"] >= 0 and note["y"] + note["height"] <= 1080 and note["x"] + note["width"] <= 1920
    page.screenshot(path=str(SCREENSHOTS / "lesson-lecture-1920.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    # a link that opens directly on a stop naming a card brings that card to the top of the screen
    page.goto(f"{explorer.base_url}?lesson=hand-calculation&stop=17&mode=lecture")
    expect(_lesson(page)).to_have_attribute("data-sight", "heatmap", timeout=20_000)
    card = page.locator("[data-testid=heatmap]").locator("xpath=ancestor::section[contains(@class,'ae-card')][1]")
    top = card.bounding_box()["y"]
    assert abs(top) <= 2, f"the heatmap card's top is at {top} px, not at the top of the screen"


def test_a_lesson_name_there_is_none_of_names_the_lessons_there_are(explorer):
    explorer.page.goto(f"{explorer.base_url}?lesson=nope")
    notices = explorer.page.locator("[data-testid=notices]")
    expect(notices).to_contain_text("lesson=nope")
    expect(notices).to_contain_text("hand-calculation, scale-mask-heads")
    expect(_lesson(explorer.page)).to_be_hidden()


def test_a_student_alone_on_a_phone_predicts_each_question_is_judged_fairly_and_keeps_their_place(browser, served_app):
    """mode=self: the answer hides until the student predicts; a choice is judged by the truth, typed
    numbers by the fair checker (an honest rounding is right, a slip is named); the place and the
    answers survive a reload and a closed tab; the last stop sums it up."""
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        page = phone.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{served_app}?lesson=hand-calculation&mode=self&stop=3")
        lesson = page.locator("[data-testid=lesson]")
        expect(lesson).to_have_attribute("data-stop", "3", timeout=20_000)
        predict, verdict = page.locator("[data-testid=lesson-predict]"), page.locator("[data-testid=lesson-verdict]")
        expect(predict).to_be_visible()
        expect(page.locator("[data-testid=lesson-speaker]")).to_be_hidden()  # the lecturer's notes are not the student's
        # the card's buttons fit the phone, each label on one line
        for box in page.locator("[data-testid=lesson] button:visible").evaluate_all(
                "(buttons) => buttons.map((b) => { const r = b.getBoundingClientRect(); return [b.dataset.testid, r.left, r.right, r.height]; })"):
            assert box[1] >= 0 and box[2] <= 390 and box[3] <= 48, box
        # held: q and k written out to work from, no step's numbers, no handout (its answers) yet
        expect(lesson).to_have_attribute("data-held", "top_key")
        k_cells = page.locator("[data-testid=calc-table] tbody td")
        expect(k_cells).to_have_count(3)  # a column of each key's k, no step's numbers
        assert k_cells.all_inner_texts() == ["(" + ", ".join(f"{x:.2f}" for x in row) + ")" for row in PRESETS["cat-fish"].k]
        expect(page.locator("[data-testid=calc-table] caption")).to_contain_text("q = (")
        expect(page.locator("[data-testid=head-captions]")).to_be_hidden()  # a head's caption would name its key
        expect(page.locator("[data-testid=lesson-handout]")).to_be_hidden()
        expect(page.locator("[data-testid=check-mode]")).to_be_hidden()  # no "show the answer" beside the prediction
        page.locator("[data-testid=lesson-predict-choice-1]").click()  # 생선을
        page.locator("[data-testid=lesson-predict-submit]").click()
        expect(verdict).to_have_attribute("data-status", "correct")
        expect(page.locator("[data-testid=weights-table]")).to_have_count(1)  # answered at the scores: the weights show
        # a link to a later stop is brought back to the first question still open (stop 6)
        page.goto(f"{served_app}?lesson=hand-calculation&mode=self&stop=9")
        expect(lesson).to_have_attribute("data-stop", "6", timeout=20_000)
        expect(lesson).to_have_attribute("data-held", "what_if")
        # moving on without predicting: said first, taken on the second press, scored 0
        page.locator("[data-testid=lesson-next]").click()
        expect(page.locator("[data-testid=lesson-skip-warning]")).to_be_visible()
        expect(lesson).to_have_attribute("data-stop", "6")
        page.locator("[data-testid=lesson-next]").click()
        expect(lesson).to_have_attribute("data-stop", "7")
        page.locator("[data-testid=lesson-prev]").click()
        expect(verdict).to_have_attribute("data-status", "skipped")
        for stop in (7, 8, 9):
            page.locator("[data-testid=lesson-next]").click()
            expect(lesson).to_have_attribute("data-stop", str(stop))
        # stop 9: type the output; the weights stay hidden until then
        expect(lesson).to_have_attribute("data-held", "output")
        expect(page.locator("[data-testid=weights-table]")).to_have_count(0)
        field = page.locator("[data-testid=lesson-predict-input]")
        field.fill("0.124, 0.994")  # the output without ÷√d: a slip the checker names
        page.locator("[data-testid=lesson-predict-submit]").click()
        expect(verdict).to_have_attribute("data-status", "wrong")
        expect(verdict).to_have_attribute("data-slip", "forgot_scale")
        expect(page.locator("[data-testid=weights-table]")).to_have_count(1)  # predicted: the answer shows
        # the slip offers one try aimed at it: the same question for another query, where forgetting
        # ÷√d would show again; its answer hidden until tried, judged by the same checker
        page.locator("[data-testid=lesson-practice]").click()
        tried = page.locator("[data-testid=lesson-practice-try]")
        expect(tried).to_be_visible()
        expect(page.locator("[data-testid=weights-table]")).to_have_count(0)
        query = page.locator("[data-testid=token-buttons] button[aria-pressed=true]").inner_text()
        preset = PRESETS["cat-fish"]
        j = preset.tokens.index(query)
        assert j != 2
        expect(page.locator("[data-testid=lesson-practice-question]")).to_contain_text(query)
        truth = attention(preset.q, preset.k, preset.v, heads=1, scale=True, causal=False).output[0][j]
        slipped = attention(preset.q, preset.k, preset.v, heads=1, scale=False, causal=False).output[0][j]
        # aimed: at this query the core's checker names the same slip made again
        assert check_answer(", ".join(f"{x:.3f}" for x in slipped), preset.q, preset.k, preset.v, query=j).slip == "forgot_scale"
        page.locator("[data-testid=lesson-practice-input]").fill(", ".join(f"{x:.2f}" for x in truth))
        page.locator("[data-testid=lesson-practice-submit]").click()
        expect(page.locator("[data-testid=lesson-practice-verdict]")).to_have_attribute("data-status", RIGHT)
        expect(page.locator("[data-testid=weights-table]")).to_have_count(1)
        expect(lesson).to_have_attribute("data-stop", "9")
        # stop 11: an honest student who rounds to two decimals is right
        page.locator("[data-testid=lesson-next]").click()
        page.locator("[data-testid=lesson-next]").click()
        expect(lesson).to_have_attribute("data-stop", "11")
        field.fill("0.75, 0.75")
        field.press("Enter")
        expect(verdict).to_have_attribute("data-status", RIGHT)
        # a reload, then a closed tab: the place and the verdict are still there
        page.reload()
        expect(lesson).to_have_attribute("data-stop", "11", timeout=20_000)
        expect(verdict).to_have_attribute("data-status", RIGHT)
        page.close()
        page = phone.new_page()
        page.goto(f"{served_app}?lesson=hand-calculation&mode=self")
        lesson, verdict = page.locator("[data-testid=lesson]"), page.locator("[data-testid=lesson-verdict]")
        expect(lesson).to_have_attribute("data-stop", "11", timeout=20_000)
        expect(verdict).to_have_attribute("data-status", RIGHT)
        # stop 14: the answer asked for before a prediction scores 0 and says so; stop 18 predicted right
        for stop in (12, 13, 14):
            page.locator("[data-testid=lesson-next]").click()
            expect(lesson).to_have_attribute("data-stop", str(stop))
        page.locator("[data-testid=lesson-predict-show]").click()
        expect(verdict).to_have_attribute("data-status", "shown")
        expect(verdict).to_contain_text("0점")
        expect(verdict).to_contain_text("그대로")  # the right outcome, named: nothing moves for the last token
        page.goto(f"{served_app}?lesson=hand-calculation&mode=self&stop=18")
        expect(lesson).to_have_attribute("data-stop", "18", timeout=20_000)
        truth = page_lesson(read_lesson("hand-calculation"))["stops"][17]["question"]["truth"]
        page.locator(f"[data-testid=lesson-predict-choice-{truth}]").click()
        page.locator("[data-testid=lesson-predict-submit]").click()
        expect(verdict).to_have_attribute("data-status", "correct")
        # the last stop: four of six predicted (one skipped, one answer asked for first), three right,
        # the slip met named; every question tried, so the handout is offered now
        page.goto(f"{served_app}?lesson=hand-calculation&mode=self&stop=20")
        summary = page.locator("[data-testid=lesson-summary]")
        expect(summary).to_have_text("예측한 문제: 6개 중 4개, 맞힌 문제: 3개. 만난 실수: √d_k 나누기를 빠뜨림.", timeout=20_000)
        expect(page.locator("[data-testid=lesson-handout]")).to_be_visible()
        page.screenshot(path=str(SCREENSHOTS / "lesson-self-phone.png"), full_page=False)
        page.locator("[data-testid=lesson-transfer]").click()  # a last problem, on a new sentence
        expect(page.locator("[data-testid=practice-title]")).to_be_visible()
        assert errors == []
    finally:
        phone.close()


def test_the_exported_file_carries_a_lesson_walked_alone_offline_across_a_reload(page, tmp_path, console_errors):
    out = tmp_path / "lesson.html"
    printed = run_export(out, "--lesson", "hand-calculation")
    size = out.stat().st_size
    assert f"wrote {out}" in printed and size <= 300_000, size  # the exported file's budget
    left = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:")
               else (left.append(route.request.url), route.abort()))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{out.as_uri()}?lesson=hand-calculation&mode=self&stop=3")
    lesson, verdict = page.locator("[data-testid=lesson]"), page.locator("[data-testid=lesson-verdict]")
    expect(lesson).to_have_attribute("data-stop", "3", timeout=20_000)
    page.locator("[data-testid=lesson-predict-choice-2]").click()  # 먹었다: a wrong prediction
    page.locator("[data-testid=lesson-predict-submit]").click()
    expect(verdict).to_have_attribute("data-status", "wrong")
    expect(verdict).to_contain_text("생선을")  # the right key, named
    page.keyboard.press("PageDown")
    expect(lesson).to_have_attribute("data-stop", "4")
    page.reload()
    expect(lesson).to_have_attribute("data-stop", "4", timeout=20_000)
    page.keyboard.press("PageUp")
    expect(verdict).to_have_attribute("data-status", "wrong")
    assert left == [] and console_errors == []


def test_a_room_follows_the_lessons_stops_and_a_stop_with_a_question_asks_the_class(browser, served_app):
    """The lecturer presents a lesson in an open room: the phones follow each stop's view; reaching
    a stop with a question asks it of the class (as the room's own button would), the lecturer
    reveals it; going back and forth does not ask again."""
    from test_room_browser import class_in_a_room

    lecturer_context, lecturer, students, pages = class_in_a_room(browser, served_app + "?lesson=hand-calculation", 2)
    try:
        student = pages[0]
        lecturer.locator("[data-testid=explorer]").focus()
        lecturer.keyboard.press("PageDown")
        expect(_lesson(lecturer)).to_have_attribute("data-stop", "2")
        expect(student.locator("[data-testid=poll]")).to_be_hidden()
        lecturer.keyboard.press("PageDown")  # stop 3: 먹었다 at its scores, and the question which key
        expect(_lesson(lecturer)).to_have_attribute("data-stop", "3")
        stop = read_lesson("hand-calculation").stops[2]
        for page in pages:
            expect(page.locator("[data-testid=poll-question]")).to_have_text("Query 먹었다: 어느 Key가 가장 큰 가중치를 받을까요?")
            expect(page.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("먹었다")
            expect(page.locator("[data-testid=room-note]")).to_have_text(f"{stop.title} {stop.note}")  # the stop's words
        pages[0].locator("[data-testid=poll-choice-1]").click()  # 생선을
        pages[1].locator("[data-testid=poll-choice-2]").click()
        expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 2 / 2")
        lecturer.locator("[data-testid=poll-reveal]").click()
        expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
        expect(pages[1].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "wrong")
        # back and on again: the stop's question is not asked a second time (the reveal stays)
        lecturer.locator("[data-testid=explorer]").focus()
        lecturer.keyboard.press("PageUp")
        lecturer.keyboard.press("PageDown")
        expect(_lesson(lecturer)).to_have_attribute("data-stop", "3")
        lecturer.wait_for_timeout(500)
        expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
        # stop 4 has no question; stop 6 asks what dropping √d does
        for _ in range(3):
            lecturer.keyboard.press("PageDown")
        expect(_lesson(lecturer)).to_have_attribute("data-stop", "6")
        expect(student.locator("[data-testid=poll-question]")).to_contain_text("고양이가")
        expect(student.locator("[data-testid=poll-choice-0]")).to_be_visible()
        expect(student.locator("[data-testid=poll-result]")).to_be_hidden()
    finally:
        for context in [*students, lecturer_context]:
            context.close()


def _author(page):
    """The authoring panel, opened from the secondary controls."""
    start = page.locator("[data-testid=lesson-start]")
    if not start.is_visible():
        page.locator("[data-testid=more-toggle]").click()
    start.click()
    author = page.locator("[data-testid=lesson-author]")
    expect(author).to_be_visible()
    return author


def _new_lesson(explorer, **view):
    """The authoring panel on a new, empty lesson at `view` (the draft an earlier test left in the
    browser, reopened by "make or edit", moves the view to its first stop: start one, then open the view)."""
    page = explorer.open(**view).page
    _author(page)
    accept = lambda dialog: dialog.accept()  # noqa: E731  "start a new one?" (a draft with stops is given up)
    page.on("dialog", accept)
    page.locator("[data-testid=lesson-new]").click()
    expect(_lesson(page)).to_have_attribute("data-stops", "0")
    page.remove_listener("dialog", accept)
    explorer.open(**view)
    author = _author(page)  # the empty draft kept: no stop, the view stays
    expect(page.locator("[data-testid=lesson-title-input]")).to_have_value("내 수업")
    return author


def _own_note(preset, query: int, scale: bool = True) -> str:
    """A note as a lecturer writes it about a view, true at its numbers (the core's): the heaviest
    key and its weight, and what dividing by √d does to the row."""
    on = attention(preset.q, preset.k, preset.v, heads=1, scale=scale, causal=False).weights[0, query]
    off = attention(preset.q, preset.k, preset.v, heads=1, scale=not scale, causal=False).weights[0, query]
    top = int(on.argmax())
    sharper = "더 뾰족해져요" if off.max() > on.max() + 0.0005 else "더 평평해져요"
    return (f'"{preset.tokens[query]}"는 "{preset.tokens[top]}"에 {on[top]:.3f}로 가장 큰 가중치를 줘요. '
            f"√d로 나누지 않으면 {sharper}." if scale else f"√d로 나누면 {sharper}.")


def test_a_lecturer_writes_a_fifteen_stop_lesson_with_five_predictions_and_downloads_a_file_that_checks(explorer, tmp_path):
    """No code: each stop is the view on show (a book's sentence, a sentence typed here, the
    model's head), added with a note of the lecturer's own with its numbers and comparisons and a
    question; stops are moved and deleted; the file downloaded passes lesson check with no hand
    edit, and the page's link opens on another page and in a room."""
    import time

    from app.lab import sentence_preset
    from app.lesson_check import lesson_problems
    from app.lessons import parse_lesson
    from test_room_browser import class_in_a_room

    page = explorer.page
    meet = PRESETS["meet-friend"]
    _new_lesson(explorer, preset="meet-friend", query=4)
    actions = 0
    began = time.monotonic()
    page.locator("[data-testid=lesson-title-input]").fill("만남의 어텐션")
    actions += 1
    # questions a class can work from the screen and has not seen answered (lesson check refuses the
    # others): what the mask does where the weights show, what √d_k does at ÷√d_k before any weights
    asks = {0: "what_if causal", 2: "what_if scale", 5: "what_if causal", 7: "what_if causal", 9: "what_if causal"}
    # three stops at a step before softmax (the scores, ÷√d_k, the mask), their notes on what the stage shows
    result = attention(meet.q, meet.k, meet.v, heads=1, scale=True, causal=False)
    steps = {1: ("0", f'"{meet.tokens[3]}" 행의 스코어에서 "{meet.tokens[int(result.scores[0, 3].argmax())]}"가 가장 잘 맞아요.'),
             2: ("1", "√d로 나눈 스코어는 (" + ", ".join(f"{x:.2f}" for x in result.scaled[0, 2]) + ")예요."),
             4: ("2", f'마스크를 켜면 "{meet.tokens[4]}"의 점수는 -∞로 가려요.')}
    for index in range(13):
        query = [4, 3, 2][index % 3]
        explorer.click_token(query)
        if index == 4:
            explorer.set_checkbox("causal-toggle", True)
            actions += 1
        expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
        page.locator("[data-testid=lesson-add-stop]").click()
        expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", str(index + 1))
        # the note is kept as it is typed; the next click (a token) leaves the box and is not lost
        page.locator("[data-testid=lesson-note-input]").fill(
            "어느 Key가 가장 클까요?" if index in asks else steps[index][1] if index in steps else _own_note(meet, query))
        actions += 3
        if index in steps:
            page.locator("[data-testid=lesson-step-select]").select_option(steps[index][0])
            expect(page.locator("[data-testid=step-stage]")).to_have_attribute("data-step", steps[index][0])
            actions += 1
        if index == 4:
            explorer.set_checkbox("causal-toggle", False)
            actions += 1
        if index in asks:
            page.locator("[data-testid=lesson-ask-select]").select_option(asks[index])
            actions += 1
    # a sentence typed here becomes a stop (Python reads its text again)
    typed = "나는 오늘 도서관에서 책을 읽었다"
    page.locator("[data-testid=sentence-input]").fill(typed)
    page.locator("[data-testid=sentence-apply]").click()
    expect(page.locator("[data-testid=token-buttons] button")).to_have_count(5, timeout=20_000)
    expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
    page.locator("[data-testid=lesson-add-stop]").click()
    own = sentence_preset(typed)[0]
    page.locator("[data-testid=lesson-note-input]").fill(_own_note(own, own.default_query))
    actions += 4
    # the model trained here: its head on show becomes a stop
    page.locator("[data-testid=preset-select]").select_option("trained-2000")
    expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready", timeout=20_000)
    page.locator("[data-testid=lesson-add-stop]").click()
    page.locator("[data-testid=lesson-note-input]").fill("여기서 학습한 작은 모델의 head예요.")
    actions += 3
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stops", "15")
    took = time.monotonic() - began
    # a stop set up wrong is mended in place: the last book stop's view becomes the one on show
    page.locator("[data-testid=lesson-outline-stop]").nth(12).click()
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", "13")
    explorer.click_token(0)
    expect(page.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("나는")
    page.locator("[data-testid=lesson-replace-view]").click()
    page.locator("[data-testid=lesson-note-input]").fill(_own_note(meet, 0))
    # the stop moved up once, the first deleted: 14 stops, 4 predictions
    page.locator("[data-testid=lesson-move-up]").click()
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", "12")
    page.locator("[data-testid=lesson-outline-stop]").nth(0).click()
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", "1")
    page.locator("[data-testid=lesson-delete-stop]").click()
    expect(page.locator("[data-testid=lesson-author-check]")).to_have_attribute("data-state", "ok", timeout=20_000)
    with page.expect_download() as download:
        page.locator("[data-testid=lesson-download]").click()
    path = tmp_path / "lesson.md"
    download.value.save_as(path)
    lesson = parse_lesson(path.read_text(encoding="utf-8"), name="mine")
    assert lesson.title == "만남의 어텐션" and len(lesson.stops) == 14
    assert [stop.ask for stop in lesson.stops if stop.ask] == ["what_if scale", "what_if causal", "what_if causal", "what_if causal"]
    assert ["step=0" in lesson.stops[0].view, "step=1" in lesson.stops[1].view, "step=2" in lesson.stops[3].view] == [True] * 3
    assert "text=" in lesson.stops[12].view and "preset=trained" in lesson.stops[13].view
    assert lesson.stops[10].note == _own_note(meet, 0) and "query=0" in lesson.stops[10].view
    page.screenshot(path=str(SCREENSHOTS / "lesson-author-1280.png"))
    assert lesson_problems(lesson) == [], [str(problem) for problem in lesson_problems(lesson)]
    print(f"15 stops with 5 questions written in {actions} actions and {took:.1f} s of scripted clicks")
    # the page's link: on another page, and presented in a room
    page.locator("[data-testid=lesson-copy-link]").click()
    expect(page.locator("[data-testid=lesson-link]")).to_have_value(re.compile(r"\?lesson=~[A-Za-z0-9_-]+$"))
    link = page.locator("[data-testid=lesson-link]").input_value()
    lecturer_context, lecturer, students, pages = class_in_a_room(page.context.browser, link, 1)
    try:
        expect(_lesson(lecturer)).to_have_attribute("data-stops", "14", timeout=20_000)
        first = lesson.stops[0]
        expect(pages[0].locator("[data-testid=room-note]")).to_have_text(f"{first.title} {first.note}")
        assert lecturer.locator("[data-testid=notices] .ae-notice").count() == 0
    finally:
        for context in [lecturer_context, *students]:
            context.close()
    # the new lesson's step stops on the projector: the stage's numbers on the first screen
    for width, height in ((1280, 720), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        for stop in (1, 2, 4):
            page.goto(f"{link}&stop={stop}&mode=lecture")
            expect(_lesson(page)).to_have_attribute("data-stop", str(stop), timeout=20_000)
            _expect_step_stage(page, read_view(lesson.stops[stop - 1], stop))
            box = page.locator("[data-testid=step-stage] tr").last.bounding_box()
            assert box["y"] + box["height"] <= height, (stop, box)
            page.screenshot(path=str(SCREENSHOTS / f"lesson-step-own-{stop}-{width}.png"))
    page.set_viewport_size({"width": 1280, "height": 720})


def test_a_built_in_lesson_is_the_start_of_ones_own_and_keeps_its_claims(explorer, tmp_path):
    from app.lesson_check import lesson_problems
    from app.lessons import parse_lesson

    page = explorer.page
    page.goto(f"{explorer.base_url}?lesson=scale-mask-heads")
    expect(_lesson(page)).to_have_attribute("data-stop", "1", timeout=20_000)
    _author(page)
    page.locator("[data-testid=lesson-delete-stop]").click()
    expect(_lesson(page)).to_have_attribute("data-stops", "19")
    page.locator("[data-testid=lesson-note-input]").fill("제 수업의 첫 정류장이에요.")
    page.locator("[data-testid=lesson-note-input]").press("Tab")
    expect(page.locator("[data-testid=lesson-note]")).to_have_text("제 수업의 첫 정류장이에요.")
    with page.expect_download() as download:
        page.locator("[data-testid=lesson-download]").click()
    assert download.value.suggested_filename == "d-k-마스크-여러-헤드.md"  # the title "√d_k, 마스크, 여러 헤드" as a file name
    path = tmp_path / "mine.md"
    download.value.save_as(path)
    mine, built_in = parse_lesson(path.read_text(encoding="utf-8")), read_lesson("scale-mask-heads")
    assert len(mine.stops) == 19 and mine.stops[0].note == "제 수업의 첫 정류장이에요."
    assert [stop.claim and [c for c, _ in stop.claim] for stop in mine.stops[1:]] == \
        [stop.claim and [c for c, _ in stop.claim] for stop in built_in.stops[2:]]
    assert [stop.note_en for stop in mine.stops[1:]] == [stop.note_en for stop in built_in.stops[2:]]
    assert lesson_problems(mine) == []
    # "start a new lesson" asks first: said no (Playwright dismisses the confirm), the draft stays
    page.locator("[data-testid=lesson-new]").click()
    expect(_lesson(page)).to_have_attribute("data-stops", "19")


def test_an_embedded_lesson_hands_the_clicker_back_to_the_deck_around_it_at_either_end(page, tmp_path, console_errors):
    """In an iframe (a slide deck's), PageUp at the first stop and PageDown at the last post
    lesson-boundary to the parent, so the deck goes on to its slides; in between the lesson moves."""
    out = tmp_path / "lesson.html"
    run_export(out, "--lesson", "hand-calculation")
    deck = tmp_path / "deck.html"
    deck.write_text(f"""<!doctype html><meta charset="utf-8"><title>deck</title>
<script>window.said = []; addEventListener("message", (event) => {{
  if (event.data && event.data.source === "attention-explorer") window.said.push(event.data); }});</script>
<iframe id="lesson" src="{out.name}?lesson=hand-calculation&amp;mode=lecture" style="width:1200px;height:700px"></iframe>""",
                    encoding="utf-8")
    page.set_viewport_size({"width": 1280, "height": 760})
    page.goto(deck.as_uri())
    frame = page.frame_locator("#lesson")
    lesson = frame.locator("[data-testid=lesson]")
    expect(lesson).to_have_attribute("data-stop", "1", timeout=20_000)
    frame.locator("[data-testid=explorer]").focus()
    page.keyboard.press("PageUp")
    page.wait_for_function("window.said.length === 1")
    assert page.evaluate("window.said") == [{"source": "attention-explorer", "type": "lesson-boundary", "direction": "prev"}]
    page.keyboard.press("PageDown")
    expect(lesson).to_have_attribute("data-stop", "2")
    frame.locator("[data-testid=lesson-next]").click()
    expect(lesson).to_have_attribute("data-stop", "3")
    page.evaluate("document.getElementById('lesson').src = 'lesson.html?lesson=hand-calculation&stop=20'")
    expect(lesson).to_have_attribute("data-stop", "20", timeout=20_000)
    frame.locator("[data-testid=explorer]").focus()
    page.evaluate("window.said = []")
    page.keyboard.press("PageDown")
    page.wait_for_function("window.said.length === 1")
    assert page.evaluate("window.said")[0]["direction"] == "next"
    assert console_errors == []


def test_the_clicker_walks_the_reveal_deck_the_lessons_stops_and_on_to_the_next_slide(page, tmp_path, console_errors):
    """examples/reveal-deck: reveal.js (npm, pinned) with a slide that embeds the exported lesson.
    PageDown goes from the title slide into the lesson, through its 20 stops, and on to the last
    slide; PageUp comes back into the lesson at its last stop."""
    from support import ROOT

    deck = ROOT / "examples" / "reveal-deck"
    assert (deck / "node_modules" / "reveal.js" / "dist" / "reveal.js").exists(), "make test installs reveal.js"
    (tmp_path / "index.html").write_text((deck / "index.html").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "node_modules").symlink_to(deck / "node_modules")
    run_export(tmp_path / "lesson.html", "--lesson", "hand-calculation")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto((tmp_path / "index.html").as_uri())
    slide = lambda: page.evaluate("Reveal.getIndices().h")  # noqa: E731
    page.wait_for_function("window.Reveal && Reveal.isReady()")
    assert slide() == 0
    page.keyboard.press("PageDown")
    page.wait_for_function("Reveal.getIndices().h === 1")
    lesson = page.frame_locator("iframe.lesson").locator("[data-testid=lesson]")
    expect(lesson).to_have_attribute("data-stop", "1", timeout=20_000)
    questions = {i: stop.question()[0] for i, stop in enumerate(read_lesson("hand-calculation").stops, start=1) if stop.question()}
    frame = page.frame_locator("iframe.lesson")
    for stop in range(2, 21):
        page.keyboard.press("PageDown")
        expect(lesson).to_have_attribute("data-stop", str(stop))
        if stop in questions:  # a prediction: held until the next press reveals it, on the same stop
            expect(lesson).to_have_attribute("data-held", questions[stop])
            if questions[stop] == "top_key":  # no bar gives the key away
                assert frame.locator(".ae-bar-value").count() == 0, stop
            page.keyboard.press("PageDown")
            expect(lesson).to_have_attribute("data-held", "")
            expect(lesson).to_have_attribute("data-stop", str(stop))
            expect(frame.locator(".ae-bar-value").first).to_be_visible()
    assert slide() == 1  # the deck waited on the lesson's slide
    page.keyboard.press("PageDown")  # past the last stop: the deck's next slide
    page.wait_for_function("Reveal.getIndices().h === 2")
    page.keyboard.press("PageUp")  # back into the lesson, at its last stop
    page.wait_for_function("Reveal.getIndices().h === 1")
    page.keyboard.press("PageUp")
    expect(lesson).to_have_attribute("data-stop", "19")
    page.screenshot(path=str(SCREENSHOTS / "lesson-in-reveal-deck.png"))
    assert console_errors == []


def test_a_lesson_written_in_the_page_travels_as_a_link_checked_by_python(explorer):
    """The authoring panel's link carries the lesson itself (compressed): opened anywhere, Python
    reads and checks it and the page presents it; a lesson with a problem is refused in the check's
    words; a cut link says so; nothing in it becomes HTML."""
    page = explorer.page
    _new_lesson(explorer, preset="cat-fish", query=2)
    page.locator("[data-testid=lesson-title-input]").fill("<b>링크</b> 수업")
    page.locator("[data-testid=lesson-title-input]").press("Tab")
    page.locator("[data-testid=lesson-add-stop]").click()
    page.locator("[data-testid=lesson-note-input]").fill("<img src=x onerror=window.__xss=1> 가중치는 0.786이에요.")
    page.locator("[data-testid=lesson-note-input]").press("Tab")
    explorer.click_token(0)
    page.locator("[data-testid=lesson-add-stop]").click()
    page.locator("[data-testid=lesson-note-input]").fill("고양이가 차례예요.")
    page.locator("[data-testid=lesson-note-input]").press("Tab")
    page.locator("[data-testid=lesson-copy-link]").click()
    link = page.locator("[data-testid=lesson-link]")
    expect(link).to_have_value(re.compile(r"\?lesson=~[A-Za-z0-9_-]+$"))
    url = link.input_value()
    other = page.context.new_page()
    try:
        other.goto(url + "&stop=1")
        lesson = other.locator("[data-testid=lesson]")
        expect(lesson).to_have_attribute("data-stops", "2", timeout=20_000)
        expect(other.locator("[data-testid=lesson-title]")).to_have_text("<b>링크</b> 수업")  # as text
        expect(other.locator("[data-testid=lesson-note]")).to_have_text("<img src=x onerror=window.__xss=1> 가중치는 0.786이에요.")
        assert other.evaluate("window.__xss") is None and other.locator("[data-testid=lesson] img").count() == 0
        other.keyboard.press("PageDown")
        expect(lesson).to_have_attribute("data-stop", "2")
        expect(other.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("고양이가")
        # a false sentence, as it is typed: the panel names it with its stop, line and numbers, in
        # the page's language, and holds the download and the link back until it is mended
        page.locator("[data-testid=lesson-note-input]").fill("\"고양이가\"의 가중치는 0.786이에요.")
        check = page.locator("[data-testid=lesson-author-check]")
        expect(check).to_have_attribute("data-state", "problems", timeout=20_000)
        problem = page.locator("[data-testid=lesson-author-problem]")
        expect(problem).to_have_count(1)
        expect(problem).to_have_attribute("data-stop", "2")
        expect(problem).to_contain_text("“고양이가” 키의 가중치 값: 0.248 (문장에는 0.786)")
        expect(page.locator("[data-testid=lesson-copy-link]")).to_be_disabled()
        expect(page.locator("[data-testid=lesson-download]")).to_be_disabled()
        false_text = page.evaluate("() => JSON.parse(localStorage.getItem('ae-lesson-draft'))")
        page.locator("[data-testid=lesson-note-input]").fill("\"고양이가\"는 \"먹었다\"에 가장 큰 가중치를 줘요.")
        expect(check).to_have_attribute("data-state", "ok", timeout=20_000)
        expect(page.locator("[data-testid=lesson-copy-link]")).to_be_enabled()
        page.locator("[data-testid=lesson-copy-link]").click()
        expect(link).not_to_have_value(url)
        other.goto(link.input_value())  # the link the page gives opens
        expect(lesson).to_have_attribute("data-stops", "2", timeout=20_000)
        # a link made by hand with the false sentence: refused as lesson check finds it, in the
        # page's language, naming the stop and the line
        stop = false_text["stops"][1]
        text = (f"# 링크 수업\n\n## 하나\nview: {false_text['stops'][0]['view']}\nnote: 하나예요.\n\n"
                f"## 둘\nview: {stop['view']}\nnote: {stop['note']}\n")
        other.goto(f"{explorer.base_url}?lesson={_lesson_link(text)}")
        notices = other.locator("[data-testid=notices]")
        expect(notices).to_contain_text("이 수업을 열 수 없어요. 정류장 2, ", timeout=20_000)
        expect(notices).to_contain_text("“고양이가” 키의 가중치 값: 0.248 (문장에는 0.786)")
        other.goto(f"{explorer.base_url}?lesson={_lesson_link(text)}&lang=en")
        expect(notices).to_contain_text("This lesson cannot be opened: stop 2, line ", timeout=20_000)
        expect(notices).to_contain_text("고양이가's weight is 0.248, not 0.786")
        other.goto(url[:-8])  # a link cut short
        expect(other.locator("[data-testid=notices]")).to_contain_text("링크 속 수업이 잘렸거나 망가졌어요", timeout=20_000)
    finally:
        other.close()


def test_the_handout_prints_each_stops_figure_note_and_question_and_the_answers_last(explorer, tmp_path):
    """The lesson's handout: a page per stop with its view's figure drawn from the core's numbers
    (the weights' bars, or before the weights show the calculation, never an answer at a question),
    its note and its question; the answers on the last page; printed, nothing else of the page."""
    from app.lesson_check import page_lesson

    page, lesson = explorer.page, read_lesson("hand-calculation")
    page.goto(f"{explorer.base_url}?lesson=hand-calculation&stop=5")
    expect(_lesson(page)).to_have_attribute("data-stop", "5", timeout=20_000)
    # in a lesson, Space moves the stops: the step bar says so, and its buttons step
    expect(page.locator(".ae-step-keys")).to_have_text("수업 중에는 스페이스·화살표가 정류장을 넘겨요: 단계는 이 버튼으로 넘기세요.")
    page.locator("[data-testid=lesson-handout]").click()
    handout = page.locator("[data-testid=lesson-handout-pages]")
    expect(handout).to_have_attribute("data-state", "ready", timeout=20_000)
    stops = handout.locator("[data-testid=handout-stop]")
    expect(stops).to_have_count(len(lesson.stops))
    questions = [stop for stop in page_lesson(lesson)["stops"] if stop.get("question")]
    for index, stop in enumerate(lesson.stops, start=1):
        article = stops.nth(index - 1)
        view = read_view(stop, index).view
        preset = read_view(stop, index).preset
        expect(article.locator("[data-testid=handout-note]")).to_have_text(stop.note)
        expect(article.locator("[data-testid=handout-view]")).to_contain_text(f"Query: {preset.tokens[view['query']]}")
        figure = article.locator("[data-testid=handout-figure]")
        shows_weights = not stop.question() and not 0 <= view["step"] < 3
        assert figure.get_attribute("data-figure") == ("bars" if shows_weights else "calculation"), index
        if shows_weights:  # the bars' values are the core's weights of the stop's view
            result = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"], causal=view["causal"])
            heads = [view["head_view"]] if view["head_view"] >= 0 else range(view["heads"])
            values = [float(text) for text in figure.locator(".ae-bar-value").all_inner_texts()]
            expected = [round(float(result.weights[head][view["query"]][key]), 3)
                        for key in range(len(preset.tokens)) for head in heads]
            assert values == pytest.approx(expected, abs=0.0005), index
        else:  # no weights given away
            assert figure.locator(".ae-bar-value").count() == 0, index
        assert article.locator("[data-testid=handout-question]").count() == (1 if stop.question() else 0), index
    answers = handout.locator("[data-testid=handout-answer]")
    expect(answers).to_have_count(len(questions))
    for answer, stop in zip(answers.all(), questions):
        q = stop["question"]
        if q["kind"] == "top_key":
            expect(answer).to_contain_text(f"정답: {q['tokens'][q['truth']]}")
        elif q["kind"] == "output":
            expect(answer).to_contain_text(", ".join(f"{x:.3f}" for x in q["detail"]["exact"]))
    # printed: the handout alone, a stop a page, the answers on the last
    page.emulate_media(media="print")
    expect(page.locator("[data-testid=lesson-next]")).to_be_hidden()
    expect(page.locator("[data-testid=token-buttons]")).to_be_hidden()
    expect(stops.first).to_be_visible()
    expect(page.locator("[data-testid=lesson-handout-print]")).to_be_hidden()
    assert stops.first.evaluate("(el) => getComputedStyle(el).breakAfter") == "page"
    pdf = page.pdf()
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == len(lesson.stops) + 1
    page.emulate_media(media="screen")
    page.locator("[data-testid=lesson-handout-close]").click()
    expect(handout).to_be_hidden()
    expect(_lesson(page)).to_have_attribute("data-stop", "5")  # the lesson is where it was


def _lesson_link(text: str) -> str:
    """lesson= carrying `text` as the page's own link does (lesson_link.js: "~", raw deflate, base64url)."""
    import base64
    import zlib

    packer = zlib.compressobj(wbits=-15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return "~" + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


MODEL_LESSON = """# 학습된 모델과 책의 문장
## 모델의 head
view: preset=trained&layer=1&head=0&query=4
note: 여기서는 여기서 학습한 작은 모델의 head를 봐요.
## 책의 문장
view: preset=cat-fish&query=2&heads=1
note: 손계산 문장으로 돌아왔어요.
## 다른 head
view: preset=trained&layer=0&head=3&query=4&special=0
note: 같은 모델의 다른 head예요.
"""


def test_a_stop_shows_the_trained_models_head_presented_printed_and_authored(explorer, tmp_path):
    """A stop may show a head of the model trained here (every page offers it): the stop opens that
    layer, head, token view and query with the core's weights, on the way there and back; the
    handout draws it; the authoring panel adds the model's view as a stop that lesson check reads."""
    from app.lesson_check import lesson_problems, read_view, served
    from app.lessons import parse_lesson
    from app.questions import model_row

    page, lesson = explorer.page, parse_lesson(MODEL_LESSON)
    assert lesson_problems(lesson) == []

    def expect_model_stop(index: int) -> None:
        expect(_lesson(page)).to_have_attribute("data-stop", str(index))
        expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
        shown = read_view(lesson.stops[index - 1], index)
        row, labels, _ = model_row(shown.view, served)
        explorer.expect_query(labels[shown.view["query"]])
        keys, columns = explorer.weights()
        assert keys == list(labels) and columns[0] == pytest.approx([round(float(x), 3) for x in row], abs=0.0005), index
        assert page.locator("[data-testid=notices] .ae-notice").count() == 0

    page.goto(f"{explorer.base_url}?lesson={_lesson_link(MODEL_LESSON)}")
    expect(_lesson(page)).to_have_attribute("data-stops", "3", timeout=20_000)
    expect_model_stop(1)
    page.keyboard.press("PageDown")
    _expect_stop(explorer, lesson, 2)
    page.keyboard.press("PageDown")
    expect_model_stop(3)
    page.keyboard.press("PageUp")
    page.keyboard.press("PageUp")
    expect_model_stop(1)
    # the handout draws the model's heads as the page does
    page.locator("[data-testid=lesson-handout]").click()
    handout = page.locator("[data-testid=lesson-handout-pages]")
    expect(handout).to_have_attribute("data-state", "ready", timeout=20_000)
    figures = handout.locator("[data-testid=handout-figure]")
    assert [figures.nth(i).get_attribute("data-figure") for i in range(3)] == ["bars", "bars", "bars"]
    row, labels, _ = model_row(read_view(lesson.stops[2], 3).view, served)
    values = [float(text) for text in figures.nth(2).locator(".ae-bar-value").all_inner_texts()]
    assert sorted(values, reverse=True) == pytest.approx(sorted((round(float(x), 3) for x in row), reverse=True)[:len(values)], abs=0.0005)
    page.locator("[data-testid=lesson-handout-close]").click()
    # written in the page: the model's view on show becomes a stop that lesson check reads
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    expect_model_stop(3)
    _author(page)
    page.locator("[data-testid=lesson-add-stop]").click()
    expect(_lesson(page)).to_have_attribute("data-stops", "4")
    page.locator("[data-testid=lesson-note-input]").fill("모델의 head를 하나 더 봐요.")
    with page.expect_download() as download:
        page.locator("[data-testid=lesson-download]").click()
    path = tmp_path / "mine.md"
    download.value.save_as(path)
    mine = parse_lesson(path.read_text(encoding="utf-8"))
    added = dict(parse_qs(mine.stops[3].view))
    assert added["preset"] == ["trained-2000"] and added["layer"] == ["0"] and added["head"] == ["3"], added
    assert lesson_problems(mine) == [], [str(problem) for problem in lesson_problems(mine)]


OWN_LESSON = """# 내 수업
## 첫 정류장
view: preset=cat-fish&query=2
note: "먹었다"는 "생선을"에 0.786을 줘요.
## 둘째 정류장
view: preset=meet-friend&query=4
note: "만났다"는 "친구를"에 가장 집중해요.
"""


def test_a_student_in_a_room_on_a_serve_lesson_server_sees_the_rooms_stop_only(browser, tmp_path):
    """`serve --lesson FILE`: the lecturer's page presents the file; a phone in the room shows the
    room's stop (its room bar's note) and no lesson card of its own with its own ◀ ▶."""
    import sys

    from support import free_port, running
    from test_room_browser import class_in_a_room

    lesson = tmp_path / "mine.md"
    lesson.write_text(OWN_LESSON, encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with running([sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--lesson", str(lesson)], url):
        lecturer_context, lecturer, students, pages = class_in_a_room(browser, url, 1)
        try:
            expect(_lesson(lecturer)).to_have_attribute("data-stops", "2")
            lecturer.locator("[data-testid=explorer]").focus()
            lecturer.keyboard.press("PageDown")
            expect(_lesson(lecturer)).to_have_attribute("data-stop", "2")
            [student] = pages
            expect(student.locator("[data-testid=room-note]")).to_have_text('둘째 정류장 "만났다"는 "친구를"에 가장 집중해요.')
            expect(student.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("만났다")
            expect(_lesson(student)).to_be_hidden()
            assert student.locator("[data-testid=lesson-next]:visible").count() == 0
            student.keyboard.press("PageDown")  # a phone's keys move no lesson of its own
            expect(student.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("만났다")
        finally:
            for context in [lecturer_context, *students]:
                context.close()


def test_the_panel_writes_every_field_keeps_the_figure_in_sight_and_opens_a_file(explorer, tmp_path):
    """At 1280×800 the panel stands beside the page and the figure stays on the first screen; the
    stop's English note, speaker notes, step and card are written from the panel; the outline opens
    a stop; a lesson file chosen or dropped becomes the draft, its false sentence named."""
    from app.lessons import parse_lesson

    page = explorer.page
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        _new_lesson(explorer, preset="cat-fish", query=2)
        page.locator("[data-testid=lesson-add-stop]").click()
        explorer.click_token(0)
        page.locator("[data-testid=lesson-add-stop]").click()
        expect(_lesson(page)).to_have_attribute("data-stop", "2")
        figure = page.locator("[data-testid=lines-figure]").bounding_box()
        panel = page.locator("[data-testid=lesson-author]").bounding_box()
        assert figure["y"] < 800 and figure["x"] + figure["width"] <= panel["x"], (figure, panel)  # side by side, in sight
        page.locator("[data-testid=lesson-note-input]").fill('"고양이가"는 "먹었다"에 가장 큰 가중치를 줘요.')
        page.locator("[data-testid=lesson-note-other-input]").fill("고양이가 gives 먹었다 the most weight.")
        page.locator("[data-testid=lesson-speaker-input]").fill("먼저 물어보세요.")
        page.locator("[data-testid=lesson-speaker-other-input]").fill("Ask first.")
        page.locator("[data-testid=lesson-step-select]").select_option("1")
        expect(page.locator("[data-testid=step-stage]")).to_have_attribute("data-step", "1")  # the stop opens at its step
        page.locator("[data-testid=lesson-card-select]").select_option("heatmap")
        outline = page.locator("[data-testid=lesson-outline-stop]")
        expect(outline).to_have_count(2)
        expect(outline.nth(1)).to_contain_text("Query 고양이가")
        expect(outline.nth(1)).to_contain_text("÷")
        outline.nth(0).click()
        expect(_lesson(page)).to_have_attribute("data-stop", "1")
        expect(page.locator("[data-testid=token-buttons] button[aria-pressed=true]")).to_have_text("먹었다")
        expect(page.locator("[data-testid=lesson-author-problem]")).to_have_attribute("data-stop", "1")  # a stop with no note
        page.locator("[data-testid=lesson-note-input]").fill("Query는 먹었다예요.")
        expect(page.locator("[data-testid=lesson-author-check]")).to_have_attribute("data-state", "ok", timeout=20_000)
        with page.expect_download() as download:
            page.locator("[data-testid=lesson-download]").click()
        path = tmp_path / "written.md"
        download.value.save_as(path)
        second = parse_lesson(path.read_text(encoding="utf-8")).stops[1]
        assert (second.note_en, second.speaker, second.speaker_en, second.card) == (
            "고양이가 gives 먹었다 the most weight.", "먼저 물어보세요.", "Ask first.", "heatmap")
        assert "step=1" in second.view and "query=0" in second.view
        # a file chosen: it becomes the draft, its false sentence named with its line
        own = tmp_path / "own.md"
        own.write_text(OWN_LESSON.replace("0.786", "0.876"), encoding="utf-8")
        page.locator("[data-testid=lesson-open-file]").set_input_files(str(own))
        expect(page.locator("[data-testid=lesson-open-says]")).to_contain_text("own.md")
        expect(_lesson(page)).to_have_attribute("data-stops", "2")
        expect(page.locator("[data-testid=lesson-author-check]")).to_have_attribute("data-state", "problems", timeout=20_000)
        expect(page.locator("[data-testid=lesson-author-problem]")).to_have_attribute("data-stop", "1")
        expect(page.locator("[data-testid=lesson-download]")).to_be_disabled()
        # a file dropped on the panel: the same
        page.locator("[data-testid=lesson-author]").evaluate("""(panel, text) => {
            const data = new DataTransfer();
            data.items.add(new File([text], "dropped.md", {type: "text/markdown"}));
            panel.dispatchEvent(new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
        }""", OWN_LESSON)
        expect(page.locator("[data-testid=lesson-open-says]")).to_contain_text("dropped.md")
        expect(page.locator("[data-testid=lesson-author-check]")).to_have_attribute("data-state", "ok", timeout=20_000)
        expect(page.locator("[data-testid=lesson-note]")).to_have_text('"먹었다"는 "생선을"에 0.786을 줘요.')
        # not a lesson at all: said, and the draft stays
        junk = tmp_path / "junk.md"
        junk.write_text("그냥 글이에요.\n", encoding="utf-8")
        page.locator("[data-testid=lesson-open-file]").set_input_files(str(junk))
        expect(page.locator("[data-testid=lesson-open-says]")).to_contain_text("junk.md")
        expect(_lesson(page)).to_have_attribute("data-stops", "2")
    finally:
        page.set_viewport_size({"width": 1280, "height": 720})


def test_a_step_stop_on_a_360_px_phone_shows_its_row_within_the_screen(browser, served_app):
    """A phone in a class at the mask step of the longest sentence: every cell of the stage is
    inside the screen, at 16 px or more, and the core's numbers are the ones shown."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        page = context.new_page()
        page.goto(f"{served_app}?lesson=scale-mask-heads&stop=9")
        expect(_lesson(page)).to_have_attribute("data-stop", "9", timeout=20_000)
        _expect_step_stage(page, read_view(read_lesson("scale-mask-heads").stops[8], 9))
        page.goto(f"{served_app}?preset=coffee-or-tea&step=2&causal=1")
        cells = page.locator("[data-testid=step-stage] td")
        expect(cells).to_have_count(10 * 3)
        for index in range(cells.count()):
            box = cells.nth(index).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 360, (index, box)
        assert float(cells.first.evaluate("cell => getComputedStyle(cell).fontSize")[:-2]) >= 16
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
