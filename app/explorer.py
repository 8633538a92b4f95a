"""The explorer component: state as params, drawing done in the browser from the state cube."""
from __future__ import annotations

import json
import logging

import param
from panel.config import config
from panel.custom import JSComponent
from panel.viewable import Viewer

from attention_core import DEFAULT_PRESET, PRESETS, InputError, Preset
from attention_core.attention import as_matrix
from attention_core.imported import from_attentions as imported_attentions
from attention_core.words import every_language

from . import client
from .constants import CONSTANTS, LANGUAGES, OWN_NUMBERS, OWN_SENTENCE
from .kinds import MODEL_KINDS, SENTENCE_KINDS, SOURCE_KINDS, entry_of, source_of, source_problem, travelling_later
from .lab import answer_result, error_dict
from .models import DEFAULT_SENTENCE, model_params, on_the_wire, page_sets
from .protocol import Made, Refused, checked_fields, reply, request_id, with_view
from .questions import question_table
from .sentences import preset_entries, sentence_entry
from .strings import STRINGS, first_strings
from .trained_model import default_training_entries, default_training_heads, named
from .view_params import ViewParams
from .view_requests import Requests


log = logging.getLogger(__name__)


#: A served link's model travels in the page's catalog text up to this many characters of entry;
#: a larger one (a real model's overview) is asked for as the page opens, and comes binary.
LINKED_MODEL_TEXT = 40_000


#: the constants only the modules a page loads on first use read (app/constants.py CONSTANTS, and a
#: room's question kinds): the answer checker's rule book (answer.js loads checker.js with the first
#: check), the rooms', lessons' and practice's
LATER_CONSTANTS = ("checker", "questions")


