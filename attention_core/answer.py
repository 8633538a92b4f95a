"""Checks a student's hand-computed output vector: right, right but rounded along the way, or the
slip that most likely explains it, found by comparing it with every likely wrong path.

How a typed answer is read (parse_vector), the same on the page (static/explorer/checker.js's
parseAnswer, with these constants from CONSTANTS["checker"]):

1. the first MAX_ANSWER_CHARS characters (code points, not UTF-16 units) are read;
2. they are normalised as attention_core.numbers.normalise does: full-width forms U+FF01–U+FF5E
   as ASCII (so ，；（）［］ separate like , ; ( ) [ ]), U+2212 as '-', the invisible format
   characters of numbers.IGNORED (BOM U+FEFF, zero-width space U+200B, joiners U+200C/U+200D,
   direction marks, word joiner, soft hyphen) dropped, and no spaces around a '/';
3. the text is split at runs of SEPARATORS: numbers.SPACE (every C0 and C1 control such as tab,
   newline and U+001C, the space, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
   U+3000) and , ; ( ) [ ]; empty parts are dropped, so '(0.2,, 0.3)' is two numbers;
4. no part: empty_answer; more than MAX_NUMBERS: too_many_numbers; else each part is a number as
   numbers.parse_number reads it (too_long_number, not_number, div_zero, too_large otherwise).

Before step 3, what ends a sentence is dropped from the end (ENDING, then any SPACE): a full stop
(. or 。), an exclamation mark, and the copula 입니다, 이에요, 예요, 이다 or 요 before it, so
'0.214, 0.977.' and '(0.214, 0.977)입니다' read as the two numbers. And SEPARATORS include the
ideographic comma 、 (and its half-width ､) and the middle dots · and ・ that Korean and Japanese
lists use: '0.214、0.977' and '0.214 · 0.977' are two numbers. A weight may be written as a
percentage: '62%, 31%, 8%' (numbers.PERCENT).

So a pasted BOM, no-break space or zero-width space never turns a right answer into "not a
number", '1 / 2' is one half, and only ASCII digits (after the full-width ones) are digits.
"""
from __future__ import annotations

import re
from decimal import Decimal
from dataclasses import dataclass, field

from functools import lru_cache

import numpy as np

from .attention import attention, split_heads
from .errors import InputError
from .honest import (DECIMALS, DIGITS, ROOT_DECIMALS, SCALED_DECIMALS, SCALED_DIGITS, SLACK, chain_band, inside,
                     typed_corners)
from .numbers import (FRACTION, IGNORED, MAX_MAGNITUDE, MAX_NUMBER_CHARS, MINUS, NUMBER, PERCENT, SHOWN_CHARS, SPACE,
                      WIDE, WIDE_OFFSET, normalise, parse_number)

#: Within this of the true output (largest difference in any component): correct. Hand work
#: that keeps three decimals in between lands here.
TOLERANCE = 0.002
#: How far from the truth the practice problems keep a slip worth naming (practice.DISTINCT is 3×).
#: Whether an answer is right is not a distance: it is right when honest hand work can write it
#: (attention_core.honest's bands).
ROUNDING = 0.015
#: The most numbers an answer may have, and the most characters read of it.
MAX_NUMBERS = 64
MAX_ANSWER_CHARS = 2000
#: What separates the numbers of an answer: any space (numbers.SPACE), commas, semicolons,
#: brackets, the ideographic comma U+3001 (and U+FF64) and the middle dots U+00B7, U+30FB (a class
#: body, regular-expression source read the same by Python and JavaScript).
SEPARATORS = SPACE + r",;()\[\]\u3001\uff64\u00b7\u30fb"
_SEPARATORS = re.compile(f"[{SEPARATORS}]+")
#: What may end an answer written as a sentence, dropped with any SPACE after it: the copula
#: 입니다, 이에요, 예요, 이다, 요, then a full stop . or 。 or an exclamation mark (each optional).
ENDING = r"(\uc785\ub2c8\ub2e4|\uc774\uc5d0\uc694|\uc608\uc694|\uc774\ub2e4|\uc694)?[.\u3002!]?"
_ENDING = re.compile(f"(?:{ENDING})[{SPACE}]*\\Z")
#: The slips the checker can name, as `slip` and as the UI's `hint_<slip>` string; and where none
#: can: 'recheck_output' (outside every v of the keys seen: the weighted sum itself is off) or
#: 'recheck' (no step can be named: compare with the calculation table).
SLIPS = ("forgot_scale", "extra_scale", "forgot_mask", "extra_mask", "both", "divided_by_d", "skipped_softmax",
         "sum_not_softmax", "weights_not_output", "other_head", "recheck_output", "recheck",
         # last, so that the counts a room or a report kept by index (app/constants.py OUTCOMES) stay theirs
         "divided_by_d_model", "other_query")
