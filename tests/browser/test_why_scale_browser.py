"""The "why √d" view on the page, served and exported: the slider over d shows the core's figures
for that d, the URL keeps it, and the book's example is its numbers."""
import pytest
from playwright.sync_api import expect

from app.constants import CONSTANTS
from app.strings import text
from explorer_page import ExplorerPage

pytestmark = pytest.mark.browser
TABLE = CONSTANTS["why_scale"]


@pytest.mark.parametrize("where", ["served", "exported"])
def test_the_slider_shows_the_cores_figures_for_each_d(page, served_app, exported, console_errors, where):
    base = served_app if where == "served" else exported.as_uri()
    ExplorerPage(page, base).open(preset="cat-fish")
    slider = page.locator("[data-testid=why-scale-d]")
    for index in (0, 3, len(TABLE["dimensions"]) - 1):
        d = TABLE["dimensions"][index]
        slider.fill(str(index))
        expect(page.locator("[data-testid=why-scale-label]")).to_have_text(
            text("why_d", "ko", d=d, sqrt=f"{d ** 0.5:.2f}"))
        for testid, name, digits in (("why-spread-raw", "spread_raw", 2), ("why-spread-scaled", "spread_scaled", 2),
                                     ("why-top-raw", "top_raw", 3), ("why-top-scaled", "top_scaled", 3)):
            expect(page.locator(f"[data-testid={testid}]")).to_have_text(f"{TABLE[name][index]:.{digits}f}")
        page.wait_for_function(f"() => new URLSearchParams(location.search).get('why_d') === '{d}'")
    book = TABLE["book"]
    expect(page.locator("[data-testid=why-scale-book]")).to_have_text(text(
        "why_book", "ko", d=64, sqrt="8", scores="2, 4, 20, 3", raw=f"{max(book['weights_raw']):.3f}",
        scaled=f"{max(book['weights_scaled']):.3f}"))
    assert console_errors == []


def test_a_link_opens_at_its_d_and_a_d_the_view_has_not_gets_a_notice(page, exported, console_errors):
    ExplorerPage(page, exported.as_uri()).open(why_d="8", lang="en")
    expect(page.locator("[data-testid=why-scale-label]")).to_have_text(text("why_d", "en", d=8, sqrt="2.83"))
    expect(page.locator("[data-testid=why-spread-raw]")).to_have_text(f"{TABLE['spread_raw'][2]:.2f}")
    ExplorerPage(page, exported.as_uri()).open(why_d="7")
    expect(page.locator("[data-testid=notices]")).to_contain_text("why_d=7")
    expect(page.locator("[data-testid=why-scale-label]")).to_have_text(text("why_d", "ko", d=64, sqrt="8.00"))
    assert console_errors == []
