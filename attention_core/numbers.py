"""Numbers as students type them: integers, decimals and simple fractions, with clear errors.

The rule book for reading typed numbers, the same in Python and on the page (static/explorer/
checker.js reads these definitions from `app/constants.py`'s CONSTANTS["checker"], never a copy).
The character classes are explicit lists, not a language's `\\s`, `strip()` or `trim()` (Python
and JavaScript disagree on which characters those cover), and not NFKC (whose tables change with
the Unicode version, and which reads a superscript ² as a 2). A typed text is first normalised:

1. full-width forms U+FF01–U+FF5E (a Korean or Japanese input mode: ０-９ ． ， ； （ ） ／ －)
   read as their ASCII characters (code point − 0xFEE0); the minus sign U+2212 reads as '-';
2. invisible format characters (IGNORED: soft hyphen, zero-width space, non-joiner and joiner,
   direction marks and embeddings, word joiner, byte order mark U+FEFF) are dropped where they
   stand, so a pasted BOM or zero-width space never changes what is read;
3. spaces (SPACE) around a '/' are dropped, so '1 / 2' is one fraction, and spaces before a
   PERCENT sign, so '62 %' is one percentage.

SPACE is every C0 and C1 control character (tab, newline, U+001C–U+001F, U+0085, …), the space,
no-break space U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, the ideographic space U+3000 and
the line and paragraph separators U+2028, U+2029. A number is then, after SPACE is stripped from
both ends: an optional sign, ASCII digits with an optional decimal point and exponent (NUMBER),
or an integer over an integer (FRACTION, divided as two floats: a/b), or a decimal number followed
by PERCENT ('62%' is 62/100, divided as two floats: a weight written as people write shares).
Other digits (Arabic-Indic, superscripts, circled) are not numbers.
"""
from __future__ import annotations

import math
import re

import numpy as np

from .errors import InputError

#: Beyond this a hand-calculation value means a typo, and exp() of the scores would overflow.
MAX_MAGNITUDE = 1e6
#: A longer "number" is a paste gone wrong.
MAX_NUMBER_CHARS = 40
#: An error quotes at most this many characters of what was typed.
SHOWN_CHARS = 20

# The character classes and patterns below are written as regular-expression source that Python's
# `re` and JavaScript's RegExp read the same way (\uXXXX escapes, no \s, \d or \w); the page
# gets them through CONSTANTS["checker"].
#: Characters that count as a space: C0 and C1 controls, the space, U+00A0, U+1680,
#: U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 (a class body, for [...]).
SPACE = r"\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Invisible format characters, dropped: soft hyphen, Mongolian vowel separator, zero-width space,
#: non-joiner and joiner, LRM and RLM, bidi embeddings and isolates, word joiner and the invisible
#: operators, the byte order mark (a class body).
IGNORED = r"\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
#: Full-width forms, read as ASCII: each code point minus WIDE_OFFSET (a class body).
WIDE = r"\uff01-\uff5e"
WIDE_OFFSET = 0xFEE0
#: Read as '-': the minus sign U+2212 (a class body).
MINUS = r"\u2212"
#: A decimal number: ASCII digits only, an optional sign, decimal point and exponent.
NUMBER = r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?"
#: A fraction: an integer over an integer (spaces around '/' are gone by then).
FRACTION = r"([+-]?[0-9]+)/([+-]?[0-9]+)"
#: After a decimal number: hundredths ('62%' is 0.62; the full-width ％ reads as it). Spaces
#: before it are gone by then.
PERCENT = "%"

_WIDE = re.compile(f"[{WIDE}]")
_MINUS = re.compile(f"[{MINUS}]")
_IGNORED = re.compile(f"[{IGNORED}]")
_AROUND_SLASH = re.compile(f"[{SPACE}]*/[{SPACE}]*")
_BEFORE_PERCENT = re.compile(f"[{SPACE}]+{PERCENT}")
_EDGES = re.compile(f"\\A[{SPACE}]+|[{SPACE}]+\\Z")
_NUMBER = re.compile(NUMBER)
_FRACTION = re.compile(FRACTION)


def normalise(text: str) -> str:
    """Typed text as the parser reads it: full-width forms as ASCII, U+2212 as '-', invisible
    format characters dropped, no spaces around a '/' or before a '%' (steps 1 to 3 of the
    module's docstring)."""
    text = _WIDE.sub(lambda wide: chr(ord(wide.group()) - WIDE_OFFSET), text)
    text = _MINUS.sub("-", text)
    text = _IGNORED.sub("", text)
    return _BEFORE_PERCENT.sub(PERCENT, _AROUND_SLASH.sub("/", text))


def parse_number(text) -> float:
    """'2', '-0.5', '1/2', '−3/4' (Unicode minus), '１／２' (full width), '62%' -> float. Raises InputError
    (a ValueError) whose code says what is wrong: empty, too_long_number, div_zero, not_number,
    too_large."""
    if not isinstance(text, str):
        text = str(text)
    cleaned = _EDGES.sub("", normalise(text))
    if not cleaned:
        raise InputError("empty", "empty: type a number")
    if len(cleaned) > MAX_NUMBER_CHARS:
        raise InputError("too_long_number", "too long to be a number")
    fraction = _FRACTION.fullmatch(cleaned)
    if fraction:
        # two floats divided, as the page divides them (so the last bit agrees too)
        numerator, denominator = float(fraction.group(1)), float(fraction.group(2))
        if denominator == 0:
            raise InputError("div_zero", f"'{cleaned}' divides by zero", text=cleaned)
        value = numerator / denominator
    elif _NUMBER.fullmatch(cleaned):
        value = float(cleaned)
    elif cleaned.endswith(PERCENT) and _NUMBER.fullmatch(cleaned[:-len(PERCENT)]):
        value = float(cleaned[:-len(PERCENT)]) / 100  # two floats divided, as the page divides them
    else:
        shown = cleaned[:SHOWN_CHARS]
        raise InputError("not_number", f"'{shown}' is not a number (use 2, -0.5, 1/2 or 62%)", text=shown)
    if not math.isfinite(value) or abs(value) > MAX_MAGNITUDE:
        raise InputError("too_large", f"'{cleaned}' is too large: keep numbers within ±{MAX_MAGNITUDE:,.0f}",
                         text=cleaned, limit=f"{MAX_MAGNITUDE:,.0f}")
    return value


def parse_matrix(cells, name: str):
    """Rows of typed cells -> ((n, d) float array or None, [(row, col, InputError), ...]).

    The array is None when any cell is invalid; every invalid cell is reported.
    """
    rows = [list(row) for row in cells]
    if not rows or not rows[0]:
        return None, [(0, 0, InputError("empty_matrix", f"{name} is empty", name=name))]
    width = len(rows[0])
    errors, values = [], np.zeros((len(rows), width))
    for i, row in enumerate(rows):
        if len(row) != width:
            errors.append((i, 0, InputError("ragged", f"{name} row {i + 1} has {len(row)} numbers, expected {width}",
                                            name=name, row=i + 1, count=len(row), width=width)))
            continue
        for j, cell in enumerate(row):
            try:
                values[i, j] = parse_number(cell)
            except InputError as error:
                errors.append((i, j, error))
    return (None if errors else values), errors
