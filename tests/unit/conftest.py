"""The unit tier runs in seconds because it is the core alone: a test here that starts a process
fails, and `pytest tests/unit` fails when its modules pull in Panel, Bokeh or Playwright."""
import subprocess
import sys

import pytest

HEAVY = ("panel", "bokeh", "playwright")
#: what pytest's own plugins loaded before any test module (pytest-playwright loads playwright)
PRELOADED = {name for name in HEAVY if name in sys.modules}


@pytest.fixture(autouse=True)
def no_processes(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a unit test starts no process: move it to tests/app")
    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


def pytest_collection_finish(session):
    only_unit = session.items and all("unit" in item.keywords for item in session.items)
    loaded = [name for name in HEAVY if name in sys.modules and name not in PRELOADED]
    if only_unit and loaded:
        raise pytest.UsageError(f"the unit tier imported {', '.join(loaded)}: move that test to tests/app")
