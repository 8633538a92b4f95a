"""A room's questions (issue 23): what the class is asked about the lecturer's view of a preset,
and the core's answer, kept from the students until the reveal. Each kind is one definition in
QUESTIONS (QuestionKind): how it makes its Question (the truth) from the view, how a student's
answer is checked and judged, its outcomes, and the lecturer's buttons that ask it with their
words; the hub and the stores never look at a kind. The page draws each kind's card from its
entry in static/explorer/room_poll.js KINDS. The numbers are attention_core's, recomputed here.

  top_key   which key gets the most weight for the view's query (choices: the sentence's tokens)
  what_if   what happens to the query's weights if one switch (√d or the mask) is flipped, or the
            head shown is one of more heads (the next head count):
            WHAT_IF's choices (app.constants), decided by the weights before and after (what_if_outcome)
  output    type the query's output vector; each answer judged by the project's checker
            (attention_core.answer), so the class's slips are counted by name (OUTCOMES)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from attention_core import PRESETS, InputError
from attention_core.answer import MAX_ANSWER_CHARS, judge, judging, parse_vector, token_values
from attention_core.attention import attention
from attention_core.heads import group_labels, grouped_weights, token_groups

from .constants import OUTCOMES, QUESTION_CHANGES, WHAT_IF
from .kinds import MODEL_KINDS
from .models import experiment_offer, shows_steps
from .rooms import Question, RoomError
from .strings import text

#: a weight change smaller than this is not seen at three decimals
UNSEEN = 0.0005


def _one_head(view: dict):
    """The preset of the view, and the head its question is about: RoomError("poll_presets") for
    another source, ("poll_one_head") where several heads show at once, ("bad_view") for a query,
    head count or head the sentence does not have."""
    source = view["source"]
    preset = PRESETS.get(source["name"]) if source["kind"] == "preset" else None
    if preset is None:
        raise RoomError("poll_presets")
    if view["heads"] > 1 and view["head_view"] < 0:
        raise RoomError("poll_one_head")
    if not 0 <= view["query"] < len(preset.tokens):
        raise RoomError("bad_view", field="query")
    if view["heads"] not in preset.offered_heads():
        raise RoomError("bad_view", field="heads")
    if view["head_view"] >= view["heads"]:
        raise RoomError("bad_view", field="head_view")
    return preset, max(0, view["head_view"])


def _row(preset, view: dict, head: int, **switches) -> np.ndarray:
    """(n,): the query's weights in the head, at the view's switches and head count or those given."""
    chosen = {"scale": view["scale"], "causal": view["causal"], "heads": view["heads"], **switches}
    return attention(preset.q, preset.k, preset.v, **chosen).weights[head][view["query"]]


def heaviest(row: np.ndarray) -> set[int]:
    """The keys within UNSEEN of the row's largest weight: those a student reading three decimals
    sees as the heaviest."""
    return set(np.flatnonzero(row >= row.max() - UNSEEN).tolist())


def what_if_outcome(before: np.ndarray, after: np.ndarray) -> str:
    """WHAT_IF's answer for a weights row before and after a switch, read as a student reads three
    decimals (the row before has one heaviest key: make_question refuses a tie): that key is no
    longer among the heaviest; else no weight moves by UNSEEN or more; else its weight grew or shrank."""
    top = int(np.argmax(before))
    if top not in heaviest(after):
        return "top_changes"
    if np.max(np.abs(after - before)) < UNSEEN:
        return "same"
    return "sharper" if after[top] > before[top] else "flatter"


def model_row(view: dict, models, **switches):
    """A served model's head as the view shows it (app.models.head_entry's rule): (the query's
    weights row, the tokens as shown, and where every step shows (so that √d and the mask can be
    switched) the head's AttentionResult with every query's steps, else None). models(name) → (AttentionSet, titles) or None. RoomError("poll_presets") for a
    model not served to every page (a sentence a student typed), ("bad_view") for a layer, head,
    query or experiment the model lacks, ("poll_model_switches") for switches on weights alone."""
    found = models(view["source"]["name"]) if models else None
    if found is None:
        raise RoomError("poll_presets")
    aset = found[0]
    layer, head, query = view["layer"], view["head"], view["query"]
    if not (layer < aset.layers and head < aset.heads):
        raise RoomError("bad_view", field="layer" if layer >= aset.layers else "head")
    groups = token_groups(aset, view["merge"], view["special"])
    if query >= len(groups):
        raise RoomError("bad_view", field="query")
    offer, window = experiment_offer(aset), None if view["window"] < 0 else view["window"]
    if (not view["rope"] and not offer["rope"]) or (window is not None and window not in offer["windows"]):
        raise RoomError("bad_view", field="rope" if not view["rope"] else "window")
    labels = group_labels(aset, groups, view["merge"])
    steps = aset.has_steps and shows_steps(aset, groups)
    chosen = {"scale": view["scale"], "causal": view["causal"], **switches}
    if steps:
        result = aset.head_attention(layer, head, scale=chosen["scale"], causal=chosen["causal"], rotate=view["rope"], window=window)
        return result.weights[0][query], labels, result
    if switches:
        raise RoomError("poll_model_switches")
    return grouped_weights(aset.head_weights(layer, head, view["rope"], window), groups)[query], labels, None


def _what_if(before: np.ndarray, after: np.ndarray, change: str, to, piece: int, tokens: list) -> Question:
    """A what_if question from the query's weights before and after the change."""
    top_before, top_after = int(np.argmax(before)), int(np.argmax(after))
    detail = {"top_before": top_before, "top_after": top_after, "before": round(float(before[top_before]), 3),
              "after": round(float(after[top_before]), 3), "after_top": round(float(after[top_after]), 3)}
    return Question("what_if", len(WHAT_IF), WHAT_IF.index(what_if_outcome(before, after)), detail, change, to, piece, tokens)


