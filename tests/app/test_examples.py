"""An example answer is a claim too: the numbers the page shows as an example of how to type an
output ("예: 1.234, 5.678": the questions' words, the input boxes' placeholders, the checker's
hints) must never be an answer of a view a student is asked about, or the example gives it away
(the old example, 0.214, 0.977, was the book's own answer for 먹었다)."""
import itertools
from collections.abc import Mapping
import re

from attention_core import PRESETS
from attention_core.answer import check_answer
from attention_core.words import LANGUAGES, catalog


def _answers_it(text: str) -> list[tuple]:
    """Every book-sentence view (heads, switches, query, head) whose output `text` (as many numbers
    as that head's output has, repeated) is right for, or names a slip of."""
    numbers = [part.strip() for part in text.split(",")]
    found = []
    for name, preset in PRESETS.items():
        for heads in preset.offered_heads():
            d = preset.v.shape[1] // heads
            typed = ", ".join(numbers[i % len(numbers)] for i in range(d))
            for scale, causal in itertools.product((True, False), repeat=2):
                for query, head in itertools.product(range(len(preset.tokens)), range(heads)):
                    check = check_answer(typed, preset.q, preset.k, preset.v, query=query, heads=heads, head=head,
                                         scale=scale, causal=causal)
                    if check.status in ("correct", "rounded", "carried") or not check.slip.startswith("recheck"):
                        found.append((name, heads, scale, causal, query, head, check.status, check.slip))
    return found


def test_the_example_answer_of_the_questions_gives_no_view_away():
    from app.questions import EXAMPLE_NUMBERS, question_table

    assert question_table()["output"]["example"] == list(EXAMPLE_NUMBERS)  # what the page shows
    assert len(EXAMPLE_NUMBERS) == 8
    assert _answers_it(", ".join(EXAMPLE_NUMBERS)) == []


def test_no_example_in_the_words_is_an_answer():
    """Every run of two or more decimal numbers the catalogs write after 예 / e.g. / For example."""
    def strings(value):
        if isinstance(value, str):
            yield value
        elif isinstance(value, Mapping):
            for item in value.values():
                yield from strings(item)

    examples = {found for lang in LANGUAGES for value in strings(catalog(lang))
                for found in re.findall(r"(?:예|e\.g\.|[Ff]or example):?\s*(-?\d+\.\d+(?:,\s*-?\d+\.\d+)+)", value)}
    assert "1.234, 5.678" in examples, examples  # the scan finds the hints' examples
    for example in examples:
        assert _answers_it(example) == [], example
