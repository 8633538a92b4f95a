"""A page object for the explorer (what a student clicks and what the page shows), and the
comparisons with attention_core that the browser tests share."""
from __future__ import annotations

from urllib.parse import urlencode

from playwright.sync_api import Page, expect

from attention_core import attention

# The innermost focused element, through the shadow roots Panel renders into.
ACTIVE_ELEMENT = """() => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active ? (active.dataset.testid || active.tagName.toLowerCase()) : null;
}"""


def settled_url(page: Page) -> str:
    """The page's URL once the view on show is written in it: the page writes it when the student
    pauses (explorer.js writeUrlOnPause), and marks the explorer data-url-pending until then."""
    expect(page.locator("[data-testid=explorer]")).not_to_have_attribute("data-url-pending", "true")
    return page.url


def painted(page: Page) -> None:
    """Wait until the browser has drawn a frame with what the page holds now (the explorer repaints
    in a microtask and has no transitions or web fonts: two animation frames are past it)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def core_weights(preset, heads, scale, causal, query):
    """The core's weights of one query: (heads, n)."""
    r = attention(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal)
    return r.weights[:, query, :]


def assert_table_matches(shown, expected):
    """The weights table's columns equal the core's weights to the 3 decimals it shows."""
    assert len(shown) == len(expected)
    for column, row in zip(shown, expected):
        assert len(column) == len(row)
        for value, true in zip(column, row):
            assert abs(value - true) <= 0.0005 + 1e-9, (shown, expected.round(3))


class ExplorerPage:
    def __init__(self, page: Page, base_url: str):
        self.page = page
        self.base_url = base_url

    def open(self, **params) -> "ExplorerPage":
        url = self.base_url + ("?" + urlencode(params) if params else "")
        self.page.goto(url)
        self.page.locator("[data-testid=calc-table]").wait_for(timeout=20_000)
        return self

    @property
    def weights_table(self):
        return self.page.locator("[data-testid=weights-table]")

    def token_button(self, token: str):
        return self.page.get_by_role("button", name=token, exact=True)

    def token_buttons(self):
        return self.page.locator("[data-testid=token-buttons] button")

    def click_token(self, index: int) -> None:
        self.token_buttons().nth(index).click()

    def set_heads(self, heads: int) -> None:
        self.page.locator(f"[data-testid=heads-{heads}]").click()

    def set_checkbox(self, testid: str, on: bool) -> None:
        box = self.page.locator(f"[data-testid={testid}]")
        if box.is_checked() != on:
            box.click()

    def weights(self) -> tuple[list[str], list[list[float]]]:
        """(key tokens, weights[head column][key]) as the weights table shows them (its rows' th and
        td texts, read in one round trip)."""
        rows = self.weights_table.locator("tbody tr").evaluate_all(
            "rows => rows.map((row) => [row.querySelector('th').innerText,"
            " Array.from(row.querySelectorAll('td'), (cell) => cell.innerText)])")
        keys, columns = [], []
        for key, cells in rows:
            keys.append(key)
            values = [float(text) for text in cells]
            if not columns:
                columns = [[] for _ in values]
            for c, value in enumerate(values):
                columns[c].append(value)
        return keys, columns

    def focused(self) -> str | None:
        """The data-testid (or tag) of the element that has the keyboard focus."""
        return self.page.evaluate(ACTIVE_ELEMENT)

    def selected_token(self) -> str:
        return self.page.locator("[data-testid=token-buttons] button[aria-pressed=true]").inner_text()

    def caption(self) -> str:
        return self.weights_table.locator("caption").inner_text()

    def expect_query(self, token: str) -> None:
        expect(self.weights_table.locator("caption")).to_have_text(f"Query: {token}")

    # ----- the lab -----
    def apply_sentence(self, text: str) -> None:
        self.page.locator("[data-testid=sentence-input]").fill(text)
        self.page.locator("[data-testid=sentence-apply]").click()

    def open_editor(self) -> None:
        editor = self.page.locator("[data-testid=numbers-editor]")
        if editor.get_attribute("open") is None:
            self.page.locator("[data-testid=numbers-summary]").click()

    def cell(self, where: str, row: int, col: int):
        return self.page.locator(f"[data-testid=cell-{where}-{row}-{col}]")

    def edit_cell(self, where: str, row: int, col: int, value: str) -> None:
        cell = self.cell(where, row, col)
        cell.fill(value)
        cell.press("Enter")
        cell.blur()

    def check_answer(self, text: str) -> str:
        self.page.locator("[data-testid=answer-input]").fill(text)
        self.page.locator("[data-testid=answer-check]").click()
        result = self.page.locator("[data-testid=answer-result]")
        expect(result).not_to_be_empty()
        return result.inner_text()
