"""Write app/AttentionView.bundle.js, app/standalone.bundle.js and app/AttentionView.min.css again
from static/ (the client bundled by esbuild, minified; the stylesheet minified): run after changing
static/; tests/app/test_client.py fails while they are out of date. Needs esbuild
(scripts/ensure-esbuild.sh, which `make test` runs).

    .venv/bin/python scripts/bundle.py [--dev]

--dev: also write each bundle's source map beside it (<bundle>.map, not committed), to read a
position in the minified client (a browser's error, a profile) back as file and line.
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import client  # noqa: E402

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", action="store_true", help="also write each bundle's source map beside it")
    wrote = client.write_bundle(maps=parser.parse_args().dev)
    print("\n".join(f"wrote {path.relative_to(ROOT)}" for path in wrote) or "the bundles are up to date")
