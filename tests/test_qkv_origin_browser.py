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
    rows = page.locator(f"[data-testid=qkv-matrix-{name}] tr")
    return [rows.nth(i).locator("td").all_inner_texts() for i in range(rows.count())]


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