#: Another query's output this close to the answer (largest difference) is looked at: is the
#: answer what honest hand work gives for that query? (Honest bands are far narrower.)
NEAR_OTHER = 0.1
#: Mistakes the checker cannot name, whose answers can look like a slip it can (output_chains'
#: chains named so): the weights times K instead of V, and the mask applied after softmax without
#: dividing again. An answer one of them can give is no slip's for sure: it is told to recheck.
UNNAMED = "unnamed_"
#: where each of those mistakes' numbers part from the calculation table, in the order of the steps:
#: the answer's hint says that step (hint_parts_at_<part>), nothing more
UNNAMED_PARTS = {"mask_after_softmax": "weights", "times_k": "output"}


def output_chains(scale: bool, causal: bool) -> list[tuple[str, bool, bool, list[str]]]:
    """How a view's output is computed from the query's score row (attention_core.honest's steps),
    and each slip's way: (name, √d on, mask on, steps), the truth first. The page runs the same
    (constants.checker.output_chains)."""
    divide = lambda on: "scale" if on else "round"  # noqa: E731
    chains = [("truth", scale, causal, [divide(scale), "softmax", "output"]),
              ("forgot_scale" if scale else "extra_scale", not scale, causal, [divide(not scale), "softmax", "output"]),
              ("forgot_mask" if causal else "extra_mask", scale, not causal, [divide(scale), "softmax", "output"]),
              ("both", not scale, not causal, [divide(not scale), "softmax", "output"])]
    if scale:
        chains += [("divided_by_d", scale, causal, ["divide_d", "softmax", "output"]),
                   ("divided_by_d_model", scale, causal, ["scale_model", "softmax", "output"])]
    chains += [("skipped_softmax", scale, causal, [divide(scale), "hide", "output"]),
               ("sum_not_softmax", scale, causal, [divide(scale), "by_sum", "output"]),
               ("weights_not_output", scale, causal, [divide(scale), "softmax"]),
               (UNNAMED + "times_k", scale, causal, [divide(scale), "softmax", "output_k"])]
    if causal:
        chains.append((UNNAMED + "mask_after_softmax", scale, causal, [divide(scale), "softmax_all", "output"]))
    return chains


def checker_rules() -> dict:
    """The rule book as the page applies it (CONSTANTS["checker"]): the allowances, the limits, and
    how an answer is read (this module's docstring) as regular-expression source."""
    return {"tolerance": TOLERANCE, "slack": SLACK, "unnamed": UNNAMED, "unnamed_parts": UNNAMED_PARTS, "near_other": NEAR_OTHER, "decimals": [list(habit) for habit in DECIMALS], "digits": list(DIGITS),
            "root_decimals": list(ROOT_DECIMALS), "scaled_decimals": [list(habit) for habit in SCALED_DECIMALS],
            "scaled_digits": list(SCALED_DIGITS),
            "output_chains": {f"{int(scale)}{int(causal)}": [list(chain) for chain in output_chains(scale, causal)]
                              for scale in (False, True) for causal in (False, True)},
            "max_numbers": MAX_NUMBERS, "max_answer_chars": MAX_ANSWER_CHARS, "max_number_chars": MAX_NUMBER_CHARS,
            "max_magnitude": MAX_MAGNITUDE, "limit_text": f"{MAX_MAGNITUDE:,.0f}", "shown_chars": SHOWN_CHARS,
            "space": SPACE, "ignored": IGNORED, "wide": WIDE, "wide_offset": WIDE_OFFSET, "minus": MINUS,
            "separators": SEPARATORS, "number": NUMBER, "fraction": FRACTION, "percent": PERCENT, "ending": ENDING}


@dataclass(frozen=True)
class AnswerCheck:
    """status: 'correct', 'rounded', 'wrong' or 'invalid'. slip: one of SLIPS, or '' when right
    or unreadable. key: the UI string that says it, with `values` for its placeholders."""

    status: str
    slip: str
    key: str
    values: dict = field(default_factory=dict)


