"""Benchmark 4: bytes a student downloads, and the size of a preset's data against plain JSON.

    .venv/bin/python bench/payload.py
"""
from __future__ import annotations

import json
import sys
import tempfile

import numpy as np
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from app.export import export_html  # noqa: E402
from app.sentences import preset_entries  # noqa: E402
from attention_core import PRESETS, state_cube  # noqa: E402
from bench.common import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402


def as_json_lists(name: str) -> int:
    """The same numbers the payload holds, as JSON lists of lists at full precision."""
    p = PRESETS[name]
    cube = state_cube(p.tokens, p.q, p.k, p.v)
    data = {"q": p.q.tolist(), "k": p.k.tolist(), "v": p.v.tolist(), "blocks": {}}
    for h in cube.head_counts:
        pick = cube.result
        data["blocks"][h] = {
            "scores": pick(h, False, False).scores.tolist(),
            "scaled": pick(h, True, False).scaled.tolist(),
            "weights": [[pick(h, s, c).weights.tolist() for c in (False, True)] for s in (False, True)],
            "output": [[pick(h, s, c).output.tolist() for c in (False, True)] for s in (False, True)],
        }
    return len(json.dumps(data).encode())


def first_load_bytes(url: str) -> tuple[int, int, int]:
    """(HTTP bytes on the wire, the same bodies decoded, websocket bytes received) for one page load in Chromium."""
    wire, decoded, ws = [0], [0], [0]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()

        def on_response(response):
            if not response.url.startswith("http"):
                return  # blob: modules the page makes itself travel nowhere
            try:
                body = len(response.body())
                sizes = response.request.sizes()
                decoded[0] += body
                wire[0] += sizes["responseBodySize"] + sizes["responseHeadersSize"]
            except Exception as error:  # a response with no body (a redirect): nothing to count
                print(f"  (not counted: {response.url}: {error})", file=sys.stderr)

        page.on("response", on_response)
        page.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: ws.__setitem__(0, ws[0] + len(payload if isinstance(payload, bytes)
                                                                           else payload.encode()))))
        page.goto(url)
        page.locator("[data-testid=weights-table]").wait_for(timeout=30_000)
        page.wait_for_timeout(1000)
        browser.close()
    return wire[0], decoded[0], ws[0]


def main() -> int:
    print("payload (bytes)")
    print(f"{'preset':<15} {'tokens':>6} {'cube payload':>13} {'JSON lists':>11} {'ratio':>6}")
    for entry in preset_entries():
        ours = len(json.dumps(entry["cube"]).encode())
        plain = as_json_lists(entry["name"])
        print(f"{entry['name']:<15} {entry['cube']['n']:>6} {ours:>13,} {plain:>11,} {ours / plain:>6.2f}")
    # what every page carries besides the cubes: the constants the core measured once
    from app.constants import CONSTANTS
    for name in ("why_scale", "polysemy", "order", "checker", "practice"):
        print(f"constants[{name!r}] as JSON: {len(json.dumps(CONSTANTS[name], ensure_ascii=False).encode()):,}")
    cat = next(entry for entry in preset_entries() if entry["name"] == "cat-fish")
    sizes = {name: int(np.prod(spec["shape"])) for name, spec in cat["cube"]["layout"].items()}
    layer = sum(size for name, size in sizes.items() if name.startswith("layer/"))
    print(f"cat-fish's layer arrays (E, P, X, W_Q, W_K, W_V): {layer} of its cube's {sum(sizes.values())} numbers")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "all.html"
        size = export_html(out)
        lean = export_html(Path(tmp) / "lean.html", practice=0)
        one = export_html(Path(tmp) / "one.html", presets=["meet-friend"])
        small = export_html(Path(tmp) / "cdn.html", presets=["meet-friend"], resources="cdn")
    print(f"exported file, inline, every preset and 100 practice problems: {size:,}")
    print(f"exported file, inline, every preset, no practice problems:    {lean:,}"
          f" (a practice problem: {(size - lean) / 100:,.0f})")
    print(f"exported file, inline, meet-friend:  {one:,}")
    print(f"exported file, cdn, meet-friend:     {small:,}")
    with Server("explorer") as server:
        wire, decoded, ws = first_load_bytes(server.url)
    print(f"served first load: HTTP {wire:,} on the wire ({decoded:,} decoded, gzip saves {1 - wire / decoded:.0%})"
          f" + websocket {ws:,} = {wire + ws:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
