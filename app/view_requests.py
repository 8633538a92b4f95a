"""What a view's requests do: each makes entries (app.protocol.Made) or raises Refused, from
the fields it carries (app.protocol checks them first); none reads the view's params. The page's
requests come as messages (AttentionView._handle_msg), a notebook's through AttentionView's
apply_… and open_… methods; both end here."""
from __future__ import annotations

from typing import Callable

from attention_core import PRESETS, InputError, Preset
from attention_core.heads import token_groups
from attention_core.practice import practice_preset, practice_problem
from attention_core.prediction import PredictionError
from attention_core.transformer import ModelError

from .constants import MAX_MODEL_CHARS, OWN_NUMBERS, OWN_SENTENCE
from .kinds import entry_of, source_of, source_problem
from .lab import error_dict, layer_preset, numbers_preset, sentence_preset
from .lesson_check import built_in_page_lesson, lesson_problems, page_lesson
from .lessons import LessonError, lesson_names, parse_lesson
from .models import ablation_entry, default_query, experiment_offer, head_entry, lens_entry, model_entry, next_entry, view_code
from .protocol import Made, Refused
from .sentences import practice_entry
from .trained_model import training_entries


class Requests:
    """One view's session: what its requests made and the models they run.

    own: name → the student's (or a notebook's) own Preset (OWN_SENTENCE, OWN_NUMBERS, a practice
    problem's), for check() and current_preset(); sets: model name → (AttentionSet, titles), the
    models whose heads Python makes; checkpoint: what a sentence typed through a checkpoint goes
    through (app.models.Typing); shared: the head entries every session shares (SharedHeads);
    made: the sentence and model entries this session's requests made, by name (the newest of
    each); catalogs(): the view's (sentences, models) on offer now."""

    def __init__(self, catalogs: Callable[[], tuple[list, list]], own: dict[str, Preset], sets: dict, checkpoint=None,
                 shared=None):
        self._catalogs = catalogs
        self.own, self.sets, self.checkpoint, self.shared = own, sets, checkpoint, shared
        self.made: dict[str, dict] = {}

    def table(self) -> dict:
        """Each request type's handler (app.protocol.REQUESTS names their fields)."""
        return {"sentence": self.sentence, "numbers": self.numbers, "layer": self.layer, "practice": self.practice,
                "head": self.head, "ablation": self.ablation, "restore": self.restore, "entry": self.whole_entry,
                "lesson": self.lesson, "lesson_check": self.lesson_check, "next": self.next_token,
                "lens": self.lens}

    def lesson(self, name: str | None, text: str | None) -> Made:
        """A lesson a link carries (its file's text, compressed in the URL) or names (a built-in's),
        read and checked as `lesson check` does: Refused("lesson", …) with its first problem: in
        the check's words (`problem`, naming the stop and the line), and as the page words it in its
        own language (LessonError.page_values: `reason`, the stop, the line, its values)."""
        try:
            if text is None and name not in lesson_names():  # a link never reads a file on the server
                raise LessonError("unknown_lesson", f"no lesson {str(name)[:80]!r}: the lessons are {', '.join(lesson_names())}",
                                  value=str(name)[:80], names=", ".join(lesson_names()))
            if text is None:  # a built-in lesson: checked when it was written (tests), made once per process
                return Made([], None, lesson=built_in_page_lesson(name))
            lesson = parse_lesson(text, name="linked")
            problems = lesson_problems(lesson)
        except LessonError as error:
            raise Refused("lesson", {"problem": str(error)[:400], **error.page_values()}) from None
        if problems:
            raise Refused("lesson", {"problem": str(problems[0])[:400], **problems[0].page_values()})
        return Made([], None, lesson=page_lesson(lesson))

    def lesson_check(self, text: str) -> Made:
        """A lesson being written in the page, checked as `lesson check` does, while it is typed:
        every problem (the first 50), each with the check's words (`problem`) and its values as
        the page words them (LessonError.page_values), in `lesson.problems`; none for a lesson a
        link may carry. `lesson.lesson`: the file as the page's draft (Lesson.as_dict), where it
        reads as a lesson at all (a file opened in the page, problems and all, to mend)."""
        try:
            lesson = parse_lesson(text, name="draft")
            problems = lesson_problems(lesson)
        except LessonError as error:
            lesson, problems = None, [error]
        return Made([], None, lesson={"problems": [{"problem": str(problem)[:400], **problem.page_values()}
                                                   for problem in problems[:50]],
                                      "lesson": lesson.as_dict() if lesson else None})

    def entry(self, source: dict) -> dict | None:
        """The sentence or model entry `source` names: on offer, or made by this session's requests."""
        sentences, models = self._catalogs()
        made = list(self.made.values())
        return entry_of(source, [*sentences, *made], [*models, *made])

    def sentence(self, text: str, query: int | None, model: str | None, merge: bool, special: bool) -> Made:
        """A typed sentence: through the model `model` when it takes typed sentences (a
        checkpoint's, or the trained model's; opened in the token view merge, special), else as the
        toy sentence OWN_SENTENCE."""
        shown = next((m for m in self._catalogs()[1] if m["name"] == model), self.made.get(model)) if model else None
        if shown is not None and shown.get("typable"):
            return self._model_sentence(text, query, shown, merge, special)
        try:
            preset, entry = sentence_preset(text)
        except InputError as error:
            raise Refused(error.code, error.values) from None
        self.own[OWN_SENTENCE] = preset
        wanted = query is not None and 0 <= query < len(preset.tokens)
        return Made([entry], {"source": source_of(entry), "query": query if wanted else preset.default_query})

    def _model_sentence(self, text: str, query: int | None, shown: dict, merge: bool, special: bool) -> Made:
        """The typed sentence through the model on show: a checkpoint's (as OWN_MODEL), or the
        trained model's at every saved step (its family + "-own", opened at the step on show)."""
        training = shown.get("training")
        try:
            if len(text) > MAX_MODEL_CHARS:
                raise InputError("too_long", f"at most {MAX_MODEL_CHARS} characters", count=len(text), limit=MAX_MODEL_CHARS)
            name = shown["typed_name"]  # what a sentence typed through it is called
            if training:
                made, sets = training_entries(text, training["family"].removesuffix("-own") + "-own")
                made = [{**entry, "typed": True, "link": "text", "text": text} for entry in made]
            else:
                name, aset, titles = self.checkpoint.sentence_set(name, text)
                made = [{**model_entry(aset, name, titles, typable=True, typed_name=name), "typed": True, "link": "text",
                         "text": text}]
                sets = {name: (aset, titles)}
        except ModelError as error:  # in the page's words where it is the sentence's fault, else the model's
            if error.code:
                raise Refused(error.code, {name: str(value) for name, value in error.values.items()}) from None
            raise Refused("model_sentence", {"detail": str(error)}) from None
        except InputError as error:
            raise Refused(error.code, {name: str(value) for name, value in error.values.items()}) from None
        self.sets.update(sets)
        aset = sets[name][0]
        groups = token_groups(aset, merge, special)
        wanted = query is not None and 0 <= query < len(groups)
        opened = next(entry for entry in made if entry["name"] == name)
        return Made(made, {"source": source_of(opened),
                           "query": query if wanted else default_query(aset, merge, special),
                           "scale": True, "causal": aset.causal})

    def numbers(self, tokens, q, k, v, heads: int, query: int) -> Made:
        """Typed Q, K, V as OWN_NUMBERS, split into `heads` heads where d allows, opened at `query`
        (the last token where the sentence is shorter); Refused("cells") marks every bad cell."""
        preset, entry, errors = numbers_preset(tokens, q, k, v, heads)
        if errors:
            raise Refused("cells", cells=errors)
        self.own[OWN_NUMBERS] = preset
        return Made([entry], {"source": source_of(entry), "query": min(max(query, 0), len(preset.tokens) - 1)})

    def layer(self, base: str, w_q, w_k, w_v, query: int) -> Made:
        """`base`'s layer with typed W_Q, W_K, W_V cells, as OWN_NUMBERS, opened at `query`; `base`
        must show where its Q, K, V come from. Refused("cells") marks every bad cell."""
        preset = self.own.get(base) or PRESETS.get(base)
        if preset is None or preset.layer is None:
            raise Refused("cells", cells=[error_dict("w", -1, -1, InputError("w_base", "no W to change"))])
        own, entry, errors = layer_preset(preset, {"w_q": w_q, "w_k": w_k, "w_v": w_v})
        if errors:
            raise Refused("cells", cells=errors)
        self.own[OWN_NUMBERS] = own
        return Made([entry], {"source": source_of(entry), "query": min(max(query, 0), len(own.tokens) - 1)})

    def practice(self, number: int) -> Made:
        """Practice problem `number`, opened unsolved by the page."""
        try:
            entry = practice_entry(number)
        except InputError as error:
            raise Refused("practice", {"value": number, **error.values}) from None
        self.own[entry["name"]] = practice_preset(practice_problem(number))  # for check() and current_preset()
        return Made([entry])

    def head_set(self, model: str, layer: int, head: int) -> tuple:
        """(AttentionSet, titles) of a model that has this layer and head; Refused if none."""
        found = self.sets.get(model)
        if found is None:
            raise Refused("head")
        aset, _ = found
        if not (0 <= layer < aset.layers and 0 <= head < aset.heads):
            raise Refused("head_range", {"layers": aset.layers, "heads": aset.heads})
        return found

    def head(self, model: str, layer: int, head: int, merge: bool, special: bool, rope: bool | None = None,
              window: int | None = None) -> Made:
        """One head of a model in one token view; rope=False (q and k unrotated) or a window
        (0: none) among those the model offers (experiment_offer) is that experiment on the head."""
        aset, titles = self.head_set(model, layer, head)
        offer, rotate = experiment_offer(aset), rope is not False
        if not rotate and not offer["rope"]:
            raise Refused("experiment_rope")
        if window is not None and window not in offer["windows"]:
            raise Refused("experiment_window", {"value": window, "choices": ", ".join(map(str, offer["windows"])) or "—"})
        code = view_code(merge, special)
        shared = self.shared.get(model, aset, layer, head, code, rotate, window) if self.shared is not None else None
        return Made([shared or head_entry(aset, model, titles, layer, head, code, rotate=rotate, window=window, ablation=False)])

    def ablation(self, model: str, layer: int, head: int) -> Made:
        """A model's head removed and the model run again (app.models.ablation_entry), asked for
        apart from the head's entry: a forward pass, run once per head and kept by its model."""
        aset, _ = self.head_set(model, layer, head)
        if aset.run is None:
            raise Refused("ablation")
        return Made([ablation_entry(aset, model, layer, head)])

    def next_token(self, model: str, top_k: int, temperature: float) -> Made:
        """What a causal model says after the sentence's last token (app.models.next_entry): its
        top k at `temperature`, and each layer's guess there (the logit lens). Refused
        ("no_next_token") for a BERT-like model, ("bad_top_k" / "bad_temperature") out of range."""
        return self._predicted(model, lambda aset: next_entry(aset, model, top_k, temperature))

    def lens(self, model: str, top_k: int) -> Made:
        """The logit lens as a layers × positions grid (app.models.lens_entry), refused as next_token is."""
        return self._predicted(model, lambda aset: lens_entry(aset, model, top_k))

    def _predicted(self, model: str, make) -> Made:
        """The entry `make(aset)` makes of the model's sentence; a model that predicts no next token,
        or a request out of range (attention_core.prediction.PredictionError), refused."""
        found = self.sets.get(model)
        if found is None or found[0].run is None:
            raise Refused("no_next_token", {"architecture": "—"})
        try:
            return Made([make(found[0])])
        except PredictionError as error:
            raise Refused(error.code or "no_next_token", error.values) from None

    def whole_entry(self, kind: str, name: str) -> Made:
        """The whole entry of a preset or model that travelled as app.kinds.travelling_later."""
        source = {"kind": kind, "name": name}
        entry = None if source_problem(source) else self.entry(source)
        if entry is None:
            raise Refused("no_numbers", {"name": name[:80]})
        return Made([entry])

    def restore(self) -> Made:
        """What this session's requests made, for a page that lost it (its view is unchanged)."""
        return Made(list(self.made.values()))