def _before(view: dict, models) -> tuple[np.ndarray, list, int, object]:
    """The row a question asks about, as the view shows it: (the query's weights, the tokens, the
    head asked about, the preset or None for a served model's head). RoomError("poll_tie") where
    the query gives its largest weight to several keys alike at three decimals (which one is "the"
    heaviest?)."""
    if view["source"]["kind"] in MODEL_KINDS:
        row, tokens, _ = model_row(view, models)
        preset, head = None, view["head"]
    else:
        preset, head = _one_head(view)
        row, tokens = _row(preset, view, head), list(preset.tokens)
    if len(heaviest(row)) > 1:
        raise RoomError("poll_tie")
    return row, tokens, head, preset


def _top_key(view: dict, change, models) -> Question:
    """Which key gets the most weight: the choices are the sentence's tokens."""
    before, tokens, _, _ = _before(view, models)
    return Question("top_key", len(tokens), int(np.argmax(before)), tokens=tokens)


def _what_if_question(view: dict, change, models) -> Question:
    """What if √d or the mask were switched, or the head were one of more heads (the next head count
    that splits it: its first piece, narrower; a book's sentence only)."""
    if change not in QUESTION_CHANGES:
        raise RoomError("bad_question")
    if change == "heads" and view["source"]["kind"] in MODEL_KINDS:
        raise RoomError("poll_model_kind")
    before, tokens, head, preset = _before(view, models)
    if preset is None:
        after, _, _ = model_row(view, models, **{change: not view[change]})
        return _what_if(before, after, change, not view[change], head, tokens)
    piece = head
    if change == "heads":
        more = [count for count in preset.offered_heads() if count > view["heads"] and count % view["heads"] == 0]
        if not more:
            raise RoomError("poll_no_more_heads", heads=view["heads"])
        flipped, piece = {"heads": more[0]}, head * (more[0] // view["heads"])
    else:
        flipped = {change: not view[change]}
    return _what_if(before, _row(preset, view, piece, **flipped), change, flipped[change], piece, tokens)


def _output(view: dict, change, models) -> Question:
    """Type the query's output vector (a book's sentence: a model's is d_head numbers long)."""
    if view["source"]["kind"] in MODEL_KINDS:
        raise RoomError("poll_model_kind")
    preset, head = _one_head(view)
    truth = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"], causal=view["causal"]).output
    exact = truth[head][view["query"]]
    return Question("output", len(OUTCOMES), 0, {"exact": [round(float(x), 3) for x in exact]}, tokens=list(preset.tokens),
                    length=len(exact))


def _chosen(poll, value) -> int:
    """A choice's answer: its index, in range."""
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < poll.choices):
        raise RoomError("bad_answer")
    return value


@dataclass(frozen=True)
class Ask:
    """A button the lecturer presses to ask a question: its kind, the switch a what_if flips (or
    None), and its words (a UI string key)."""

    kind: str
    change: str | None
    words: str


@dataclass(frozen=True)
class QuestionKind:
    """One kind of question, whole: make(view, change, models) → Question (its truth, or
    RoomError), answer(poll, value) → what a room keeps of a student's answer (checked, and judged
    where it is typed; RoomError("bad_answer") else), outcomes: the histogram's rows named (None:
    one row per choice), typed: answered by typing numbers rather than choosing, asks: its buttons."""

    make: Callable[[dict, str | None, object], Question]
    answer: Callable[[object, object], object]
    asks: tuple[Ask, ...]
    typed: bool = False
    outcomes: tuple[str, ...] | None = None


#: every question a room asks, by kind
QUESTIONS: dict[str, QuestionKind] = {
    "top_key": QuestionKind(_top_key, _chosen, (Ask("top_key", None, "poll_ask_top_key"),)),
    "what_if": QuestionKind(_what_if_question, _chosen, (Ask("what_if", "scale", "poll_ask_what_if_scale"),
                                                         Ask("what_if", "causal", "poll_ask_what_if_causal"),
                                                         Ask("what_if", "heads", "poll_ask_what_if_heads")), outcomes=WHAT_IF),
    "output": QuestionKind(_output, lambda poll, value: judge_output(poll.view, value), (Ask("output", None, "poll_ask_output"),),
                           typed=True, outcomes=OUTCOMES),
}


