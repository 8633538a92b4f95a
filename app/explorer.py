"""The explorer component: state as params, drawing done in the browser from the state cube."""
from __future__ import annotations

from pathlib import Path

import param
from panel.custom import JSComponent
from panel.viewable import Viewer

from attention_core import DEFAULT_PRESET, PRESETS, InputError, Preset
from attention_core.attention import as_matrix

from .lab import CUSTOM, LIMITS, NUMBERS, answer_result, numbers_preset, sentence_preset, string_values
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
    limits = param.Dict(default=LIMITS, doc="Input limits the editor enforces (from the core).")

    _esm = STATIC / "explorer.js"
    _stylesheets = [(STATIC / "explorer.css").read_text(encoding="utf-8")]

    def __init__(self, own: Preset | None = None, **params):
        """own: the student's (or a notebook's) own Preset, named 'custom' or 'numbers', shown first."""
        params.setdefault("sentences", preset_entries())
        if own is not None:
            params.update(custom=sentence_entry(own, name=own.name), preset=own.name)
        params.setdefault("sizing_mode", "stretch_width")
        if "query" not in params:
            entries = params["sentences"] + ([params["custom"]] if params.get("custom") else [])
            entry = next((e for e in entries if e["name"] == params.get("preset", DEFAULT_PRESET)), entries[0])
            params.setdefault("preset", entry["name"])
            params["query"] = entry["default_query"]
        super().__init__(**params)
        self._own: dict[str, Preset] = {own.name: own} if own is not None else {}

    def current_preset(self) -> Preset:
        """The Preset on show: a built-in one, or the student's own sentence or numbers."""
        return self._own.get(self.preset) or PRESETS.get(self.preset) or PRESETS[DEFAULT_PRESET]

    def apply_sentence(self, text: str, query: int | None = None) -> bool:
        """Show a typed sentence; on bad input keep the current one and set sentence_error."""
        try:
            preset, entry = sentence_preset(text)
        except InputError as error:
            self.sentence_error = {"code": error.code, "values": string_values(error.values)}
            return False
        self._own[CUSTOM] = preset
        n = len(preset.tokens)
        wanted = isinstance(query, int) and not isinstance(query, bool) and 0 <= query < n
        self.param.update(custom=entry, sentence_text=" ".join(preset.tokens), sentence_error=None, answer=None,
                          preset=CUSTOM, query=query if wanted else n - 1,
                          heads=self.heads if self.heads in entry["cube"]["head_counts"] else 1)
        return True

    def apply_numbers(self, tokens, q, k, v) -> bool:
        """Show typed Q/K/V; on any bad cell keep everything and set grid_errors."""
        preset, entry, errors = numbers_preset(tokens, q, k, v, self.heads)
        if errors:
            self.grid_errors = errors
            return False
        self._own[NUMBERS] = preset
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
        if kind == "sentence":  # every field comes from the browser: trust no type
            self.apply_sentence(msg.get("text", ""), msg.get("query"))
        elif kind == "numbers":
            self.apply_numbers(msg.get("tokens"), msg.get("q"), msg.get("k"), msg.get("v"))
        elif kind == "check":
            self.check(msg.get("text", ""))


class AttentionExplorer(Viewer):
    """The explorer for a notebook or a page: `AttentionExplorer()` as a cell's last expression."""

    def __init__(self, presets=None, own: Preset | None = None, **params):
        """presets: names to offer (default: all); own: a Preset of your own numbers, shown first."""
        self.view = AttentionView(sentences=preset_entries(presets), own=own, **params)
        super().__init__()

    @classmethod
    def from_numbers(cls, tokens, q, k, v, title: str = "", **params) -> "AttentionExplorer":
        """An explorer of your own Q, K, V: tokens (n strings), q and k (n, d_model), v (n, dv_model).

        Raises ValueError, as attention_core does, when the numbers do not fit together.
        """
        own = Preset(name=NUMBERS, tokens=tuple(map(str, tokens)), q=as_matrix("Q", q), k=as_matrix("K", k),
                     v=as_matrix("V", v), title_ko=title or "내 숫자", title_en=title or "My numbers",
                     default_query=len(tokens) - 1)
        return cls(presets=params.pop("presets", None), own=own, **params)

    def __panel__(self):
        return self.view
