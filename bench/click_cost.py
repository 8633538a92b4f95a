"""Benchmark: script time per query click in the heaviest view (24 tokens, 8 heads, all shown).

In headless Chromium, an exported file with one typed 24-word sentence (the longest the app
takes), opened at 8 heads with every head shown. Each click on a query token is measured with
the DevTools protocol's `Performance.getMetrics`: the growth of ScriptDuration (all script the
renderer ran: the click's handler, the microtask that repaints every view) between just before
the click and after the next two animation frames. Prints median and p95 per click, with and
without CPU throttling x4 (`Emulation.setCPUThrottlingRate`, a phone-speed CPU).

    .venv/bin/python bench/click_cost.py [--clicks 60] [--before OLD.html] [--served]
                                         [--profile] [--save NEW.html]

--before: a file exported the same way from another commit (make one with --save there, or
`python -c "from bench.click_cost import export; export('old.html')"`), measured beside this one
in the same run. --served: also the served app (?text=…&heads=8; Python runs the sentence).
--profile: self time per function per click (the DevTools sampling profiler), to see which
views cost; each function by its module and its name as written, read through the bundle's
source map (needs esbuild: scripts/ensure-esbuild.sh).
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from app import client  # noqa: E402
from app.export import page_script  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, median, percentile  # noqa: E402

# the longest sentence the app takes: 24 words, each its own token
LONG = " ".join(f"단어{i}" for i in range(24))
HEADS = 8
# the exported file's one typed sentence is named sentence-1 (app/export.py build_entries)
QUERY = "?" + urlencode({"preset": "sentence-1", "heads": HEADS, "lang": "ko"})


def export(out) -> Path:
    """The exported file of the heaviest view: the typed 24-word sentence, no presets to pick."""
    from app.export import export_html
    export_html(out, presets=["meet-friend"], sentences=[LONG], practice=0)
    return Path(out)


def metrics(cdp) -> dict:
    """The renderer's running totals, in ms: script, and style and layout (also when script forced them)."""
    values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {"script": 1000 * values["ScriptDuration"],
            "layout": 1000 * (values["RecalcStyleDuration"] + values["LayoutDuration"])}


# Two animation frames after the click: the repaint's microtask and its frame have run.
SETTLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))"

# In the page: the time from the click's first listener (window, capturing) to its last (window,
# bubbling). The token's own listener runs between them, and the repaint with it: the explorer
# repaints in a microtask, which runs as soon as that listener returns.
PROBE = """() => {
  window.__repaints = [];
  let start = null;
  window.addEventListener("click", () => { start = performance.now(); }, true);
  window.addEventListener("click", () => { if (start !== null) window.__repaints.push(performance.now() - start); start = null; });
}"""


def open_view(page, url: str):
    page.goto(url)
    page.locator("[data-testid=weights-table] td").first.wait_for(timeout=60_000)
    # every head on show: the 8 heads' columns in the weights table
    columns = page.locator("[data-testid=weights-table] thead th").count()
    if columns != HEADS + 1:
        raise RuntimeError(f"{url}: {columns - 1} heads shown, not {HEADS}")
    page.evaluate(PROBE)
    page.wait_for_timeout(500)


