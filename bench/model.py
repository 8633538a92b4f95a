"""Benchmark 5: a real model at BERT-base size (12 layers × 12 heads, d_model 768, d_ff 3072),
random weights this script writes (no download), on sentences of n = 128 and 512 tokens; or any
checkpoint folder given with --folder (bench/llama_model.py writes one of Qwen2.5-0.5B's size).

Prints, for each n: the forward pass in NumPy (median of 3), the overview and summaries, one head's
entry as Python makes it on demand; the bytes of the page's model entry and of one head (every
step, or the weights alone), per weight shown, against BertViz's ~22 bytes per weight for all
heads at once; and in headless Chromium (served), the time until all 144 heads are drawn and the
frames from a click (token, head, toggle) to the new weights table, and a head's ablation asked
of Python (the lenses card's button) until its figure shows. Where torch and transformers
are installed, the same forward in transformers beside ours (BertModel, eager attention, float32,
output_attentions=True, the same token ids; median of 3), the ratio, and the largest difference
between its attention weights and ours over every layer and head.

    .venv/bin/python bench/model.py [--clicks 30] [--lengths 128 512] [--folder DIR]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the checkpoint writer the tests use (tiny_models.py)

from playwright.sync_api import sync_playwright  # noqa: E402

from bokeh.core.serialization import Serializer  # noqa: E402

from app.models import DEFAULT_SENTENCE, STEPS_MAX, head_entry, model_entry, on_the_wire  # noqa: E402
from attention_core.checkpoint import load_checkpoint, run_checkpoint  # noqa: E402
from attention_core.heads import from_run  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, Server, median, percentile  # noqa: E402
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


def wire_bytes(entry: dict) -> int:
    """The bytes of the served page's reply carrying `entry`, as Bokeh's serializer writes it for
    the socket: the JSON text (binary buffers as their references) and each buffer's bytes."""
    made = Serializer(deferred=True).serialize(on_the_wire({"id": "x:1", "type": "entry", "ok": True, "entries": [entry], "view": None}))
    text = json.dumps(made.content, default=lambda buffer: {"id": buffer.id}, separators=(",", ":"), ensure_ascii=False)
    return len(text.encode("utf-8")) + sum(len(buffer.to_bytes()) for buffer in made.buffers)


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
    aset = from_run(checkpoint.config.architecture, encoded, run)
    count = aset.layers * aset.heads
    made, entry = timed(lambda: model_entry(aset, "model-1", TITLES), repeat=1)
    heads = {}
    for code, what in (("01", "every step" if aset.n <= STEPS_MAX else "weights alone"), ("10", "어절, weights alone")):
        seconds, head = timed(lambda: head_entry(aset, "model-1", TITLES, 5, 3, code, ablation=False), repeat=1)
        heads[code] = (what, seconds, len(json.dumps(head)), len(head["cube"]["tokens"]))
    page_bytes = len(json.dumps(entry))
    print(f"\nn = {aset.n} tokens ({len(encoded.word_texts)} 어절)")
    print(f"  forward pass, NumPy float64 (median of 3)   {forward:7.2f} s")
    print(f"  overview + summaries of {count} heads            {made:7.2f} s")
    print(f"  model entry (overview, summaries, tokens)   {page_bytes:>9,} bytes as JSON, "
          f"{wire_bytes(entry):,} on the served page's socket (the overview binary)")
    for code, (what, seconds, size, m) in heads.items():
        print(f"  one head, view {code} ({what:<19}) {size:>9,} bytes  {size / m ** 2:6.1f} B/weight  made in {seconds:.2f} s")
    ablation, _ = timed(lambda: aset.ablation(5, 3), repeat=1)
    print(f"  one head's ablation (the model run again from layer 5 up, the lenses card's button)  {ablation:.2f} s")
    bertviz = BERTVIZ_BYTES_PER_WEIGHT * count * aset.n ** 2
    opened = page_bytes + heads["10"][2]
    print(f"  page + first head: {opened:,} bytes; BertViz, all heads as JSON: ~{bertviz:,} bytes "
          f"({bertviz / opened:,.0f}× more)")
    return text, forward


