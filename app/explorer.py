"""The explorer component: state as params, drawing done in the browser from the state cube."""
from __future__ import annotations

from pathlib import Path

import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from attention_core import DEFAULT_PRESET, Preset
from attention_core.attention import as_matrix

from .sentences import preset_entries, sentence_entry
from .strings import LANGUAGES, STRINGS

STATIC = Path(__file__).parent / "static"


class AttentionView(JSComponent):
    """One explorer. Picking a token, a toggle or a head count changes these params in the
    browser, which repaints from the precomputed cube with no round trip; Python sees the
    new values afterwards (and can set them, e.g. from a notebook)."""

    sentences = param.List(default=[], doc="Sentence entries (app.sentences), each with its packed cube.")
    strings = param.Dict(default=STRINGS, doc="The UI string table.")
    preset = param.String(default=DEFAULT_PRESET, doc="Name of the sentence on show.")
    query = param.Integer(default=0, bounds=(0, None), doc="Index of the query token.")
    scale = param.Boolean(default=True, doc="Divide scores by √d_k.")
    causal = param.Boolean(default=False, doc="Mask future keys.")
    heads = param.Integer(default=1, bounds=(1, 8), doc="Number of heads.")
    head_view = param.Integer(default=-1, bounds=(-1, 7), doc="Head shown alone, or -1 for all.")
    lang = param.Selector(default="ko", objects=list(LANGUAGES))
    mode = param.Selector(default="normal", objects=["normal", "lecture"])
    url_sync = param.Boolean(default=False, doc="Read and write the page URL's query string.")

    _esm = STATIC / "explorer.js"
    _stylesheets = [(STATIC / "explorer.css").read_text(encoding="utf-8")]

    def __init__(self, **params):
        params.setdefault("sentences", preset_entries())
        params.setdefault("sizing_mode", "stretch_width")
        if "query" not in params:
            entry = next((e for e in params["sentences"] if e["name"] == params.get("preset", DEFAULT_PRESET)),
                         params["sentences"][0])
            params.setdefault("preset", entry["name"])
            params["query"] = entry["default_query"]
        super().__init__(**params)


class AttentionExplorer(Viewer):
    """The explorer for a notebook or a page: `AttentionExplorer()` as a cell's last expression."""

    def __init__(self, presets=None, **params):
        self.view = AttentionView(sentences=preset_entries(presets), **params)
        super().__init__()

    @classmethod
    def from_numbers(cls, tokens, q, k, v, title: str = "", **params) -> "AttentionExplorer":
        """An explorer of your own Q, K, V: tokens (n strings), q and k (n, d_model), v (n, dv_model).

        Raises ValueError, as attention_core does, when the numbers do not fit together.
        """
        preset = Preset(name="numbers", tokens=tuple(map(str, tokens)), q=as_matrix("Q", q), k=as_matrix("K", k),
                        v=as_matrix("V", v), title_ko=title or "내 숫자", title_en=title or "My numbers",
                        default_query=len(tokens) - 1)
        explorer = cls.__new__(cls)
        explorer.view = AttentionView(sentences=[sentence_entry(preset)], preset="numbers", **params)
        Viewer.__init__(explorer)
        return explorer

    def __panel__(self):
        return self.view
