"""`attention-viz figure`: the figure the page's "save figure" buttons make, written from the
command line. It drives the same page in a headless Chromium, because the figure is drawn by
the browser client (one drawing code for the page, the file and the slides; Hangul shaped by
the browser's own fonts), and Chromium with Playwright is already what the tests use."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from attention_core import PRESETS

from .constants import LANGUAGES

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
#: Headless Chromium as this machine needs it: no sandbox as root, and no background requests.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
KINDS = (".svg", ".png")


def figure_view(preset: str, query: int | None, heads: int, scale: bool, causal: bool, lang: str) -> dict:
    """The view to draw, checked: the URL parameters of the page. Raises ValueError saying what is wrong."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}")
    p = PRESETS[preset]
    n = len(p.tokens)
    query = p.default_query if query is None else query
    if not 0 <= query < n:
        raise ValueError(f"--query {query} is not a token of {preset!r}: choose 0 to {n - 1} ({' '.join(p.tokens)})")
    offered = p.offered_heads()
    if heads not in offered:
        raise ValueError(f"--heads {heads} does not divide {preset!r}'s d_model: choose {', '.join(map(str, offered))}")
    if lang not in LANGUAGES:
        raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}")
    return {"preset": preset, "query": query, "heads": heads, "scale": int(scale), "causal": int(causal), "lang": lang}


def write_figure(out, preset: str, query: int | None = None, heads: int = 1, scale: bool = True,
                 causal: bool = False, lang: str = LANGUAGES[0]) -> int:
    """Write the figure of one view as OUT.svg or OUT.png (twice the size) and return its size in bytes."""
    out = Path(out)
    if out.suffix.lower() not in KINDS:
        raise ValueError(f"{out.name}: the figure is written as .svg or .png")
    view = figure_view(preset, query, heads, scale, causal, lang)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        raise RuntimeError("attention-viz figure needs Playwright: pip install -e '.[figure]'") from error
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"attention-viz figure needs Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)")
    from .export import export_html

    with tempfile.TemporaryDirectory() as folder:
        page_file = Path(folder) / "figure.html"
        export_html(page_file, presets=[preset], lang=lang, practice=0)  # the figure needs no practice problems
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(accept_downloads=True)
                page.goto(page_file.as_uri() + "?" + urlencode(view))
                page.locator("[data-testid=calc-table]").wait_for(timeout=30_000)
                with page.expect_download() as download:
                    page.locator(f"[data-testid=figure-{out.suffix.lower()[1:]}]").click()
                download.value.save_as(out)
            finally:
                browser.close()
    return out.stat().st_size
