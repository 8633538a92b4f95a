"""What a lesson's stop shows, in each mode, before and after its question is answered (issue 52):
one model, here, that the page follows (constants.stop_shows: lesson.js, snapshot.js) and that
`lesson check` reasons with (app/lesson_check.py: a question whose answer is on screen, that
cannot be worked from the screen, or that an earlier stop answered, is refused).

The unit is a *quantity* of the question's row (the query's, in the head asked about):

  q, k, v         the query's q, the keys' k (spelled out in q·k where d_k ≤ 4), the keys' v
  score … output  the steps in order: STEP_QUANTITIES[i] shows once step i is revealed
  contribution    each key's weight × v (the step before the output, which writes v out)
  caption         the heads' captions over the figure ("head 1 looks at the object"), which name
                  what a head looks at
  flipped_scale   the weights with √d_k the other way (the calculation's scale-effect line, the
                  whyScale card), flipped_causal / flipped_heads likewise for the mask and the
                  next head count
  head_parts      a head's slice of q and k when the view shows one head of the sentence: on no
                  screen (a what-if on splitting into heads has nothing there to reason from)

A stop with a question is *held* until its answer is given (walked alone, graded) or revealed by
the lecturer (the projector: the first PageDown reveals, the next moves on; a room: its reveal
button). While held, HELD[kind] says how far the steps go, which inputs are written out for the
student to work from, and what is hidden; after it, everything the stop's view has is shown,
whatever its step (the answer is the point of the stop)."""
from __future__ import annotations

from dataclasses import dataclass

from .view_params import STEPS

#: the quantity each step reveals, in order (step i: STEP_QUANTITIES[i]); the calculation's columns
STEP_QUANTITIES = ("score", "scaled", "mask", "weights", "contribution", "output")
assert len(STEP_QUANTITIES) == STEPS

#: a kind's hold: `reveal` the steps shown (None: the stop's own), `inputs` written out beside them,
#: `hides` what is put away, `answer` the step shown at least once it is answered (a caption, a card; the heads note, which writes the row's largest weight
#: and one head's). The inputs are written out for short vectors (d_k ≤ 4: calculation.js). The
#: kinds are app/questions.py QUESTIONS'.
HELD = {
    # which key gets the most weight: decided by any step from the scores on; worked from q and k
    "top_key": {"reveal": 0, "inputs": ["q", "k"], "hides": ["heads_note", "captions"], "answer": 3},
    # the output: worked by softmax and the weighted sum from the scaled scores and v
    "output": {"reveal": 3, "inputs": ["v"], "hides": ["heads_note"], "answer": 5},
    # a switch flipped: decided by the weights of the flipped view; worked from this view's
    "what_if": {"reveal": None, "inputs": [], "hides": ["scale_effect", "whyScale", "heads_note"], "answer": 3},
}

#: what decides each question's answer (a kind, or a what_if's change): on screen before the
#: answer, the question is read off
DECIDES = {
    "top_key": {"score", "scaled", "mask", "weights", "contribution", "output", "caption"},
    "output": {"contribution", "output"},
    "scale": {"flipped_scale"},
    "causal": {"flipped_causal"},
    "heads": {"flipped_heads"},
}

#: what a student works each answer from: any one of these sets on screen is enough
NEEDS = {
    "top_key": ({"q", "k"},),
    "output": ({"v", "weights"}, {"v", "scaled"}),
    "scale": ({"score"}, {"scaled"}),
    "causal": ({"weights"}, {"scaled", "mask"}),
    "heads": ({"head_parts"},),
}

