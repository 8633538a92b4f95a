"""Rules and constants shared by Python and the browser: defined here once, sent to the browser
as the component's `_constants` (and in the exported file's state), used on both sides."""
from __future__ import annotations

import numpy as np

from attention_core import HEAD_CHOICES, MAX_TOKENS, softmax
from attention_core.answer import SLIPS
from attention_core.lenses import DRAWN
from attention_core.scale_effect import EFFECTS, SHARPENINGS
from attention_core.practice import MAX_PROBLEM, ROWS, rule_book
from attention_core.order import order_table
from attention_core.polysemy import polysemy_table
from attention_core.why_scale import scale_table
from attention_core.words import LANGUAGES

from .kinds import MODEL_KINDS, SENTENCE_KINDS, TRAINED_KIND
from .lessons import CARDS, MAX_LESSON_CHARS, lesson_names
from .protocol import FROM_VIEW
from .stop_shows import table as stop_shows_table
# the view params and their constants are declared in app/view_params.py; re-exported here
from .view_params import MODEL_TOP_K, MODES, STEPS, WHY_D, view_table  # noqa: F401

#: The names under which the student's own sentence and own numbers are shown.
OWN_SENTENCE = "custom"
OWN_NUMBERS = "numbers"
#: … and the name of a sentence the student runs through the model on show
OWN_MODEL = "model-own"
#: The practice problems an exported file carries (1 to PRACTICE_BANK); a served page asks Python
#: for any of 1 to MAX_PROBLEM.
PRACTICE_BANK = 100
#: The longest sentence a student may send through a model, in characters.
MAX_MODEL_CHARS = 2000
#: The numbers editor's limits.
MAX_D = 8
MAX_TOKEN_CHARS = 40

#: The softmax example of the second chapter (003, "3. Softmax"): its scores, the weights the
#: core computes, and the rounder ones the book prints.
#: A room's questions (app/questions.py QUESTIONS, one definition a kind): the switches a what_if flips, what_if's
#: choices, and an output question's outcomes: right (exact, or honestly rounded), then each slip
#: the checker names (attention_core.answer.SLIPS), the rows its counts are shown in
QUESTION_CHANGES = ("scale", "causal", "heads")
WHAT_IF = ("top_changes", "sharper", "flatter", "same")
OUTCOMES = ("correct", "rounded") + SLIPS

SOFTMAX_EXAMPLE_SCORES = (1.2, 0.3, 2.1, -0.4)
SOFTMAX_EXAMPLE_BOOK = (0.24, 0.10, 0.58, 0.08)

CONSTANTS = {
    # every view param: its kind, default, range or choices, and where else it goes (app/view_params.py)
    "view": view_table(),
    # the built-in lessons, by name (app/lesson_files/, docs/lessons.md)
    "lessons": lesson_names(),
    # the cards a stop may bring into sight, and the largest lesson file the page reads (UTF-8 bytes)
    "lesson_cards": list(CARDS),
    "lesson_max_bytes": MAX_LESSON_CHARS * 4,
    # what a lesson's stop shows before its question is answered, in each mode (app/stop_shows.py)
    "stop_shows": stop_shows_table(),
    # the models a lesson's stop may show: the one every page offers (app/lesson_check.py)
    "lesson_models": [TRAINED_KIND],
    # each request's fields that the page fills with its view as the request goes (app/protocol.py)
    "requests": {kind: list(fields) for kind, fields in FROM_VIEW.items()},
    "head_choices": list(HEAD_CHOICES),
    "languages": list(LANGUAGES),
    "modes": list(MODES),
    "steps": STEPS,
    "own": {"sentence": OWN_SENTENCE, "numbers": OWN_NUMBERS, "model": OWN_MODEL},
    # the kinds of entry: sentences (the `sentences` catalog) and models (the `models` catalog)
    "kinds": {"sentences": list(SENTENCE_KINDS), "models": list(MODEL_KINDS)},
    "limits": {"max_tokens": MAX_TOKENS, "max_d": MAX_D, "max_token_chars": MAX_TOKEN_CHARS},
    # the answer checker's rules, which the browser applies to the core's paths, and how it reads a
    # typed answer (attention_core.answer's docstring)
    "checker": rule_book(),
    "practice": {"max": MAX_PROBLEM, "rows": list(ROWS)},
    # the sentence beside a query's weights, by the code the core chose for it (attention_core.scale_effect)
    "scale_effect": {"effects": list(EFFECTS), "sharpenings": list(SHARPENINGS)},
    # the lenses a model's lines, bars and heatmap draw (attention_core.lenses.DRAWN): "weight", then
    # each lens/drawn row of a head's cube in this order
    "model": {"top_k": MODEL_TOP_K, "lenses": list(DRAWN)},
    # why √d: spreads and largest weights measured by the core once, for the slider over d
    "why_scale": {**scale_table(), "start": WHY_D},
    # the same word in two sentences: its weights, outputs, a 2-D projection and cosines, by the core
    "polysemy": polysemy_table(),
    # order lost without position: two orderings, position off and on, by the core
    "order": order_table(),
    "softmax_example": {"scores": list(SOFTMAX_EXAMPLE_SCORES),
                        "weights": softmax(np.array(SOFTMAX_EXAMPLE_SCORES)).tolist(),
                        "book": list(SOFTMAX_EXAMPLE_BOOK)},
}
