"""Tiers, by folder: tests/unit (the core: no Panel, no browser, no process), tests/students
(simulated students on the checkers: the core alone, a minute), tests/app (Panel, no
browser), tests/browser (Playwright driving Debian's Chromium). Each test gets its folder's marker,
so `-m unit`, `-m app` and `-m browser` select a tier wherever pytest is pointed."""
import sys

import pytest

from support import EXPORTED_SENTENCE, ROOT, free_port, redis_server, run_export, running

TIERS = ("unit", "students", "app", "browser")


def pytest_collection_modifyitems(items):
    for item in items:
        parts = item.path.relative_to(ROOT / "tests").parts
        if parts[0] not in TIERS:
            raise pytest.UsageError(f"{item.nodeid}: a test lives in one of tests/{{{','.join(TIERS)}}}")
        item.add_marker(getattr(pytest.mark, parts[0]))


@pytest.fixture(scope="session")
def served_app():
    """The app as a newcomer runs it: `attention-viz serve` in its own process. Yields the base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with running([sys.executable, "-m", "app.cli", "serve", "--port", str(port)], url):
        yield url


@pytest.fixture(scope="session")
def redis_url():
    """Debian's redis-server, started for the run (`make test` installs it); the tests of rooms
    across processes are skipped, saying why, only where it is not installed."""
    import shutil

    if not (shutil.which("redis-server") or __import__("os").path.exists("/usr/bin/redis-server")):
        pytest.skip("redis-server is not installed here (make test installs Debian's: scripts/ensure-redis.sh)")
    with redis_server() as url:
        yield url


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    """The default export (every preset) plus one typed sentence, written once per run."""
    out = tmp_path_factory.mktemp("export") / "lecture.html"
    printed = run_export(out, "--sentence", EXPORTED_SENTENCE)
    assert f"wrote {out}" in printed and "bytes" in printed
    return out
