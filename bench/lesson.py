"""Benchmark: lessons (docs/lessons.md). For each built-in lesson:

  size      the exported file carrying it (`export --lesson`), against the file without one
  step      the time from a clicker's PageDown to the new stop's weights on screen, in the
            exported file and in the served app: milliseconds (median and worst over the stops)
            and animation frames, measured in the page (the key event dispatched there, the rAF
            after the lesson says the new stop and the weights table is painted)
  alone     the whole lesson walked alone on a 390x844 phone, offline (the exported file): every
            stop, every prediction answered right, the summary at the end; wall time

    .venv/bin/python bench/lesson.py
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playwright.sync_api import expect, sync_playwright  # noqa: E402

from app.figure import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from app.lesson_check import page_lesson  # noqa: E402
from app.lessons import lesson_names, read_lesson  # noqa: E402
from bench.common import Server  # noqa: E402
from browser.test_classroom_browser import FIND_ROOT  # noqa: E402
from support import run_export  # noqa: E402

#: in the page: PageDown, then animation frames until the lesson shows stop `wanted` and the page
#: is ready with its weights painted: {ms, frames}
STEP = """async ([root, wanted]) => {
  const lesson = root.querySelector('[data-testid=lesson]');
  const start = performance.now();
  window.dispatchEvent(new KeyboardEvent('keydown', {key: 'PageDown', bubbles: true}));
  let frames = 0;
  for (;;) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    frames += 1;
    if (lesson.dataset.stop === String(wanted) && root.dataset.status === 'ready') break;
    if (frames > 600) return {ms: NaN, frames};
  }
  await new Promise((resolve) => requestAnimationFrame(resolve));  // the frame that paints it
  return {ms: performance.now() - start, frames: frames + 1};
}"""


def walk(page, url: str, stops: int) -> list[dict]:
    page.goto(url)
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", "1", timeout=30_000)
    expect(page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
    root = page.evaluate_handle(FIND_ROOT)  # the explorer's element (in Panel's shadow root when served)
    return [page.evaluate(STEP, [root, stop]) for stop in range(2, stops + 1)]


def alone(page, url: str, name: str) -> float:
    """Seconds to walk lesson `name` alone, answering every prediction right."""
    lesson = page_lesson(read_lesson(name))
    began = time.perf_counter()
    page.goto(url + "&mode=self")
    box = page.locator("[data-testid=lesson]")
    expect(box).to_have_attribute("data-stop", "1", timeout=30_000)
    for index, stop in enumerate(lesson["stops"], start=1):
        expect(box).to_have_attribute("data-stop", str(index))
        question = stop.get("question")
        if question and question["kind"] == "output":
            page.locator("[data-testid=lesson-predict-input]").fill(", ".join(f"{x:.3f}" for x in question["detail"]["exact"]))
            page.locator("[data-testid=lesson-predict-submit]").click()
        elif question:
            page.locator(f"[data-testid=lesson-predict-choice-{question['truth']}]").click()
            page.locator("[data-testid=lesson-predict-submit]").click()
        if question:
            expect(page.locator("[data-testid=lesson-verdict]")).to_have_attribute("data-status", "correct")
        if index < len(lesson["stops"]):
            page.locator("[data-testid=lesson-next]").click()
    expect(page.locator("[data-testid=lesson-summary]")).to_be_visible()
    return time.perf_counter() - began


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-lesson-"))
    plain = folder / "plain.html"
    run_export(plain)
    print(f"exported file without a lesson: {plain.stat().st_size:,} bytes")
    with Server("explorer") as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in lesson_names():
            stops = len(read_lesson(name).stops)
            out = folder / f"{name}.html"
            run_export(out, "--lesson", name)
            print(f"\n{name}: {stops} stops; exported file {out.stat().st_size:,} bytes "
                  f"(+{out.stat().st_size - plain.stat().st_size:,})")
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            for where, url in (("exported", f"{out.as_uri()}?lesson={name}&mode=lecture"),
                               ("served", f"{server.url}?lesson={name}&mode=lecture")):
                steps = walk(page, url, stops)
                ms = [step["ms"] for step in steps]
                frames = [step["frames"] for step in steps]
                print(f"  PageDown to the stop's weights, {where}: median {statistics.median(ms):.0f} ms "
                      f"({statistics.median(frames):.0f} frames), worst {max(ms):.0f} ms ({max(frames)} frames), "
                      f"over {len(steps)} stops")
            page.close()
            phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
            phone.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file:") else route.abort())
            seconds = alone(phone.new_page(), f"{out.as_uri()}?lesson={name}", name)
            print(f"  walked alone on a 390x844 phone, offline, every prediction right: {seconds:.1f} s (scripted)")
            phone.close()
        browser.close()


if __name__ == "__main__":
    main()
