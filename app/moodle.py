"""The practice problems as a Moodle question bank: `attention-viz export OUT.xml --moodle-xml
[--practice N] [--lang ko]` writes Moodle XML (docs/lms.md) that a lecturer imports into a course's
question bank and reuses in quizzes and exams.

Each problem (attention_core.practice) is one Cloze ("embedded answers") question: its tokens with
their q, k, v, and its four rows as NUMERICAL blanks, one a number (3 + 3 + 3 + 2). Each blank
grants what our checker grants for that number: the row's honest band (practice.row_bands: every
way of rounding along the calculation) as a value ± tolerance; each slip the checker names in that
row is a 0 % answer with its own band and the checker's hint as its feedback, so a student who
slips is told the step; the general feedback is the worked solution.
"""
from __future__ import annotations

import html
from pathlib import Path

from attention_core.practice import MAX_PROBLEM, ROWS, practice_problem, practice_rows, row_bands
from attention_core.words import text

from .constants import LANGUAGES
from .worksheet import given_table, solution_table, worksheet_words

#: the characters a Cloze answer's text must escape (Moodle's multianswer syntax)
_CLOZE_SPECIAL = "\\}#~/\""
#: decimals the blanks' value and tolerance are written with (the band's edges, well inside the
#: 0.0005 of three decimals)
_PLACES = 6


def _cloze_text(value: str) -> str:
    """`value` as a Cloze answer's feedback: its special characters escaped, as text (never HTML)."""
    escaped = html.escape(value, quote=False)
    return "".join(f"\\{c}" if c in _CLOZE_SPECIAL else c for c in escaped)


def _range(low: float, high: float) -> str:
    """A band as Moodle's value:tolerance (the band's middle, its half width)."""
    return f"{(low + high) / 2:.{_PLACES}f}:{(high - low) / 2 + 10 ** -_PLACES:.{_PLACES}f}"


def _truth_first(truth: float, low: float, high: float) -> str:
    """The truth as Moodle's value:tolerance, the tolerance as wide as the band allows on both
    sides: Moodle shows the first 100 % answer's value as "the correct answer"."""
    return f"{truth:.{_PLACES}f}:{max(0.0, min(truth - low, high - truth)) + 10 ** -_PLACES:.{_PLACES}f}"


def blanks(problem, lang: str) -> dict[str, list[str]]:
    """Each row's NUMERICAL blanks, one a number: the truth itself (100 %: the answer Moodle shows
    as correct), the truth's band (100 %), then each named slip's bands (0 %, the checker's hint
    as feedback)."""
    made = {}
    for name, row in practice_rows(problem).items():
        bands = row_bands(problem, name, row)
        per_number = []
        for i in range(len(row.truth)):
            right = _cloze_text(text("practice_correct", lang, exact=f"{row.truth[i]:.3f}"))
            inside = [(low[i], high[i]) for low, high in bands["truth"] if low[i] <= row.truth[i] <= high[i]]
            first = [f"={_truth_first(float(row.truth[i]), *inside[0])}#{right}"] if inside else []
            answers = first + [f"={_range(low[i], high[i])}#{right}" for low, high in bands["truth"]]
            for slip, held in bands.items():
                if slip == "truth":
                    continue
                hint = _cloze_text(text(f"practice_hint_{slip}", lang))
                answers += [f"%0%{_range(low[i], high[i])}#{hint}" for low, high in held]
            per_number.append("{1:NUMERICAL:" + "~".join(answers) + "}")
        made[name] = per_number
    return made


def question_xml(number: int, lang: str) -> str:
    """Practice problem `number` as one Cloze question of Moodle XML."""
    problem, words = practice_problem(number), worksheet_words(lang)
    made = blanks(problem, lang)
    rows = "".join(f"<p>{html.escape(text(f'practice_row_{name}', lang))}<br>{' '.join(made[name])}</p>" for name in ROWS)
    body = (f"<p>{html.escape(text('practice_task', lang, query=problem.tokens[problem.query]))}</p>"
            f"{given_table(problem, words)}{rows}")
    title = text("practice_title", lang, number=number)
    for part in (body, title):
        assert "]]>" not in part
    return (f'  <question type="cloze">\n'
            f"    <name><text>{html.escape(title)}</text></name>\n"
            f'    <questiontext format="html"><text><![CDATA[{body}]]></text></questiontext>\n'
            f'    <generalfeedback format="html"><text><![CDATA[{solution_table(problem, words)}]]></text></generalfeedback>\n'
            f"    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n"
            f"    <idnumber>attention-explorer-practice-{number}</idnumber>\n"
            f"  </question>\n")


def moodle_xml(count: int, lang: str = LANGUAGES[0]) -> str:
    """Practice problems 1 to `count` as a Moodle XML quiz file, in their own category."""
    if not 1 <= count <= MAX_PROBLEM:
        raise ValueError(f"--practice must be 1 to {MAX_PROBLEM} for a question bank, not {count}")
    if lang not in LANGUAGES:
        raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}")
    category = html.escape(f"$course$/{text('app_title', lang)}/{text('practice_open', lang)}")
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
            f'  <question type="category">\n    <category><text>{category}</text></category>\n  </question>\n'
            + "".join(question_xml(number, lang) for number in range(1, count + 1)) + "</quiz>\n")


def write_moodle_xml(out, count: int, lang: str = LANGUAGES[0]) -> int:
    """Write the question bank to `out`; returns its size in bytes."""
    data = moodle_xml(count, lang).encode("utf-8")
    Path(out).write_bytes(data)
    return len(data)

