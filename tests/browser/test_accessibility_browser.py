"""axe-core (from npm, tests/a11y, installed by `make test`) run in the page: no violation of any
impact, served and exported, normal and lecture mode, desktop and phone, for every preset, the
practice problems, eight heads, and a model's page. Figures name the weights table as their text
alternative; sliders say their value in words."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from attention_core import PRESETS
from explorer_page import ExplorerPage, painted

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[1] / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 3}
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' > ')).join(' | ')}`);
}"""


def violations(page) -> list[str]:
    painted(page)
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


def check_each(page, base, views) -> None:
    """axe on every view (URL parameters), in one page; fails naming each view's violations."""
    found = {}
    for params in views:
        if "practice" in params:  # a problem hides the calculation until it is solved
            page.goto(f"{base}?practice={params['practice']}")
            expect(page.locator("[data-testid=practice-given] table")).to_be_visible()
        else:
            ExplorerPage(page, base).open(**params)
        if problems := violations(page):
            found[str(params)] = problems
    assert found == {}


DESKTOP_VIEWS = ([{"preset": name} for name in PRESETS] + [{"preset": name, "mode": "lecture"} for name in PRESETS]
                 + [{"preset": "coffee-or-tea", "heads": "8"}, {"preset": "meet-friend", "causal": "1", "query": "0"}, {"practice": "1"},
                    # the trained model through a lens, with its lenses and its two-step difference on the page
                    {"preset": "trained", "merge": "0", "special": "1", "lens": "moved"}])


def test_axe_finds_nothing_in_the_exported_file_on_a_desktop_and_a_projector(page, exported, console_errors):
    page.set_viewport_size({"width": 1280, "height": 720})
    check_each(page, exported.as_uri(), DESKTOP_VIEWS)
    assert console_errors == []


@pytest.mark.parametrize("where", ["served", "exported"])
def test_axe_finds_nothing_on_a_phone(browser, served_app, exported, where):
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        views = [{"preset": name} for name in PRESETS] if where == "exported" else [{"preset": "meet-friend", "heads": "4"}]
        check_each(page, served_app if where == "served" else exported.as_uri(), views)
    finally:
        context.close()


def test_axe_finds_nothing_in_the_served_app_and_a_models_page(page, served_app, console_errors):
    page.set_viewport_size({"width": 1280, "height": 720})
    check_each(page, served_app, [{"preset": "meet-friend"}, {"preset": "meet-friend", "mode": "lecture"},
                                  {"preset": "trained"}])
    # the trained model's step slider says its step in words, not the slider's index
    slider = page.locator("[data-testid=training-step]")
    expect(slider).to_have_attribute("aria-valuetext", "학습 단계 2000 (마지막 단계 2000)")
    assert console_errors == []


def test_every_figure_names_the_weights_table_as_its_text_alternative(page, exported):
    ExplorerPage(page, exported.as_uri()).open(preset="meet-friend", heads="4")
    figures = page.locator("[data-testid=lines-figure] svg, [data-testid=heatmap] svg")
    assert figures.count() == 4 + 4
    for i in range(figures.count()):
        expect(figures.nth(i)).to_have_attribute("aria-describedby", "ae-weights-table")
    table = page.locator("#ae-weights-table")
    expect(table).to_have_attribute("data-testid", "weights-table")
    expect(table.locator("thead th")).to_have_count(5)  # the key, and one column per head
