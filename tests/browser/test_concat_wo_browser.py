"""Concat and W_O on the page (served and exported): the heads' outputs side by side and the final
output are the core's, for the view on screen; presets without W_O, and a problem being worked,
show no such card."""
import pytest
from playwright.sync_api import expect

from app.strings import text
from attention_core import PRESETS, attention
from explorer_page import ExplorerPage

pytestmark = pytest.mark.browser
MEET = PRESETS["meet-friend"]


def numbers(values) -> str:
    return ", ".join(f"{x:.3f}".replace("-", "−") for x in values)


@pytest.mark.parametrize("where", ["served", "exported"])
def test_the_heads_blocks_and_the_final_output_are_the_cores(page, served_app, exported, console_errors, where):
    base = served_app if where == "served" else exported.as_uri()
    explorer = ExplorerPage(page, base).open(preset="meet-friend", heads="4")
    for heads, query, causal in ((4, 4, False), (4, 1, False), (2, 3, True), (1, 4, False)):
        explorer.set_heads(heads)
        explorer.set_checkbox("causal-toggle", causal)
        explorer.click_token(query)
        result = attention(MEET.q, MEET.k, MEET.v, heads=heads, causal=causal)
        blocks = page.locator("[data-testid=concat-heads] .ae-concat-block")
        expect(blocks).to_have_count(heads)
        for head in range(heads):
            expect(blocks.nth(head).locator(".ae-num")).to_have_text([f"{x:.3f}".replace("-", "−") for x in result.output[head, query]])
        final = result.concat[query] @ MEET.w_o
        expect(page.locator("[data-testid=concat-output]")).to_have_text(
            text("concat_output", "ko", token=MEET.tokens[query], output="(" + numbers(final) + ")"))
    expect(page.locator("[data-testid=concat-wo-matrix] tbody tr")).to_have_count(8)
    page.locator("[data-testid=check-mode]").click()                       # working a problem: no output shown
    expect(page.locator("[data-testid=concat-wo]")).to_be_hidden()
    ExplorerPage(page, base).open(preset="cat-fish")
    expect(page.locator("[data-testid=concat-wo]")).to_be_hidden()
    assert console_errors == []
