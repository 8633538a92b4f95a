"""The browser tier: Debian's Chromium for Playwright, console-error capture, the served explorer."""
import pytest
from playwright.sync_api import expect

from app.figure import CHROMIUM, CHROMIUM_ARGS
from explorer_page import ExplorerPage
from support import SCREENSHOTS

# CI machines are shared and noisy: give a server round trip (typed sentence, edited cell)
# time to arrive before an expectation fails.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def shared_context(browser, browser_context_args):
    """One browser context for the whole tier. Its HTTP cache and compiled-script cache keep Bokeh's
    and Panel's JavaScript (1 MB gzipped, 3 MB to parse) after the first served page; a fresh
    context per test fetched and compiled it again for every page, most of the tier's time. The
    app keeps nothing in cookies or storage; a test that needs a context of its own (a phone) makes
    one with browser.new_context."""
    shared = browser.new_context(**browser_context_args)
    yield shared
    shared.close()


@pytest.fixture
def context(shared_context):
    """The shared context; the pages a test opened in it are closed after the test."""
    before = set(shared_context.pages)
    yield shared_context
    for opened in shared_context.pages:
        if opened not in before:
            opened.close()


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


@pytest.fixture
def in_file(page, exported, console_errors):
    """The exported file in a 1280×720 window: the same client with no server, for what the page
    does alone (a third of a served page's time to open); the test fails if the page logged an error."""
    page.set_viewport_size({"width": 1280, "height": 720})
    yield ExplorerPage(page, exported.as_uri())
    assert console_errors == []


@pytest.fixture(scope="session")
def screenshot_dir():
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS
