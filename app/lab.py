"""The hand-calculation lab on the Python side: typed sentences, typed numbers and answers, checked by the core."""
from __future__ import annotations

from attention_core import MAX_TOKENS, InputError, Preset, check_answer, custom_preset, parse_matrix

from .sentences import sentence_entry

MAX_TOKEN_CHARS = 40
MAX_D = 8
CUSTOM = "custom"
NUMBERS = "numbers"


def error_dict(where: str, row: int, col: int, error: InputError) -> dict:
    """An error as the browser shows it: where it is, and a string-table code with its values."""
    return {"where": where, "row": row, "col": col, "code": error.code,
            "values": {k: str(v) for k, v in error.values.items()}}


def sentence_preset(text: str) -> tuple[Preset, dict]:
    """A typed sentence as (Preset, browser entry). Raises InputError."""
    if not isinstance(text, str):
        raise InputError("not_text", "the sentence must be text")
    preset = custom_preset(text)
    return preset, sentence_entry(preset, name=CUSTOM)


def numbers_preset(tokens, q_cells, k_cells, v_cells, heads: int):
    """Typed tokens and Q/K/V cells as (Preset, entry, []), or (None, None, errors) marking every bad cell."""
    errors = []
    tokens = [str(t) for t in (tokens or [])]
    if not tokens:
        errors.append(error_dict("grid", -1, -1, InputError("empty_sentence", "no tokens")))
    if len(tokens) > MAX_TOKENS:
        errors.append(error_dict("grid", -1, -1, InputError("too_many_rows", "too many tokens", limit=MAX_TOKENS)))
    for i, token in enumerate(tokens):
        if not token.strip():
            errors.append(error_dict("token", i, 0, InputError("token_empty", "empty token")))
        elif len(token) > MAX_TOKEN_CHARS:
            errors.append(error_dict("token", i, 0, InputError("token_too_long", "token too long",
                                                                limit=MAX_TOKEN_CHARS)))
    matrices = {}
    for where, cells in (("q", q_cells), ("k", k_cells), ("v", v_cells)):
        try:
            rows = [[str(cell) for cell in row] for row in (cells or [])]
        except TypeError:
            rows = []
        values, cell_errors = parse_matrix(rows, where.upper())
        errors += [error_dict(where, r, c, e) for r, c, e in cell_errors]
        if values is not None and (values.shape[0] != len(tokens) or values.shape[1] > MAX_D):
            errors.append(error_dict(where, -1, -1, InputError("ragged", "shape", name=where.upper(),
                                                               row=len(tokens), count=values.shape[0], width=MAX_D)))
            values = None
        matrices[where] = values
    d = matrices["q"].shape[1] if matrices["q"] is not None else 0
    if d and d % heads:
        errors.append(error_dict("d", -1, -1, InputError("d_heads", "d does not fit heads", d=d, heads=heads)))
    if errors:
        return None, None, errors
    try:
        preset = Preset(name=NUMBERS, tokens=tuple(tokens), q=matrices["q"], k=matrices["k"], v=matrices["v"],
                        title_ko="내 숫자: " + " ".join(tokens), title_en="My numbers: " + " ".join(tokens),
                        default_query=len(tokens) - 1)
        return preset, sentence_entry(preset, name=NUMBERS), []
    except ValueError as error:
        return None, None, [error_dict("grid", -1, -1, InputError("overflow", str(error)))]


def answer_result(preset: Preset, text: str, *, query: int, heads: int, head: int, scale: bool, causal: bool) -> dict:
    """The checker's verdict for the browser: status, a string-table key and its values."""
    result = check_answer(str(text)[:2000], preset.q, preset.k, preset.v, query=query, heads=heads, head=head,
                          scale=scale, causal=causal)
    return {"status": result.status, "key": result.hint, "values": {k: str(v) for k, v in result.values.items()},
            "query": int(query), "head": int(head)}