class AttentionView(JSComponent, ViewParams):
    """One explorer: the view's params (app/view_params.py), and the catalogs of what it offers.
    Picking a token, a toggle or a head count changes the params in the browser, which repaints
    from the precomputed cube with no round trip; Python sees the new values afterwards (and can
    set them, e.g. from a notebook)."""

    sentences = param.List(default=[], doc="Sentence entries (app.sentences), each with its packed cube.")
    strings = param.Dict(default=None, doc="The UI string table of the languages the page has, {lang: table}: a "
                                           "served page gets its language's, and another's when it switches to it "
                                           "(an exported file, every language).")
    rest_json = param.String(default=None, allow_None=True, doc="What a page gets when it first wants more than the "
                            "first screen: the constants only modules loaded on first use read (LATER_CONSTANTS), "
                            "as JSON; and with it every word of its languages. None while the page has the "
                            "first screen's alone (a served page, a notebook: app.strings.first_strings): it sets "
                            "`rest_wanted` before such a module draws, or when a word is missing.")
    rest_wanted = param.Boolean(default=False, doc="Set by the page: it wants the rest (`rest_json`).")
    practice_bank = param.List(default=[], doc="Practice problems carried whole (an exported file): entries "
                                                "of app.sentences.practice_entry, numbered from 1.")
    models = param.List(default=[], doc="Models on offer (app.models.model_entry): overview, summaries, and in an "
                                         "exported file every head's entry.")
    lesson = param.Dict(default=None, allow_None=True, doc="The lesson on show (app.lessons.Lesson.as_dict), checked "
                                                           "against the core; None: none. Its stop is the view's `stop`.")
    scorm = param.Dict(default=None, allow_None=True, doc="A SCORM 1.2 package's page (export --scorm): {mastery: the "
                                                          "score in percent that passes, or None; practice: the practice problems "
                                                          "graded, 1 to it (0: none)}; None: no LMS is looked for.")

    #: what Python offers, by the param holding it (a list or dict) and the param that carries it to
    #: the page as one JSON string: Bokeh's serializer walks a nested value element by element, twice
    #: a session (~5,700 values: 7.6 ms against 1.4 ms for the same as strings), so the nested params
    #: stay in Python (_rename: not synced) and the page parses each string once. (Not as bytes, which
    #: Bokeh would send unescaped in a binary frame: a page that reconnects pulls its document again,
    #: and BokehJS finds no buffer for a bytes property then: "buffer for id=… not found".)
    _catalogs = {"sentences": "sentences_json", "models": "models_json", "strings": "strings_json",
                 "practice_bank": "practice_bank_json", "lesson": "lesson_json"}
    _rename = {name: None for name in _catalogs}
    #: the model's properties only Python writes (the catalogs as the page receives them, the rest,
    #: Panel's name and tags): not linked back from the page, which costs Panel an inspect.signature
    #: per property and session (bench/session_open.py)
    _python_writes = frozenset({*_catalogs.values(), "rest_json", "name", "tags"})
    sentences_json = param.String(default="[]", doc="`sentences` as the page receives it: JSON.")
    models_json = param.String(default="[]", doc="`models` as the page receives it: JSON.")
    strings_json = param.String(default="{}", doc="`strings` as the page receives it: JSON.")
    practice_bank_json = param.String(default="[]", doc="`practice_bank` as the page receives it: JSON.")
    lesson_json = param.String(default="null", doc="`lesson` as the page receives it: JSON.")

    # Python's constants as the page receives them (the shared ones, and a room's question kinds):
    # one JSON text, made once, that the page parses; as a dict, Bokeh encoded its every key for
    # every session (2.7 ms of a session's opening: bench/session_open.py)
    _constants = {"json": json.dumps({key: value for key, value in CONSTANTS.items() if key not in LATER_CONSTANTS},
                                     ensure_ascii=False, separators=(",", ":"))}
    # … but for those only modules loaded on first use read (the checker's rule book, a room's
    # question kinds): a served page gets them with the rest (rest_json), an exported file in its state
    _rest_text = json.dumps({"constants": {**{key: CONSTANTS[key] for key in LATER_CONSTANTS if key in CONSTANTS},
                                           "questions": {"kinds": question_table()}}},
                            ensure_ascii=False, separators=(",", ":"))
    _esm = "served.js"  # bundled from static/explorer/ by esbuild (app/client.py): see _render_esm
    # the client bundled and minified (scripts/bundle.py): a served page fetches it over HTTP,
    # a notebook gets its text
    _bundle = client.BUNDLE
    # the chunks BUNDLE imports on first use (a room, …), which Panel serves as a component's _js files
    _js = [path.name for path in client.chunks()]
    # the client's CSS as a file: a served page links it, a notebook gets its text (Panel reads it)
    _stylesheets = [client.STYLESHEET]

    @property
    def _linked_properties(self) -> tuple[str, ...]:
        return tuple(name for name in super()._linked_properties if name not in self._python_writes)

    @classmethod
    def _esm_path(cls, compiled=True):
        # Panel's --dev watcher watches this path: the client's folder, so any module's change reloads it.
        return client.client_dir() if config.autoreload else super()._esm_path(compiled)

    @classmethod
    def _render_esm(cls, compiled=True, server=False):
        # `serve --dev`: built again for every page, readable and source-mapped (or the committed
        # bundle, where esbuild is not installed)
        if config.autoreload:
            return client.dev_bundle()
        # a served page fetches BUNDLE by URL and its chunks beside it; a page given the module's
        # text (a notebook, export --resources cdn) runs it from a blob: URL, where no chunk
        # resolves: it gets the client in one module
        return super()._render_esm(compiled, server) if server else client.NOTEBOOK.read_text(encoding="utf-8")

    def __init__(self, own: Preset | None = None, attention_sets: dict | None = None, checkpoint=None,
                 trained: bool = True, shared_heads=None, numbers_for: str | None = None, **params):
        """own: the student's (or a notebook's) own Preset, named OWN_SENTENCE or OWN_NUMBERS, shown first.
        attention_sets: model name → (AttentionSet, titles), the models whose heads Python makes
        when the page asks (their entries go in `models`); checkpoint: what a sentence typed
        while one of them is on show goes through (app.models.Typing: the checkpoint, and the one
        its heads are compared with). trained: offer the small model
        trained here (app.trained_model) where no models are given. shared_heads: the head
        entries of models every session shares (app.models.SharedHeads), made once.
        numbers_for (a served page): the name its link opens (its preset=). That entry and the one
        on show travel whole; every other preset and model travels as app.kinds.travelling_later,
        and the page asks for its whole entry (the `entry` request) when the student opens it."""
        params.setdefault("sentences", preset_entries())
        lang = params.get("lang", LANGUAGES[0])
        if "strings" not in params and params.get("url_sync"):
            # a page of its own (served): the first screen's words; the rest, and another language, when wanted
            params.update(strings={lang: first_strings(lang)}, rest_json=None)
        params.setdefault("strings", {lang: STRINGS[lang]})  # a notebook: its language's, another's when it switches
        params.setdefault("rest_json", self._rest_text)  # every word: the rest too
        attention_sets = dict(attention_sets or {})
        if trained and "models" not in params:
            entries, sets = default_training_entries()
            params["models"] = list(entries)
            attention_sets.update(sets)
            shared_heads = shared_heads or default_training_heads()
        if own is not None:
            kind = "sentence" if own.name == OWN_SENTENCE else "numbers"
            params["sentences"] = [sentence_entry(own, name=own.name, kind=kind)] + list(params["sentences"])
            params["source"] = {"kind": kind, "name": own.name}
            params.pop("preset", None)
        params.setdefault("sizing_mode", "stretch_width")
        entry = _opening_entry(params)
        if entry is not None:
            params["source"] = source_of(entry)
            if "query" not in params and entry["kind"] in SENTENCE_KINDS:
                params["query"] = entry["default_query"]
        super().__init__(**params)
        if config.autoreload:  # `serve --dev`: the stylesheet as static/ has it now
            self._stylesheets = [client.stylesheet()]
        #: what this session's requests made and the models they run (app/view_requests.py)
        self._session = Requests(lambda: (self.sentences, self.models), {own.name: own} if own is not None else {},
                                 attention_sets, checkpoint, shared_heads)
        #: the student's own presets by name, and the sentences and models this session's requests
        #: made (the newest of each name): what a page that lost them (a reconnect) gets back
        self._own, self._made = self._session.own, self._session.made
        #: why the last request from Python (a notebook's apply_… or open_…) was refused, or None
        self.refused: dict | None = None
        self._requests = self._session.table()
        self._sources_checked = True  # from here on, a source set is checked against the catalogs
        #: a served page's: the name its link opens (or, naming nothing on offer, the one on show),
        #: which alone travels whole; None: every entry does
        # (a sentence typed through a model, as its link names it: that model, which runs it again)
        linked = None if numbers_for is None else named(numbers_for, self.models)
        opening = next((e["name"] for e in [*self.sentences, *self.models]
                        if linked in (e["name"], e.get("typed_name"))), self.source["name"])
        self._opening = None if numbers_for is None else opening
        for name in self._catalogs:
            self._write_catalog(name)
        self.param.watch(lambda event: self._write_catalog(event.name), list(self._catalogs))

    @property
    def preset(self) -> str:
        """The name of the entry on show (read-only; kept for notebooks written before `source`):
        set `source` ({kind, name}) to show another."""
        return self.source["name"]

    def _check_source(self, source) -> None:
        """Raise ValueError saying why, for a source that is malformed or names no entry of its kind."""
        problem = source_problem(source)
        if problem is None and self._session.entry(source) is None:
            problem = _missing(source, [*self.sentences, *self.models, *self._made.values()])
        if problem is not None:
            raise ValueError(f"source {source!r}: {problem}")

    def _write_catalog(self, name: str) -> None:
        """The catalog `name` as the page receives it (its `<name>_json`): in a served page, the
        presets and models not on show (nor the link's) as app.kinds.travelling_later, and so the
        link's model too when its entry is large (the page asks for it at once, and the reply
        brings its overview as a binary frame, app.models.on_the_wire: a quarter smaller)."""
        value = getattr(self, name)
        if value is None:
            value = {}
        elif self._opening is not None and name in ("sentences", "models"):
            whole = lambda entry: entry["name"] == self._opening and (  # noqa: E731
                entry.get("kind") not in MODEL_KINDS or len(json.dumps(entry)) <= LINKED_MODEL_TEXT)
            value = [entry if whole(entry) or entry.get("kind") not in ("preset", *MODEL_KINDS)
                     else travelling_later(entry) for entry in value]
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        carried = self._catalogs[name]
        if getattr(self, carried) != text:
            setattr(self, carried, text)

    @param.depends("lang", watch=True)
    def _ship_language(self):
        """A page that switches to a language it has not got gets its words (the page shows the
        words it has until they arrive)."""
        if self.lang not in self.strings:
            self.strings = {**self.strings, self.lang: first_strings(self.lang) if self.rest_json is None else STRINGS[self.lang]}

    @param.depends("rest_wanted", watch=True)
    def _ship_rest(self):
        """A page about to draw a module loaded on first use (a room, a lesson…) gets the rest of
        its languages' words, then the constants such modules read (the page waits for these)."""
        if self.rest_wanted and self.rest_json is None:
            self.strings = {lang: STRINGS[lang] for lang in self.strings}
            self.rest_json = self._rest_text

    def _handle_msg(self, msg) -> None:
        """A request from the page: answered once, by id, with what it made or why not. Every
        field comes from the browser: trust no type (app.protocol checks them); never raise."""
        identifier = request_id(msg)
        if identifier is None:
            return  # nothing to answer to
        kind = msg.get("type") if isinstance(msg.get("type"), str) else ""
        try:
            kind, fields = checked_fields(msg)
            made = self._requests[kind](**fields)
            self._remember(made)
            answer = reply(identifier, kind, made=made)
        except Refused as refused:
            answer = reply(identifier, kind[:40], refused=refused)
        except Exception:  # a bug of ours: the page still gets its one reply, and is not left waiting
            log.exception("request %r failed", kind[:40])
            answer = reply(identifier, kind[:40], refused=Refused("internal"))
        self._send_msg(on_the_wire(answer))

    def _remember(self, made: Made) -> None:
        """The newest sentence and model entries of each name this session made, from the page or
        from Python."""
        self._made.update({e["name"]: e for e in made.entries if e.get("kind") in SENTENCE_KINDS + MODEL_KINDS})

    # ---- the same requests from Python (a notebook): what they make goes on offer and on show ----

    def _from_python(self, message: dict) -> bool:
        """A request made in Python, checked as the page's are (app.protocol), the fields it leaves
        out that name view params filled from this view."""
        try:
            kind, fields = checked_fields(with_view(message, self.param.values()))
            made = self._requests[kind](**fields)
        except Refused as refused:
            self.refused = refused.as_dict()
            return False
        self.refused = None
        self._remember(made)
        self._offer(made)
        return True

    def _offer(self, made: Made) -> None:
        """Put what a request made on offer (its sentences or models replace those of the same
        name) and show the view it opens."""
        models = [e for e in made.entries if e.get("kind") in MODEL_KINDS]
        sentences = [e for e in made.entries if e.get("kind") in SENTENCE_KINDS]
        changes = {}
        # what the page made since (its own numbers, its sentence through a model) is the newest
        newest = lambda entries: [self._made.get(e["name"], e) for e in entries]  # noqa: E731
        if models:
            names = {e["name"] for e in models}
            changes["models"] = newest([e for e in self.models if e["name"] not in names]) + models
        if sentences:
            names = {e["name"] for e in sentences}
            changes["sentences"] = newest([e for e in self.sentences if e["name"] not in names]) + sentences
        # the catalogs first: the view's source is checked against them
        self.param.update(**changes, **(made.view or {}))

    def apply_sentence(self, text, query: int | None = None) -> bool:
        """Show a typed sentence (through the model on show, when it takes typed sentences); on
        bad input keep everything and say why in `refused`."""
        wanted = query if isinstance(query, int) and not isinstance(query, bool) else None  # True is not token 1
        through = self.source["name"] if self.source["kind"] in MODEL_KINDS else None
        return self._from_python({"type": "sentence", "text": text, "query": wanted, "model": through})

    def apply_numbers(self, tokens, q, k, v) -> bool:
        """Show typed Q/K/V; on any bad cell keep everything and mark every bad cell in `refused`."""
        return self._from_python({"type": "numbers", "tokens": tokens, "q": q, "k": k, "v": v})

    def apply_layer(self, base: str, cells: dict) -> bool:
        """Show `base`'s layer with typed W_Q, W_K, W_V cells; on any bad cell keep everything
        and mark every bad cell in `refused`."""
        if not isinstance(cells, dict):
            self.refused = Refused("cells", cells=[error_dict("w", -1, -1, InputError("w_base", "no W to change"))]).as_dict()
            return False
        return self._from_python({"type": "layer", "base": base, **{name: cells.get(name) for name in ("w_q", "w_k", "w_v")}})

    def open_practice(self, number) -> bool:
        """Show practice problem `number` unsolved, in the exam's view; False (nothing changes) for a
        number with no problem."""
        try:  # one update of the catalog and the view (not _from_python's, then this one)
            _, fields = checked_fields({"type": "practice", "number": number})
            [entry] = self._session.practice(**fields).entries
        except Refused as refused:
            self.refused = refused.as_dict()
            return False
        self.refused = None
        self.param.update(sentences=[e for e in self.sentences if e.get("kind") != "practice"] + [entry],
                          source=source_of(entry), query=entry["practice"]["query"], heads=1, head_view=-1,
                          scale=True, causal=False, step=-1, checking=True)
        return True

    def open_head(self, model, layer, head, merge, special) -> bool:
        """Show one head of a model in one token view (the page asks for its entry); False (and
        `refused` set, nothing else changed) for a model, layer or head that does not exist."""
        try:  # checked as the page's request for the head is; the page asks for the entry once it shows it
            checked_fields({"type": "head", "model": model, "layer": layer, "head": head, "merge": merge, "special": special})
            self._session.head_set(model, layer, head)
        except Refused as refused:
            self.refused = refused.as_dict()
            return False
        shown = next((e for e in [*self.models, *self._made.values()] if e["name"] == model
                      and e.get("kind") in MODEL_KINDS), None)
        if shown is None:  # heads to make, but no entry on offer to show them through
            self.refused = Refused("head").as_dict()
            return False
        self.refused = None
        self.param.update(source=source_of(shown), layer=layer, head=head, merge=merge, special=special)
        return True

    def current_preset(self) -> Preset:
        """The Preset on show: a built-in one, or the student's own sentence or numbers."""
        name = self.source["name"] if self.source["kind"] in SENTENCE_KINDS else None
        return self._own.get(name) or PRESETS.get(name) or PRESETS[DEFAULT_PRESET]

    def check(self, text: str, view: dict | None = None, weights: str | None = None) -> dict:
        """Check a hand-computed output vector (the page checks its own answers; this is for a
        notebook), and end `checking` when it is right. `weights`: the weights the student typed
        beside it, if any (an output computed right from wrong weights is 'carried').

        view: {source, query, heads, head, scale, causal, all_heads} (a notebook's older `preset`,
        a name, stands for the source on show of that name); without it, the view these params name
        (head_view, or head 0 when all show, as static/explorer/snapshot.js shows it). The verdict
        carries the view it is about. A view that does not exist on this sentence gets the verdict
        'invalid', never a guess.
        """
        if view is None:
            alone = 0 <= self.head_view < self.heads
            view = {"source": self.source, "query": self.query, "heads": self.heads,
                    "head": self.head_view if alone else 0, "scale": self.scale, "causal": self.causal,
                    "all_heads": not alone and self.heads > 1}
        shown = _checked_view(view, self.source)
        if shown is None:
            return {"status": "invalid", "slip": "", "key": "err_view", "values": {}}
        if shown["source"] != self.source:  # a view that is not on show
            return {"status": "invalid", "slip": "", "key": "err_view", "values": {}, **shown}
        verdict = answer_result(self.current_preset(), text, weights=weights,
                                **{k: v for k, v in shown.items() if k != "source"})
        if verdict["status"] in ("correct", "rounded"):
            self.checking = False  # right: now the page may show the weights and the output
        return {**verdict, "source": dict(shown["source"])}


