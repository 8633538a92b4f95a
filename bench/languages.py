"""Benchmark: what shipping ONE language would save. The words of both languages travel in every
page today (the string table, each entry's titles and captions); this prints the bytes of the
other language in the page's payload, raw and gzipped, for the served page's params and for the
exported file's state. It measures, and ships nothing differently.

    .venv/bin/python bench/languages.py
"""
from __future__ import annotations

import gzip
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import AttentionView  # noqa: E402
from app.constants import CONSTANTS  # noqa: E402
from attention_core.words import LANGUAGES  # noqa: E402

#: the params that carry data to the page (the view params are a few bytes each)
PAYLOAD = ("sentences", "strings", "practice_bank", "models")


def only(value, lang: str):
    """The value with `lang`'s words alone: the string table's other languages, and every
    {ko: …, en: …} (titles, captions), cut to `lang`."""
    if isinstance(value, dict):
        if value and set(value) <= set(LANGUAGES) and lang in value:
            return {lang: only(value[lang], lang)}
        return {key: only(item, lang) for key, item in value.items()}
    if isinstance(value, list):
        return [only(item, lang) for item in value]
    return value


def sizes(payload, ascii: bool) -> tuple[int, int]:
    """(raw, gzipped) bytes of the payload as the JSON the page receives: Bokeh's encoder writes
    non-ASCII as \\uXXXX escapes (ascii=True, 6 bytes a syllable), the exported file as UTF-8 (3)."""
    data = json.dumps(payload, ensure_ascii=ascii, separators=(",", ":")).encode()
    return len(data), len(gzip.compress(data, 6))


def report(name: str, payload: dict, ascii: bool) -> None:
    raw, zipped = sizes(payload, ascii)
    print(f"{name}: {raw:,} bytes raw, {zipped:,} gzipped")
    words = {key: value for key, value in payload.items() if key == "strings"}
    print(f"  of which the string table (both languages): {sizes(words, ascii)[0]:,} raw, {sizes(words, ascii)[1]:,} gzipped")
    for lang in LANGUAGES:
        one_raw, one_zipped = sizes(only(payload, lang), ascii)
        print(f"  {lang} alone: {one_raw:,} raw ({raw - one_raw:,} saved, {(raw - one_raw) / raw:.1%}), "
              f"{one_zipped:,} gzipped ({zipped - one_zipped:,} saved, {(zipped - one_zipped) / zipped:.1%})")


def main() -> int:
    served = AttentionView()
    report("served page's params", {name: getattr(served, name) for name in PAYLOAD} | {"_constants": CONSTANTS}, ascii=True)
    # the exported file's state (every preset, 100 practice problems, the trained model's banked
    # heads), caught as export_html writes it
    from app import export
    states, write = [], export.standalone_html
    export.standalone_html = lambda view, lang: states.append(export.view_state(view)) or write(view, lang)
    with tempfile.TemporaryDirectory() as tmp:
        export.export_html(Path(tmp) / "explorer.html")
    report("exported file's state", states[0], ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
