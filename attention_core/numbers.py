"""Numbers as students type them: integers, decimals and simple fractions, with clear errors."""
from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np

from .errors import InputError

#: Beyond this a hand-calculation value means a typo, and exp() of the scores would overflow.
MAX_MAGNITUDE = 1e6
#: A longer "number" is a paste gone wrong.
MAX_NUMBER_CHARS = 40
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_FRACTION = re.compile(r"^([+-]?\d+)\s*/\s*([+-]?\d+)$")


def parse_number(text) -> float:
    """'2', '-0.5', '1/2', '−3/4' (Unicode minus) -> float. Raises ValueError saying what is wrong."""
    if not isinstance(text, str):
        text = str(text)
    cleaned = text.strip().replace("\u2212", "-")
    if not cleaned:
        raise InputError("empty", "empty: type a number")
    if len(cleaned) > MAX_NUMBER_CHARS:
        raise InputError("too_long_number", "too long to be a number")
    fraction = _FRACTION.match(cleaned)
    if fraction:
        numerator, denominator = int(fraction.group(1)), int(fraction.group(2))
        if denominator == 0:
            raise InputError("div_zero", f"'{cleaned}' divides by zero", text=cleaned)
        value = float(Fraction(numerator, denominator))
    elif _NUMBER.match(cleaned):
        value = float(cleaned)
    else:
        raise InputError("not_number", f"'{cleaned[:20]}' is not a number (use 2, -0.5 or 1/2)", text=cleaned[:20])
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
