"""A lesson checked against the core (`attention-viz lesson check FILE`, and before `serve` or
`export` takes one): each stop's view is one the page opens without a notice, its question is one a
room can ask of that view, and what it says of its numbers is true.

  the view    every parameter one the page's link reads (app/view_params.py, and the own ones
              url.js reads), of its kind and range; the preset one there is; the query inside the
              sentence; a head count the sentence offers; the head shown among them
  the ask     app.questions.make_question on the stop's view: a room's refusal is the stop's problem
  claims      `top TOKEN` (the query's heaviest key at three decimals), `weight|score|scaled TOKEN
              VALUE` (the query's number for that key, at VALUE's decimals), `output VALUE, …`,
              `masked TOKEN` (a weight of exactly 0), `flip SWITCH OUTCOME` (what flipping √d or the
              mask does to the row: app.questions.what_if_outcome's words)
  the notes   every sentence of note, note_en, speaker, speaker_en read for what it asserts
              (app.note_reader: a number of a key, a row, the largest key, equal weights, 0 or
              almost 0, sharper or flatter without √d or with the mask, d_k, …) and checked
              against the stop's numbers (app.note_check): a note never says what the page
              would not show
  the card    one the stop's view shows
  questions   real questions (app/stop_shows.py, in the modes a question is worked from the screen):
              refused where the stop shows what decides the answer while it is held (its view, its
              card, its note: read off), where the screen lacks what the answer is worked from
              (unworkable, saying what is missing), or where an earlier stop of the same view
              showed the answer (unless the stop says `recall:`)

Returns the problems found, each a LessonError naming the stop and line.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import asdict, dataclass
from urllib.parse import parse_qsl

import numpy as np

from attention_core import PRESETS, words
from attention_core.attention import attention
from attention_core.errors import InputError
from attention_core.practice import MAX_PROBLEM, practice_preset, practice_problem

from .constants import OWN_SENTENCE
from .lab import sentence_preset
from .lessons import CARDS, Lesson, LessonError, Stop, read_lesson
from .note_check import False_, check_said, decimals, worded
from .note_reader import read_note
from .stop_shows import answered_step, deciding, missing, read_off, shown as stop_shown
from .questions import make_question, model_row, what_if_outcome
from .rooms import RoomError
from .strings import text
from .trained_model import FAMILY, named
from .view_params import STEPS, param_value, room_defaults, view_table


@dataclass(frozen=True)
class StopView:
    """A stop's view read: the room's view dict (app/rooms.py), the preset it shows (None for a
    model's head), and its tokens as shown."""

    view: dict
    preset: object
    tokens: tuple = ()


#: a model's head in a link (url.js toSearch writes them): its layer and head, its token view, and
#: the experiments on it
MODEL_KEYS = {"layer": "int", "head": "int", "merge": "bool", "special": "bool", "rope": "bool", "window": "int"}
#: a book sentence's own head params, which a model's stop does not take (its head is head=)
PRESET_KEYS = ("heads", "head_view")


def _trained() -> tuple:
    """(the trained model's entries, name → (AttentionSet, titles)): the model every page offers,
    computed once per process (app.trained_model)."""
    from .trained_model import default_training_entries

    return default_training_entries()


def served(name: str):
    """The model questions ask about (app.questions models(name)): the trained model's steps."""
    return _trained()[1].get(name)


def _declared() -> dict:
    """Link key → its row of view_table, for the params the link carries."""
    return {(row["link"].get("key") or row["name"]): row for row in view_table() if row.get("link")}


def read_view(stop: Stop, index: int) -> StopView:
    """The stop's view, checked as the page would open it; LessonError naming what it would refuse."""
    line = stop.lines.get("view", stop.line)
    where = {"stop": index, "line": line}
    pairs = parse_qsl(stop.view.lstrip("?"), keep_blank_values=True)
    declared, view = _declared(), dict(room_defaults())
    seen, said = set(), {}  # said: a model's head params
    typed = None  # a typed sentence's or a practice problem's own Preset
    for key, value in pairs:
        if key in seen:
            raise LessonError("view_twice", f"view: {key} is given twice", **where, field=key)
        seen.add(key)
        if key == "preset" and value == OWN_SENTENCE:
            view["source"] = {"kind": "sentence", "name": OWN_SENTENCE}  # a typed sentence: its text= says which
            continue
        if key == "preset":
            entries = _trained()[0]
            model = next((entry for entry in entries if entry["name"] == named(value, entries)), None)
            if value not in PRESETS and model is None:
                names = ", ".join([*PRESETS, FAMILY])
                raise LessonError("view_preset", f"view: no preset {value!r} (one of: {names})", **where, value=value, names=names)
            view["source"] = {"kind": "preset", "name": value} if model is None else {"kind": model["kind"], "name": model["name"]}
        elif key in MODEL_KEYS:
            read = param_value({"kind": MODEL_KEYS[key], "low": 0, "high": None}, value, written=True)
            if read is None:
                raise LessonError("view_value", f"view: {key}={value} is not a value {key} takes", **where, field=key,
                                  value=value)
            said[key] = read
        elif key == "text":  # a sentence typed in the page: read as the page's Python reads it (app.lab)
            try:
                typed = sentence_preset(value)[0]
            except InputError as error:
                raise LessonError("view_text", f"view: text={value[:40]!r} is not a sentence the page reads: {error}", **where,
                                  value=value[:40]) from None
            view["source"] = {"kind": "sentence", "name": OWN_SENTENCE}
        elif key == "practice":  # a practice problem, by number: its own view (one head, ÷√d, no mask)
            if not (re.fullmatch(r"[1-9][0-9]*", value) and int(value) <= MAX_PROBLEM):
                raise LessonError("view_value", f"view: practice={value} is not a problem (1 to {MAX_PROBLEM})", **where,
                                  field=key, value=value)
            typed = practice_preset(practice_problem(int(value)))
            view["source"] = {"kind": "practice", "name": typed.name}
        elif key == "step":
            if not (re.fullmatch(r"\d+", value) and int(value) < STEPS):
                raise LessonError("view_value", f"view: step={value} is not a step (0 to {STEPS - 1})", **where, field=key,
                                  value=value)
            view["step"] = int(value)
        elif key in declared:
            row = declared[key]
            read = param_value(row, value, written=True) if row["link"]["read"] != "own" else (int(value) if value.isdigit() else None)
            if read is None:
                raise LessonError("view_value", f"view: {key}={value} is not a value {key} takes", **where, field=key,
                                  value=value)
            view[row["name"]] = read
        else:
            raise LessonError("view_param", f"view: no parameter {key!r} in a lesson's view "
                                            f"(one of: preset, step, {', '.join(k for k in declared if k != 'preset')})",
                              **where, field=key, allowed=", ".join(["preset", "step", *(k for k in declared if k != "preset")]))
    if view["source"]["kind"] == "sentence" and typed is None:
        raise LessonError("view_text", "view: a typed sentence's stop gives its text=", **where, value="")
    if typed is not None:
        return _sentence_view(view, typed, seen, where)
    if view["source"]["kind"] != "preset":
        return _model_view(view, said, seen, where)
    if said:
        raise LessonError("view_param", f"view: {', '.join(said)} is a model's; {view['source']['name']} is a book sentence",
                          **where, field=next(iter(said)), allowed=", ".join(k for k in declared if k != "preset"))
    return _sentence_view(view, PRESETS[view["source"]["name"]], seen, where)


def _sentence_view(view: dict, preset, seen: set, where: dict) -> StopView:
    """A sentence's stop: a book's preset, a sentence typed in the page (text=, with preset= the own
    sentence's name) or a practice problem (practice=: its own view, one head, ÷√d, no mask), each
    with its own Preset; the query inside it, a head count it offers, the head shown among them."""
    if view["source"]["kind"] == "practice":
        view.update(heads=1, head_view=-1, scale=True, causal=False, query=preset.default_query)
    elif "query" not in seen:
        view["query"] = preset.default_query
    if view["query"] >= len(preset.tokens):
        raise LessonError("view_query", f"view: query={view['query']} is past the sentence ({len(preset.tokens)} tokens: "
                                        f"0 to {len(preset.tokens) - 1})", **where, value=view["query"], last=len(preset.tokens) - 1)
    if view["heads"] not in preset.offered_heads():
        raise LessonError("view_heads", f"view: heads={view['heads']}: {preset.name} offers "
                                        f"{', '.join(map(str, preset.offered_heads()))}", **where, value=view["heads"],
                          offered=", ".join(map(str, preset.offered_heads())))
    if view["head_view"] >= view["heads"]:
        raise LessonError("view_value", f"view: head_view={view['head_view']} is past its {view['heads']} heads", **where,
                          field="head_view", value=view["head_view"])
    return StopView(view, preset, tuple(preset.tokens))


def _model_view(view: dict, said: dict, seen: set, where: dict) -> StopView:
    """A model's head at a stop, opened as the page opens the model (snapshot.js openingChanges: its
    token view, its own switches, the query it opens at), with what the link says; LessonError for
    what the page would refuse (model_row's refusals)."""
    entry = next(entry for entry in _trained()[0] if entry["name"] == view["source"]["name"])
    # a book sentence's head params: the page's own link writes heads=1 for a model (one head shown)
    given = [key for key in PRESET_KEYS if key in seen and view[key] != {"heads": 1, "head_view": -1}[key]]
    if given:
        raise LessonError("view_param", f"view: {given[0]} is a book sentence's; a model's head is layer= and head=",
                          **where, field=given[0], allowed=", ".join(MODEL_KEYS))
    if "layer" not in said or "head" not in said:
        raise LessonError("view_model_head", "view: a model's stop names its head: layer= and head=", **where)
    opens = entry.get("opens") or {}
    merge, special = said.get("merge", opens.get("merge", True)), said.get("special", opens.get("special", False))
    code = entry["views"][f"{int(merge)}{int(special)}"]
    labels = entry["labels"][code]
    view.update(layer=said["layer"], head=said["head"], merge=merge, special=special, rope=said.get("rope", True),
                window=said.get("window", -1), heads=1, head_view=-1)
    if "causal" not in seen:
        view["causal"] = entry["causal"]
    if "query" not in seen:
        view["query"] = entry["opens_at"][code]
    if view["query"] >= len(labels):
        raise LessonError("view_query", f"view: query={view['query']} is past the model's tokens ({len(labels)}: "
                                        f"0 to {len(labels) - 1})", **where, value=view["query"], last=len(labels) - 1)
    try:
        model_row(view, served)
    except RoomError as refused:
        field = refused.values.get("field", "layer")
        raise LessonError("view_value", f"view: {field}={view.get(field)} is not a value this model takes", **where,
                          field=field, value=view.get(field)) from None
    return StopView(view, None, tuple(labels))


def _same(written: str, value: float) -> bool:
    """Whether `value` shows as `written` at its decimals (−0.000 is 0.000)."""
    places = decimals(written)
    return abs(float(written) - value) <= 0.5 * 10 ** -places + 1e-9


def _token(shown: StopView, name: str, where: dict) -> int:
    if name not in shown.tokens:
        raise LessonError("claim_token", f"claim: no token {name!r} in {shown.view['source']['name']} "
                                         f"({' '.join(shown.tokens)})", **where, value=name, tokens=" ".join(shown.tokens))
    return shown.tokens.index(name)


def _check_claim(claim: str, shown: StopView, at, where: dict) -> None:
    """One `claim:` line checked; `at`: the stop's numbers (_numbers_at, memoised by check_stop)."""
    parts = claim.split()
    kind, args = (parts[0], parts[1:]) if parts else ("", [])
    head = at({}, None)
    wrong = lambda said: LessonError("claim_false", f"claim: {claim!r} is false: {said}", **where, claim=claim)  # noqa: E731
    if kind == "top" and len(args) == 1:
        key, row = _token(shown, args[0], where), head["weights"]
        heaviest = np.flatnonzero(row >= row.max() - 0.0005)
        if list(heaviest) != [key]:
            raise wrong(f"the heaviest {'are' if len(heaviest) > 1 else 'is'} "
                        f"{', '.join(shown.tokens[j] for j in heaviest)} ({row.max():.3f})")
    elif kind in ("weight", "score", "scaled") and len(args) == 2:
        key = _token(shown, args[0], where)
        value = float(head[{"weight": "weights", "score": "scores", "scaled": "scaled"}[kind]][key])
        if not _same(args[1], value):
            raise wrong(f"it is {value:.{max(3, decimals(args[1]))}f}")
    elif kind == "masked" and len(args) == 1:
        key = _token(shown, args[0], where)
        if head["weights"][key] != 0.0:
            raise wrong(f"its weight is {head['weights'][key]:.3f}")
    elif kind == "output" and args:
        said = [part for part in " ".join(args).replace(",", " ").split()]
        output = head["output"]
        if len(said) != len(output) or not all(_same(s, float(x)) for s, x in zip(said, output)):
            raise wrong("it is (" + ", ".join(f"{x:.3f}" for x in output) + ")")
    elif kind == "flip" and len(args) == 2 and args[0] in ("scale", "causal"):
        # a model's head is flipped as a room's what-if flips it (its weights alone cannot be)
        after = at({args[0]: not shown.view[args[0]]}, None)
        if after is None:
            raise wrong("this head shows its weights alone: its switches cannot be flipped")
        outcome = what_if_outcome(head["weights"], after["weights"])
        if outcome != args[1]:
            raise wrong(f"flipping {args[0]} gives {outcome}")
    else:
        raise LessonError("claim_unknown", f"claim: {claim!r} is not a claim this checks (top TOKEN, weight|score|scaled "
                                           f"TOKEN VALUE, output VALUES, masked TOKEN, flip scale|causal OUTCOME)", **where, claim=claim)


def _numbers_at(shown: StopView, switches: dict, heads: int | None = None) -> dict | None:
    """The query's numbers at the stop's view with `switches` set and, where given, `heads` (its
    first head): app.note_check's `at` (None where the view cannot be so: a model's head showing
    its weights alone cannot flip a switch, nor be split into heads)."""
    view = {**shown.view, **switches}
    if shown.preset is None:
        if heads is not None:
            return None
        try:
            row, _, result = model_row(shown.view, served, **switches) if switches else model_row(view, served)
        except RoomError:
            return None
        n = len(row)
        if result is None:
            return {"weights": row, "scores": None, "scaled": None, "output": None, "v": None, "d_k": None,
                    "d_model": None, "masked": row == 0.0}
        query = view["query"]
        return {**{name: getattr(result, name)[0, query] for name in ("scores", "scaled", "weights", "output")},
                "v": None, "d_k": result.d_k, "d_model": None, "masked": np.isinf(result.masked[0, query]) & (np.arange(n) >= 0)}
    preset = shown.preset
    count = heads or view["heads"]
    head = 0 if heads else max(0, view["head_view"])
    result = attention(preset.q, preset.k, preset.v, heads=count, scale=view["scale"], causal=view["causal"])
    query, d_v = view["query"], preset.v.shape[1] // count
    return {**{name: getattr(result, name)[head, query] for name in ("scores", "scaled", "weights", "output")},
            "v": preset.v[:, head * d_v:(head + 1) * d_v], "d_k": preset.q.shape[1] // count,
            "d_model": preset.q.shape[1], "masked": np.isinf(result.masked[head, query])}


#: the language of each field a note is written in
NOTE_FIELDS = {"note": "ko", "speaker": "ko", "note_en": "en", "speaker_en": "en"}


def _memoised(shown: StopView):
    """`at(switches, heads)` for the stop: _numbers_at, each view computed once per stop (every
    claim and every sentence asks it again)."""
    made = {}

    def at(switches: dict, heads: int | None):
        key = (tuple(sorted(switches.items())), heads)
        if key not in made:
            made[key] = _numbers_at(shown, switches, heads)
        return made[key]
    return at


def _check_notes(stop: Stop, shown: StopView, index: int, at, every: list | None = None) -> None:
    """Every sentence of the stop's notes read (app.note_reader) and what it says checked against
    the stop's numbers (app.note_check): LessonError("note_false") naming the field, the line, the
    sentence, and how it is, in each language."""
    query = shown.view["query"]
    for name, lang in NOTE_FIELDS.items():
        for said in read_note(getattr(stop, name), shown.tokens, query, lang):
            try:
                check_said(said, shown.tokens, query, at)
            except False_ as problem:
                words = worded(problem)
                sentence = said.text if len(said.text) <= 160 else said.text[:157] + "…"
                problem = LessonError("note_false", f"{name}: \"{sentence}\": {words['truth_en']}", stop=index,
                                      line=stop.lines.get(name, stop.line), field=name, sentence=sentence, **words)
                if every is None:
                    raise problem from None
                every.append(problem)


def _check_card(stop: Stop, shown: StopView, index: int) -> None:
    """A card the stop brings is one its view shows: where Q, K, V come from on a sentence with
    its layer, Concat and W_O on one with W_O (with the weights on show), a model's lens on a
    model's head."""
    where = {"stop": index, "line": stop.lines.get("card", stop.line), "value": stop.card}
    if stop.card not in CARDS:
        raise LessonError("card", f"card: no card {stop.card!r} (one of: {', '.join(CARDS)})", **where, names=", ".join(CARDS))
    preset, step = shown.preset, shown.view.get("step")
    lacks = {"qkvOrigin": preset is None or preset.layer is None,
             "concatWo": preset is None or preset.w_o is None or (step is not None and 0 <= step < 3),
             "lenses": preset is not None}.get(stop.card, False)
    if lacks:
        raise LessonError("card_view", f"card: {stop.card} is not shown at this stop's view "
                                       f"({shown.view['source']['name']}{'' if step is None or step < 0 else f', step={step}'})",
                          **where, view=shown.view["source"]["name"])


def check_stop(stop: Stop, index: int, every: list | None = None) -> StopView:
    """One stop checked; LessonError for its first problem (`every`: a list that takes every false
    sentence of its notes instead, after the view, card, question and claims hold)."""
    shown = read_view(stop, index)
    if stop.card:
        _check_card(stop, shown, index)
    if stop.question():
        kind, change = stop.question()
        try:
            make_question(shown.view, kind, change, served)
        except RoomError as refused:
            said = text(f"err_room_{refused.code}", "en", **refused.values) if refused.code != "bad_question" else (
                f"no question {stop.ask!r} (top_key, what_if scale|causal|heads, output)")
            room = {} if refused.code == "bad_question" else {"room": refused.code, **refused.values}  # the room's words
            raise LessonError("ask", f"ask: {stop.ask}: {said}", stop=index, line=stop.lines.get("ask", stop.line),
                              ask=stop.ask, **room) from None
    at = _memoised(shown)
    for claim, line in stop.claim:
        _check_claim(claim, shown, at, {"stop": index, "line": line})
    _check_notes(stop, shown, index, at, every)
    if not stop.note:
        raise LessonError("no_note", "every stop has a note: (what the class reads with the view)", stop=index, line=stop.line)
    return shown


def page_lesson(lesson: Lesson) -> dict:
    """The lesson as the page receives it (Lesson.as_dict), each stop with what it shows (`shows`:
    its source, and a model's head: layer, head, merge, special, rope, window), and each stop with
    a question carrying it as a room's poll does (app/rooms.py Question: kind, choices, tokens, …),
    with its truth and the view it asks about: a student walking it alone is told at once
    (mode=self). The lesson must be a checked one (lesson_problems empty)."""
    shown = lesson.as_dict()
    for index, (stop, page) in enumerate(zip(lesson.stops, shown["stops"]), start=1):
        view = read_view(stop, index).view
        own = view["source"]["kind"] in ("preset", "sentence", "practice")  # not a model's head
        page["shows"] = {"source": view["source"], **({key: view[key] for key in MODEL_KEYS} if not own else {})}
        if stop.question():
            page["question"] = {**asdict(make_question(view, *stop.question(), served)), "view": view}
    return shown


@lru_cache(maxsize=None)
def built_in_page_lesson(name: str) -> dict:
    """A built-in lesson as the page receives it, made once per process (every session that opens
    it gets the same: treat it as read-only)."""
    return page_lesson(read_lesson(name))


def lesson_problems(lesson: Lesson) -> list[LessonError]:
    """Every stop's first problem, in order (an empty list: the lesson is good)."""
    problems, views = [], {}
    for index, stop in enumerate(lesson.stops, start=1):
        try:
            views[index] = check_stop(stop, index, problems)
        except LessonError as problem:
            problems.append(problem)
    for index, stop in enumerate(lesson.stops, start=1):
        if stop.question() and index in views and not any(p.values.get("stop") == index for p in problems):
            try:
                _check_question(lesson, views, index)
            except LessonError as problem:
                problems.append(problem)
    return problems


#: what a note's assertion (app.note_reader Said) shows of the row, by its kind and quantity
_SAID_SHOWS = {"scores": "score", "scaled": "scaled", "weights": "weights", "output": "output", "v": "v"}


def _note_shows(stop: Stop, shown: StopView) -> set:
    """What the notes a class reads at the stop (note, note_en; not the lecturer's own) say of its row."""
    said = set()
    for name in ("note", "note_en"):
        for assertion in read_note(getattr(stop, name), shown.tokens, shown.view["query"], NOTE_FIELDS[name]):
            if assertion.kind in ("compare", "change"):
                said |= {f"flipped_{switch}" for switch in assertion.base}
            elif assertion.kind in ("top", "bottom", "equal", "zero", "near_zero"):
                said.add("score" if assertion.quantity == "scores" else "weights")
            elif assertion.kind == "masked":
                said.add("mask")
            elif assertion.kind in ("value", "row", "vector") and assertion.quantity in _SAID_SHOWS:
                said.add(_SAID_SHOWS[assertion.quantity])
    return said


def _d_k(shown: StopView) -> int | None:
    """The head's d_k on a sentence (its q and k written out where short), None on a model's head."""
    return None if shown.preset is None else shown.preset.q.shape[1] // shown.view["heads"]


#: the view a question's numbers are of: a stop of the same (and a flipped switch's, the flipped view)
_VIEW_KEYS = ("query", "heads", "head_view", "scale", "causal", "layer", "head", "merge", "special", "rope", "window")


def _view_key(view: dict) -> tuple:
    return (view["source"]["name"], *(view.get(key) for key in _VIEW_KEYS))


def _words(names: set, lang: str) -> str:
    """Quantities (app/stop_shows.py) in `lang`'s words (the catalogs' `shows` section)."""
    return ", ".join(words.text(f"shows_{name}", lang, "notes") for name in sorted(names))


def _check_question(lesson: Lesson, views: dict, index: int) -> None:
    """The question at stop `index` is a real one (app/stop_shows.py): LessonError("ask_read_off"),
    ("ask_unworkable") or ("ask_shown_before")."""
    stop, shown = lesson.stops[index - 1], views[index]
    question = stop.question()
    where = {"stop": index, "line": stop.lines.get("ask", stop.line), "ask": stop.ask}
    seen = stop_shown(shown.view, stop.card, question, True, _d_k(shown))
    given = read_off(question, seen) | (deciding(question) & _note_shows(stop, shown))
    if given:
        raise LessonError("ask_read_off", f"ask: {stop.ask}: its answer is on screen before it is answered: "
                                          f"{_words(given, 'en')}", **where, what_en=_words(given, "en"), what_ko=_words(given, "ko"))
    lacking = missing(question, seen)
    if lacking:
        raise LessonError("ask_unworkable", f"ask: {stop.ask}: the screen lacks what its answer is worked from: "
                                            f"{_words(lacking, 'en')}", **where, what_en=_words(lacking, "en"), what_ko=_words(lacking, "ko"))
    if stop.recall:
        return
    kind, change = question
    asked = _view_key(shown.view)
    flipped = _view_key({**shown.view, change: not shown.view[change]}) if change in ("scale", "causal") else None
    for earlier in range(1, index):
        if earlier not in views:
            continue
        before, view = lesson.stops[earlier - 1], views[earlier].view
        # a question stop once answered shows everything; another, its own step
        after = {**view, "step": answered_step(view.get("step"), before.question()[0])} if before.question() else view
        seen_then = stop_shown(after, before.card, None, False, _d_k(views[earlier]))
        then = seen_then.quantities | _note_shows(before, views[earlier])
        key = _view_key(view)
        given = deciding(question) & then if key == asked else set()
        if change == "scale" and before.card == "whyScale":  # its d = 64 example answers any √d_k what-if
            given.add("flipped_scale")
        if flipped is not None and key == flipped and "weights" in then:
            given.add(f"flipped_{change}")
        if given:
            raise LessonError("ask_shown_before", f"ask: {stop.ask}: stop {earlier} already showed its answer "
                                                  f"({_words(given, 'en')}); a recall question says recall: yes",
                              **where, earlier=earlier, what_en=_words(given, "en"), what_ko=_words(given, "ko"))


def question_shows(lesson: Lesson) -> list[dict]:
    """For each question of a checked lesson, what its stop shows of the row before the answer in
    the modes that hold it by its kind, and on the lecturer's laptop (app/stop_shows.py): {stop,
    ask, held, open} (quantities, sorted)."""
    rows = []
    for index, stop in enumerate(lesson.stops, start=1):
        if stop.question():
            shown = read_view(stop, index)
            held, open_ = (stop_shown(shown.view, stop.card, stop.question(), hold, _d_k(shown)).quantities for hold in (True, False))
            rows.append({"stop": index, "ask": stop.ask, "held": sorted(held), "open": sorted(open_)})
    return rows