def parse_vector(text: str) -> np.ndarray:
    """'(0.214, 0.977)', '0.214 0.977' or '1/2; 1/3' -> (d,) floats, read as the module's docstring
    says. Raises InputError (a ValueError): empty_answer, too_many_numbers, or parse_number's."""
    typed = _ENDING.sub("", normalise(str(text)[:MAX_ANSWER_CHARS]), count=1)
    parts = [part for part in _SEPARATORS.split(typed) if part]
    if not parts:
        raise InputError("empty_answer", "type the output vector, e.g. 0.214, 0.977")
    if len(parts) > MAX_NUMBERS:
        raise InputError("too_many_numbers", "too many numbers")
    return np.array([parse_number(part) for part in parts])


def answer_paths(q, k, v, *, heads: int, scale: bool, causal: bool) -> dict[str, np.ndarray]:
    """The true outputs and the output of every likely slip, for every head and query.

    q, k: (n, d_model); v: (n, dv_model). Returns, each (heads, n, d_v) but 'weights' (heads, n, n):
      truth            the output under the view's switches
      forgot_scale / extra_scale, forgot_mask / extra_mask, both
                       the output with √d_k, the mask or both switched the other way
      skipped_softmax  the (scaled, masked) scores used as weights directly
      sum_not_softmax  the scores divided by their sum instead of softmax
      weights          the weights themselves (typed instead of the output)
    """
    result = attention(q, k, v, heads=heads, scale=scale, causal=causal)
    other = {key: attention(q, k, v, heads=heads, **switches).output for key, switches in {
        "scale": {"scale": not scale, "causal": causal},
        "mask": {"scale": scale, "causal": not causal},
        "both": {"scale": not scale, "causal": not causal}}.items()}
    skipped, by_sum = softmax_slips(result, v)
    return {
        "truth": result.output,
        "forgot_scale" if scale else "extra_scale": other["scale"],
        "forgot_mask" if causal else "extra_mask": other["mask"],
        "both": other["both"],
        "skipped_softmax": skipped,
        "sum_not_softmax": by_sum,
        "weights": result.weights,
    }


def softmax_slips(result, v) -> tuple[np.ndarray, np.ndarray]:
    """From one AttentionResult and V (n, dv_model): the outputs, each (h, n, d_v), with the
    (scaled, masked) scores used as weights directly, and with the scores divided by their sum
    (NaN where that sum is 0) — the two slips that are no other view's output."""
    values = split_heads(np.asarray(v, dtype=float), result.heads)          # (h, n, d_v)
    visible = np.where(np.isneginf(result.masked), 0.0, result.masked)      # (h, n, n)
    sums = visible.sum(axis=-1, keepdims=True)
    by_sum = np.divide(visible, sums, out=np.full_like(visible, np.nan), where=np.abs(sums) > 1e-12)
    return visible @ values, by_sum @ values


def max_difference(answer: np.ndarray, path: np.ndarray) -> float:
    """The largest difference in any component (inf for another length, or a path with no value)."""
    if answer.shape != path.shape or not np.all(np.isfinite(path)):
        return float("inf")
    return float(np.max(np.abs(answer - path)))


def three_decimals(x: float) -> str:
    """x to three decimals as a browser's toFixed(3) writes it: the size rounded, a tie away from 0,
    and a minus sign for any x below 0 (so -0.0004 is "-0.000", as on the page)."""
    scaled = Decimal(abs(float(x))) * 1000
    whole = int(scaled.to_integral_value(rounding="ROUND_FLOOR"))
    if scaled - whole >= Decimal("0.5"):
        whole += 1
    return f"{'-' if x < 0 else ''}{whole // 1000}.{whole % 1000:03d}"


def vector_text(vector: np.ndarray) -> str:
    return "(" + ", ".join(three_decimals(x) for x in vector) + ")"


def view_bands(q, k, v, *, heads: int, scale: bool, causal: bool, query: int) -> list[dict]:
    """What honest hand work can write for the query's output in each head, under every way of
    output_chains: [{name: band}] a head (attention_core.honest). q, k: (n, d_model); v: (n, dv_model)."""
    scores = attention(q, k, v, heads=heads, scale=scale, causal=causal).scores    # (h, n, n)
    values = split_heads(np.asarray(v, dtype=float), heads)                       # (h, n, d_v)
    keys = split_heads(np.asarray(k, dtype=float), heads)                         # (h, n, d_k)
    d_k = q.shape[1] // heads
    seen = lambda masked: np.arange(scores.shape[-1]) <= query if masked else None  # noqa: E731
    return [{name: chain_band(scores[h, query], steps, d_k=d_k, visible=seen(masked), v=values[h], k=keys[h],
                              d_model=q.shape[1])
             for name, _, masked, steps in output_chains(scale, causal)} for h in range(heads)]


