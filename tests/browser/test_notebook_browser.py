"""The example notebook in a real JupyterLab, offline: run every cell, click, and compare with the core."""
import shutil
import sys

import pytest
from playwright.sync_api import expect

from attention_core import attention
from support import ROOT, free_port, running

pytestmark = pytest.mark.browser
NOTEBOOK = ROOT / "examples" / "attention_explorer.ipynb"
TOKEN = "attention-explorer-test"


@pytest.fixture(scope="module")
def jupyter_lab(tmp_path_factory):
    """JupyterLab on loopback serving a copy of the notebook (autosave must not touch the repo's)."""
    folder = tmp_path_factory.mktemp("notebook")
    shutil.copy(NOTEBOOK, folder / NOTEBOOK.name)
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}", "--ip=127.0.0.1",
               f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={folder}"]
    with running(command, f"http://127.0.0.1:{port}/lab?token={TOKEN}", timeout=90):
        yield f"http://127.0.0.1:{port}/lab/tree/{NOTEBOOK.name}?token={TOKEN}"


def test_the_notebook_runs_offline_in_jupyterlab_and_shows_the_cores_numbers(page, jupyter_lab, console_errors):
    left = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith("http://127.0.0.1")
               else (left.append(route.request.url), route.abort()))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(jupyter_lab)
    page.locator(".jp-Notebook").wait_for(timeout=60_000)
    # Run All is disabled until the kernel is up
    page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
    tables = page.locator("[data-testid=weights-table]")
    expect(tables).to_have_count(3, timeout=90_000)

    # the cat-fish explorer opens on 먹었다 with the book's weights
    from attention_core import PRESETS
    cat = PRESETS["cat-fish"]
    cells = tables.nth(1).locator("tbody td")
    shown = [float(cells.nth(i).text_content()) for i in range(3)]  # off-screen cells are hidden by windowing
    truth = attention(cat.q, cat.k, cat.v).weights[0, 2]
    assert all(abs(a - b) <= 0.0005 for a, b in zip(shown, truth))
    # where its Q, K, V come from, and why √d, reach the notebook too (the core's numbers)
    from app.constants import CONSTANTS
    # (the card is made where its sentence has a layer: the cat-fish explorer's, the second)
    cat_view = page.locator("[data-testid=explorer]").nth(1)
    expect(cat_view.locator("[data-testid=qkv-trace]")).to_contain_text("먹었다: x = e + p = (1, 0, 1) + (0, 1, 0) = (1, 1, 1)")
    d = CONSTANTS["why_scale"]["dimensions"].index(CONSTANTS["why_scale"]["start"])
    expect(page.locator("[data-testid=why-spread-raw]").nth(1)).to_have_text(f"{CONSTANTS['why_scale']['spread_raw'][d]:.2f}")

    # a click in the browser, and a change from Python, both reach the view
    page.locator("[data-testid=token-buttons]").nth(1).get_by_role("button", name="고양이가", exact=True).click()
    expect(tables.nth(1).locator("caption")).to_have_text("Query: 고양이가")
    # wait until Run All has reached the last cell, then run it again: the first change may
    # have reached the kernel before the view had rendered (Panel in a notebook; the README says to
    # run that cell again). Each run moves the query on by one: the view shows the query the kernel
    # printed. A fresh JupyterLab can still be rendering the view on the second run (seen once in
    # four fresh-clone CI runs): a user runs the cell again, and so does this test, up to twice more.
    page.get_by_text("(0, True)").wait_for(state="attached", timeout=60_000)
    tokens = ["나는", "밥을", "먹었다"]
    last = page.locator(".jp-Cell").last
    shown = []
    for attempt in range(3):
        page.get_by_text("Python 3 (ipykernel) | Idle").wait_for(timeout=60_000)
        last.scroll_into_view_if_needed()
        last.click()
        page.keyboard.press("Shift+Enter")
        query = (attempt + 1) % 3
        page.get_by_text(f"({query}, True)").wait_for(state="attached", timeout=60_000)
        caption = tables.nth(2).locator("caption")
        try:
            expect(caption).to_have_text(f"Query: {tokens[query]}", timeout=10_000)
            break
        except AssertionError:
            shown.append(caption.inner_text())
    expect(caption).to_have_text(f"Query: {tokens[query]}")
    assert len(shown) <= 1, shown  # the view follows Python from the second run on at the latest
    assert left == [], "the notebook asked the network for something"
    assert console_errors == []
