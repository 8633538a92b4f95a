"""Benchmark 2: the server's resident memory after a class of N students opens and leaves.

Starts the server with a short unused-session lifetime, opens N sessions at once, closes
them, waits past the lifetime, and compares resident memory with the baseline; for the bare
Panel page (bench/servers.py) and the explorer, one after the other in one run.

    .venv/bin/python bench/memory_after.py [--students 300]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import Server  # noqa: E402
from bench.session_open import open_sessions  # noqa: E402

LIFETIME_MS = 5000


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=300)
    args = parser.parse_args(argv)
    mb = 1024 * 1024
    print(f"memory after the class: {args.students} students, unused-session lifetime {LIFETIME_MS} ms")
    print(f"{'page':<10} {'baseline MB':>12} {'open MB':>14} {'after MB':>14} {'errors':>7}")
    for kind in ("bare", "explorer"):
        with Server(kind, unused_session_lifetime=LIFETIME_MS) as server:
            open_sessions(server.url, 10)  # warm up imports, caches and the first sessions
            time.sleep(LIFETIME_MS / 1000 + 20)
            baseline = server.rss_bytes()
            times, errors, sessions = open_sessions(server.url, args.students, keep_open=True)
            peak = server.rss_bytes()
            for session in sessions:
                session.close()
            time.sleep(LIFETIME_MS / 1000 + 25)
            after = server.rss_bytes()
        print(f"{kind:<10} {baseline / mb:>12.1f} {peak / mb:>8.1f} ({(peak - baseline) / mb:+5.1f}) "
              f"{after / mb:>8.1f} ({(after - baseline) / mb:+5.1f}) {len(errors):>7}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
