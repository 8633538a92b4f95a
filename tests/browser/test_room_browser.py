"""A room in the served app (issue 23, part 2: follow the lecturer): one lecturer's page and
students' phones in separate browser contexts, over the app's /room websocket."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

import pytest
from playwright.sync_api import expect

from app.room_socket import qr_rows
from app.strings import text
from explorer_page import ExplorerPage
from support import SCREENSHOTS
from test_accessibility_browser import violations
from test_classroom_browser import PHONE

pytestmark = pytest.mark.browser


def open_page(context, url):
    page = context.new_page()
    page.goto(url)
    page.locator("[data-testid=calc-table]").wait_for(timeout=20_000)
    return page


def lecturer_opens_a_room(browser, url):
    """A lecturer's page at `url` (1280 × 720) that opens a room: (its context, page, the room's code)."""
    lecturer_context = browser.new_context(viewport={"width": 1280, "height": 720})
    lecturer = open_page(lecturer_context, url)
    # an error in the lecturer's page is printed (a failing test shows it beside the step that failed)
    lecturer.on("pageerror", lambda error: print("the lecturer's page:", error))
    lecturer.locator("[data-testid=room-open]").click()
    code = lecturer.locator("[data-testid=room-code]")
    expect(code).to_have_text(__import__("re").compile(r"^[2-9A-HJKMNP-Z]{6}$"))
    return lecturer_context, lecturer, code.inner_text()


def class_in_a_room(browser, url, count):
    """A lecturer's page at `url` that opens a room, and `count` phones that open its students'
    link: (the lecturer's context, page, the students' contexts, pages)."""
    lecturer_context, lecturer, _ = lecturer_opens_a_room(browser, url)
    link = lecturer.locator("[data-testid=room-link]")
    expect(link).to_have_attribute("href", __import__("re").compile(r"room="))
    students = [browser.new_context(**PHONE) for _ in range(count)]
    pages = [open_page(context, link.get_attribute("href")) for context in students]
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text(str(count))
    return lecturer_context, lecturer, students, pages


def test_students_follow_the_lecturer_explore_on_their_own_and_come_back(browser, served_app):
    lecturer_context, lecturer, room = lecturer_opens_a_room(browser, served_app + "?preset=meet-friend")
    code = lecturer.locator("[data-testid=room-code]")
    link = lecturer.locator("[data-testid=room-link]")
    expect(link).to_have_attribute("href", f"{served_app}?room={room}")
    # the QR code is the link's (segno), drawn a module per unit, large on the projector
    qr = lecturer.locator("[data-testid=room-qr]")
    expect(qr).to_have_attribute("data-size", str(len(qr_rows(f"{served_app}?room={room}"))))
    assert qr.bounding_box()["width"] >= 280
    students = [browser.new_context(**PHONE) for _ in range(2)]
    pages = [open_page(context, link.get_attribute("href")) for context in students]
    for page in pages:
        expect(page.locator("[data-testid=room-status]")).to_have_attribute("data-state", "following")
        expect(page.locator("[data-testid=room-open]")).to_be_hidden()
    # a phone that opens the app itself: no room button, and the header keeps each button on one line
    plain = open_page(students[0], served_app + "?preset=meet-friend")
    expect(plain.locator("[data-testid=room-open]")).to_be_hidden()
    heights = plain.locator(".ae-header-buttons .ae-chip:visible").evaluate_all("(all) => all.map((b) => b.getBoundingClientRect().height)")
    assert heights and max(heights) < 60, heights
    plain.close()
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("2")
    assert violations(lecturer) == [] and violations(pages[0]) == []  # axe-core, the room's parts on both pages
    # the class is in: the QR code folds away, the code, the count and the questions stay
    lecturer.locator("[data-testid=room-fold]").click()
    expect(qr).to_be_hidden()
    expect(code).to_be_visible()
    # folded, the panel is one line: the code, the count and its buttons; the questions one tap away
    lecturer.screenshot(path=str(SCREENSHOTS / "room-folded-1280.png"))
    room_box = lecturer.locator("[data-testid=room]").bounding_box()
    line = lecturer.locator("[data-testid=room-code]").bounding_box()
    assert room_box["height"] <= 2 * line["height"] + 24, (room_box, line)
    expect(lecturer.locator("[data-testid=poll-top-key]")).to_be_hidden()
    lecturer.locator("[data-testid=room-ask-toggle]").click()
    expect(lecturer.locator("[data-testid=poll-top-key]")).to_be_visible()
    # the lecturer picks 친구를 and turns the mask on: both phones follow
    ExplorerPage(lecturer, served_app).token_button("친구를").click()
    lecturer.locator("[data-testid=causal-toggle]").check()
    for page in pages:
        expect(page.locator("[data-testid=weights-table] caption")).to_have_text("Query: 친구를")
        expect(page.locator("[data-testid=causal-toggle]")).to_be_checked()
        assert f"room={room}" in page.evaluate("location.search")  # the link keeps the room and shows the view
    # a question needs one head shown: asked with two, the lecturer's page says so
    ExplorerPage(lecturer, served_app).page.locator("[data-testid=heads-2]").click()
    lecturer.locator("[data-testid=poll-top-key]").click()
    expect(lecturer.locator("[data-testid=room-error]")).to_have_text(
        "질문하려면 head 하나만 보이게 하세요 (또는 head 수 1).")
    lecturer.locator("[data-testid=heads-1]").click()
    # one student explores on their own: the lecturer's next change leaves them where they are
    pages[0].locator("[data-testid=room-detach]").click()
    expect(pages[0].locator("[data-testid=room-status]")).to_have_attribute("data-state", "exploring")
    ExplorerPage(lecturer, served_app).token_button("학교에서").click()
    expect(pages[1].locator("[data-testid=weights-table] caption")).to_have_text("Query: 학교에서")
    expect(pages[0].locator("[data-testid=weights-table] caption")).to_have_text("Query: 친구를")
    # … and comes back to the lecture at the lecturer's view
    pages[0].locator("[data-testid=room-rejoin]").click()
    expect(pages[0].locator("[data-testid=room-status]")).to_have_attribute("data-state", "following")
    expect(pages[0].locator("[data-testid=weights-table] caption")).to_have_text("Query: 학교에서")
    # a student's forged lecturer message (a guessed secret) is refused and changes no one's page
    answer = pages[1].evaluate("""(room) => new Promise((resolve) => {
        const socket = new WebSocket(`ws://${location.host}/room`);
        socket.onopen = () => socket.send(JSON.stringify({type: "drive", code: room, secret: "guessed",
          view: {source: {kind: "preset", name: "cat-fish"}, query: 0, scale: false, causal: false, heads: 1, head_view: -1,
                 step: -1, layer: 0, head: 0, merge: true, special: false, lens: "weight", rope: true, window: -1, compare: "",
                 lang: "ko"}}));
        socket.onmessage = (event) => { resolve(event.data); socket.close(); };
    })""", room)
    assert json.loads(answer) == {"type": "error", "code": "not_lecturer", "values": {}}
    expect(pages[0].locator("[data-testid=weights-table] caption")).to_have_text("Query: 학교에서")
    # the lecturer reloads: the same room, its students still in it; a student leaves: counted out
    lecturer.reload()
    expect(lecturer.locator("[data-testid=room-code]")).to_have_text(room)
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("2")
    students[1].close()
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("1")
    students[0].close()
    lecturer_context.close()


def test_a_room_link_in_an_exported_file_says_a_room_needs_the_served_app(in_file):
    in_file.page.goto(in_file.base_url + "?preset=meet-friend&room=ABCDEF")
    expect(in_file.page.locator("[data-testid=room-error]")).to_have_text(
        "수업 방은 서버로 실행한 앱에서만 열려요: 이 파일에는 방을 맡을 서버가 없어요.")
    expect(in_file.page.locator("[data-testid=room-open]")).to_be_hidden()
    expect(in_file.page.locator("[data-testid=calc-table]")).to_be_visible()  # the explorer works as ever


def test_the_class_predicts_the_top_key_before_the_reveal_and_each_student_sees_their_verdict(browser, served_app):
    """Which key will 만났다 look at most? The lecturer asks on meet-friend (one head, query 만났다);
    the phones hide the weights, the calculation and the captions and offer the tokens; the
    lecturer sees how many answered, not what; a student who reloads keeps their answer; the reveal
    shows every page the counts per choice and the core's truth, and each student their verdict."""
    from attention_core import PRESETS, attention

    preset = PRESETS["meet-friend"]
    truth = int(attention(preset.q, preset.k, preset.v, heads=1).weights[0][4].argmax())
    wrong = (truth + 1) % len(preset.tokens)
    lecturer_context, lecturer, students, pages = class_in_a_room(browser, served_app + "?preset=meet-friend&query=4&heads=1", 3)
    for page in pages:
        expect(page.locator("[data-testid=weights-table] caption")).to_have_text("Query: 만났다")
    lecturer.locator("[data-testid=poll-top-key]").click()
    # nor on the projector, which the class sees
    expect(lecturer.locator("[data-testid=weights-table] tbody tr")).to_have_count(0)
    expect(lecturer.locator("[data-testid=bars] .ae-bar-row")).to_have_count(0)
    for page in pages:
        expect(page.locator("[data-testid=poll-question]")).to_have_text("Query 만났다: 어느 Key가 가장 큰 가중치를 받을까요?")
        # nothing on the phone gives the answer away
        expect(page.locator("[data-testid=weights-table] tbody tr")).to_have_count(0)
        expect(page.locator("[data-testid=bars] .ae-bar-row")).to_have_count(0)
        expect(page.locator("[data-testid=calc-table] td")).to_have_count(0)
        expect(page.locator("[data-testid=head-captions]")).to_be_hidden()
        # and what stands in their place says why, in words: not a step the page is not at
        hidden_why = page.locator(".ae-placeholder").evaluate_all("els => els.map((el) => el.textContent)")
        assert hidden_why and set(hidden_why) == {"선생님이 답을 공개하면 보여요"}, hidden_why
        expect(page.locator("[data-testid=live-region]")).to_have_text("선생님이 답을 공개하면 보여요")
    pages[0].locator(f"[data-testid=poll-choice-{wrong}]").click()
    pages[0].locator(f"[data-testid=poll-choice-{truth}]").click()  # changed before the reveal
    pages[1].locator(f"[data-testid=poll-choice-{truth}]").click()
    pages[2].locator(f"[data-testid=poll-choice-{wrong}]").click()
    expect(pages[0].locator(f"[data-testid=poll-choice-{truth}]")).to_have_attribute("aria-pressed", "true")
    assert violations(pages[0]) == []  # axe-core: the question, a chosen answer (its text readable on the highlight)
    expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 3 / 3")
    expect(lecturer.locator("[data-testid=poll-histogram]")).to_be_hidden()  # no distribution until the lecturer chooses
    pages[2].reload()  # a reload keeps the answer
    pages[2].locator("[data-testid=calc-table]").wait_for()
    expect(pages[2].locator(f"[data-testid=poll-choice-{wrong}]")).to_have_attribute("aria-pressed", "true")
    lecturer.locator("[data-testid=poll-reveal]").click()
    for page in [lecturer, *pages]:
        rows = page.locator("[data-testid=poll-histogram] li")
        expect(rows).to_have_count(len(preset.tokens))
        expect(page.locator(f"[data-testid=poll-histogram] li[data-choice='{truth}']")).to_have_attribute("data-count", "2")
        expect(page.locator(f"[data-testid=poll-histogram] li[data-choice='{wrong}']")).to_have_attribute("data-count", "1")
        expect(page.locator("[data-testid=poll-histogram] li[data-truth=true]")).to_have_attribute("data-choice", str(truth))
    expect(lecturer.locator("[data-testid=weights-table] tbody tr")).to_have_count(len(preset.tokens))  # revealed: shown again
    for page, status in zip(pages, ("correct", "correct", "wrong")):
        expect(page.locator("[data-testid=poll-result]")).to_have_attribute("data-status", status)
        expect(page.locator("[data-testid=poll-result]")).to_contain_text(f"가장 큰 가중치를 받은 Key: {preset.tokens[truth]}")
        expect(page.locator("[data-testid=weights-table] tbody tr")).to_have_count(len(preset.tokens))  # the weights again
        expect(page.locator("[data-testid=weights-table] tbody td").first).not_to_be_empty()
        keys, columns = ExplorerPage(page, served_app).weights()  # their numbers, not empty cells
        assert keys == list(preset.tokens)
        np.testing.assert_allclose(columns[0], attention(preset.q, preset.k, preset.v, heads=1).weights[0][4], atol=0.0005)
    for context in [*students, lecturer_context]:
        context.close()


