"""The explorer component: state as params, drawing done in the browser from the state cube."""
from __future__ import annotations

import param
from panel.config import config
from panel.custom import JSComponent
from panel.viewable import Viewer

from attention_core import DEFAULT_PRESET, PRESETS, InputError, Preset
from attention_core.attention import as_matrix
from attention_core.practice import practice_preset, practice_problem

from . import client
from .constants import (CONSTANTS, HEAD_CHOICES, LANGUAGES, MAX_MODEL_CHARS, MODEL_TOP_K, MODES, OWN_MODEL, OWN_NUMBERS,
                        OWN_SENTENCE, STEPS, WHY_D)
from attention_core.imported import from_attentions as imported_attentions

from attention_core.heads import token_groups
from attention_core.transformer import ModelError

from .trained_model import default_training_entries, default_training_heads, family_name, training_entries
from .models import DEFAULT_SENTENCE, checkpoint_sets, default_query, head_entry, model_entry, model_params, sentence_set, view_code
from .lab import answer_result, error_dict, layer_preset, numbers_preset, sentence_preset, string_values
from .sentences import practice_entry, preset_entries, sentence_entry
from .strings import STRINGS


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
    heads = param.Selector(default=HEAD_CHOICES[0], objects=list(HEAD_CHOICES),
                           doc="Number of heads; the browser shows 1 where the sentence does not offer it.")
    head_view = param.Integer(default=-1, bounds=(-1, max(HEAD_CHOICES) - 1), doc="Head shown alone, or -1 for all.")
    lang = param.Selector(default=LANGUAGES[0], objects=list(LANGUAGES))
    mode = param.Selector(default=MODES[0], objects=list(MODES))
    url_sync = param.Boolean(default=False, doc="Read and write the page URL's query string.")
    step = param.Integer(default=-1, bounds=(-1, STEPS - 1),
                         doc="Step-by-step reveal: -1 shows everything, 0 to STEPS - 1 one step.")
    lab = param.Boolean(default=True, doc="Offer the parts that need Python: own sentence, own numbers, answer check.")
    custom = param.Dict(default=None, allow_None=True, doc="Entry of the student's own sentence or numbers.")
    sentence_text = param.String(default="", doc="The student's own sentence, as applied.")
    sentence_error = param.Dict(default=None, allow_None=True, doc="Why the last typed sentence was refused.")
    grid_errors = param.List(default=[], doc="Invalid cells of the numbers editor.")
    layer_errors = param.List(default=[], doc="Invalid cells of the W_Q, W_K, W_V editor.")
    answer = param.Dict(default=None, allow_None=True, doc="The answer checker's last verdict.")
    why_d = param.Selector(default=WHY_D, objects=list(CONSTANTS["why_scale"]["dimensions"]),
                           doc="The d of the 'why √d' view.")
    position = param.Boolean(default=True, doc="The order view adds its position vectors.")
    practice_bank = param.List(default=[], doc="Practice problems carried whole (an exported file): entries "
                                                "of app.sentences.practice_entry, numbered from 1.")
    practice_entry = param.Dict(default=None, allow_None=True, doc="The practice problem last asked of Python.")
    models = param.List(default=[], doc="Models on offer (app.models.model_entry): overview, summaries, and in an "
                                         "exported file every head's entry.")
    layer = param.Integer(default=0, bounds=(0, None), doc="A model's layer shown, from 0.")
    head = param.Integer(default=0, bounds=(0, None), doc="A model's head shown, from 0.")
    merge = param.Boolean(default=True, doc="A model's tokens as whole 어절 (sum over key pieces, mean over query "
                                            "pieces), or as its sub-word tokens.")
    special = param.Boolean(default=False, doc="Show a model's special tokens ([CLS], [SEP], …).")
    top_k = param.Integer(default=MODEL_TOP_K, bounds=(1, None), doc="A model's lines and bars show this many "
                                                                     "strongest keys.")
    threshold = param.Number(default=0.0, bounds=(0.0, 1.0), doc="… and only keys of at least this weight.")
    head_entry = param.Dict(default=None, allow_None=True, doc="The model head last asked of Python.")
    model_error = param.Dict(default=None, allow_None=True, doc="Why the last head or model sentence was refused.")
    checking = param.Boolean(default=False, doc="The student works an answer: the weights and the output "
                                                "stay hidden until it is right, or revealed.")

    _constants = CONSTANTS
    _esm = "explorer.js"  # assembled from static/explorer/ by app/client.py: see _render_esm
    _stylesheets = [client.stylesheet()]

    @classmethod
    def _esm_path(cls, compiled=True):
        # Panel's --dev watcher watches this path: the client's folder, so any module's change reloads it.
        return client.client_dir() if config.autoreload else None

    @classmethod
    def _render_esm(cls, compiled=True, server=False):
        return client.assemble() if config.autoreload else client.assembled()

    def __init__(self, own: Preset | None = None, attention_sets: dict | None = None, checkpoint=None,
                 trained: bool = True, shared_heads=None, **params):
        """own: the student's (or a notebook's) own Preset, named OWN_SENTENCE or OWN_NUMBERS, shown first.
        attention_sets: model name → (AttentionSet, titles), the models whose heads Python makes
        when the page asks (their entries go in `models`); checkpoint: the loaded checkpoint a
        sentence typed while one of them is on show goes through. trained: offer the small model
        trained here (app.trained_model) where no models are given. shared_heads: the head
        entries of models every session shares (app.models.SharedHeads), made once."""
        params.setdefault("sentences", preset_entries())
        attention_sets = dict(attention_sets or {})
        if trained and "models" not in params:
            entries, sets = default_training_entries()
            params["models"] = list(entries)
            attention_sets.update(sets)
            shared_heads = shared_heads or default_training_heads()
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
        self._sets: dict = attention_sets
        self._checkpoint = checkpoint
        self._shared = shared_heads

    def open_head(self, model, layer, head, merge, special) -> bool:
        """Send one head of a model, in one token view, to the page; False (and model_error set,
        nothing else changed) for a model, layer or head that does not exist."""
        found = self._sets.get(model) if isinstance(model, str) else None
        numbers = (layer, head)
        if found is None or not all(isinstance(x, int) and not isinstance(x, bool) for x in numbers) \
                or not all(isinstance(x, bool) for x in (merge, special)):
            self.model_error = {"code": "err_head", "values": {}}
            return False
        aset, titles = found
        if not (0 <= layer < aset.layers and 0 <= head < aset.heads):
            self.model_error = {"code": "err_head_range", "values": {"layers": aset.layers, "heads": aset.heads}}
            return False
        code = view_code(merge, special)
        shared = self._shared.get(model, aset, layer, head, code) if self._shared is not None else None
        entry = shared or head_entry(aset, model, titles, layer, head, code)
        if entry is self.head_entry or entry == self.head_entry:
            self.param.trigger("head_entry")  # the page asks again (its copy went): send it again
        self.param.update(head_entry=entry, model_error=None)
        return True

    def current_preset(self) -> Preset:
        """The Preset on show: a built-in one, or the student's own sentence or numbers."""
        return self._own.get(self.preset) or PRESETS.get(self.preset) or PRESETS[DEFAULT_PRESET]

    def apply_sentence(self, text: str, query: int | None = None) -> bool:
        """Show a typed sentence; on bad input keep the current one and set sentence_error. With
        a checkpoint's model on show, the sentence goes through the model (as OWN_MODEL)."""
        entry = next((m for m in self.models if m["name"] == self.preset), None)
        if entry is not None and entry.get("typable"):
            return self._apply_model_sentence(text, query, entry)
        try:
            preset, entry = sentence_preset(text)
        except InputError as error:
            self.sentence_error = {"code": error.code, "values": string_values(error.values)}
            return False
        self._own[OWN_SENTENCE] = preset
        wanted = isinstance(query, int) and not isinstance(query, bool) and 0 <= query < len(preset.tokens)
        self.param.update(custom=entry, sentence_text=" ".join(preset.tokens), sentence_error=None, answer=None,
                          grid_errors=[], preset=OWN_SENTENCE, query=query if wanted else preset.default_query)
        return True

    def _apply_model_sentence(self, text, query, shown: dict) -> bool:
        """The typed sentence through the model on show: a checkpoint's (as OWN_MODEL), or the
        trained model's at every saved step (its family + "-own", opened at the step on show)."""
        training = shown.get("training")
        try:
            if not isinstance(text, str) or len(text) > MAX_MODEL_CHARS:
                raise InputError("model_sentence", "too long", detail=f"at most {MAX_MODEL_CHARS} characters")
            if training:
                family = training["family"].removesuffix("-own") + "-own"
                made, sets = training_entries(text, family)
                made = [{**entry, "typed": True} for entry in made]
                name = family_name(training["step"], family)
            else:
                name, aset, titles = sentence_set(self._checkpoint, OWN_MODEL, text)
                made, sets = [{**model_entry(aset, name, titles), "typable": True, "typed": True}], {name: (aset, titles)}
        except ModelError as error:
            self.sentence_error = {"code": "model_sentence", "values": {"detail": str(error)}}
            return False
        except InputError as error:
            self.sentence_error = {"code": error.code, "values": string_values(error.values)}
            return False
        self._sets.update(sets)
        aset = sets[name][0]
        replaced = set(sets)
        models = [entry for entry in self.models if entry["name"] not in replaced] + made
        groups = token_groups(aset, self.merge, self.special)
        wanted = isinstance(query, int) and not isinstance(query, bool) and 0 <= query < len(groups)
        self.param.update(models=models, sentence_text=text, sentence_error=None, preset=name,
                          query=query if wanted else default_query(aset, self.merge, self.special), scale=True,
                          causal=aset.causal)
        return True

    def apply_numbers(self, tokens, q, k, v) -> bool:
        """Show typed Q/K/V; on any bad cell keep everything and set grid_errors."""
        preset, entry, errors = numbers_preset(tokens, q, k, v, self.heads)
        if errors:
            self.grid_errors = errors
            return False
        self._own[OWN_NUMBERS] = preset
        self.param.update(custom=entry, grid_errors=[], answer=None, preset=OWN_NUMBERS, sentence_text="",
                          query=min(self.query, len(preset.tokens) - 1))
        return True

    def open_practice(self, number) -> bool:
        """Send practice problem `number` to the page, which opens it unsolved; False (and nothing
        changes) for a number with no problem."""
        try:
            entry = practice_entry(number)
        except InputError:
            return False
        self._own[entry["name"]] = practice_preset(practice_problem(number))  # for check() and current_preset()
        self.practice_entry = entry
        return True

    def apply_layer(self, base: str, cells: dict) -> bool:
        """Show `base`'s layer with typed W_Q, W_K, W_V cells; on any bad cell keep everything
        and set layer_errors. `base` must show where its Q, K, V come from."""
        preset = self._own.get(base) or PRESETS.get(base) if isinstance(base, str) else None
        if preset is None or preset.layer is None or not isinstance(cells, dict):
            self.layer_errors = [error_dict("w", -1, -1, InputError("w_base", "no W to change"))]
            return False
        own, entry, errors = layer_preset(preset, cells)
        if errors:
            self.layer_errors = errors
            return False
        self._own[OWN_NUMBERS] = own
        self.param.update(custom=entry, layer_errors=[], grid_errors=[], answer=None, preset=OWN_NUMBERS,
                          sentence_text="", query=min(self.query, len(own.tokens) - 1))
        return True

    @param.depends("preset", watch=True)
    def _forget_grid_errors(self):
        """Errors of the numbers editor are about the grid of the sentence they were typed on."""
        if self.grid_errors and self.preset != OWN_NUMBERS:
            self.grid_errors = []

    def check(self, text: str, view: dict | None = None) -> dict:
        """Check a hand-computed output vector.

        view: the view on screen, as the browser resolved it ({preset, query, heads, head, scale,
        causal}); without it, the view these params name (head_view, or head 0 when all show).
        A view that does not exist on this sentence gets the verdict 'invalid', never a guess.
        """
        if view is None:  # as the page shows it (static/explorer/snapshot.js headViewShown): all heads → head 1
            alone = 0 <= self.head_view < self.heads
            view = {"preset": self.preset, "query": self.query, "heads": self.heads,
                    "head": self.head_view if alone else 0, "scale": self.scale, "causal": self.causal,
                    "all_heads": not alone and self.heads > 1}
        shown = _checked_view(view)
        if shown is None:
            self.answer = {"status": "invalid", "slip": "", "key": "err_view", "values": {}}
        elif shown["preset"] != self.preset:  # the page moved on before the answer arrived
            self.answer = {"status": "invalid", "slip": "", "key": "err_view", "values": {}, **shown}
        else:
            self.answer = answer_result(self.current_preset(), text, **{k: v for k, v in shown.items() if k != "preset"})
            if self.answer["status"] in ("correct", "rounded"):
                self.checking = False  # right: now the page may show the weights and the output
        return self.answer

    def _handle_msg(self, msg) -> None:
        if not isinstance(msg, dict):
            return
        kind = msg.get("type")
        if kind == "sentence":  # every field comes from the browser: trust no type
            self.apply_sentence(msg.get("text", ""), msg.get("query"))
        elif kind == "numbers":
            self.apply_numbers(msg.get("tokens"), msg.get("q"), msg.get("k"), msg.get("v"))
        elif kind == "layer":
            self.apply_layer(msg.get("base"), {name: msg.get(name) for name in ("w_q", "w_k", "w_v")})
        elif kind == "practice":
            self.open_practice(msg.get("number"))
        elif kind == "head":
            self.open_head(msg.get("model"), msg.get("layer"), msg.get("head"), msg.get("merge"), msg.get("special"))
        elif kind == "check":
            self.check(msg.get("text", ""), view=msg.get("view") if isinstance(msg.get("view"), dict) else {})