def transformers_figures(folder: Path, checkpoint, figures: dict):
    try:
        import torch
        from transformers import AutoModel
    except ImportError as error:
        print(f"\ntransformers: not measured ({error.name} is not installed here)")
        return
    model = AutoModel.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager", add_pooling_layer=False)
    model.eval()
    print(f"\ntransformers {__import__('transformers').__version__}, torch {torch.__version__} "
          f"({torch.get_num_threads()} threads): the base model (no pooler), eager attention, float32, "
          f"output_attentions=True (median of 3), beside ours (NumPy float64, above)")
    for text, ours in figures.values():
        encoded, run = run_checkpoint(checkpoint, text)  # the same token ids, and our weights to compare
        ids = torch.tensor([encoded.ids])
        with torch.no_grad():
            seconds, output = timed(lambda: model(ids, output_attentions=True))
        differ = max(float(np.abs(run.attention(layer).weights - output.attentions[layer][0].numpy()).max())
                     for layer in range(checkpoint.config.layers))
        print(f"  n = {run.n:>4}: ours {ours:7.2f} s, transformers {seconds:7.2f} s; ours / transformers "
              f"{ours / seconds:5.1f}×; attention weights differ by at most {differ:.1e}", flush=True)


# the explorer's own marks (static/explorer/explorer.js, model.js): its start and the overview drawn
OVERVIEW_MS = """() => {
  const [start] = performance.getEntriesByName("ae-render"), [drawn] = performance.getEntriesByName("ae-overview-drawn");
  return start && drawn ? drawn.startTime - start.startTime : null;
}"""
# finds the weights table through Panel's shadow roots
TABLE = """(() => { const find = (root) => { const hit = root.querySelector('[data-testid=weights-table]'); if (hit) return hit;
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const f = find(el.shadowRoot); if (f) return f; } return null; };
  return find(document); })()"""
