"""Benchmark: the exported file's size (every preset, the practice problems, the trained model),
raw and gzipped, part by part, beside an earlier export of the same command.

    .venv/bin/python bench/export_size.py [--before OLD.html]

OLD.html: a file `attention-viz export` made with an earlier version (e.g. from main), so that the
two columns are the same command before and after a change.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.export import export_html, page_script, unpack  # noqa: E402

#: budget for the whole standalone file, raw bytes (issue 19)
BUDGET = 300_000


def parts(page: str) -> dict[str, str]:
    """The file's pieces as text: the whole, its script, its CSS, its state, and the state's
    biggest params as stored (the values stored once, where the file has them, apart); in a file
    whose state is packed, the packed part and the blobs, and the unpacked parts for reference."""
    state_text = re.search(r'id="ae-state">(.*?)</script>', page, re.S).group(1)
    state = json.loads(state_text)
    found = {"whole file": page, "loader (inline script)": page.split('<script type="module">', 1)[1], "state": state_text}
    if "script" in state:  # the explorer's script deflated beside the state (app.export.standalone_html)
        found["script (deflated, base64)"] = state["script"]
        found["script (inflated)"] = page_script(page)
    if "packed" in state:  # app.export.pack: the words, layouts and CSS deflated, the cubes' blobs apart
        found["packed (words, layouts, css)"] = state["packed"]
        found["blobs (cubes' numbers)"] = json.dumps(state["blobs"])
        state = unpack(state)
        found["unpacked: css"] = state["css"]
    else:
        found["css"] = re.search(r'id="ae-css">(.*?)</script>', page, re.S).group(1)
    if "shared" in state and "state" in state:  # values stored once (app.export.share_repeats)
        found["shared values"] = json.dumps(state["shared"], ensure_ascii=False, separators=(",", ":"))
        state = state["state"]
    for name in ("strings", "sentences", "practice_bank", "models"):  # as stored, without the shared values
        found[f"unpacked: state[{name!r}]"] = json.dumps(state.get(name), ensure_ascii=False, separators=(",", ":"))
    return found


def sizes(text: str) -> tuple[int, int]:
    data = text.encode("utf-8")
    return len(data), len(gzip.compress(data, 9))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, help="an earlier export of the same command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "all.html"
        export_html(out)
        now = parts(out.read_text(encoding="utf-8"))
    before = parts(args.before.read_text(encoding="utf-8")) if args.before else {}
    print(f"{'part':<34} {'before raw':>11} {'before gz':>10} {'now raw':>10} {'now gz':>10}")
    for name in dict.fromkeys([*now, *before]):
        old = sizes(before[name]) if name in before else None
        new = sizes(now[name]) if name in now else None
        cells = [f"{old[0]:>11,} {old[1]:>10,}" if old else f"{'':>11} {'':>10}",
                 f"{new[0]:>10,} {new[1]:>10,}" if new else f"{'':>10} {'':>10}"]
        print(f"{name:<34} {cells[0]} {cells[1]}")
    whole = sizes(now["whole file"])[0]
    print(f"budget {BUDGET:,} raw bytes: {'within' if whole <= BUDGET else f'over by {whole - BUDGET:,}'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
