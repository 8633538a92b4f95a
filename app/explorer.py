"""The explorer component: state as params, drawing done in the browser from the state cube."""
from __future__ import annotations

from pathlib import Path

import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from attention_core import DEFAULT_PRESET, PRESETS, InputError, Preset
from attention_core.attention import as_matrix

from .lab import CUSTOM, NUMBERS, answer_result, numbers_preset, sentence_preset
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
    step = param.Integer(default=-1, bounds=(-1, 5), doc="Step-by-step reveal: -1 shows everything, 0-5 one step.")
    lab = param.Boolean(default=True, doc="Offer the parts that need Python: own sentence, own numbers, answer check.")
    custom = param.Dict(default=None, allow_None=True, doc="Entry of the student's own sentence or numbers.")
    sentence_text = param.String(default="", doc="The student's own sentence, as applied.")
    sentence_error = param.Dict(default=None, allow_None=True, doc="Why the last typed sentence was refused.")
    grid_errors = param.List(default=[], doc="Invalid cells of the numbers editor.")
    answer = param.Dict(default=None, allow_None=True, doc="The answer checker's last verdict.")

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
        self._own: Preset | None = None

    def current_preset(self) -> Preset:
        """The Preset on show: a built-in one, or the student's own sentence or numbers."""
        if self._own is not None and self.preset == self._own.name:
            return self._own
        return PRESETS.get(self.preset) or PRESETS[DEFAULT_PRESET]

    def apply_sentence(self, text: str, query: int | None = None) -> bool:
        """Show a typed sentence; on bad input keep the current one and set sentence_error."""
        try:
            preset, entry = sentence_preset(text)
        except InputError as error:
            self.sentence_error = {"code": error.code, "values": {k: str(v) for k, v in error.values.items()}}
            return False
        self._own = preset
        n = len(preset.tokens)
        self.param.update(custom=entry, sentence_text=" ".join(preset.tokens), sentence_error=None, answer=None,
                          preset=CUSTOM, query=query if isinstance(query, int) and 0 <= query < n else n - 1,
                          heads=self.heads if self.heads in entry["cube"]["head_counts"] else 1)
        return True

    def apply_numbers(self, tokens, q, k, v) -> bool:
        """Show typed Q/K/V; on any bad cell keep everything and set grid_errors."""
        preset, entry, errors = numbers_preset(tokens, q, k, v, self.heads)
        if errors:
            self.grid_errors = errors
            return False
        self._own = preset
        self.param.update(custom=entry, grid_errors=[], answer=None, preset=NUMBERS, sentence_text="",
                          query=min(self.query, len(preset.tokens) - 1))
        return True

    def check(self, text: str) -> dict:
        """Check a hand-computed output vector for the selected query and head."""
        head = self.head_view if 0 <= self.head_view < self.heads else 0
        self.answer = answer_result(self.current_preset(), text, query=self.query, heads=self.heads, head=head,
                                    scale=self.scale, causal=self.causal)
        return self.answer

    def _handle_msg(self, msg) -> None:
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "sentence":
            self.apply_sentence(msg.get("text", ""), msg.get("query"))
        elif kind == "numbers":
            self.apply_numbers(msg.get("tokens"), msg.get("q"), msg.get("k"), msg.get("v"))
        elif kind == "check":
            self.check(msg.get("text", ""))


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
