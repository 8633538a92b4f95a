"""The exported single HTML file: opened from file:// with the network cut off, in a page and in an iframe."""

import pytest
from playwright.sync_api import expect

from attention_core import PRESETS, attention, custom_preset
from support import EXPORTED_SENTENCE as SENTENCE, ROOT, run_export
from explorer_page import ExplorerPage, assert_table_matches, core_weights, settled_url

pytestmark = pytest.mark.browser

@pytest.fixture
def offline(page, exported, console_errors):
    """The exported file, with every request that is not the file itself refused and recorded."""
    left = []

    def refuse(route):
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            left.append(route.request.url)
            route.abort()

    page.route("**/*", refuse)
    page.set_viewport_size({"width": 1280, "height": 720})
    yield ExplorerPage(page, exported.as_uri())
    assert left == [], "requests left the page"
    assert console_errors == []


def test_every_toggle_works_offline_and_matches_the_core(offline):
    offline.open(preset="meet-friend")
    meet = PRESETS["meet-friend"]
    for heads, scale, causal in [(1, True, False), (4, False, True), (2, True, True), (8, False, False)]:
        offline.set_heads(heads)
        offline.set_checkbox("scale-toggle", scale)
        offline.set_checkbox("causal-toggle", causal)
        for i, token in enumerate(meet.tokens):
            offline.click_token(i)
            offline.expect_query(token)
            assert_table_matches(offline.weights()[1], core_weights(meet, heads, scale, causal, i))


def test_tap_keyboard_captions_language_and_lecture_mode_offline(offline):
    offline.open(preset="meet-friend", heads="4")
    offline.page.locator("[data-testid=figure-token-0]").click()
    offline.expect_query("나는")
    offline.page.keyboard.press("ArrowRight")
    offline.expect_query("어제")
    expect(offline.page.locator("[data-testid=head-captions]")).to_contain_text("시간을 보는 head")
    expect(offline.page.locator("[data-testid=calc-table]")).to_contain_text("어제")
    offline.page.locator("[data-testid=lang-toggle]").click()
    expect(offline.page.locator("[data-testid=head-captions]")).to_contain_text("Looks at the time")
    offline.page.locator("[data-testid=lecture-toggle]").click()
    expect(offline.page.locator("[data-testid=explorer]")).to_have_class("ae-root ae-lecture")
    url = settled_url(offline.page)
    assert "mode=lecture" in url and "lang=en" in url


def test_url_parameters_work_in_the_file(offline):
    offline.open(preset="meet-friend", query="4", heads="4", scale="0")
    offline.expect_query("만났다")
    assert_table_matches(offline.weights()[1], core_weights(PRESETS["meet-friend"], 4, False, False, 4))


def test_extra_sentence_is_precomputed_by_the_core(offline):
    offline.open(preset="sentence-1")
    preset = custom_preset(SENTENCE)
    offline.click_token(2)
    offline.expect_query(preset.tokens[2])
    assert_table_matches(offline.weights()[1], attention(preset.q, preset.k, preset.v).weights[:, 2, :])


def test_a_click_inside_an_iframe_works(page, exported, tmp_path, console_errors):
    host = tmp_path / "course.html"
    host.write_text(
        '<!doctype html><html lang="ko"><meta charset="utf-8"><title>강의 페이지</title><h1>13장</h1>'
        f'<iframe src="{exported.as_uri()}?preset=cat-fish" title="어텐션 탐색기" loading="lazy" '
        'width="100%" height="900" style="border:0"></iframe></html>', encoding="utf-8")
    page.goto(host.as_uri())
    frame = page.frame_locator("iframe")
    frame.locator("[data-testid=weights-table]").wait_for(timeout=20_000)
    frame.get_by_role("button", name="고양이가", exact=True).click()
    expect(frame.locator("[data-testid=weights-table] caption")).to_have_text("Query: 고양이가")
    expect(frame.locator("[data-testid=output-vector]")).to_have_text("(0.752, 0.752)")
    assert console_errors == []


def test_the_inline_file_is_small_and_says_what_needs_a_server(offline, exported):
    # every preset, the 100 practice problems, the trained model and one typed sentence (tests/app/test_export.py
    # holds the file without the sentence to its 300,000-byte budget)
    assert exported.stat().st_size < 310_000
    offline.open(preset="cat-fish")
    expect(offline.page.locator("[data-testid=needs-server]")).to_be_visible()
    expect(offline.page.locator("[data-testid=sentence-input]")).to_have_count(0)


