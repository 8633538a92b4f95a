"""Shared fixtures: Debian's Chromium for Playwright, a served app, and console-error capture."""
import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.figure import CHROMIUM, CHROMIUM_ARGS
from explorer_page import ExplorerPage

# CI machines are shared and noisy: give a server round trip (typed sentence, edited cell)
# time to arrive before an expectation fails.
expect.set_options(timeout=15_000)

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stdout.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server at {url} did not answer in {timeout} s")


@contextlib.contextmanager
def running(command, ready_url: str, timeout: float = 60.0, cwd=ROOT):
    """A server subprocess, from the moment ready_url answers until the block ends."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_http(ready_url, process, timeout=timeout)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def served_app():
    """The app as a newcomer runs it: `attention-viz serve` in its own process. Yields the base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with running([sys.executable, "-m", "app.cli", "serve", "--port", str(port)], url):
        yield url


def run_export(out, *extra, env=None) -> str:
    """`attention-viz export OUT *extra` as a user types it; returns what it printed."""
    return subprocess.run([sys.executable, "-m", "app.cli", "export", str(out), *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True).stdout


EXPORTED_SENTENCE = "오늘 아침 우리는 도서관에서 책을 읽었다"


@pytest.fixture(scope="session")
def exported(tmp_path_factory):
    """The default export (every preset) plus one typed sentence, written once per run."""
    out = tmp_path_factory.mktemp("export") / "lecture.html"
    printed = run_export(out, "--sentence", EXPORTED_SENTENCE)
    assert f"wrote {out}" in printed and "bytes" in printed
    return out


@pytest.fixture
def console_errors(page):
    """Console errors and uncaught exceptions of the page; tests assert it stays empty."""
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    return errors


@pytest.fixture
def explorer(page, served_app, console_errors):
    """The served explorer in a 1280×720 window; the test fails if the page logged an error."""
    page.set_viewport_size({"width": 1280, "height": 720})
    yield ExplorerPage(page, served_app)
    assert console_errors == []


@pytest.fixture(scope="session")
def screenshot_dir():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
