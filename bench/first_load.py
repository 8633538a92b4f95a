"""Benchmark 8: the bytes a browser's first load of the served page costs, over the wire.

Headless Chromium opens the page through a counting TCP proxy on loopback, so every byte the
server sends (HTTP responses as compressed, websocket frames as compressed, headers too) is
counted once; Chromium's own network events split the total into HTTP and websocket. A bare
Panel page (bench/servers.py) and the explorer, side by side in one run, each loaded
`--loads` times in a fresh browser context (no cache); medians.

    .venv/bin/python bench/first_load.py [--loads 3] [--each]
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.common import CHROMIUM, CHROMIUM_ARGS, Server, free_port, median  # noqa: E402

#: what shows that each page has drawn (Playwright's locators see into shadow roots)
READY = {"bare": "input", "explorer": "[data-testid=weights-table]"}


class CountingProxy:
    """A TCP proxy on 127.0.0.1:port to the server's port that counts the bytes each way."""

    def __init__(self, port: int, upstream: int):
        self.port, self.upstream = port, upstream
        self.down = self.up = 0
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait(10)

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", self.port))
        ready.set()
        self.loop.run_forever()

    async def _client(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        try:
            await asyncio.gather(self._pump(reader, up_writer, "up"), self._pump(up_reader, writer, "down"))
        except asyncio.CancelledError:  # the proxy closing at the end of a measurement
            pass

    async def _pump(self, reader, writer, direction):
        try:
            while data := await reader.read(65536):
                if direction == "up":
                    self.up += len(data)
                else:
                    self.down += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    def reset(self):
        self.down = self.up = 0

    def close(self):
        asyncio.run_coroutine_threadsafe(self._shutdown(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    async def _shutdown(self):
        self.server.close()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def load_once(browser, url: str, ready: str) -> dict:
    """One first load in a fresh context: HTTP bytes on the wire and decoded, websocket frames' payloads."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes = {"http_wire": 0, "http_body": 0, "ws_in": 0, "ws_out": 0, "ws_frames": 0, "requests": 0}
    urls = {}

    def response(event):
        urls[event["requestId"]] = event["response"]["url"]

    each = {}

    def finished(event):
        sizes["http_wire"] += event["encodedDataLength"]
        sizes["requests"] += 1
        name = urls.get(event["requestId"], "?").rsplit("/", 1)[-1].split("?")[0] or "/"
        each[name] = each.get(name, 0) + event["encodedDataLength"]

    def frame(event, key):
        payload = len(event["response"]["payloadData"].encode("utf-8"))
        sizes[key] += payload
        sizes["ws_frames"] += 1
        if key == "ws_in":
            each[f"websocket frame {sizes['ws_frames']} (payload, before the socket's deflate)"] = payload

    cdp.on("Network.responseReceived", response)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.webSocketFrameReceived", lambda e: frame(e, "ws_in"))
    cdp.on("Network.webSocketFrameSent", lambda e: frame(e, "ws_out"))
    page.goto(url)
    page.locator(ready).first.wait_for(timeout=60_000)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1500)
    sizes["each"] = each
    sizes["scripts"] = sorted(u.rsplit("/", 1)[-1].split("?")[0] for u in urls.values() if ".js" in u)
    context.close()
    return sizes


def measure(browser, kind: str, loads: int) -> dict:
    proxy_port = free_port()
    with Server(kind, extra=["--allow-websocket-origin", f"127.0.0.1:{proxy_port}"]) as server:
        proxy = CountingProxy(proxy_port, server.port)
        try:
            url = f"http://127.0.0.1:{proxy_port}/"
            load_once(browser, url, READY[kind])  # warm up the server's caches
            runs = []
            for _ in range(loads):
                proxy.reset()
                sizes = load_once(browser, url, READY[kind])
                sizes["wire_down"], sizes["wire_up"] = proxy.down, proxy.up
                runs.append(sizes)
        finally:
            proxy.close()
    summary = {key: median([r[key] for r in runs]) for key in runs[0] if key not in ("scripts", "each")}
    summary["scripts"], summary["each"] = runs[0]["scripts"], runs[0]["each"]
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--each", action="store_true", help="list every response's bytes (the first load)")
    args = parser.parse_args(argv)
    results = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for kind in ("bare", "explorer"):
            results[kind] = measure(browser, kind, args.loads)
        browser.close()
    print(f"first load over the wire, headless Chromium, median of {args.loads} loads (bytes)")
    print(f"{'page':<10} {'server→browser':>15} {'browser→server':>15} {'HTTP wire':>11} {'ws payload in':>14} "
          f"{'requests':>9}")
    for kind, m in results.items():
        print(f"{kind:<10} {m['wire_down']:>15,.0f} {m['wire_up']:>15,.0f} {m['http_wire']:>11,.0f} "
              f"{m['ws_in']:>14,.0f} {m['requests']:>9.0f}")
    bare, ours = results["bare"], results["explorer"]
    print(f"explorer - bare, server→browser: {ours['wire_down'] - bare['wire_down']:+,.0f} bytes "
          f"({ours['wire_down'] / bare['wire_down']:.2f}x)")
    for kind, m in results.items():
        print(f"{kind} scripts: {', '.join(m['scripts'])}")
    if args.each:
        for kind, m in results.items():
            print(f"{kind}, each response (encoded bytes on the wire, headers included):")
            for name, size in sorted(m["each"].items(), key=lambda item: -item[1]):
                print(f"  {size:>9,} {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
