"""Write app/AttentionView.bundle.js and AttentionView.min.css again from static/ (the served page's client
and stylesheet, minified): run after changing either; tests/app/test_client.py fails while they
are out of date.

    .venv/bin/python scripts/bundle.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import client  # noqa: E402

if __name__ == "__main__":
    print(f"wrote {client.BUNDLE} and {client.STYLESHEET.name}" if client.write_bundle() else "the bundle is up to date")
