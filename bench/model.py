"""Benchmark 5: a real model at BERT-base size (12 layers × 12 heads, d_model 768, d_ff 3072),
random weights this script writes (no download), on sentences of n = 128 and 512 tokens.

Prints, for each n: the forward pass in NumPy (median of 3), the overview and summaries, one head's
entry as Python makes it on demand; the bytes of the page's model entry and of one head (every
step, or the weights alone), per weight shown, against BertViz's ~22 bytes per weight for all
heads at once; and in headless Chromium (served), the time until all 144 heads are drawn and the
frames from a click (token, head, toggle) to the new weights table.

    .venv/bin/python bench/model.py [--clicks 30]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the checkpoint writer the tests use (tiny_models.py)

from playwright.sync_api import sync_playwright  # noqa: E402

from app.models import STEPS_MAX, head_entry, model_entry  # noqa: E402
from attention_core.checkpoint import load_checkpoint, run_checkpoint  # noqa: E402
from attention_core.heads import from_run  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, Server, median, percentile  # noqa: E402
from bench.interaction import PROBE  # noqa: E402
from tiny_models import CORPUS, write_bert  # noqa: E402

#: BertViz sends every head's weights as JSON text: about 22 bytes per weight (bertviz issue #82)
BERTVIZ_BYTES_PER_WEIGHT = 22
TITLES = {"ko": "BERT-base 크기", "en": "BERT-base size"}


def sentence_of(tokenizer, n: int) -> str:
    """The corpus's sentences joined until the tokenizer makes exactly n tokens ([CLS] … [SEP])."""
    words = " ".join(CORPUS).split()
    text = ""
    for word in words * 20:
        longer = (text + " " + word).strip()
        if len(tokenizer.encode(longer).ids) > n:
            break
        text = longer
    return text


def timed(function, repeat: int = 3):
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return median(times), result


def python_figures(checkpoint, n: int):
    text = sentence_of(checkpoint.tokenizer, n)
    forward, (encoded, run) = timed(lambda: run_checkpoint(checkpoint, text))
    aset = from_run("bert", encoded, run)
    made, entry = timed(lambda: model_entry(aset, "model-1", TITLES), repeat=1)
    heads = {}
    for code, what in (("01", "every step" if aset.n <= STEPS_MAX else "weights alone"), ("10", "어절, weights alone")):
        seconds, head = timed(lambda: head_entry(aset, "model-1", TITLES, 5, 3, code), repeat=1)
        heads[code] = (what, seconds, len(json.dumps(head)), len(head["cube"]["tokens"]))
    page_bytes = len(json.dumps(entry))
    print(f"\nn = {aset.n} tokens ({len(encoded.word_texts)} 어절)")
    print(f"  forward pass, NumPy float64 (median of 3)   {forward:7.2f} s")
    print(f"  overview + summaries of 144 heads            {made:7.2f} s")
    print(f"  model entry (overview, summaries, tokens)   {page_bytes:>9,} bytes")
    for code, (what, seconds, size, m) in heads.items():
        print(f"  one head, view {code} ({what:<19}) {size:>9,} bytes  {size / m ** 2:6.1f} B/weight  made in {seconds:.2f} s")
    bertviz = BERTVIZ_BYTES_PER_WEIGHT * 144 * aset.n ** 2
    opened = page_bytes + heads["10"][2]
    print(f"  page + first head: {opened:,} bytes; BertViz, all heads as JSON: ~{bertviz:,} bytes "
          f"({bertviz / opened:,.0f}× more)")
    return text


OVERVIEW_DRAWN = """() => {
  const find = (root) => {
    const hit = root.querySelectorAll('[data-testid=model-overview] canvas');
    if (hit.length) return hit.length;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; }
    return 0;
  };
  return find(document);
}"""


def clicks(page, locator, count: int):
    """Frames from each click to the weights table's change (bench/interaction.py's probe)."""
    deltas, seconds = [], []
    for i in range(count):
        before = page.evaluate("window.__deltas.length")
        start = time.perf_counter()
        locator(i).click()
        page.wait_for_function(f"window.__deltas.length > {before}", timeout=60_000)
        seconds.append(time.perf_counter() - start)
        deltas.append(page.evaluate("window.__deltas[window.__deltas.length - 1]"))
    return deltas, seconds


def browser_figures(folder: Path, text: str, n: int, count: int, browser):
    with Server("explorer", extra=["--model", folder, "--sentence", text]) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        start = time.perf_counter()
        query = {"preset": "model-1", "merge": 0, "special": 1, "query": 1}
        page.goto(server.url + "?" + urlencode(query))
        page.wait_for_function(f"({OVERVIEW_DRAWN})() >= 144", timeout=60_000, polling=20)
        drawn = time.perf_counter() - start
        page.locator("[data-testid=weights-table]").wait_for(timeout=60_000)
        print(f"  served, page open to 144 heads drawn:       {drawn:7.2f} s  (Bokeh and Panel included)")
        page.evaluate(PROBE)
        page.wait_for_timeout(500)
        rows = [("token", lambda i: page.locator("[data-testid=token-buttons] button").nth(1 + i % 40)),
                ("toggle √d" if n <= STEPS_MAX else "top-k 5/10", (lambda i: page.locator("[data-testid=scale-toggle]"))
                 if n <= STEPS_MAX else None),
                ("head (asked of Python)", lambda i: page.locator(f"[data-testid=overview-{i % 12}-{(i * 5) % 12}]"))]
        for name, locator in rows:
            if locator is None:  # long sentences have no experiments: change how many keys show instead
                deltas, seconds = [], []
                for i in range(count):
                    before = page.evaluate("window.__deltas.length")
                    page.locator("[data-testid=top-k]").fill(str(5 + 5 * (i % 2)))
                    page.locator("[data-testid=top-k]").press("Enter")
                    page.wait_for_function(f"window.__deltas.length > {before}", timeout=60_000)
                    deltas.append(page.evaluate("window.__deltas[window.__deltas.length - 1]"))
            else:
                deltas, seconds = clicks(page, locator, count)
            same = sum(1 for d in deltas if d == 0) / len(deltas)
            print(f"  {name:<24} frames p50 {median(deltas):3.0f}  p95 {percentile(deltas, 95):3.0f}  same frame {same:4.0%}"
                  + (f"  wall p50 {median(seconds) * 1000:5.0f} ms" if name.startswith("head") else ""), flush=True)
        page.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--lengths", type=int, nargs="+", default=[128, 512])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_bert(Path(tmp) / "bert-base-random", layers=12, heads=12, d=768, d_ff=3072, max_positions=512,
                            std=0.02)
        checkpoint = load_checkpoint(folder)
        print(f"model: random BERT-base-sized weights, {sum(t.size for t in checkpoint.tensors.values()):,} numbers")
        texts = {n: python_figures(checkpoint, n) for n in args.lengths}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for n in args.lengths:
                print(f"\nn = {n}, in Chromium")
                browser_figures(folder, texts[n], n, args.clicks, browser)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
