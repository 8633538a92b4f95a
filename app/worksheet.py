"""A print-ready worksheet of practice problems (A4), with an answer key on pages of its own that
gives every intermediate value: `attention-viz worksheet OUT.html --count 10 --seed 1 --lang ko`.

The problems are the app's practice problems (attention_core.practice): each names its number,
so a student can open `?practice=<number>` in the explorer and have each row checked.
"""
from __future__ import annotations

import html
from pathlib import Path

import numpy as np

from attention_core.answer import three_decimals, vector_text
from attention_core.practice import MAX_PROBLEM, practice_problem, worked_solution
from attention_core.words import text

from .constants import LANGUAGES, PRACTICE_BANK

#: The most problems one worksheet holds.
MAX_COUNT = 200

STYLE = """
@page { size: A4; margin: 14mm 16mm; }
* { box-sizing: border-box; }
body { font-family: "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif;
       font-size: 10.5pt; color: #111; margin: 0; line-height: 1.4; }
main { max-width: 180mm; margin: 0 auto; padding: 8mm 0; }
h1 { font-size: 16pt; margin: 0 0 2mm; }
h2 { font-size: 12pt; margin: 0 0 2mm; }
.intro, .meta { margin: 0 0 2mm; }
.meta { color: #444; font-size: 9pt; }
.name { margin: 3mm 0 5mm; }
.name span { display: inline-block; width: 60mm; border-bottom: 1px solid #111; }
.problem { break-inside: avoid; page-break-inside: avoid; border: 1px solid #999; border-radius: 2mm;
           padding: 3mm 4mm; margin: 0 0 4mm; }
.problem h2 small { font-weight: normal; color: #444; font-size: 9pt; margin-left: 2mm; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 1mm 0 2mm; }
th, td { border: 1px solid #bbb; padding: 0.8mm 3mm; text-align: center; }
th { background: #f2f2f2; font-weight: 600; }
tr.query th, tr.query td { background: #fff3c4; }
.blank td { height: 7mm; width: 24mm; }
.blank td, .blank thead th { width: 26mm; }
.blank tbody th { text-align: left; width: 56mm; }
.key { break-before: page; page-break-before: always; }
.key .answers { display: grid; grid-template-columns: 1fr 1fr; gap: 0 4mm; }
.key .problem { padding: 2mm 3mm; margin-bottom: 3mm; font-size: 9.5pt; }
.solution { width: 100%; } .solution th { text-align: left; white-space: nowrap; }
.solution td { text-align: right; white-space: nowrap; }
@media screen { body { background: #eee; } main { background: #fff; padding: 10mm 15mm; } }
"""


def worksheet_numbers(count: int, seed: int, every: bool = False) -> list[int]:
    """The problem numbers of a worksheet: `count` different ones, drawn with `seed` from those the
    default exported file carries (1 to PRACTICE_BANK), so a student can check each one there too;
    every=True: from every problem (1 to MAX_PROBLEM), which only the served explorer checks."""
    last = MAX_PROBLEM if every else PRACTICE_BANK
    most = min(MAX_COUNT, last)
    if not 1 <= count <= most:
        raise ValueError(f"--count must be 1 to {most}{'' if every else ' (or use --every-problem)'}, not {count}")
    if seed < 0:
        raise ValueError(f"--seed must be 0 or more, not {seed}")
    return [int(n) + 1 for n in np.random.default_rng(seed).choice(last, size=count, replace=False)]


def _e(value) -> str:
    return html.escape(str(value))


def worksheet_words(lang: str):
    """words(key, **values): the worksheet's words in `lang` (the catalogs' `worksheet` section)."""
    return lambda key, **values: text(key, lang, "worksheet", **values)


def _vector(values) -> str:
    """A vector as "(a, b, c)" to three decimals; a single number without the brackets."""
    return three_decimals(values) if np.ndim(values) == 0 else vector_text(values)