def test_a_question_asked_in_step_mode_says_why_every_step_is_hidden_and_not_a_step(browser, served_app):
    """The lecturer is at step 3 (the mask) when they ask: the phone's step label, its live
    region and every weights view say the answer shows when the lecturer reveals it; no step's
    name, no raw string key; the reveal gives the step back."""
    lecturer_context, lecturer, students, pages = class_in_a_room(
        browser, served_app + "?preset=meet-friend&query=4&heads=1&step=2", 1)
    phone = pages[0]
    expect(phone.locator("[data-testid=step-label]")).to_have_text("3/6 단계: 마스크")
    lecturer.locator("[data-testid=poll-top-key]").click()
    for page in (phone, lecturer):
        expect(page.locator("[data-testid=poll-question]")).to_be_visible()
        expect(page.locator("[data-testid=step-label]")).to_have_text("선생님이 답을 공개하면 보여요")
        expect(page.locator("[data-testid=live-region]")).to_have_text("선생님이 답을 공개하면 보여요")
        hidden_why = page.locator(".ae-placeholder").evaluate_all("els => els.map((el) => el.textContent)")
        assert hidden_why and set(hidden_why) == {"선생님이 답을 공개하면 보여요"}, hidden_why
        shown = page.locator("[data-testid=explorer]").evaluate_all("els => els.map((el) => el.innerText).join(' ')")
        assert "step_name" not in shown and "다음 단계에서 보여요" not in shown
    lecturer.locator("[data-testid=poll-reveal]").click()
    expect(phone.locator("[data-testid=step-label]")).to_have_text("3/6 단계: 마스크")
    expect(phone.locator(".ae-placeholder").first).to_have_text("Softmax: 다음 단계에서 보여요")
    for context in [*students, lecturer_context]:
        context.close()