def judge(answer: np.ndarray, bands: list[dict], truth: np.ndarray, values: np.ndarray, *, query: int, head: int,
          all_heads: bool, causal: bool, weights: np.ndarray | None = None, other_band=None) -> AnswerCheck:
    """The verdict on a typed output vector for (query, head), from view_bands' `bands`, the true
    outputs `truth` (h, n, d_v) and the heads' V `values` (h, n, d_v).

    Right when honest hand work can write it (a head's truth band; with all heads shown, any
    head's, the verdict says which, or all of them side by side): correct within TOLERANCE of the
    truth, else rounded. Else every slip whose band holds it, for the nearest head (the first
    named, the others in values["also"]); else 'recheck_output' when a component lies outside
    every v of the keys the query sees (no weights can give it), else 'recheck'. `weights`: the
    weights the student typed too (n,), if any: an output computed honestly from them is 'rounded'
    when they are right (the head's weights band), else 'carried' (right from wrong weights).
    `other_band(query, head)`: another query's truth band (view_bands' for that query), if the caller can
    make it: a slip's answer that is also another query's honest output is named that
    ('other_query', values["other_query"] its index), and nothing else.
    """
    heads = truth.shape[0]
    candidates = {str(head): (truth[head, query], [bands[head]["truth"]])}
    if all_heads:
        candidates = {str(h): (truth[h, query], [bands[h]["truth"]]) for h in range(heads)}
        if heads > 1:
            lows, highs = zip(*(bands[h]["truth"] for h in range(heads)))
            candidates["all"] = (truth[:, query].reshape(-1), [(np.concatenate(lows), np.concatenate(highs))])
    ranked = sorted((max_difference(answer, target), name) for name, (target, _) in candidates.items())
    for distance, name in ranked:
        target, held = candidates[name]
        if any(inside(answer, *band) for band in held):
            shown = {"head": f"1–{heads}" if name == "all" else str(int(name) + 1), "exact": vector_text(target)}
            return AnswerCheck("correct" if distance <= TOLERANCE else "rounded", "",
                               "answer_correct" if distance <= TOLERANCE else "answer_rounded", shown)
    carried = carried_output(weights, values[head])
    if carried is not None and inside(answer, *carried):
        shown = {"head": str(head + 1), "exact": vector_text(truth[head, query])}
        if inside(weights, *bands[head]["weights_not_output"]):
            return AnswerCheck("rounded", "", "answer_rounded", shown)
        return AnswerCheck("carried", "", "answer_carried", shown)
    distance, checked = ranked[0]
    focus = head if checked == "all" or distance == float("inf") else int(checked)
    here = {"head": str(focus + 1)}
    held = [name for name, band in bands[focus].items() if name != "truth" and inside(answer, *band)]
    named = [name for name in held if not name.startswith(UNNAMED)]
    # the first step where a mistake no hint names parts from the table (if one gives this answer)
    parts = [UNNAMED_PARTS[name[len(UNNAMED):]] for name in held if name.startswith(UNNAMED)]
    part = min(parts, key=list(UNNAMED_PARTS.values()).index) if parts else None
    others = [h for h in range(heads) if h != focus and inside(answer, *bands[h]["truth"])]
    if others:
        named.append("other_head")
        here["other"] = str(others[0] + 1)
    if len(named) - bool(others) < len(held):
        # a mistake no hint names gives this answer too: no step's name, only what is sure (it is
        # another head's honest output), or that it does not match
        named = ["other_head"] if others else []
    if named and other_band is not None:
        near = [j for j in range(truth.shape[1]) if j != query and max_difference(answer, truth[focus, j]) <= NEAR_OTHER]
        worked = [j for j in near if inside(answer, *other_band(j, focus))]
        if worked:  # another query's honest output: say so, and no slip that only looks like it
            return AnswerCheck("wrong", "other_query", "hint_other_query", {**here, "other_query": str(worked[0])})
    if named:
        return AnswerCheck("wrong", named[0], f"hint_{named[0]}", {**here, "also": ",".join(named[1:])})
    if answer.shape != truth[focus, query].shape:
        return AnswerCheck("wrong", "", "answer_length", {"count": str(truth.shape[2]), "given": str(answer.shape[0])})
    if part is not None:  # which step's numbers stop matching, and nothing more
        return AnswerCheck("wrong", "recheck", f"hint_parts_at_{part}", here)
    seen = values[focus][: query + 1] if causal else values[focus]
    outside = np.any((answer < seen.min(axis=0) - 0.005 - SLACK) | (answer > seen.max(axis=0) + 0.005 + SLACK))
    slip = "recheck_output" if outside else "recheck"
    return AnswerCheck("wrong", slip, f"hint_{slip}", here)


