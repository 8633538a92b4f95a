"""The hand-calculation lab on the Python side: typed sentences, typed numbers and answers, checked by the core."""
from __future__ import annotations

from attention_core import MAX_TOKENS, InputError, Preset, check_answer, custom_preset, parse_matrix

import numpy as np

from attention_core.answer import located
from attention_core.layer import attention_layer
from attention_core.words import every_language

from .constants import MAX_D, MAX_TOKEN_CHARS, OWN_NUMBERS, OWN_SENTENCE
from .sentences import sentence_entry


def string_values(values: dict) -> dict:
    """Placeholder values as strings, ready for the UI's string table."""
    return {key: str(value) for key, value in values.items()}


def error_dict(where: str, row: int, col: int, error: InputError) -> dict:
    """An error as the browser shows it: where it is, and a string-table code with its values."""
    return {"where": where, "row": row, "col": col, "code": error.code, "values": string_values(error.values)}


def sentence_preset(text) -> tuple[Preset, dict]:
    """A typed sentence as (Preset, browser entry). Raises InputError."""
    if not isinstance(text, str):
        raise InputError("not_text", "the sentence must be text")
    preset = custom_preset(text)
    # typed: the page's link carries its text (text=), which makes it again
    return preset, {**sentence_entry(preset, name=OWN_SENTENCE, kind="sentence"), "typed": True, "link": "text",
                    "text": " ".join(preset.tokens)}


def _grid_shape_errors(tokens, matrices: dict) -> list[dict]:
    """Errors in the grid's structure, found before any cell is parsed, so that a hostile
    message of a million cells costs nothing."""
    def grid(code, message, **values):
        return [error_dict("grid", -1, -1, InputError(code, message, **values))]

    if not isinstance(tokens, list) or not tokens:
        return grid("empty_sentence", "no tokens")
    if len(tokens) > MAX_TOKENS:
        return grid("too_many_rows", "too many tokens", limit=MAX_TOKENS)
    for name, rows in matrices.items():
        if not isinstance(rows, list) or len(rows) != len(tokens) or not all(isinstance(r, list) for r in rows):
            return grid("shape", "one row per token", name=name.upper(), count=len(tokens))
        widths = {len(r) for r in rows}
        if len(widths) != 1 or not 1 <= widths.pop() <= MAX_D:
            return grid("width", "rows of 1 to MAX_D numbers", name=name.upper(), limit=MAX_D)
    if len(matrices["q"][0]) != len(matrices["k"][0]):
        return grid("qk_width", "Q and K differ in width")
    return []


def numbers_preset(tokens, q_cells, k_cells, v_cells, heads: int):
    """Typed tokens and Q/K/V cells as (Preset, entry, []), or (None, None, errors) marking every bad cell."""
    cells = {"q": q_cells, "k": k_cells, "v": v_cells}
    errors = _grid_shape_errors(tokens, cells)
    if errors:
        return None, None, errors
    tokens = [str(t) for t in tokens]
    for i, token in enumerate(tokens):
        if not token.strip():
            errors.append(error_dict("token", i, 0, InputError("token_empty", "empty token")))
        elif len(token) > MAX_TOKEN_CHARS:
            errors.append(error_dict("token", i, 0, InputError("token_too_long", "token too long",
                                                                limit=MAX_TOKEN_CHARS)))
    matrices = {}
    for where, rows in cells.items():
        values, cell_errors = parse_matrix([[str(cell) for cell in row] for row in rows], where.upper())
        errors += [error_dict(where, r, c, e) for r, c, e in cell_errors]
        matrices[where] = values
    for width in {len(q_cells[0]), len(v_cells[0])}:
        if width % heads:
            errors.append(error_dict("d", -1, -1, InputError("d_heads", "d does not fit heads", d=width, count=heads)))
    if errors:
        return None, None, errors
    try:
        titles = every_language("my_numbers", "titles", tokens=" ".join(tokens))
        preset = Preset(name=OWN_NUMBERS, tokens=tuple(tokens), q=matrices["q"], k=matrices["k"], v=matrices["v"],
                        title_ko=titles["ko"], title_en=titles["en"], origin="numbers",
                        default_query=len(tokens) - 1)
        return preset, sentence_entry(preset, name=OWN_NUMBERS, kind="numbers"), []
    except ValueError as error:  # scores that overflow float64
        return None, None, [error_dict("grid", -1, -1, InputError("overflow", str(error)))]


def answer_result(preset: Preset, text, *, query: int, heads: int, head: int, scale: bool, causal: bool,
                  all_heads: bool = False, weights: str | None = None) -> dict:
    """The checker's verdict, with the view of `preset` it was given for (the caller adds which
    entry: AttentionView.check's `source`). `slip` names what went wrong (or ''); `weights`: the
    weights the student typed beside the output, if any (attention_core.answer.check_answer)."""
    view = {"query": int(query), "heads": int(heads), "head": int(head),
            "scale": bool(scale), "causal": bool(causal), "all_heads": bool(all_heads)}
    n = len(preset.tokens)
    if not (0 <= query < n and 0 <= head < heads and preset.q.shape[1] % heads == 0
            and preset.v.shape[1] % heads == 0):
        return {"status": "invalid", "slip": "", "key": "err_view", "values": {}, **view}
    result = located(check_answer(str(text), preset.q, preset.k, preset.v, query=query, heads=heads, head=head,
                                  scale=scale, causal=causal, all_heads=all_heads and heads > 1,
                                  weights=None if weights is None else str(weights)),
                     preset.tokens, query, head)
    return {"status": result.status, "slip": result.slip, "key": result.key,
            "values": string_values(result.values), **view}


def layer_preset(base: Preset, cells: dict):
    """`base` (a preset that shows where its Q, K, V come from) with the typed W_Q, W_K, W_V cells
    ({"w_q": [[str]], ...}, each the shape of base's) as (Preset, entry, []): its X times the new
    W, named OWN_NUMBERS; or (None, None, errors) marking every bad cell, where "w_q" etc."""
    errors, weights = [], {}
    for name in ("w_q", "w_k", "w_v"):
        rows, shape = cells.get(name), np.shape(base.layer[name])
        if not isinstance(rows, list) or len(rows) != shape[0] or not all(isinstance(r, list) and len(r) == shape[1] for r in rows):
            errors.append(error_dict(name, -1, -1, InputError("w_shape", "W has the wrong shape", name=name.upper(),
                                                              rows=shape[0], cols=shape[1])))
            continue
        values, cell_errors = parse_matrix([[str(cell) for cell in row] for row in rows], name.upper())
        errors += [error_dict(name, r, c, e) for r, c, e in cell_errors]
        weights[name] = values
    if errors:
        return None, None, errors
    layer = {**base.layer, **weights}
    made = attention_layer(**layer)
    titles = every_language("my_w", "titles", tokens=" ".join(base.tokens))
    preset = Preset(name=OWN_NUMBERS, tokens=base.tokens, q=made.q, k=made.k, v=made.v, layer=layer, origin="numbers",
                    title_ko=titles["ko"], title_en=titles["en"],
                    default_query=base.default_query)
    return preset, sentence_entry(preset, name=OWN_NUMBERS, kind="numbers"), []
