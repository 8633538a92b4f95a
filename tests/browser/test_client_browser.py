"""How the client behaves in a real browser, beyond the numbers: keyboard focus through a whole
session, named control groups, views that repaint only what changed, and visible errors."""
import socket
import time

import pytest
from playwright.sync_api import expect

from attention_core import PRESETS
from explorer_page import ExplorerPage, assert_table_matches, core_weights, settled_url

pytestmark = pytest.mark.browser
MEET = PRESETS["meet-friend"]


def press(explorer, testid: str, key: str = "Enter") -> None:
    """A keyboard user: focus the control, press the key."""
    explorer.page.locator(f"[data-testid={testid}]").focus()
    explorer.page.keyboard.press(key)


def test_focus_stays_on_every_control_a_keyboard_user_presses(explorer):
    explorer.open(preset="meet-friend")
    for testid, key in [("heads-4", "Enter"), ("head-view-1", "Enter"), ("head-view-all", "Enter"),
                        ("scale-toggle", "Space"), ("causal-toggle", "Space"), ("step-toggle", "Enter")]:
        press(explorer, testid, key)
        explorer.page.wait_for_timeout(100)  # past the repaint
        assert explorer.focused() == testid
    expect(explorer.page.locator("[data-testid=heads-4]")).to_have_attribute("aria-pressed", "true")
    # step through to the end and back: focus stays on the pressed button, even where it has nothing left to do
    for _ in range(6):
        press(explorer, "step-next")
    expect(explorer.page.locator("[data-testid=step-label]")).to_contain_text("6/6")
    expect(explorer.page.locator("[data-testid=step-next]")).to_be_disabled()
    assert explorer.focused() == "step-next"
    press(explorer, "step-prev")
    expect(explorer.page.locator("[data-testid=step-label]")).to_contain_text("5/6")
    assert explorer.focused() == "step-prev"
    for testid in ("lecture-toggle", "lang-toggle"):
        press(explorer, testid)
        explorer.page.wait_for_timeout(100)
        assert explorer.focused() == testid
    expect(explorer.page.locator("h1")).to_have_text("Attention Explorer")
    expect(explorer.page.locator("[data-testid=explorer]")).to_have_class("ae-root ae-lecture")
    # the view still shows the core's numbers for what was chosen: 4 heads, no √d, mask on
    explorer.page.locator("[data-testid=step-toggle]").click()
    assert_table_matches(explorer.weights()[1], core_weights(MEET, 4, False, True, 4))


def test_both_button_groups_have_accessible_names(explorer):
    explorer.open(preset="meet-friend", heads="2")
    expect(explorer.page.get_by_role("group", name="Head 수")).to_have_attribute("data-testid", "heads-group")
    expect(explorer.page.get_by_role("group", name="보이는 head")).to_have_attribute("data-testid", "head-view-group")
    explorer.page.locator("[data-testid=lang-toggle]").click()
    expect(explorer.page.get_by_role("group", name="Heads", exact=True)).to_have_attribute("data-testid", "heads-group")


def test_space_on_a_checkbox_toggles_it_and_leaves_the_step_alone(explorer):
    explorer.open(preset="cat-fish", step="1")
    press(explorer, "causal-toggle", "Space")
    expect(explorer.page.locator("[data-testid=causal-toggle]")).to_be_checked()
    expect(explorer.page.locator("[data-testid=step-label]")).to_contain_text("2/6")
    url = settled_url(explorer.page)
    assert "causal=1" in url and "step=1" in url


def tag(page, selector: str, name: str) -> None:
    """Marks the element, so a test can tell whether it was replaced."""
    page.locator(selector).first.evaluate(f"(node) => {{ node.__aeTag = {name!r}; }}")


def tagged(page, selector: str) -> str | None:
    return page.locator(selector).first.evaluate("(node) => node.__aeTag || null")


