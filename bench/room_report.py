"""Benchmark: a room's report (app/report.py) at 300 and 2,000 students, on both stores (this
process's memory, and Debian's redis-server started for the run).

For each size: a room, that many students joined, ten questions asked on the book's sentence (which
key, what-ifs, typed outputs with honest and slipped answers), every student answering each; then
the lecturer closes the room and asks for its report. Printed: the time from the close message to
the records in hand (the close keeps them: Redis reads every question's counts and first-answer
times), the report's CSV written, and the report asked for again after the close (kept).
The issue's goal: ready within 2 s of closing at 2,000 students.

    .venv/bin/python bench/room_report.py
"""
from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np  # noqa: E402

from app.questions import answer_value, make_question  # noqa: E402
from app.report import report_csv  # noqa: E402
from app.view_params import room_defaults  # noqa: E402
from attention_core import PRESETS, attention  # noqa: E402

SIZES = (300, 2000)
VIEW = {**room_defaults(), "source": {"kind": "preset", "name": "meet-friend"}, "query": 1, "heads": 1, "head_view": -1,
        "scale": True, "causal": True, "lang": "ko"}
#: the ten questions: (kind, change)
ASKED = [("top_key", None), ("what_if", "scale"), ("output", None), ("what_if", "causal"), ("top_key", None),
         ("output", None), ("what_if", "heads"), ("top_key", None), ("output", None), ("what_if", "scale")]


def _typed(values) -> str:
    return ", ".join(f"{x:.3f}" for x in values)


def _answers():
    """A student's possible answers to an output question: honest, and two slips."""
    preset = PRESETS["meet-friend"]
    out = lambda **s: attention(preset.q, preset.k, preset.v, heads=1, **{"scale": True, "causal": True, **s}).output[0][1]  # noqa: E731
    return [_typed(out()), _typed(np.round(out(), 2)), _typed(out(scale=False)), _typed(out(causal=False))]


async def one_room(rooms, students: int) -> dict:
    opened = await rooms.open()
    code, secret = opened.code, opened.secret
    names = [f"s{i:05d}" for i in range(students)]
    for batch in range(0, students, 200):
        await asyncio.gather(*(rooms.join(code, name) for name in names[batch:batch + 200]))
    await rooms.drive(code, secret, VIEW)
    typed = _answers()
    for kind, change in ASKED:
        poll, _ = await rooms.ask(code, secret, lambda view, k=kind, c=change: make_question(view, k, c))
        kept = [answer_value(poll, typed[i % len(typed)] if kind == "output" else i % poll.choices) for i in range(4)]
        for batch in range(0, students, 200):
            await asyncio.gather(*(rooms.answer(code, name, poll.number, kept[i % 4])
                                   for i, name in enumerate(names[batch:batch + 200], start=batch)))
    began = time.perf_counter()
    await rooms.close(code, secret)
    records = await rooms.report(code, secret)
    ready = time.perf_counter() - began
    began = time.perf_counter()
    csv_text = report_csv(records, "ko")
    written = time.perf_counter() - began
    began = time.perf_counter()
    again = await rooms.report(code, secret)
    asked_again = time.perf_counter() - began
    assert again == records and len(records) == len(ASKED) and all(r["answered"] == students for r in records)
    return {"ready": ready, "csv": written, "again": asked_again, "bytes": len(csv_text.encode("utf-8"))}


async def run(kind: str, url: str | None) -> None:
    from room_pages import new_store

    for students in SIZES:
        figures = []
        for _ in range(3):
            rooms = await new_store(kind, url)
            figures.append(await one_room(rooms, students))
        ready = statistics.median(f["ready"] for f in figures)
        print(f"{kind:6} {students:5} students, {len(ASKED)} questions: close → report ready median {ready * 1000:.0f} ms "
              f"(worst {max(f['ready'] for f in figures) * 1000:.0f} ms); CSV written {statistics.median(f['csv'] for f in figures) * 1000:.1f} ms, "
              f"{figures[0]['bytes']:,} B; asked again after the close {statistics.median(f['again'] for f in figures) * 1000:.1f} ms",
              flush=True)


def main() -> None:
    from support import redis_server

    asyncio.run(run("memory", None))
    with redis_server() as url:
        asyncio.run(run("redis", url))


if __name__ == "__main__":
    main()