def test_what_if_and_typed_output_questions_go_from_ask_to_reveal_with_the_slips_counted(browser, served_app, screenshot_dir):
    """"What if √d_k is switched off?" on meet-friend (query 만났다, one head): four choices, the
    reveal's counts and the weights before and after as the core computes them. Then "type the
    output" for 어제 with the mask on: one student honest, one who forgot √d_k, one whose text is not
    numbers (told so on their phone, nothing sent); the projector counts the slip by name, each
    student sees the checker's verdict on their own numbers."""
    from app.constants import OUTCOMES, WHAT_IF
    from app.questions import judge_output, make_question
    from attention_core import PRESETS, attention
    from hand_work import typed

    preset = PRESETS["meet-friend"]
    lecturer_context, lecturer, students, pages = class_in_a_room(browser, served_app + "?preset=meet-friend&query=4&heads=1", 3)
    view = {"source": {"kind": "preset", "name": "meet-friend"}, "query": 4, "scale": True, "causal": False, "heads": 1,
            "head_view": -1, "step": -1, "layer": 0, "head": 0, "merge": True, "special": False, "lens": "weight", "rope": True,
            "window": -1, "compare": "", "lang": "ko"}
    asked = make_question(view, "what_if", "scale")
    lecturer.locator("[data-testid=poll-what-if-scale]").click()
    for page in pages:
        expect(page.locator("[data-testid=poll-question]")).to_have_text(
            "Query 만났다: √d_k로 나누기를 끄면 이 Query의 가중치는 어떻게 될까요?")
        expect(page.locator("[data-testid=poll] [data-testid^=poll-choice-]")).to_have_count(len(WHAT_IF))
        expect(page.locator("[data-testid=weights-table] tbody tr")).to_have_count(0)
    wrong = (asked.truth + 1) % len(WHAT_IF)
    pages[0].locator(f"[data-testid=poll-choice-{asked.truth}]").click()
    pages[1].locator(f"[data-testid=poll-choice-{wrong}]").click()
    expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 2 / 3")  # the third has not answered
    lecturer.locator("[data-testid=poll-reveal]").click()
    before = attention(preset.q, preset.k, preset.v, heads=1, scale=True).weights[0][4]
    after = attention(preset.q, preset.k, preset.v, heads=1, scale=False).weights[0][4]
    top = int(before.argmax())
    for page in [lecturer, *pages]:
        expect(page.locator(f"[data-testid=poll-histogram] li[data-choice='{asked.truth}']")).to_have_attribute("data-count", "1")
        expect(page.locator("[data-testid=poll-histogram] li[data-truth=true]")).to_have_attribute("data-choice", str(asked.truth))
        expect(page.locator("[data-testid=poll-detail]")).to_have_text(
            f"바꾸기 전 가장 무거운 Key: {preset.tokens[top]} ({before[top]:.3f}). 바꾼 뒤 그 Key의 가중치: {after[top]:.3f}. "
            f"바꾼 뒤 가장 무거운 Key: {preset.tokens[after.argmax()]} ({after.max():.3f}).")
    expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
    expect(pages[1].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "wrong")
    words = {"top_changes": "가장 무거운 Key가 바뀌어요", "sharper": "같은 Key, 가중치가 커져요 (더 뾰족)",
             "flatter": "같은 Key, 가중치가 작아져요 (더 평평)", "same": "소수 셋째 자리까지 그대로예요"}
    expect(pages[0].locator("[data-testid=poll-result]")).to_have_text(f"맞았어요! 답: {words[WHAT_IF[asked.truth]]}")
    expect(pages[1].locator("[data-testid=poll-result]")).to_have_text(f"아쉬워요. 답: {words[WHAT_IF[asked.truth]]}")
    expect(pages[2].locator("[data-testid=poll-result]")).to_be_hidden()  # did not answer
    # type the output of 어제 (query 1) with the mask on
    ExplorerPage(lecturer, served_app).token_button("어제").click()
    lecturer.locator("[data-testid=causal-toggle]").check()
    for page in pages:
        expect(page.locator("[data-testid=causal-toggle]")).to_be_checked()
    lecturer.locator("[data-testid=poll-output]").click()
    output = lambda scale: attention(preset.q, preset.k, preset.v, heads=1, scale=scale, causal=True).output[0][1]  # noqa: E731
    honest, slipped = typed(np.round(output(True), 3)), typed(np.round(output(False), 3))
    for page in pages:
        expect(page.locator("[data-testid=poll-question]")).to_have_text(
            "Query 어제, head 1: 출력 벡터를 손으로 계산해 입력하세요. 숫자 개수: 8 "
            "(예: 1.234, 5.678, 9.012, 3.456, 7.890, 2.345, 6.789, 4.567)")
        expect(page.locator("[data-testid=poll-numbers]")).to_have_attribute("placeholder", "1.234, 5.678, 9.012, 3.456, 7.890, 2.345, 6.789, 4.567")
        expect(page.locator("[data-testid=calc-table] td")).to_have_count(0)
    # four numbers where the output has eight: refused on the phone, saying how many, and not sent
    pages[0].locator("[data-testid=poll-numbers]").fill("0.1, 0.2, 0.3, 0.4")
    pages[0].locator("[data-testid=poll-submit]").click()
    expect(pages[0].locator("[data-testid=poll-numbers-error]")).to_have_text("숫자 개수가 맞지 않아요. 필요한 개수: 8, 입력한 개수: 4")
    expect(pages[0].locator("[data-testid=poll-typed]")).to_be_hidden()
    for page, typed in zip(pages, (honest, slipped, "영점 이")):
        page.locator("[data-testid=poll-numbers]").fill(typed)
        page.locator("[data-testid=poll-submit]").click()
    expect(pages[2].locator("[data-testid=poll-numbers-error]")).to_contain_text("숫자")
    expect(pages[0].locator("[data-testid=poll-numbers-error]")).to_be_hidden()
    expect(pages[0].locator("[data-testid=poll-typed]")).to_have_text(f"제출했어요: {honest} (공개 전까지 바꿀 수 있어요)")
    expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 2 / 3")  # the third typed no numbers
    pages[0].reload()  # a reload keeps the typed answer, and still no verdict
    expect(pages[0].locator("[data-testid=poll-numbers]")).to_have_value(honest)
    expect(pages[0].locator("[data-testid=poll-result]")).to_be_hidden()
    lecturer.locator("[data-testid=poll-reveal]").click()
    view.update({"query": 1, "causal": True})
    verdicts = [judge_output(view, text) for text in (honest, slipped)]
    assert OUTCOMES[verdicts[1]["outcome"]] == "forgot_scale"
    for page in [lecturer, *pages]:
        expect(page.locator("[data-testid=poll-histogram] li[data-choice=forgot_scale]")).to_have_attribute("data-count", "1")
        expect(page.locator(f"[data-testid=poll-histogram] li[data-choice={OUTCOMES[verdicts[0]['outcome']]}]")).to_have_attribute(
            "data-count", "1")
        expect(page.locator("[data-testid=poll-histogram] li[data-choice=forgot_scale]")).to_contain_text("√d_k 나누기를 빠뜨림")
        expect(page.locator("[data-testid=poll-detail]")).to_have_text(
            "정확한 출력: (" + ", ".join(f"{x:.3f}" for x in output(True)) + ")")
    expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", verdicts[0]["status"])
    expect(pages[1].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "wrong")
    expect(pages[1].locator("[data-testid=poll-result]")).to_contain_text("√d_k로 나누는 단계를 빠뜨린 것 같아요")
    lecturer.screenshot(path=str(screenshot_dir / "room-output-reveal-1280.png"))
    pages[1].locator("[data-testid=poll]").screenshot(path=str(screenshot_dir / "room-output-verdict-phone.png"))
    assert violations(pages[1]) == []  # axe-core: the typed answer's field, the verdict, the counts
    # what if the sentence were split over more heads? the same head (1), now one of 2
    asked = make_question(view, "what_if", "heads")
    lecturer.locator("[data-testid=poll-what-if-heads]").click()
    expect(pages[0].locator("[data-testid=poll-question]")).to_have_text(
        "Query 어제, head 1: head 수를 2개로 늘리면 이 head의 첫 조각 (이제 head 1) 가중치는 어떻게 될까요?")
    pages[0].locator(f"[data-testid=poll-choice-{asked.truth}]").click()
    lecturer.locator("[data-testid=poll-reveal]").click()
    before = attention(preset.q, preset.k, preset.v, heads=1, causal=True).weights[0][1]
    after = attention(preset.q, preset.k, preset.v, heads=2, causal=True).weights[0][1]
    top = int(before.argmax())
    expect(pages[0].locator("[data-testid=poll-detail]")).to_have_text(
        f"head 수를 바꾸기 전 가장 무거운 Key: {preset.tokens[top]} ({before[top]:.3f}). head 2개일 때 그 Key의 가중치 (head 1): "
        f"{after[top]:.3f}. 그때 가장 무거운 Key: {preset.tokens[after.argmax()]} ({after.max():.3f}).")
    expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
    # the question says the switch as it asks about it: the mask, now on, off; √d, now off, on
    lecturer.locator("[data-testid=poll-what-if-causal]").click()
    expect(pages[0].locator("[data-testid=poll-question]")).to_have_text(
        "Query 어제: 미래 가리기(마스크)를 끄면 이 Query의 가중치는 어떻게 될까요?")
    lecturer.locator("[data-testid=poll-reveal]").click()
    lecturer.locator("[data-testid=scale-toggle]").uncheck()
    expect(pages[0].locator("[data-testid=scale-toggle]")).not_to_be_checked()
    lecturer.locator("[data-testid=poll-what-if-scale]").click()
    expect(pages[0].locator("[data-testid=poll-question]")).to_have_text(
        "Query 어제: √d_k로 나누기를 켜면 이 Query의 가중치는 어떻게 될까요?")
    # the report: a CSV row a question with its counts by name, and a printable page of histograms,
    # while the room is open and after it closed
    report_rows = _download_report(lecturer)
    assert [row["kind"] for row in report_rows] == ["what_if", "output", "what_if", "what_if", "what_if"]
    assert (report_rows[1]["students"], report_rows[1]["answers"], report_rows[1]["output: forgot_scale"]) == ("3", "2", "1")
    assert report_rows[0]["question"] == "Query 만났다: √d_k로 나누기를 끄면 이 Query의 가중치는 어떻게 될까요?"
    assert report_rows[0]["answers"] == "2"
    lecturer.locator("[data-testid=room-report-print]").click()
    printed = lecturer.locator("[data-testid=room-report-view]")
    expect(printed.locator("[data-testid=room-report-question]")).to_have_count(5)
    # one wording of each question: the CSV's is the printed page's (and the phones' card's)
    assert printed.locator("[data-testid=room-report-question] h3").all_inner_texts() == [
        f"{row['number']}. {row['question']}" for row in report_rows]
    output_block = printed.locator("[data-testid=room-report-question][data-number='2']")
    expect(output_block.locator("li[data-count='1']")).to_have_count(2)  # forgot √d, and the honest one
    expect(output_block).to_contain_text("√d_k 나누기를 빠뜨림")
    # its line says the CSV's figures (the median in seconds as the page writes a number)
    said = report_rows[1]
    seconds = said["median_seconds"][:-2] if said["median_seconds"].endswith(".0") else said["median_seconds"] or "—"
    expect(output_block.locator("p.ae-hint")).to_have_text(text("room_report_line", "ko", answers=said["answers"],
                                                                students=said["students"], correct=said["correct"], seconds=seconds))
    lecturer.emulate_media(media="print")
    expect(lecturer.locator("[data-testid=token-buttons]")).to_be_hidden()
    expect(output_block).to_be_visible()
    lecturer.screenshot(path=str(screenshot_dir / "room-report-print.png"), full_page=True)
    lecturer.emulate_media(media="screen")
    lecturer.locator("[data-testid=room-report-close]").click()
    lecturer.locator("[data-testid=room-close]").click()
    lecturer.locator("[data-testid=room-close]").click()  # the second press closes it
    expect(pages[0].locator("[data-testid=room-status]")).to_have_attribute("data-state", "closed")
    assert _download_report(lecturer) == report_rows  # kept after the room closed
    # an assigned link of the room's questions for a student who missed it, names asked for
    lecturer.locator("[data-testid=room-assign]").click()
    lecturer.locator("[data-testid=assign-name]").check()
    lecturer.locator("[data-testid=assign-create]").click()
    link = lecturer.locator("[data-testid=assign-link]")
    expect(link).to_have_value(re.compile(r"\?assign=[A-Za-z0-9_-]+$"))
    absent_context = browser.new_context(**PHONE)
    absent = absent_context.new_page()
    absent.goto(link.input_value())
    card = absent.locator("[data-testid=assignment]")
    expect(card).to_have_attribute("data-state", "open", timeout=20_000)
    expect(card).to_have_attribute("data-question", "1")
    # a what-if held as a lesson's is (app/stop_shows.py): this view's weights to reason from, not the
    # flipped view's (the scale line, which says what √d_k does to them, is put away until answered)
    expect(absent.locator("[data-testid=weights-table] tbody tr")).to_have_count(5)
    expect(absent.locator("[data-testid=scale-effect]")).to_have_count(0)
    first = make_question({**view, "query": 4, "causal": False}, "what_if", "scale")
    card.locator(f"[data-testid=poll-choice-{first.truth}]").click()
    expect(absent.locator("[data-testid=assignment-error]")).to_contain_text("이름이나 학번")  # asked for, not given
    absent.locator("[data-testid=assignment-name]").fill("<b>김민수</b> 20261234")
    card.locator(f"[data-testid=poll-choice-{first.truth}]").click()
    expect(card.locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
    expect(card).to_have_attribute("data-answered", "1")
    absent.locator("[data-testid=assignment-next]").click()
    expect(card).to_have_attribute("data-question", "2")
    card.locator("[data-testid=poll-numbers]").fill(slipped)
    card.locator("[data-testid=poll-submit]").click()
    expect(card.locator("[data-testid=poll-result]")).to_contain_text("√d_k로 나누는 단계를 빠뜨린 것 같아요")
    absent.reload()  # the answers are kept with the server's identity for this link
    expect(card).to_have_attribute("data-answered", "2", timeout=20_000)
    expect(absent.locator("[data-testid=assignment-progress]")).to_have_text(
        text("assignment_progress", "ko", number=3, total=5, answered=2))  # on at the first one not answered
    # moving past an open question: said first (it scores 0), taken on the second press, and final:
    # no answering it after a later question's view
    absent.locator("[data-testid=assignment-next]").click()
    expect(absent.locator("[data-testid=assignment-error]")).to_contain_text("0점")
    expect(card).to_have_attribute("data-question", "3")
    absent.locator("[data-testid=assignment-next]").click()
    expect(card).to_have_attribute("data-question", "4")
    absent.locator("[data-testid=assignment-prev]").click()
    expect(card).to_have_attribute("data-question", "3")
    expect(absent.locator("[data-testid=assignment-error]")).to_contain_text("넘어가 0점")
    assigned_rows = [row for row in _download_report(lecturer) if row["mode"] == "assigned"]
    assert [row["kind"] for row in assigned_rows] == ["what_if", "output", "what_if", "what_if", "what_if", "student"]
    assert assigned_rows[1]["output: forgot_scale"] == "1" and assigned_rows[0]["correct"] == "1"
    assert float(assigned_rows[0]["median_seconds"]) > 0 and assigned_rows[2]["median_seconds"] == ""  # time on the question
    assert assigned_rows[-1]["question"] == "<b>김민수</b> 20261234" and assigned_rows[-1]["correct"] == "1"
    assert absent.locator("[data-testid=assignment] b").count() == 0  # a name is text, never HTML
    for context in [*students, lecturer_context, absent_context]:
        context.close()


def _download_report(page) -> list[dict]:
    """The room's report as the lecturer downloads it: its rows, read as a spreadsheet would."""
    import csv
    import io

    with page.expect_download() as download:
        page.locator("[data-testid=room-report]").click()
    data = Path(download.value.path()).read_bytes()
    assert data.startswith("\ufeff".encode("utf-8"))  # Excel opens Korean by its byte-order mark
    assert download.value.suggested_filename.startswith("attention-room-")
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


@pytest.fixture(scope="module")
def two_processes(redis_url):
    """Two `attention-viz serve --rooms redis://…` processes, as behind deploy/'s nginx: their base URLs."""
    import sys
    from contextlib import ExitStack

    from support import free_port, running

    ports = [free_port(), free_port()]
    with ExitStack() as stack:
        for port in ports:
            stack.enter_context(running([sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--rooms", redis_url],
                                        f"http://127.0.0.1:{port}/"))
        yield [f"http://127.0.0.1:{port}/" for port in ports]


def test_a_room_across_two_processes_shares_the_view_the_count_and_the_question_through_redis(browser, two_processes):
    """The lecturer on one process, the students on the other (a proxy sends each page where it
    will): they follow the lecturer's view, the lecturer counts them, and a question goes from ask to
    reveal, each student seeing their verdict; the lecturer's page reloaded on the other process
    takes the room up again."""
    from attention_core import PRESETS, attention

    first, second = two_processes
    preset = PRESETS["meet-friend"]
    truth = int(attention(preset.q, preset.k, preset.v, heads=1).weights[0][3].argmax())
    lecturer_context, lecturer, room = lecturer_opens_a_room(browser, first + "?preset=meet-friend&query=4&heads=1")
    students = [browser.new_context(**PHONE) for _ in range(2)]
    pages = [open_page(context, f"{second}?room={room}") for context in students]
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("2")
    ExplorerPage(lecturer, first).token_button("친구를").click()
    for page in pages:
        expect(page.locator("[data-testid=room-status]")).to_have_attribute("data-state", "following")
        expect(page.locator("[data-testid=weights-table] caption")).to_have_text("Query: 친구를")
    lecturer.locator("[data-testid=poll-top-key]").click()
    for page in pages:
        expect(page.locator("[data-testid=poll-question]")).to_have_text("Query 친구를: 어느 Key가 가장 큰 가중치를 받을까요?")
    pages[0].locator(f"[data-testid=poll-choice-{truth}]").click()
    pages[1].locator(f"[data-testid=poll-choice-{(truth + 1) % 5}]").click()
    expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 2 / 2")
    lecturer.locator("[data-testid=poll-reveal]").click()
    for page in [lecturer, *pages]:
        expect(page.locator(f"[data-testid=poll-histogram] li[data-choice='{truth}']")).to_have_attribute("data-count", "1")
    expect(pages[0].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
    expect(pages[1].locator("[data-testid=poll-result]")).to_have_attribute("data-status", "wrong")
    # the lecturer's page reloads and lands on the other process (behind a proxy, one origin: here
    # the browser's stored secret is carried over by hand, as its storage is per origin)
    stored = lecturer.evaluate("localStorage.getItem('ae-room-lecturer')")
    lecturer.goto(second + "?preset=meet-friend&query=1&heads=1")
    lecturer.evaluate("([stored, room]) => { localStorage.setItem('ae-room-lecturer', stored); "
                      "sessionStorage.setItem('ae-room-active', JSON.stringify(room)); }", [stored, room])
    lecturer.reload()
    expect(lecturer.locator("[data-testid=room-code]")).to_have_text(room)
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("2")
    for page in pages:
        expect(page.locator("[data-testid=weights-table] caption")).to_have_text("Query: 어제")
    for context in [*students, lecturer_context]:
        context.close()
