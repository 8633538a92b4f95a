"""Benchmark 3: animation frames between a token click and the weights table showing the new query.

In headless Chromium, for the served explorer, the exported file, and (the baseline) a plain
Panel page whose Python callback rebuilds the table on the server, p50/p95 over N clicks.

    .venv/bin/python bench/interaction.py [--clicks 200]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import export_html  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, Server, median, percentile  # noqa: E402

# Counts animation frames; on every click notes the frame, and when the weights table's caption
# changes notes the frame again. Searches open shadow roots, where Panel components render.
PROBE = """
() => {
  window.__frames = 0;
  const tick = () => { window.__frames++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.__clickFrame = null; window.__deltas = [];
  const find = (root) => {
    const hit = root.querySelector('[data-testid=weights-table]');
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
    return null;
  };
  window.addEventListener('pointerdown', () => { window.__clickFrame = window.__frames; }, true);
  const observer = new MutationObserver(() => {
    if (window.__clickFrame === null) return;
    window.__deltas.push(window.__frames - window.__clickFrame);
    window.__clickFrame = null;
  });
  const watch = () => {
    const table = find(document);
    if (!table) return setTimeout(watch, 50);
    // the explorer replaces the table element; the baseline replaces its container's HTML
    observer.observe(table.getRootNode() === document ? document.body : table.getRootNode(),
                     {subtree: true, childList: true, characterData: true});
  };
  watch();
}
"""


# the largest sentence the app takes, every head shown: the heaviest repaint
LONG = " ".join(f"단어{i}" for i in range(24))


def token_locator(page, kind):
    if kind == "callback":
        return page.locator(".bk-btn-group button")
    return page.locator("[data-testid=token-buttons] button")


def measure(page, url: str, kind: str, clicks: int):
    page.goto(url)
    page.locator("[data-testid=weights-table]").wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    page.evaluate(PROBE)
    page.wait_for_timeout(300)
    buttons = token_locator(page, kind)
    count = buttons.count()
    for i in range(clicks):
        before = page.evaluate("window.__deltas.length")
        buttons.nth(i % count).click()
        page.wait_for_function(f"window.__deltas.length > {before}", timeout=10_000)
    return page.evaluate("window.__deltas")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=200)
    args = parser.parse_args(argv)
    print(f"interaction: frames from click to new weights, {args.clicks} clicks each")
    print(f"{'page':<34} {'p50':>5} {'p95':>5} {'max':>5}  same frame")
    # a click's script runs before the next frame; a heavy repaint can push that frame later,
    # which this counts as frames between the click and the new table.
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        exported = Path(tmp) / "explorer.html"
        export_html(exported, presets=["meet-friend"])
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        with Server("explorer") as explorer, Server("callback") as callback:
            for name, url, kind in [
                ("explorer, served (browser lookup)", explorer.url + "?preset=meet-friend", "explorer"),
                ("explorer, exported file", exported.as_uri() + "?preset=meet-friend", "explorer"),
                ("explorer, 24 tokens x 8 heads", explorer.url + "?heads=8&" + urlencode({"text": LONG}), "explorer"),
                ("baseline: Python server callback", callback.url, "callback"),
            ]:
                deltas = measure(page, url, kind, args.clicks)
                same = sum(1 for d in deltas if d == 0) / len(deltas)
                print(f"{name:<34} {median(deltas):>5.0f} {percentile(deltas, 95):>5.0f} {max(deltas):>5}  {same:6.0%}",
                      flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