#: the numbers a typed question shows as an example of how to write an output: never an answer of
#: a view a student is asked about (tests/app/test_examples.py)
EXAMPLE_NUMBERS = ("1.234", "5.678", "9.012", "3.456", "7.890", "2.345", "6.789", "4.567")


def example_numbers(length: int | None) -> str:
    """The example for an output of `length` numbers (2 where the length is not known)."""
    count = max(1, length or 2)
    return ", ".join(EXAMPLE_NUMBERS[i % len(EXAMPLE_NUMBERS)] for i in range(count))


def question_table() -> dict:
    """The kinds as the page reads them (constants.questions.kinds): each kind's outcomes, whether
    it is typed, the lecturer's buttons, in order, and a typed kind's example numbers."""
    return {name: {"typed": kind.typed, "outcomes": list(kind.outcomes or []),
                   "asks": [{"change": ask.change, "words": ask.words} for ask in kind.asks],
                   **({"example": list(EXAMPLE_NUMBERS)} if kind.typed else {})}
            for name, kind in QUESTIONS.items()}


def question_words(poll: dict, lang: str) -> str:
    """A question in words, as the page's card, lesson and printed report say it (room_poll.js
    KINDS.question: the same keys and values), from a poll's or a report record's fields: kind,
    change, to, piece, view (query, head_view), tokens, length."""
    view, kind = poll["view"], poll["kind"]
    query = poll["tokens"][view["query"]] if 0 <= view["query"] < len(poll["tokens"]) else "?"
    head = max(0, view.get("head_view") if view.get("head_view") is not None else 0) + 1
    if kind == "top_key":
        return text("poll_top_key", lang, query=query)
    if kind == "output":
        return text("poll_output", lang, query=query, head=head, count=poll.get("length") or 2,
                    example=example_numbers(poll.get("length")))
    if poll["change"] == "heads":
        return text("poll_what_if_heads", lang, query=query, head=head, heads=poll["to"], piece=poll["piece"] + 1)
    switch = "scale" if poll["change"] == "scale" else "causal"
    return text(f"poll_what_if_{switch}_{'on' if poll['to'] else 'off'}", lang, query=query)


def make_question(view: dict, kind, change=None, models=None) -> Question:
    """The question `kind` about `view` (a room's checked view), with the core's answer; on a
    served model's head (models(name) → its AttentionSet and titles) where the kind allows it.
    RoomError("bad_question") for an unknown kind or switch."""
    if not isinstance(kind, str) or kind not in QUESTIONS:
        raise RoomError("bad_question")
    return QUESTIONS[kind].make(view, change, models)


def _judging(name: str, heads: int, scale: bool, causal: bool, query: int):
    """What the checker needs for one view (its bands, true outputs, V per head): the core's, made once a view."""
    preset = PRESETS[name]
    return judging(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal, query=query)


def judge_output(view: dict, text) -> dict:
    """A student's typed output vector for the view's query, judged by the project's checker: {text
    (as typed, shown back to that student only), outcome (an index into OUTCOMES), status
    (correct | rounded | wrong), key and values (the checker's words)}. RoomError("bad_answer") for
    text that is not a string or longer than the checker reads, ("bad_numbers", problem) for text
    that is not numbers, ("wrong_length", expected, given) for a vector of another length than the
    head's output (it would be counted, then named no slip)."""
    if not isinstance(text, str) or len(text) > MAX_ANSWER_CHARS:
        raise RoomError("bad_answer")
    try:
        answer = parse_vector(text)
    except InputError as error:
        raise RoomError("bad_numbers", problem=error.code) from None
    _, head = _one_head(view)
    expected = view_output_length(view)
    if len(answer) != expected:
        raise RoomError("wrong_length", expected=expected, given=len(answer))
    name, heads, scale, causal = view["source"]["name"], view["heads"], view["scale"], view["causal"]
    bands, truth, values = _judging(name, heads, scale, causal, view["query"])
    other = lambda j, h: _judging(name, heads, scale, causal, j)[0][h]["truth"]  # noqa: E731
    check = judge(answer, bands, truth, values, query=view["query"], head=head, all_heads=False, causal=causal,
                  other_band=other)
    outcome = check.status if check.status in ("correct", "rounded") else (check.slip or "recheck")
    return {"text": text, "outcome": OUTCOMES.index(outcome), "status": check.status if check.status != "carried" else "wrong",
            "key": check.key, "values": token_values(check.values, PRESETS[name].tokens)}


def view_output_length(view: dict) -> int:
    """How many numbers the output of a preset view's head has: its d_k."""
    preset, _ = _one_head(view)
    return preset.v.shape[1] // view["heads"]


def answer_value(poll, value):
    """What a room keeps of a student's answer to `poll` (app.rooms.Poll), by its kind's rule: a
    choice index in range, or for an output question the typed text judged (judge_output);
    RoomError("bad_answer") else."""
    return QUESTIONS[poll.kind].answer(poll, value)