def carried_output(weights, values: np.ndarray):
    """The band of an output computed honestly from the weights a student typed (n,) and the head's
    V (n, d_v), whatever those weights are (the mask forgotten too); None without weights, or with
    weights of another length or not finite."""
    if weights is None:
        return None
    weights = np.asarray(weights, dtype=float)
    if weights.shape != (len(values),) or not np.all(np.isfinite(weights)):
        return None
    return chain_band(typed_corners(weights), ["output"], v=values)


def typed_weights(text: str | None):
    """The weights a student typed beside the output, read as an answer is; None when none, or unreadable."""
    if text is None:
        return None
    try:
        return parse_vector(text)
    except InputError:
        return None


def _content(array) -> tuple:
    """An array as a memo key: its shape and its float64 bytes."""
    array = np.asarray(array, dtype=float)
    return array.shape, array.tobytes()


def _frozen(value):
    """`value` (arrays in dicts, lists and tuples) made read-only, so a memo's result cannot be changed."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, dict):
        for item in value.values():
            _frozen(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _frozen(item)
    return value


@lru_cache(maxsize=128)
def _judging(q_content: tuple, k_content: tuple, v_content: tuple, heads: int, scale: bool, causal: bool, query: int):
    q, k, v = (np.frombuffer(data).reshape(shape) for shape, data in (q_content, k_content, v_content))
    truth = attention(q, k, v, heads=heads, scale=scale, causal=causal).output
    bands = view_bands(q, k, v, heads=heads, scale=scale, causal=causal, query=query)
    return _frozen((bands, truth, split_heads(v, heads)))


def judging(q, k, v, *, heads: int, scale: bool, causal: bool, query: int) -> tuple:
    """What judge needs for one view: (view_bands' bands, the true outputs (h, n, d_v), the heads'
    V (h, n, d_v)), read-only, made once per view and kept for the last 128 views: the bands take
    about 8 ms, and a room's class answers one question against one view."""
    return _judging(_content(q), _content(k), _content(v), int(heads), bool(scale), bool(causal), int(query))


def check_answer(text: str, q, k, v, *, query: int, heads: int = 1, head: int = 0,
                 scale: bool = True, causal: bool = False, all_heads: bool = False,
                 weights: str | None = None) -> AnswerCheck:
    """Check a typed output vector for (query, head) under the view's switches (see judge);
    `weights`: the weights the student typed beside it, as text, if any."""
    try:
        answer = parse_vector(text)
    except InputError as error:
        return AnswerCheck("invalid", "", f"err_{error.code}", dict(error.values))
    bands, truth, values = judging(q, k, v, heads=heads, scale=scale, causal=causal, query=query)
    other = lambda j, h: judging(q, k, v, heads=heads, scale=scale, causal=causal, query=j)[0][h]["truth"]  # noqa: E731
    return judge(answer, bands, truth, values, query=query, head=head, all_heads=all_heads, causal=causal,
                 weights=typed_weights(weights), other_band=other)


def located(check: AnswerCheck, tokens, query: int, head: int) -> AnswerCheck:
    """The verdict as the page shows it: its values with the query's token and the head asked
    about (1-based) first, the verdict's own values (e.g. the head it found) winning."""
    return AnswerCheck(check.status, check.slip, check.key,
                       {"query": str(tokens[query]), "head": str(head + 1), **token_values(check.values, tokens)})


def token_values(values: dict, tokens) -> dict:
    """A verdict's values with another query (judge's other_query, an index) named by its token,
    as the page names it."""
    if "other_query" not in values:
        return dict(values)
    return {**values, "other_query": str(tokens[int(values["other_query"])])}