def _shared_parameters(component: type) -> None:
    """Make each of `component`'s own params (not Panel's) one Parameter object for every
    instance: Panel reads every param of a component for each session, and param copies a
    per-instance Parameter on its first read of each (1.2 ms of a session's opening, measured in
    process; bench/session_open.py). No session changes a Parameter's own attributes (its
    bounds, objects, default): their values stay each instance's own."""
    for name in component.param:
        if name not in JSComponent.param:
            component.param[name].per_instance = False


_shared_parameters(AttentionView)


def _checked_view(view: dict, on_show: dict) -> dict | None:
    """A description of a view, if it is well formed; `on_show`: the source on show, which an older
    view's `preset` (its name) stands for."""
    if not isinstance(view, dict):
        return None
    if "source" not in view and "preset" in view:  # a notebook's view from before sources: a name
        if view["preset"] != on_show["name"]:
            return None
        view = {**view, "source": on_show}
    source = view.get("source")
    numbers = [view.get(name) for name in ("query", "heads", "head")]
    flags = [view.get(name) for name in ("scale", "causal", "all_heads")]
    if source_problem(source) is not None \
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in numbers) \
            or not all(isinstance(x, bool) for x in flags):
        return None
    return dict(zip(("source", "query", "heads", "head", "scale", "causal", "all_heads"),
                    [{"kind": source["kind"], "name": source["name"]}] + numbers + flags))