def given_table(problem, words) -> str:
    """The problem's tokens with their q, k, v as a table (the query's row marked)."""
    rows = "".join(
        f'<tr{" class=query" if i == problem.query else ""}><th>{_e(token)}</th>'
        + "".join(f"<td>({', '.join(f'{x:.0f}' for x in matrix[i])})</td>" for matrix in (problem.q, problem.k, problem.v))
        + "</tr>" for i, token in enumerate(problem.tokens))
    return (f"<table class=given><thead><tr><th>{_e(words('token'))}</th><th>q</th><th>k</th><th>v</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _heading(index: int, problem, words) -> str:
    return (f"<h2>{_e(words('problem', index=index))}"
            f"<small>{_e(words('number', number=problem.number))}</small></h2>"
            f"<p>{_e(words('query', query=problem.tokens[problem.query]))}</p>")


def _problem(index: int, problem, words) -> str:
    keys = "".join(f"<th>{_e(token)}</th>" for token in problem.tokens)
    blanks = "".join(f"<tr><th>{_e(words(row))}</th>" + "<td></td>" * width + "</tr>"
                     for row, width in (("scores", 3), ("scaled", 3), ("weights", 3), ("output", 2)))
    return (f'<section class=problem data-number="{problem.number}">{_heading(index, problem, words)}'
            f"{given_table(problem, words)}<table class=blank><thead><tr><th>{_e(words('key'))}</th>{keys}</tr></thead>"
            f"<tbody>{blanks}</tbody></table></section>")


def solution_table(problem, words) -> str:
    """Every intermediate value of the problem's worked solution, as a table."""
    steps = worked_solution(problem)
    lines = [("① q·k", steps["scores"]), ("√d", steps["sqrt_d"]), ("② ÷√d", steps["scaled"]), ("eˣ", steps["exp"]),
             ("Σ eˣ", steps["sum"]), ("③ softmax", steps["weights"]), (words("output_short"), steps["output"])]
    rows = "".join(f"<tr><th>{_e(label)}</th><td>{_vector(values)}</td></tr>" for label, values in lines)
    return f"<table class=solution><tbody>{rows}</tbody></table>"


def _answer(index: int, problem, words) -> str:
    return (f'<section class=problem data-number="{problem.number}">{_heading(index, problem, words)}'
            f"{solution_table(problem, words)}</section>")


def worksheet_html(count: int = 10, seed: int = 1, lang: str = "ko", every: bool = False) -> str:
    """The worksheet as one HTML page: the problems, then (from a new page) the answer key; its
    meta line says where the numbers can be checked (worksheet_numbers)."""
    if lang not in LANGUAGES:
        raise ValueError(f"--lang must be one of {', '.join(LANGUAGES)}")
    words = worksheet_words(lang)
    problems = [practice_problem(number) for number in worksheet_numbers(count, seed, every)]
    sheet = "".join(_problem(i, p, words) for i, p in enumerate(problems, start=1))
    key = "".join(_answer(i, p, words) for i, p in enumerate(problems, start=1))
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_e(words('title'))}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n"
            f"<h1>{_e(words('title'))}</h1>\n<p class=intro>{_e(words('intro'))}</p>\n"
            f"<p class=meta>{_e(words('meta_every' if every else 'meta', count=count, seed=seed, bank=PRACTICE_BANK))}</p>\n"
            f"<p class=name>{_e(words('name'))}: <span></span></p>\n"
            f'<div class=sheet data-testid=worksheet>{sheet}</div>\n'
            f'<div class=key data-testid=answer-key><h1>{_e(words("key_title"))}</h1>'
            f'<p class=meta data-testid=key-marking>{_e(words("key_marking"))}</p><div class=answers>{key}</div></div>\n'
            f"</main>\n</body>\n</html>\n")


def write_worksheet(out, count: int = 10, seed: int = 1, lang: str = "ko", every: bool = False) -> int:
    """Write the worksheet to `out`; returns its size in bytes."""
    data = worksheet_html(count, seed, lang, every).encode("utf-8")
    Path(out).write_bytes(data)
    return len(data)
