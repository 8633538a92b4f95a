"""The static exporter: one self-contained HTML file with every view precomputed, no server needed."""
from __future__ import annotations

import base64
import hashlib
import io
import re
from pathlib import Path

import panel as pn
from bokeh.resources import CDN, Resources

from attention_core import PRESETS, custom_preset

from .explorer import AttentionView
from .sentences import preset_entries, sentence_entry
from .strings import text

# panel.min.js needs Bokeh's widgets and tables bundles; Bokeh's WebGL bundle is not used.
INLINE_COMPONENTS = ["bokeh", "bokeh-widgets", "bokeh-tables"]
PANEL_DIST = Path(pn.__file__).parent / "dist"
_CDN_CSS = re.compile(r"https://cdn\.holoviz\.org/panel/[^/\"']+/dist/([\w./-]+\.css)(\?v=[\w.]+)?")
_ICON_LINK = re.compile(r"<link rel=\"(?:apple-touch-icon|icon)\"[^>]*>")
_STRING_SET = re.compile(r'"type":"set","entries":\[((?:"[^"]*",?)*)\]')
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def build_entries(presets=None, sentences=()) -> list[dict]:
    """Preset entries (default: all) followed by one entry per extra sentence.

    Raises ValueError for an unknown preset name or a sentence the tokenizer rejects.
    """
    unknown = [name for name in presets or () if name not in PRESETS]
    if unknown:
        raise ValueError(f"unknown preset {unknown[0]!r}; choose from {', '.join(PRESETS)}")
    entries = list(preset_entries(presets))
    for number, sentence in enumerate(sentences, start=1):
        entries.append(sentence_entry(custom_preset(sentence), name=f"sentence-{number}"))
    return entries


def _data_url(match: re.Match) -> str:
    path = PANEL_DIST / match.group(1)
    if not path.is_file():
        return match.group(0)
    return "data:text/css;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def make_self_contained(html: str) -> str:
    """Inline Panel's CDN stylesheets as data: URLs and drop remote icon links, so nothing leaves the page."""
    return _ICON_LINK.sub("", _CDN_CSS.sub(_data_url, html))


def make_deterministic(html: str) -> str:
    """Sort serialized sets and replace Bokeh's random UUIDs by ids derived from the rest of the file.

    Each UUID becomes `ae-<n>-<digest>`, numbered in order of first appearance, so two
    exports of the same input are byte-identical.
    """
    # Python's set order changes with the per-process string hash seed; sort serialized sets.
    html = _STRING_SET.sub(
        lambda m: '"type":"set","entries":[' + ",".join(sorted(filter(None, m.group(1).split(",")))) + "]", html)
    found: dict[str, str] = {}
    digest = hashlib.sha256(_UUID.sub("", html).encode("utf-8")).hexdigest()[:12]
    for value in _UUID.findall(html):
        found.setdefault(value, f"ae-{len(found) + 1}-{digest}")
    return _UUID.sub(lambda m: found[m.group(0)], html)


def export_html(out, presets=None, sentences=(), lang: str = "ko", resources: str = "inline") -> int:
    """Write the explorer to `out` as one HTML file and return its size in bytes."""
    if resources not in ("inline", "cdn"):
        raise ValueError("resources must be 'inline' or 'cdn'")
    if lang not in ("ko", "en"):
        raise ValueError("lang must be 'ko' or 'en'")
    entries = build_entries(presets, sentences)
    view = AttentionView(sentences=entries, preset=entries[0]["name"], lang=lang, url_sync=True)
    bokeh_resources = Resources(mode="inline", components=INLINE_COMPONENTS) if resources == "inline" else CDN
    buffer = io.StringIO()
    view.save(buffer, resources=bokeh_resources, title=text("app_title", lang))
    html = buffer.getvalue()
    if resources == "inline":
        html = make_self_contained(html)
    html = make_deterministic(html)
    data = html.encode("utf-8")
    Path(out).write_bytes(data)
    return len(data)
