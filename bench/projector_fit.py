"""Benchmark: lecture mode on a projector, box by box: for every preset at every head count it
offers, where the token buttons, the lines' figure and the bars lie (top–bottom, CSS px) and the
smallest label of the lines' figure, at 1280x720 (or --size), in the exported file.

    .venv/bin/python bench/projector_fit.py [--size 1920x1080] [--before OLD.html]

OLD.html: a file `attention-viz export` made with an earlier version, measured in the same run,
so that both columns are the same screen. tests/browser/test_classroom_browser.py asserts the fit.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.figure import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from attention_core import PRESETS  # noqa: E402
from browser.test_classroom_browser import FIND_ROOT, MEASURE  # noqa: E402
from explorer_page import ExplorerPage, painted  # noqa: E402
from support import run_export  # noqa: E402


def measured(page, html: Path) -> dict:
    """(preset, heads) → {part: (top, bottom)} and the smallest line label, for one file."""
    explorer, rows = ExplorerPage(page, html.as_uri()), {}
    for name, preset in PRESETS.items():
        for heads in preset.offered_heads():
            explorer.open(preset=name, heads=str(heads), mode="lecture")
            painted(page)
            m = page.evaluate_handle(FIND_ROOT).evaluate(MEASURE)
            rows[(name, heads)] = {**{part: (round(m[part]["top"]), round(m[part]["bottom"]))
                                      for part in ("tokens", "lines", "bars")}, "label": m["lineLabelPx"]}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="1280x720")
    parser.add_argument("--before", type=Path, help="an earlier export to measure beside this one")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        now = Path(folder) / "now.html"
        run_export(now)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": width, "height": height})
            files = {"now": measured(page, now)}
            if args.before:
                files = {"before": measured(page, args.before.resolve()), **files}
            browser.close()
    print(f"lecture mode at {width}x{height}: top–bottom in px; 'fits' when the three lie inside {height} px")
    for (name, heads) in files["now"]:
        for which, rows in files.items():
            row = rows[(name, heads)]
            fits = all(bottom <= height + 0.5 for _, bottom in (row["tokens"], row["lines"], row["bars"]))
            print(f"{which:>6} {name:>14} {heads} heads  tokens {row['tokens']}  lines {row['lines']}  "
                  f"bars {row['bars']}  label {row['label']:.1f} px  {'fits' if fits else 'DOES NOT FIT'}")


if __name__ == "__main__":
    main()