def test_a_hostile_sentence_is_exported_as_text(page, tmp_path, console_errors):
    out = tmp_path / "hostile.html"
    run_export(out, "--preset", "cat-fish", "--sentence", "</script><script>window.__xss=1</script> <b>굵게</b>")
    page.goto(out.as_uri() + "?preset=sentence-1")
    page.locator("[data-testid=calc-table]").wait_for(timeout=20_000)
    assert page.evaluate("window.__xss") is None
    expect(page.get_by_role("button", name="<b>굵게</b>", exact=True)).to_be_visible()
    assert console_errors == []


def readme_embed_snippet() -> str:
    """The iframe and script the README tells a course page to use, as it stands in the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return readme.split("<!-- embed-snippet -->\n```html\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("params", ["preset=meet-friend&query=4&lang=ko", "preset=coffee-or-tea&heads=8&mode=lecture"])
def test_the_readme_snippet_sizes_the_frame_so_nothing_scrolls_inside(page, exported, tmp_path, console_errors, params):
    snippet = readme_embed_snippet().replace("lecture.html?preset=meet-friend&query=4&lang=ko", f"{exported.as_uri()}?{params}")
    host = tmp_path / "course.html"
    host.write_text('<!doctype html><html lang="ko"><meta charset="utf-8"><title>13장</title>'
                    '<body style="margin:0"><div style="width:900px">' + snippet + "</div></body></html>", encoding="utf-8")
    page.set_viewport_size({"width": 1200, "height": 800})
    page.goto(host.as_uri())
    frame = page.frame_locator("#attention-explorer")
    frame.locator("[data-testid=weights-table]").wait_for(timeout=20_000)
    inner = next(f for f in page.frames if f.url.startswith(exported.as_uri()))
    # the frame has taken the page's height: the document inside fits it, with nothing to scroll
    page.wait_for_function("document.getElementById('attention-explorer').getBoundingClientRect().height > 1000")
    page.wait_for_timeout(300)
    assert inner.evaluate("document.documentElement.scrollHeight <= innerHeight + 1"), inner.evaluate(
        "[document.documentElement.scrollHeight, innerHeight]")
    assert inner.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert page.evaluate("document.getElementById('attention-explorer').getBoundingClientRect().width") == 900
    # and it follows a change both ways: a shorter sentence shrinks the frame
    before = page.evaluate("document.getElementById('attention-explorer').getBoundingClientRect().height")
    frame.locator("[data-testid=preset-select]").select_option("why-scale")  # 4 tokens, no Q·K·V origin card
    page.wait_for_function(f"document.getElementById('attention-explorer').getBoundingClientRect().height < {before} - 50")
    page.wait_for_timeout(300)
    assert inner.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert console_errors == []


CSP = "script-src 'unsafe-inline'"  # a course site's policy: inline scripts, no blob: ones


def on_a_site_with_csp(page, path):
    """The file as a course site serves it, with a Content-Security-Policy that allows inline
    scripts but not blob: ones."""
    url = "https://course.example/attention.html"
    page.route(url, lambda route: route.fulfill(status=200, body=path.read_bytes(),
                                                headers={"Content-Type": "text/html; charset=utf-8",
                                                         "Content-Security-Policy": CSP}))
    page.goto(url)


def test_under_a_csp_without_blob_the_file_says_what_the_host_must_allow_and_csp_safe_works(page, exported, tmp_path):
    from app.strings import text
    # the default file: its script runs from a blob: URL, which the policy refuses; the page says
    # so in Korean and in English, naming what to allow and the other export, not the browser's words
    on_a_site_with_csp(page, exported)
    notice = page.locator("[data-testid=notices]")
    expect(notice).to_have_text(f"{text('err_csp_blob', 'ko')} {text('err_csp_blob', 'en')}")
    expect(notice).to_contain_text("script-src")
    expect(notice).to_contain_text("--csp-safe")
    expect(page.locator("h1")).to_have_text(text("app_title", "ko"))
    # the same file made with --csp-safe runs under that policy as it does anywhere
    safe = tmp_path / "safe.html"
    printed = run_export(safe, "--sentence", SENTENCE, "--csp-safe")
    assert f"wrote {safe}" in printed
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("https://course.example/attention.html?*", lambda route: route.fulfill(
        status=200, body=safe.read_bytes(), headers={"Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": CSP}))
    explorer = ExplorerPage(page, "https://course.example/attention.html").open(preset="meet-friend", heads=1)
    meet = PRESETS["meet-friend"]
    explorer.click_token(2)
    explorer.expect_query(meet.tokens[2])
    assert_table_matches(explorer.weights()[1], core_weights(meet, 1, True, False, 2))
    expect(page.locator("[data-testid=notices]")).not_to_contain_text("Content-Security-Policy")
    assert errors == []
    # and it is the larger file the README says: the script in the clear
    assert safe.stat().st_size > exported.stat().st_size + 50_000