def _checked_view(view: dict) -> dict | None:
    """The browser's description of the view on screen, if it is well formed."""
    preset = view.get("preset")
    numbers = [view.get(name) for name in ("query", "heads", "head")]
    flags = [view.get(name) for name in ("scale", "causal", "all_heads")]
    if not isinstance(preset, str) or len(preset) > 200 \
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in numbers) \
            or not all(isinstance(x, bool) for x in flags):
        return None
    return dict(zip(("preset", "query", "heads", "head", "scale", "causal", "all_heads"), [preset] + numbers + flags))


class AttentionExplorer(Viewer):
    """The explorer for a notebook or a page: `AttentionExplorer()` as a cell's last expression."""

    def __init__(self, presets=None, own: Preset | None = None, **params):
        """presets: names to offer (default: all); own: a Preset of your own numbers, shown first."""
        self.view = AttentionView(sentences=preset_entries(presets), own=own, **params)
        super().__init__()

    @classmethod
    def from_model(cls, directory, text: str | list[str] = DEFAULT_SENTENCE, **params) -> "AttentionExplorer":
        """A Hugging Face checkpoint directory (config.json, model.safetensors, tokenizer.json, as
        save_pretrained writes it; BERT or GPT-2) run here in NumPy on `text` (or several
        sentences): every layer and head, with every step. Raises ModelError naming what is wrong."""
        from attention_core.checkpoint import load_checkpoint

        checkpoint = load_checkpoint(directory)
        sentences = [text] if isinstance(text, str) else list(text)
        return cls(presets=params.pop("presets", None),
                   **model_params(checkpoint_sets(checkpoint, sentences), checkpoint=checkpoint), **params)

    @classmethod
    def from_attentions(cls, tokens, attentions, q=None, k=None, v=None, title: str = "", **params) -> "AttentionExplorer":
        """Attention weights computed elsewhere: tokens (n strings) and attentions as (layers,
        heads, n, n), the tuple outputs.attentions of transformers (batch 0), or CircuitsVis's
        (heads, n, n); with q, k, v (layers, heads, n, d_head) every step shows too. Raises
        ModelError saying what does not fit."""
        aset = imported_attentions(tokens, attentions, q, k, v)
        titles = {"ko": title or "가져온 어텐션", "en": title or "Imported attention"}
        return cls(presets=params.pop("presets", None), **model_params([("imported", aset, titles)]), **params)

    @classmethod
    def from_numbers(cls, tokens, q, k, v, title: str = "", **params) -> "AttentionExplorer":
        """An explorer of your own Q, K, V: tokens (n strings), q and k (n, d_model), v (n, dv_model).

        Raises ValueError, as attention_core does, when the numbers do not fit together.
        """
        own = Preset(name=OWN_NUMBERS, tokens=tuple(map(str, tokens)), q=as_matrix("Q", q), k=as_matrix("K", k),
                     v=as_matrix("V", v), title_ko=title or "내 숫자", title_en=title or "My numbers", origin="numbers",
                     default_query=len(tokens) - 1)
        return cls(presets=params.pop("presets", None), own=own, **params)

    def __panel__(self):
        return self.view