#: what each way of showing a lesson does with a question stop (the page picks its mode:
#: lesson.js pageMode): `held` by the kind's HELD, by the room's poll (nothing of the row) or not
#: at all; `until` what lifts it; `handout` whose handout it is (answers on its last page): the
#: lecturer's at any time, a student's after every question is answered, or none
MODES = {
    "normal": {"held": None, "until": None, "handout": "lecturer"},  # the lecturer's laptop, preparing
    "lecture": {"held": "kind", "until": "reveal", "handout": None},  # the projector, no room
    "deck": {"held": "kind", "until": "reveal", "handout": None},  # the projector, inside reveal.js
    "lecture_room": {"held": "poll", "until": "poll_reveal", "handout": None},  # the projector with a room
    "phone": {"held": "poll", "until": "poll_reveal", "handout": None},  # a student in a room
    "self": {"held": "kind", "until": "answer", "handout": "after_finish"},  # walked alone
    "scorm": {"held": "kind", "until": "answer", "handout": "after_finish"},  # the graded package
    "assigned": {"held": "kind", "until": "answer", "handout": "after_finish"},  # an assigned link
}
#: the modes in which a stop's question is worked from the screen (the room's poll hides the row:
#: a class answers from the question card)
WORKED_IN = tuple(name for name, mode in MODES.items() if mode["held"] == "kind")

#: the cards that show a quantity when a stop brings them into sight
CARD_SHOWS = {"qkvOrigin": {"q", "k", "v"}, "whyScale": {"flipped_scale"}}


def step_reveal(step: int | None) -> int:
    """How many steps a view at `step` reveals (-1 or None: every step)."""
    return STEPS if step is None or step < 0 else step + 1


def answered_step(step: int | None, kind: str) -> int:
    """The step a question's stop shows once answered: its own, or the kind's answer if that is
    later (-1: every step)."""
    return -1 if step is None or step < 0 else max(step, HELD[kind]["answer"])


@dataclass(frozen=True)
class Shown:
    """What a stop shows of its question's row: the quantities, and the steps revealed."""

    quantities: frozenset
    reveal: int


def shown(view: dict, card: str, question: tuple | None, held: bool, d_k: int | None) -> Shown:
    """What a stop of `view` (a room's view dict: step, scale, heads, …) that brings `card` shows of
    its row, its question (kind, change) held or not. d_k: the head's (None: a model's, whose q and k
    are not written out)."""
    reveal = step_reveal(view.get("step"))
    inputs, hides = set(), set()
    if held and question:
        hold = HELD[question[0]]
        reveal = reveal if hold["reveal"] is None else min(reveal, hold["reveal"])
        inputs = set(hold["inputs"]) if d_k is not None and d_k <= 4 else set()
        hides = set(hold["hides"])
    quantities = set(STEP_QUANTITIES[:reveal]) | inputs
    if reveal >= 1 and d_k is not None and d_k <= 4:  # q·k spelled out in the score's cell
        quantities |= {"q", "k"}
    if "contribution" in quantities:  # weight × v writes each v out
        quantities.add("v")
    if "weights" in quantities and view.get("scale") is not None and "scale_effect" not in hides:
        quantities.add("flipped_scale")  # the scale-effect line: the range with and without √d_k
    if "captions" not in hides:
        quantities.add("caption")
    if view.get("heads", 1) > 1 and view.get("scale") and "heads_note" not in hides:
        quantities.add("flipped_heads")  # the heads note: this head's largest weight beside one head's
    if card in CARD_SHOWS and card not in hides:
        quantities |= CARD_SHOWS[card]
    return Shown(frozenset(quantities), reveal)


def deciding(question: tuple) -> set:
    """What decides the answer of (kind, change)."""
    kind, change = question
    return DECIDES[change] if kind == "what_if" else DECIDES[kind]


def needed(question: tuple) -> tuple:
    """The sets of quantities any one of which a student works (kind, change) from."""
    kind, change = question
    return NEEDS[change] if kind == "what_if" else NEEDS[kind]


def read_off(question: tuple, seen: Shown) -> set:
    """What on screen gives the answer away (empty: nothing)."""
    return deciding(question) & seen.quantities


def missing(question: tuple, seen: Shown) -> set:
    """What the student would need and does not see (empty: the answer can be worked): the
    smallest of the needed sets' missing parts."""
    gaps = [set(need) - seen.quantities for need in needed(question)]
    return min(gaps, key=len) if all(gaps) else set()


def table() -> dict:
    """The model as the page reads it (constants.stop_shows)."""
    return {"held": HELD, "modes": MODES, "steps": list(STEP_QUANTITIES)}
