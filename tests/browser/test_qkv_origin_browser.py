"""Where Q, K and V come from, on the page (served and exported): for cat-fish, E + P = X and the
weight matrices and their products are the core's (attention_core.layer), the selected token's row
traced through them, for every token; a preset that does not show it has no such card."""
import numpy as np
import pytest
from playwright.sync_api import expect

from app.strings import text
from attention_core import PRESETS
from attention_core.layer import attention_layer
from explorer_page import ExplorerPage

pytestmark = pytest.mark.browser
CAT = PRESETS["cat-fish"]
LAYER = attention_layer(**CAT.layer)


def short(x) -> str:
    return f"{x:.3f}".rstrip("0").rstrip(".").replace("-", "−")


def vector(row) -> str:
    return "(" + ", ".join(short(x) for x in row) + ")"


def shown_matrix(page, name) -> list[list[str]]:
    """The matrix as shown: each cell's text, or what its input holds where it can be changed."""
    return page.locator(f"[data-testid=qkv-matrix-{name}]").evaluate(
        "table => Array.from(table.querySelectorAll('tr'), (row) => Array.from(row.querySelectorAll('td'),"
        " (cell) => cell.querySelector('input') ? cell.querySelector('input').value : cell.textContent))")


@pytest.mark.parametrize("where", ["served", "exported"])
def test_every_tokens_row_is_traced_from_embedding_to_q_k_v_with_the_cores_numbers(page, served_app, exported,
                                                                                  console_errors, where):
    base = served_app if where == "served" else exported.as_uri()
    explorer = ExplorerPage(page, base).open(preset="cat-fish")
    matrices = {"e": LAYER.embeddings, "p": LAYER.positions, "x": LAYER.x, "w_q": CAT.layer["w_q"],
                "w_k": CAT.layer["w_k"], "w_v": CAT.layer["w_v"], "q": CAT.q, "k": CAT.k, "v": CAT.v}
    for name, matrix in matrices.items():
        assert shown_matrix(page, name) == [[short(x) for x in row] for row in np.asarray(matrix)], name
    for i, token in enumerate(CAT.tokens):
        explorer.click_token(i)
        expect(page.locator("[data-testid=qkv-trace]")).to_have_text(text(
            "qkv_trace", "ko", token=token, e=vector(LAYER.embeddings[i]), p=vector(LAYER.positions[i]), x=vector(LAYER.x[i]),
            q=vector(CAT.q[i]), k=vector(CAT.k[i]), v=vector(CAT.v[i])))
        expect(page.locator("[data-testid=qkv-matrix-x] tr.ae-selected-row th")).to_have_text(token)
    # the trace's words hold: x = e + p, q = x W_Q, k = x W_K, v = x W_V (exactly)
    assert np.array_equal(LAYER.x, LAYER.embeddings + LAYER.positions)
    for name in ("q", "k", "v"):
        assert np.array_equal(LAYER.x @ CAT.layer[f"w_{name}"], getattr(CAT, name))
    ExplorerPage(page, base).open(preset="meet-friend")
    expect(page.locator("[data-testid=qkv-origin]")).to_be_hidden()
    assert console_errors == []


def test_in_the_served_lab_a_changed_w_cell_recomputes_q_k_v_and_every_step_after(page, served_app, exported, console_errors):
    explorer = ExplorerPage(page, served_app).open(preset="cat-fish")
    w_q = np.array(CAT.layer["w_q"], dtype=float)
    w_q[0, 0] = 3
    cell = page.locator("[data-testid=w-cell-w_q-0-0]")
    cell.fill("3")
    cell.press("Enter")
    q = LAYER.x @ w_q
    expect(page.locator("[data-testid=qkv-matrix-q] tr").first.locator("td")).to_have_text([short(x) for x in q[0]])
    expect(page.locator("[data-testid=preset-select]")).to_have_value("numbers")
    from attention_core import attention
    from explorer_page import assert_table_matches
    explorer.expect_query("먹었다")
    _, shown = explorer.weights()
    assert_table_matches(shown, attention(q, CAT.k, CAT.v).weights[:, 2, :])
    # a bad cell is marked and said; nothing else changes
    bad = page.locator("[data-testid=w-cell-w_k-1-0]")
    bad.fill("abc")
    bad.press("Enter")
    expect(page.locator("[data-testid=w-errors] li")).to_have_text("W_K 2, 1: " + text("err_not_number", "ko", text="abc"))
    expect(bad).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-testid=qkv-matrix-q] tr").first.locator("td")).to_have_text([short(x) for x in q[0]])
    assert console_errors == []
    # with no Python behind it, the exported file shows W as numbers, not cells
    ExplorerPage(page, exported.as_uri()).open(preset="cat-fish")
    expect(page.locator("[data-testid=qkv-matrix-w_q] td").first).to_have_text("2")
    expect(page.locator("[data-testid=w-cell-w_q-0-0]")).to_have_count(0)
