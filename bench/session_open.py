"""Benchmark 1: N students open the app at once over real websocket sessions.

Reports p50/p95 time to a full document, server CPU and memory per session and errors,
for the explorer and for a bare Panel page served the same way, in the same run.

With --rounds R both servers run side by side and each N is measured R times, alternating which
page goes first; the ratio is of the medians (the machines are shared and noisy).

    .venv/bin/python bench/session_open.py [--students 100 300] [--rounds 3] [--num-procs 1] [--url URL]
"""
from __future__ import annotations

import argparse
import re
import sys
import urllib.request
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import panel  # noqa: F401,E402  (registers Panel's models so pulled documents resolve)
import bokeh.client.connection  # noqa: E402
from bokeh.client import pull_session  # noqa: E402
from bokeh.util.token import get_session_id  # noqa: E402

from app import AttentionView  # noqa: E402
from bench.common import Server, median, percentile  # noqa: E402

# The explorer's data model class is made when a view is first built; build one so that
# pulled documents can name it.
AttentionView().get_root()


def _offering_compression(connect):
    """Bokeh's client connects without offering permessage-deflate; a browser offers it, and the
    server then compresses every frame: offer it here too, so the server's CPU is a browser's."""
    def websocket_connect(request, **kwargs):
        return connect(request, compression_options={}, **kwargs)
    return websocket_connect


bokeh.client.connection.websocket_connect = _offering_compression(bokeh.client.connection.websocket_connect)

TOKEN = re.compile(r'"token":\s*"([^"]+)"')
STUDENT_COOKIE = re.compile(r"ae_student=([^;]+)")


def open_like_a_browser(url: str):
    """What a browser does: GET the page (the server runs the app for a new session and renders
    the template), then connect that session's websocket and pull the whole document."""
    with urllib.request.urlopen(url, timeout=300) as response:
        html = response.read().decode("utf-8")
        cookie = STUDENT_COOKIE.search(response.headers.get("Set-Cookie", "") or "")
    match = TOKEN.search(html)
    if not match:
        raise RuntimeError("no session token in the page")
    session_id = get_session_id(match.group(1))
    # behind deploy/'s nginx, the sticky key a browser would send as a cookie
    arguments = {"ae_student": cookie.group(1)} if cookie else None
    return pull_session(session_id=session_id, url=url, arguments=arguments)


def is_expected_page(root) -> bool:
    """The explorer's single component with its source, or the bare page's Column; not an error page."""
    data = getattr(root, "data", None)
    if data is not None and type(data).__name__.startswith("AttentionView"):
        return bool((getattr(data, "source", None) or {}).get("name"))
    return type(root).__name__ == "Column" and len(root.children) == 1


def open_sessions(url: str, students: int, keep_open: bool = False):
    """Open `students` sessions at once; return (seconds per session, errors, open sessions)."""
    start = threading.Barrier(students)
    sessions, times, errors = [], [], []
    lock = threading.Lock()

    def student(_):
        start.wait()
        began = time.perf_counter()
        try:
            session = open_like_a_browser(url)
            roots = session.document.roots
            if not roots or not is_expected_page(roots[0]):
                raise RuntimeError(f"unexpected document: {[type(r).__name__ for r in roots]}")
            elapsed = time.perf_counter() - began
            with lock:
                times.append(elapsed)
                sessions.append(session)
        except Exception as error:  # a failed student is a figure, not a crash
            with lock:
                errors.append(repr(error)[:200])

    with ThreadPoolExecutor(max_workers=students) as pool:
        list(pool.map(student, range(students)))
    if not keep_open:
        for session in sessions:
            session.close()
        sessions = []
    return times, errors, sessions


def measure(server: Server, students: int) -> dict:
    rss_before, cpu_before = server.rss_bytes(), server.cpu_seconds()
    times, errors, sessions = open_sessions(server.url, students, keep_open=True)
    time.sleep(0.5)
    cpu = server.cpu_seconds() - cpu_before
    rss = server.rss_bytes() - rss_before
    for session in sessions:
        session.close()
    return {"students": students, "p50": median(times), "p95": percentile(times, 95), "errors": len(errors),
            "cpu_per_session_ms": 1000 * cpu / students, "rss_per_session_kb": rss / students / 1024,
            "first_error": errors[0] if errors else ""}


def measure_running(args) -> int:
    """Benchmark an explorer someone else started (deploy/run-loopback.sh), counting the given pids."""
    server = Server.attach(args.url, args.server_pids)
    print(f"session open through {args.url}: app processes {args.server_pids}")
    print(f"{'page':<10} {'N':>5} {'p50 s':>8} {'p95 s':>8} {'CPU ms/s':>10} {'RSS kB/s':>10} {'errors':>6}")
    open_sessions(args.url, 5)
    for students in args.students:
        cpu_before = [server.cpu_of(pid) for pid in args.server_pids]
        m = measure(server, students)
        spread = [server.cpu_of(pid) - before for pid, before in zip(args.server_pids, cpu_before)]
        print(row("explorer", m), flush=True)
        print(f"           CPU seconds per app process: {', '.join(f'{x:.1f}' for x in spread)}")
        if m["first_error"]:
            print(f"           first error: {m['first_error']}")
        time.sleep(2)
    return 0


def row(name: str, m: dict) -> str:
    return (f"{name:<10} {m['students']:>5} {m['p50']:>8.2f} {m['p95']:>8.2f} {m['cpu_per_session_ms']:>10.1f} "
            f"{m['rss_per_session_kb']:>10.0f} {m['errors']:>6}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--num-procs", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=1, help="measurements of each N per page, alternating")
    parser.add_argument("--url", help="measure an already running explorer (e.g. behind nginx) instead")
    parser.add_argument("--server-pids", type=int, nargs="+", default=[],
                        help="with --url: the app processes whose CPU and memory to count")
    args = parser.parse_args(argv)
    if args.url:
        return measure_running(args)
    print(f"session open: {args.students} students at once, num_procs={args.num_procs}")
    print(f"{'page':<10} {'N':>5} {'p50 s':>8} {'p95 s':>8} {'CPU ms/s':>10} {'RSS kB/s':>10} {'errors':>6}")
    results = {}
    with Server("bare", num_procs=args.num_procs) as bare_server, Server("explorer", num_procs=args.num_procs) as ours_server:
        servers = {"bare": bare_server, "explorer": ours_server}
        for server in servers.values():
            open_sessions(server.url, 5)  # warm up imports and caches
        for students in args.students:
            for round_ in range(args.rounds):
                for kind in (("bare", "explorer") if round_ % 2 == 0 else ("explorer", "bare")):
                    m = measure(servers[kind], students)
                    results.setdefault((kind, students), []).append(m)
                    print(row(kind, m), flush=True)
                    if m["first_error"]:
                        print(f"           first error: {m['first_error']}")
                    time.sleep(2)
    for students in args.students:
        cpu = {kind: median([m["cpu_per_session_ms"] for m in results[(kind, students)]]) for kind in ("bare", "explorer")}
        p95 = {kind: median([m["p95"] for m in results[(kind, students)]]) for kind in ("bare", "explorer")}
        print(f"N={students}: explorer/bare server CPU per session = {cpu['explorer'] / cpu['bare']:.2f}x "
              f"(medians of {args.rounds}: {cpu['explorer']:.1f} vs {cpu['bare']:.1f} ms), "
              f"p95 {p95['explorer']:.1f} s vs {p95['bare']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
