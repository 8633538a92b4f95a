"""Write app/AttentionView.bundle.js again from static/explorer/ (the served page's client,
assembled and minified): run after changing the client; tests/app/test_client.py fails while the
file is out of date.

    .venv/bin/python scripts/bundle.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import client  # noqa: E402

if __name__ == "__main__":
    print(f"wrote {client.BUNDLE}" if client.write_bundle() else f"{client.BUNDLE} is up to date")
