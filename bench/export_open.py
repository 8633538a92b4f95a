"""Benchmark: how long an exported file takes to draw, opened from file:// in Chromium (a fresh
context each time, to the weights table drawn), beside an earlier export of the same command,
alternating the two so that both see the same machine.

    .venv/bin/python bench/export_open.py [--before OLD.html] [--opens 12]

OLD.html: a file `attention-viz export` made with an earlier version (e.g. from main).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import export_html  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, median  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an earlier export of the same command")
    parser.add_argument("--opens", type=int, default=12)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        now = Path(tmp) / "now.html"
        export_html(now)
        files = {"now": now, **({"before": args.before} if args.before else {})}
        times = {name: [] for name in files}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(args.opens):
                for name, file in files.items():
                    context = browser.new_context()
                    page = context.new_page()
                    start = time.perf_counter()
                    page.goto(file.resolve().as_uri())
                    page.locator("[data-testid=weights-table]").first.wait_for()
                    times[name].append(1000 * (time.perf_counter() - start))
                    context.close()
            browser.close()
    for name, found in times.items():
        print(f"{name:>7}: first draw {median(found):.0f} ms, median of {len(found)} opens")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