def measure(page, cdp, clicks: int, rate: float):
    """Per click: script ms, style + layout ms (DevTools metrics, less what measuring alone costs),
    and the in-page time from the click's first listener to its last."""
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    buttons = page.locator("[data-testid=token-buttons] button")
    count = buttons.count()
    handles = [buttons.nth(i).element_handle() for i in range(count)]
    # warm-up: the first clicks compile and optimize the views' code
    for i in range(6):
        handles[(i * 7 + 3) % count].click()
        page.evaluate(SETTLE)
    page.evaluate("window.__repaints.length = 0")
    deltas = []
    for i in range(clicks):
        target = handles[(i * 7 + 1) % count]  # a different query every click
        box = target.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.evaluate(SETTLE)
        before = metrics(cdp)
        page.mouse.down()
        page.mouse.up()
        page.evaluate(SETTLE)
        after = metrics(cdp)
        deltas.append({name: after[name] - before[name] for name in after})
    # the cost of measuring alone (the SETTLE evaluate, getMetrics): subtracted below
    idle = []
    for _ in range(max(10, clicks // 3)):
        page.evaluate(SETTLE)
        before = metrics(cdp)
        page.evaluate(SETTLE)
        after = metrics(cdp)
        idle.append({name: after[name] - before[name] for name in after})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    floor = {name: median([d[name] for d in idle]) for name in idle[0]}
    figures = {name: [max(0.0, d[name] - floor[name]) for d in deltas] for name in floor}
    figures["in page"] = page.evaluate("window.__repaints")
    return figures, floor["script"]


# view_state.js PAUSE_MS: a click's query goes to Python once the student pauses this long
PAUSE_MS = 200


def after_pause(page, cdp, clicks: int) -> float:
    """Median script ms a click costs after its frame, once the student pauses (the query written
    to the model, and so to Python on a served page; what that change repaints), less an idle
    window of the same length."""
    handles = [b.element_handle() for b in page.locator("[data-testid=token-buttons] button").all()]
    window = PAUSE_MS + 200

    def script_over_window(click=None) -> float:
        if click is not None:
            click.click()
        page.evaluate(SETTLE)
        before = metrics(cdp)["script"]
        page.wait_for_timeout(window)
        return metrics(cdp)["script"] - before

    after = [script_over_window(handles[(i * 5 + 2) % len(handles)]) for i in range(clicks)]
    idle = [script_over_window() for _ in range(clicks)]
    return max(0.0, median(after) - median(idle))


_BASE64 = {char: i for i, char in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _segments(mappings: str):
    """(line, column, source index, name index or None) of each mapped segment of a source map
    (version 3: base64 VLQ numbers, each relative to the one before; the column starts again on
    every line)."""
    source = name = 0
    for line, group in enumerate(mappings.split(";")):
        column = 0
        for segment in filter(None, group.split(",")):
            values, value, shift = [], 0, 0
            for char in segment:
                digit = _BASE64[char]
                value += (digit & 31) << shift
                shift += 5
                if not digit & 32:  # the last digit of this number
                    values.append(-(value >> 1) if value & 1 else value >> 1)
                    value = shift = 0
            column += values[0]
            if len(values) > 1:
                source += values[1]
                if len(values) > 4:
                    name += values[4]
                yield line, column, source, name if len(values) > 4 else None


def module_lines(html: Path):
    """([((line, column), file)] where the code of each of the client's modules starts in an
    exported file's script or the served bundle (0-based, as the profiler counts), {(line, column):
    name as written} for the names the minifier shortened): from the bundle's source map, which
    esbuild makes again (app.client.build_with_map) of the same script. An older file (the client
    assembled by app/client.py before esbuild) marks each module's start itself."""
    text = html.read_text(encoding="utf-8")
    if 'id="ae-state"' in text and '"script":' in text:  # an exported file now runs its script inflated, from a blob: URL
        text = page_script(text)
    if "__modules[" in text:
        return [((text.count("\n", 0, found.start()), found.start() - (text.rfind("\n", 0, found.start()) + 1)),
                 found.group(1)) for found in re.finditer(r'__modules\["([\w.-]+)"\]\s*=\s*', text)], {}
    if not client.esbuild_installed():
        print(f"(no module names in the profile of {html.name}: esbuild is not installed, scripts/ensure-esbuild.sh)")
        return [], {}
    for entry in client.entries().values():
        script, source_map = client.build_with_map(entry)
        if script == text:
            starts, names, last = [], {}, None
            for line, column, source, name in _segments(source_map["mappings"]):
                if source != last:
                    starts.append(((line, column), Path(source_map["sources"][source]).name))
                    last = source
                if name is not None:
                    names[line, column] = source_map["names"][name]
            return starts, names
    print(f"(no module names in the profile of {html.name}: its script is no build of static/ as it is now)")
    return [], {}


def where(line: int, column: int, starts) -> str:
    """A document position as the name of the module it is in ('' outside the client)."""
    inside = [name for first, name in starts if first <= (line, column)]
    return inside[-1] if inside else ""


def profile(page, cdp, clicks: int, positions):
    """Inclusive time per function per click (CDP sampling profiler), the heaviest first."""
    handles = [b.element_handle() for b in page.locator("[data-testid=token-buttons] button").all()]
    cdp.send("Profiler.enable")
    cdp.send("Profiler.setSamplingInterval", {"interval": 100})
    cdp.send("Profiler.start")
    for i in range(clicks):
        box = handles[(i * 7 + 1) % len(handles)].bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.evaluate(SETTLE)
    result = cdp.send("Profiler.stop")["profile"]
    nodes = {node["id"]: node for node in result["nodes"]}
    own: dict[int, float] = {}
    for sample, delta in zip(result["samples"], result["timeDeltas"]):
        own[sample] = own.get(sample, 0) + delta

    def name(node):
        frame = node["callFrame"]
        # the served bundle and its chunks run from their URLs, or from blob:s es-module-shims made of them
        ours = frame["url"].startswith(("file:", "blob:")) or "/AttentionView." in frame["url"]
        if frame["lineNumber"] < 0 or not ours:
            return frame["functionName"] or "(anonymous)"
        starts, names = positions
        line, column, function = frame["lineNumber"], frame["columnNumber"], frame["functionName"]
        # V8 places a function at its parameters, right after its (minified) name
        function = names.get((line, column - len(function)), function) if function else "(anonymous)"
        return f"{function} {where(line, column, starts)}"

    totals: dict[str, float] = {}

    def walk(node_id, above):  # inclusive time of each node, counted once under recursion
        node = nodes[node_id]
        key = name(node)
        total = own.get(node_id, 0) + sum(walk(child, above | {key}) for child in node.get("children", []))
        if key not in above:
            totals[key] = totals.get(key, 0) + total
        return total

    walk(result["nodes"][0]["id"], frozenset())
    skip = {"(root)", "(program)", "(idle)", "(garbage collector)"}
    ranked = sorted(((k, v) for k, v in totals.items() if k not in skip), key=lambda kv: -kv[1])
    return [(key, micros / 1000 / clicks) for key, micros in ranked[:30]]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--before", type=Path, help="a file exported the same way from another commit")
    parser.add_argument("--served", action="store_true", help="also the served app")
    parser.add_argument("--profile", action="store_true", help="self time per function, per click")
    parser.add_argument("--save", type=Path, help="keep this build's exported file here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        now = export(args.save or Path(tmp) / "explorer.html")
        pages = ([("before (exported)", args.before.resolve())] if args.before else []) + [("now (exported)", now)]
        pages = [(name, file.as_uri() + QUERY, module_lines(file)) for name, file in pages]
        server = None
        if args.served:
            from bench.common import Server
            server = Server("explorer")
            pages.append(("now (served)", server.url + "?" + urlencode({"heads": HEADS, "text": LONG}),
                          ([], {})))  # split into chunks (app/client.py): functions by name, without their module
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        print(f"click_cost: script ms per query click, {len(LONG.split())} tokens x {HEADS} heads, "
              f"{args.clicks} clicks each")
        print("script: the script the renderer ran per click (DevTools ScriptDuration, less the probe's own 'floor');")
        print("style+layout: style and layout per click, whether the frame or script forced them (replaceState does);")
        print("in page: from the click's first listener to its last, the repaint and what it forced included")
        print(f"{'page':<18} {'CPU':>3} | {'script med':>10} {'p95':>6} {'max':>6} | {'style+layout med':>16} {'p95':>6} | "
              f"{'in page med':>11} {'p95':>6} | {'floor':>5}")
        try:
            for name, url, positions in pages:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable")
                open_view(page, url)
                for rate in (1, 4):
                    figures, floor = measure(page, cdp, args.clicks, rate)
                    script, layout, inpage = figures["script"], figures["layout"], figures["in page"]
                    print(f"{name:<18} {'x' + str(rate):>3} | {median(script):>10.1f} {percentile(script, 95):>6.1f} "
                          f"{max(script):>6.1f} | {median(layout):>16.1f} {percentile(layout, 95):>6.1f} | "
                          f"{median(inpage):>11.1f} {percentile(inpage, 95):>6.1f} | {floor:>5.1f}", flush=True)
                print(f"{name:<18} x1 | after the frame, once the student pauses: "
                      f"{after_pause(page, cdp, max(10, args.clicks // 4)):.1f} ms of script", flush=True)
                if args.profile:
                    print(f"  inclusive time per click, {name} (ms, sampled):")
                    for function, ms in profile(page, cdp, max(20, args.clicks // 2), positions):
                        print(f"    {ms:7.2f}  {function}")
                page.close()
        finally:
            browser.close()
            if server:
                server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