def test_a_change_repaints_only_the_views_that_show_it_and_never_rebuilds_a_control(explorer):
    explorer.open(preset="meet-friend", heads="2")
    page = explorer.page
    marks = {"[data-testid=weights-table]": "table", "[data-testid=lines-figure] svg": "lines",
             "[data-testid=heatmap] svg": "heat", "[data-testid=heads-2]": "heads", "[data-testid=head-view-1]": "view",
             "[data-testid=token-buttons] button": "token"}
    for selector, name in marks.items():
        tag(page, selector, name)
    page.locator("[data-testid=lecture-toggle]").click()  # changes no number
    expect(page.locator("[data-testid=explorer]")).to_have_class("ae-root ae-lecture")
    # only the lines' figure is drawn again, in lecture mode's geometry (rows that fit a projector)
    kept = {selector: name for selector, name in marks.items() if name != "lines"}
    assert {selector: tagged(page, selector) for selector in kept} == kept
    assert tagged(page, "[data-testid=lines-figure] svg") is None
    tag(page, "[data-testid=lines-figure] svg", "lines")
    # a new query: the lines and the table show it, updated in place (their rows are the sentence's,
    # built once per view: test_explorer_browser holds them to a page opened at that query); the
    # heatmap only moves its outline
    explorer.token_button("어제").click()
    explorer.expect_query("어제")
    expect(page.locator("[data-testid=weights-table] caption")).to_contain_text("어제")
    assert tagged(page, "[data-testid=weights-table]") == "table" and tagged(page, "[data-testid=lines-figure] svg") == "lines"
    assert tagged(page, "[data-testid=heatmap] svg") == "heat"
    explorer.set_heads(1)  # another head count is another frame of rows: rebuilt
    expect(page.locator("[data-testid=head-view-1]")).to_have_attribute("hidden", "")
    assert tagged(page, "[data-testid=weights-table]") is None
    explorer.set_heads(2)
    explorer.set_heads(4)  # new head buttons are never made: the same ones change state
    expect(page.locator("[data-testid=head-view-3]")).not_to_have_attribute("hidden", "")  # (folded in lecture mode)
    assert tagged(page, "[data-testid=heads-2]") == "heads" and tagged(page, "[data-testid=head-view-1]") == "view"
    assert tagged(page, "[data-testid=token-buttons] button") == "token"
    explorer.set_heads(1)
    expect(page.locator("[data-testid=head-view-1]")).to_have_attribute("hidden", "")


@pytest.mark.parametrize("where", ["served", "exported"])
def test_numbers_that_cannot_be_decoded_say_so_in_the_uis_language(page, served_app, exported, console_errors, where):
    page.add_init_script("delete window.DecompressionStream")
    url = served_app if where == "served" else exported.as_uri()
    page.goto(url + "?preset=cat-fish&lang=en")
    notice = page.locator("[data-testid=notices]")
    expect(notice).to_contain_text("could not be decoded")
    expect(notice).to_contain_text("DecompressionStream")
    expect(page.locator("h1")).to_have_text("Attention Explorer")  # the page itself still works
    if where == "served":
        page.locator("[data-testid=lang-toggle]").click()
    else:  # the file cannot unpack its words either: the title and why, in the link's language
        page.goto(url + "?preset=cat-fish&lang=ko")
        expect(page.locator("h1")).to_have_text("어텐션 탐색기")
    expect(notice).to_contain_text("숫자를 풀 수 없어")
    assert console_errors == []


def test_a_python_side_change_reaches_the_view_once(page, console_errors):
    """The notebook path without JupyterLab: a change set in Python repaints the open page."""
    import panel as pn

    from app import AttentionView
    from support import free_port

    view, documents = AttentionView(preset="cat-fish"), []

    def session():
        documents.append(pn.state.curdoc)
        return view

    port = free_port()
    server = pn.serve({"/": session}, port=port, threaded=True, show=False)
    try:
        deadline = time.monotonic() + 30  # the thread returns before the server listens
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        page.set_viewport_size({"width": 1280, "height": 720})
        explorer = ExplorerPage(page, f"http://127.0.0.1:{port}/").open()
        explorer.expect_query("먹었다")
        # as a notebook cell would, but on the server's own loop, which owns the document
        documents[0].add_next_tick_callback(lambda: view.param.update(query=0, causal=True, heads=2))
        explorer.expect_query("고양이가")
        expect(page.locator("[data-testid=heads-2]")).to_have_attribute("aria-pressed", "true")
        assert_table_matches(explorer.weights()[1], core_weights(PRESETS["cat-fish"], 2, True, True, 0))
    finally:
        server.stop()
    assert console_errors == []