# Counts animation frames in the page; a click (pointerdown) or a change notes the frame, and the
# first DOM change after it at which window.__check() holds notes the frames since.
PROBE = """(table) => {
  window.__frames = 0;
  const tick = () => { window.__frames++; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.__start = null; window.__result = null; window.__check = null;
  const begin = () => { if (window.__start === null) window.__start = window.__frames; };
  window.addEventListener("pointerdown", begin, true);
  window.addEventListener("change", begin, true);
  const root = table.getRootNode();
  new MutationObserver(() => {
    if (window.__start === null || !window.__check || !window.__check()) return;
    window.__result = window.__frames - window.__start;
    window.__start = null; window.__check = null;
  }).observe(root === document ? document.body : root, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def frames_until(page, act, done: str):
    """Animation frames from a click or change to the first DOM change at which `done` (a JS
    expression) holds, counted in the page; and the seconds the whole action took, seen from here."""
    page.evaluate(f"window.__result = null; window.__start = null; window.__check = () => {done};")
    start = time.perf_counter()
    act()
    page.wait_for_function("window.__result !== null", timeout=60_000)
    return page.evaluate("window.__result"), time.perf_counter() - start


def report(name: str, results, wall: bool = False):
    deltas = [d for d, _ in results]
    same = sum(1 for d in deltas if d == 0) / len(deltas)
    print(f"  {name:<24} frames p50 {median(deltas):3.0f}  p95 {percentile(deltas, 95):3.0f}  same frame {same:4.0%}"
          + (f"  wall p50 {median([s for _, s in results]) * 1000:5.0f} ms" if wall else ""), flush=True)


# a query chosen as a student does: its button, or past 64 tokens (static/explorer/tokens.js) the list
CHOOSE_TOKEN = {"buttons": lambda page, index: page.locator("[data-testid=token-buttons] button").nth(index).click(),
                "list": lambda page, index: page.locator("[data-testid=token-list]").select_option(str(index))}


def browser_figures(folder: Path, text: str, n: int, count: int, browser, layers: int, heads: int):
    with Server("explorer", extra=["--model", folder, "--sentence", text]) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url + "?" + urlencode({"preset": "model-1", "merge": 0, "special": 1, "query": 1}))
        page.wait_for_function(f"{TABLE} && {TABLE}.dataset.layer === '0'", timeout=60_000)
        print(f"  overview of {layers * heads} heads drawn, from the explorer's start: {page.evaluate(OVERVIEW_MS):6.0f} ms")
        page.evaluate(f"({PROBE})({TABLE})")
        labels = page.locator("[data-testid=weights-table] tbody th").all_inner_texts()
        picker = "list" if page.locator("[data-testid=token-list]").is_visible() else "buttons"
        results = []
        for i in range(count):
            index = 2 + (i * 7) % (len(labels) - 2)
            results.append(frames_until(page, lambda: CHOOSE_TOKEN[picker](page, index),
                                        f"{TABLE}.querySelector('caption').textContent === {json.dumps('Query: ' + labels[index])}"))
        report(f"token ({picker})", results)
        results = []
        if n <= STEPS_MAX:
            for i in range(count):
                results.append(frames_until(page, lambda: page.locator("[data-testid=scale-toggle]").click(),
                                            f"{TABLE}.dataset.scale === '{'false' if i % 2 == 0 else 'true'}'"))
            report("toggle √d", results)
        else:  # a long sentence's heads are weights alone: change how many keys show instead
            bars = "[data-testid=bars] .ae-bar-row[data-key]"
            for i in range(count):
                k = 5 if i % 2 == 0 else 10
                results.append(frames_until(page, lambda: (page.locator("[data-testid=top-k]").fill(str(k)),
                                                           page.locator("[data-testid=top-k]").dispatch_event("change")),
                                            f"document.querySelectorAll('{bars}').length === {k} || "
                                            f"[...document.querySelectorAll('*')].some(e => e.shadowRoot && "
                                            f"e.shadowRoot.querySelectorAll('{bars}').length === {k})"))
            report("top-k 5 ↔ 10", results)
        results = []
        opened = []
        for i in range(count):
            layer, head = (i + 1) % layers, (i * 5 + 1) % heads
            if (layer, head) in opened:
                continue  # a head opened before is the page's already: not asked again
            opened.append((layer, head))
            results.append(frames_until(page, lambda: page.locator(f"[data-testid=overview-{layer}-{head}]").click(),
                                        f"{TABLE}.dataset.layer === '{layer}' && {TABLE}.dataset.modelHead === '{head}'"))
        report(f"head (asked of Python, {len(results)} new)", results, wall=True)
        if n <= STEPS_MAX:  # the lenses card shows with every step: the head removed, the model run again
            results = []
            for layer, head in opened[-min(5, len(opened)):]:
                page.locator(f"[data-testid=overview-{layer}-{head}]").click()
                page.wait_for_function(f"{TABLE}.dataset.layer === '{layer}' && {TABLE}.dataset.modelHead === '{head}'")
                results.append(frames_until(page, lambda: page.locator("[data-testid=lens-ablation-run]").click(),
                                            f"{TABLE}.getRootNode().querySelector('[data-testid=lens-ablation]').dataset.state === 'measured'"))
            report(f"ablation ({len(results)} heads)", results, wall=True)
        page.close()


def export_figures(folder: Path, checkpoint, out: Path):
    """`attention-viz export --model` of one sentence of the book's length: bytes, and the views carried."""
    from app.export import export_html, page_state
    from app.models import view_code

    text = DEFAULT_SENTENCE
    n = len(checkpoint.tokenizer.encode(text).ids)
    start = time.perf_counter()
    size = export_html(out, model=folder, sentences=[text], practice=0)
    bank = page_state(out.read_text(encoding="utf-8"))["models"][0]["bank"]
    found = [view_code(e["model_head"]["merge"], e["model_head"]["special"]) + (f"|{e['model_head']['experiment']}" if e["model_head"]["experiment"] else "")
             for e in bank]
    views = {code: found.count(code) for code in dict.fromkeys(found)}
    print(f"\nexport --model, one sentence of {n} tokens: {size:,} bytes in {time.perf_counter() - start:.1f} s; "
          f"heads per view carried: {views}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--lengths", type=int, nargs="+", default=[128, 512])
    parser.add_argument("--folder", type=Path, help="a checkpoint folder to measure instead of the BERT-base-sized one")
    parser.add_argument("--versus-torch", metavar="PYTHON", help="only our forward pass beside PyTorch's, in alternating "
                        "processes, at BERT-base and Qwen2.5-0.5B sizes (bench/versus_torch.py: PYTHON has torch and "
                        "transformers)")
    args, rest = parser.parse_known_args(argv)
    if args.versus_torch:
        from bench.versus_torch import main as versus_torch
        return versus_torch(["--versus-torch", args.versus_torch, *rest])
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or write_bert(Path(tmp) / "bert-base-random", layers=12, heads=12, d=768, d_ff=3072,
                                           max_positions=512, std=0.02)
        checkpoint = load_checkpoint(folder)
        config = checkpoint.config
        print(f"model: {folder.name} ({config.architecture}, {config.layers} layers × {config.heads} heads), "
              f"{sum(t.size for t in checkpoint.weights.values()):,} numbers")
        figures = {n: python_figures(checkpoint, n) for n in args.lengths}
        if config.architecture == "bert":  # transformers_figures runs BertModel
            transformers_figures(folder, checkpoint, figures)
        export_figures(folder, checkpoint, Path(tmp) / "export.html")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for n in args.lengths:
                print(f"\nn = {n}, in Chromium")
                browser_figures(folder, figures[n][0], n, args.clicks, browser, config.layers, config.heads)
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
