"""The order view on the page (served and exported): the position switch shows the core's weights,
inputs and outputs for both orderings, says which case it is, and is kept in the URL."""
import pytest
from playwright.sync_api import expect

from app.constants import CONSTANTS
from app.strings import text
from explorer_page import ExplorerPage

pytestmark = pytest.mark.browser
DATA = CONSTANTS["order"]


def vector(values, digits) -> str:
    return "(" + ", ".join(f"{x:.{digits}f}" for x in values) + ")"


def expect_tables(page, case) -> None:
    shown = DATA[case]
    for n, tokens in enumerate(DATA["sentences"]):
        rows = page.locator(f"[data-testid=order-table-{n}] tbody tr")
        expect(rows).to_have_count(len(tokens))
        assert [rows.nth(j).locator("th, td").all_inner_texts() for j in range(len(tokens))] == [
            [token, f"{shown['weights'][n][j]:.3f}", vector(shown["x"][n][j], 1), vector(shown["outputs"][n][j], 3)]
            for j, token in enumerate(tokens)], (case, n)


@pytest.mark.parametrize("where", ["served", "exported"])
def test_the_position_switch_shows_both_cases_with_the_cores_numbers(page, served_app, exported, console_errors, where):
    base = served_app if where == "served" else exported.as_uri()
    ExplorerPage(page, base).open(preset="cat-fish")
    expect(page.locator("[data-testid=order-position]")).to_be_checked()
    expect_tables(page, "on")
    expect(page.locator("[data-testid=order-verdict]")).to_have_text(text(
        "order_differs", "ko", word=DATA["word"], difference=f"{DATA['on']['difference'][DATA['word']]:.3f}", first="고양이, 생선"))
    page.locator("[data-testid=order-position]").click()
    expect(page.locator("[data-testid=order-verdict]")).to_have_text(text("order_same", "ko", word=DATA["word"], difference="0.000",
        weights=", ".join(f"{token} {weight:.3f}" for token, weight in zip(DATA["sentences"][0], DATA["off"]["weights"][0]))))
    expect_tables(page, "off")
    page.wait_for_function("() => new URLSearchParams(location.search).get('position') === '0'")
    page.reload()
    expect(page.locator("[data-testid=order-position]")).not_to_be_checked()
    expect_tables(page, "off")
    assert console_errors == []