def _opening_entry(params: dict) -> dict | None:
    """The entry a new view opens at, from its params (`preset` is taken out of them): the one its
    `source` names, else the one `preset` names (a model's first, as a link finds it), else the
    default preset (or the first sentence). Raises ValueError for a source or name that names no
    entry on offer."""
    sentences, models = params.get("sentences") or [], params.get("models") or []
    name = params.pop("preset", None)
    if "source" in params:
        source = params["source"]
        problem = source_problem(source)
        entry = None if problem else entry_of(source, sentences, models)
        if entry is None:
            raise ValueError(f"source {source!r}: {problem or _missing(source, [*sentences, *models])}")
        return entry
    if name is not None:
        name = named(name, models)  # "trained": the trained model at its last step
        entry = next((e for e in [*models, *sentences] if e.get("name") == name and e.get("kind") in SOURCE_KINDS), None)
        if entry is None:
            raise ValueError(f"unknown preset {name!r}: no sentence or model of that name is on offer")
        return entry
    return next((e for e in sentences if e["name"] == DEFAULT_PRESET), sentences[0] if sentences else None)


def _missing(source: dict, entries) -> str:
    """Why no entry answers `source`, in words, naming the kinds that do have its name."""
    others = sorted({e["kind"] for e in entries if e.get("name") == source["name"] and e.get("kind") != source["kind"]})
    where = "models" if source["kind"] in MODEL_KINDS else "sentences"
    hint = f" (there is a {' and a '.join(others)} of that name)" if others else ""
    return f"no {source['kind']} entry named {source['name']!r} among the {where} on offer{hint}"


class AttentionExplorer(Viewer):
    """The explorer for a notebook or a page: `AttentionExplorer()` as a cell's last expression."""

    def __init__(self, presets=None, own: Preset | None = None, **params):
        """presets: names to offer (default: all); own: a Preset of your own numbers, shown first."""
        self.view = AttentionView(sentences=preset_entries(presets), own=own, **params)
        super().__init__()

    @classmethod
    def from_model(cls, directory, text: str | list[str] = DEFAULT_SENTENCE, compare=None, **params) -> "AttentionExplorer":
        """A Hugging Face checkpoint directory (config.json, model.safetensors, tokenizer.json, as
        save_pretrained writes it; BERT, GPT-2 or the Llama family) run here in NumPy on `text` (or
        several sentences): every layer and head, with every step; compare: a second checkpoint
        directory of the same tokenizer and shape, each head then shows A1 - A2 against it.
        Raises ModelError naming what is wrong."""
        sets, typing = page_sets(directory, sentences=[text] if isinstance(text, str) else list(text), compare=compare)
        return cls(presets=params.pop("presets", None), **model_params(sets, checkpoint=typing), **params)

    @classmethod
    def from_attentions(cls, tokens, attentions, q=None, k=None, v=None, title: str = "", **params) -> "AttentionExplorer":
        """Attention weights computed elsewhere: tokens (n strings) and attentions as (layers,
        heads, n, n), the tuple outputs.attentions of transformers (batch 0), or CircuitsVis's
        (heads, n, n); with q, k, v (layers, heads, n, d_head) every step shows too. Raises
        ModelError saying what does not fit."""
        aset = imported_attentions(tokens, attentions, q, k, v)
        titles = {lang: title or words for lang, words in every_language("imported", "titles").items()}
        return cls(presets=params.pop("presets", None), **model_params([("imported", aset, titles)]), **params)

    @classmethod
    def from_numbers(cls, tokens, q, k, v, title: str = "", **params) -> "AttentionExplorer":
        """An explorer of your own Q, K, V: tokens (n strings), q and k (n, d_model), v (n, dv_model).

        Raises ValueError, as attention_core does, when the numbers do not fit together.
        """
        titles = {lang: title or words for lang, words in every_language("my_numbers_plain", "titles").items()}
        own = Preset(name=OWN_NUMBERS, tokens=tuple(map(str, tokens)), q=as_matrix("Q", q), k=as_matrix("K", k),
                     v=as_matrix("V", v), title_ko=titles["ko"], title_en=titles["en"], origin="numbers",
                     default_query=len(tokens) - 1)
        return cls(presets=params.pop("presets", None), own=own, **params)

    def __panel__(self):
        return self.view
