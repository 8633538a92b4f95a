"""What a lesson's note asserts (docs/lessons.md "Every note is a claim"): each sentence of a note
read for the claims a person makes in words, so that app/lesson_check.py can check them against the
stop's own numbers. No hand-written `claim:` is needed for what the words already say.

A sentence is read as a row of marks, each where it stands:

  key       a token of the stop's sentence named (quoted or not, a particle after it); "itself" /
            "자기 자신" names the query as a key; "the rest" / "나머지" the keys not named
  number    a decimal or an integer (−∞ too); a tuple "(1, 6, 4)" is one mark
  quantity  score, scaled score, weight, output, v, the sum of the weights (SUM), d, d_k, d_model
  switch    a condition on √d or the mask: "without √d" / "√d로 나누지 않으면", "under the mask" /
            "마스크를 켜면"; it says at which view the sentence's numbers are (note_words' `scale_off`, …)
  words     sharper / flatter, grows / shrinks, the largest / smallest key, equal, almost 0,
            masked, a negation ("keeps … from", "막아요") that turns sharper into flatter

and what they say together (Said): a number of a quantity for a key, a row or a vector, the query's
heaviest or lightest key, equal weights, a weight of exactly 0 or almost 0, a masked key, d_k or
√d_k, the number of tokens, the sum of the weights, which token is the query, and a comparison
(sharper, flatter, a key's weight growing or shrinking) between the view with a switch as the
sentence says and the view with it the other way, or with one head. A sentence that asks ("…?")
asserts nothing. Integers are read too, where a quantity or a tuple makes them one (an integer alone
is a count or an ordinal: "stop 3", "두 헤드").

The words of each language are the catalogs' `note_words` (note_words()): regular-expression
source that Python's `re` reads; the catalogs' `notes` section words each result (app/note_check.py).
Shapes: a Said's `keys` are key indices into the stop's tokens; `written` the numbers as written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from attention_core import words
from attention_core.words import LANGUAGES
from attention_core.hangul import is_syllable

#: A sentence: up to a full stop, question or exclamation mark followed by a space or the end (a
#: decimal point is not the end of a sentence), or a line's end.
_SENTENCE = re.compile(r"(?:[^.?!。]|[.](?=[0-9])|[.?!。](?![ \t]|$))+(?:[.?!。]+|$)")
#: A number as a note writes it; a minus sign or U+2212; not inside a name (W_Q, d_k, 13.3a).
_NUM = r"[-−]?(?:[0-9]+(?:\.[0-9]+)?|∞)"
_NUMBER = re.compile(rf"(?<![0-9A-Za-z_.√^])({_NUM})(?![0-9A-Za-z_]|\.[0-9])")
_TUPLE = re.compile(rf"\(\s*{_NUM}(?:\s*,\s*{_NUM})+\s*\)")


def _root() -> re.Pattern:
    """√N, and what it is said to be (≈, =, is)."""
    return re.compile(rf"√\s*([0-9]+)(?:\s*(?:{_every('root_said')})\s*([0-9]+(?:\.[0-9]+)?))?")


def _d() -> re.Pattern:
    """d, d_k, d_model said to be a number (not a hypothetical "at d = 64", "if d grows to 512")."""
    return re.compile(rf"(?<![A-Za-z_])d(_k|_model)?\s*(?:=|{_every('d_said')})\s*([0-9]+)(?![0-9]|\.[0-9])")
#: The words of each language, per mark: the catalogs' `note_words` section (regular-expression
#: source, matched ignoring case): what lecturers write for each quantity, switch and comparison,
#: and the grammar around them (`after_key`: what may follow a token; `counter`: what makes an
#: integer a count; `d_said`: "d is"; `hypothetical_*`, `condition_after`: a condition, not a claim;
#: `query_as`, `query_before`: "X as the query", "the query is X").


@lru_cache(maxsize=None)
def note_words(lang: str) -> dict:
    """`lang`'s reading words (attention_core/locales/<lang>.json `note_words`)."""
    return dict(words.catalog(lang)["note_words"])


@lru_cache(maxsize=None)
def _every(name: str) -> str:
    """One pattern of every language's `name` (a token keeps its Korean particle in an English note)."""
    return "|".join(f"(?:{note_words(lang)[name]})" for lang in LANGUAGES)


QUANTITIES = ("scaled", "scores", "weights", "output", "v", "sum")


@dataclass(frozen=True)
class Mark:
    """One thing a sentence names, where it stands: kind (key, number, tuple, a note_words name), its
    start and end, and its value (a key's index, a number's text, a tuple's numbers' texts)."""

    kind: str
    start: int
    end: int
    value: object = None


@dataclass(frozen=True)
class Said:
    """One assertion of a sentence.

    kind       value (a number of `quantity` for `keys`, or for some key where none is named), row
               (`written` has one number per key), vector (a head's output or a key's v), top,
               bottom, equal, zero, near_zero, masked, sum, d (which: d, d_k, d_model), root (√N
               and what it is said to be), tokens (their count), query (the query is keys[0]),
               compare (direction sharper or flatter, of the view with `switches` against the
               other), change (keys' weight grows or shrinks, likewise), softmax_of_scores
    switches   {"scale": bool, "causal": bool}: the view the numbers are at (the stop's where empty);
               for compare and change, `base` is the view compared with ({"heads": 1} or the switch
               the other way)
    """

    kind: str
    text: str
    keys: tuple = ()
    quantity: str = ""
    written: tuple = ()
    switches: dict = field(default_factory=dict)
    base: dict = field(default_factory=dict)
    direction: str = ""
    which: str = ""


def sentences(note: str) -> list[str]:
    """The note's sentences, each stripped (a decimal point does not end one)."""
    return [part.strip() for part in _SENTENCE.findall(re.sub(r"\s*\n\s*", " ", note or "")) if part.strip()]


def _key_marks(sentence: str, tokens: tuple) -> list[Mark]:
    """Where the sentence names a key: a token at a word's start, with only particles or a
    quote after it (산 in 계산 is not 산); the longest token wins where two overlap."""
    found = []
    for index, token in sorted(enumerate(tokens), key=lambda pair: -len(pair[1])):
        if not token.strip():
            continue
        pattern = rf"(?<![0-9A-Za-z\uac00-\ud7a3_]){re.escape(token)}(?=(?:{_every('after_key')})*(?![0-9A-Za-z\uac00-\ud7a3_]))"
        for match in re.finditer(pattern, sentence):
            if not any(mark.start < match.end() and match.start() < mark.end for mark in found):
                found.append(Mark("key", match.start(), match.end(), index))
    return found


def _word_marks(sentence: str, lang: str) -> list[Mark]:
    marks = []
    for kind, pattern in note_words(lang).items():
        for match in re.finditer(pattern, sentence, re.I):
            marks.append(Mark(kind, match.start(), match.end(), match.group(0)))
    return marks


def _number_marks(sentence: str) -> list[Mark]:
    """Tuples, then the numbers outside them (a number in √N or d = N is read by its own rule)."""
    marks = [Mark("tuple", m.start(), m.end(), tuple(x.strip() for x in m.group(0)[1:-1].split(","))) for m in _TUPLE.finditer(sentence)]
    taken = [(m.start, m.end) for m in marks]
    for rule in (_root(), _d()):
        taken += [(m.start(), m.end()) for m in rule.finditer(sentence)]
    for match in _NUMBER.finditer(sentence):
        if not any(start <= match.start() < end for start, end in taken):
            marks.append(Mark("number", match.start(1), match.end(1), match.group(1)))
    return marks


def _language(text: str) -> str:
    return LANGUAGES[0] if any(is_syllable(ch) for ch in text) else "en"


def _nearest(marks: list[Mark], at: int, kinds, before_only=False) -> Mark | None:
    """The mark of one of `kinds` nearest before `at`, else (unless before_only) nearest after."""
    before = [m for m in marks if m.kind in kinds and m.end <= at]
    if before:
        return max(before, key=lambda m: m.end)
    after = [] if before_only else [m for m in marks if m.kind in kinds and m.start >= at]
    return min(after, key=lambda m: m.start) if after else None


def _switches(marks: list[Mark], at: int | None = None) -> dict:
    """The view a sentence speaks of: the last condition on √d and on the mask before `at` (or
    anywhere in it where `at` is None; a condition after the mark where none stands before)."""
    said = {}
    for switch, on, off in (("scale", "scale_on", "scale_off"), ("causal", "causal_on", "causal_off")):
        conditions = [m for m in marks if m.kind in (on, off)]
        # an "off" phrase holds an "on" word (나누지 않으면 holds 나누, "without dividing by" holds "dividing
        # by"): where they overlap, the "off" one is meant
        conditions = [m for m in conditions if not (m.kind == on and any(
            o.kind == off and o.start < m.end and m.start < o.end for o in conditions))]
        if not conditions:
            continue
        chosen = [m for m in conditions if at is None or m.start < at] or conditions
        said[switch] = chosen[-1].kind == on
    return said


def read_sentence(sentence: str, tokens: tuple, query: int, lang: str | None = None,
                  carried: dict | None = None, carried_keys: frozenset = frozenset()) -> list[Said]:
    """What `sentence` asserts about a stop whose sentence has `tokens` and whose query is `query`
    (an index). `carried`: the switches the note's earlier sentences spoke of (a comparison with no
    condition of its own is about those). A question asserts nothing."""
    if sentence.rstrip().endswith("?") or sentence.rstrip().endswith("？"):
        return []
    lang = lang or _language(sentence)
    words = _word_marks(sentence, lang)
    keys = _key_marks(sentence, tokens)
    numbers = _number_marks(sentence)
    marks = sorted(words + keys + numbers, key=lambda m: m.start)
    said: list[Said] = []
    add = lambda kind, **values: said.append(Said(kind, sentence, **values))  # noqa: E731
    # the keys named as keys: the query by name is the one who looks where another key is named
    named_keys = {m.value for m in keys if m.value != query or len({k.value for k in keys}) == 1} or set(carried_keys)
    if any(m.kind == "self" for m in _word_marks(sentence, lang)):
        named_keys.add(query)  # "itself" named: the rest are the others
    # a key named where the sentence says which token is the query ("the query is 먹었다", "먹었다 as the query")
    for mark in keys:
        if re.search(_every("query_before"), sentence[max(0, mark.start - 12):mark.start], re.I) or \
                re.match(rf"(?:{_every('after_key')})*\s*[\"'”’]?(?:{_every('query_as')})", sentence[mark.end:], re.I):
            add("query", keys=(mark.value,))

    if keys:  # "먹었다는 생선을에 0.786을 줘요", "먹었다 gives …": the first token named is the one who looks
        first = min(keys, key=lambda m: m.start)
        if re.match(note_words(lang)["query_gives"], sentence[first.end:], re.I) and not any(s.kind == "query" for s in said):
            add("query", keys=(first.value,))

    def candidates(at: int, stop_at: int = 0) -> list[int]:
        """The keys named before `at` since the previous number (the query by name is the one who
        looks, not a key, where another key is named; itself / 자기 자신 is the query as a key)."""
        run = [m for m in marks if m.kind in ("key", "self", "rest", "masked_keys") and stop_at <= m.start < at]
        picked = []
        for m in run:
            if m.kind == "key" and m.value == query and any(o.kind != "key" or o.value != query for o in run):
                continue
            picked.append(m)
        return picked

    def keys_of(run: list[Mark]) -> tuple:
        out = []
        for m in run:
            if m.kind == "key":
                out.append(m.value)
            elif m.kind == "self":
                out.append(query)
            elif m.kind == "rest":
                out.extend(j for j in range(len(tokens)) if j not in named_keys)
            elif m.kind == "masked_keys":
                out.append(-1)  # the view's masked keys
        return tuple(dict.fromkeys(out))

    previous_end = 0
    each = any(m.kind == "each" for m in marks)
    for mark in (m for m in marks if m.kind in ("number", "tuple")):
        kinds = QUANTITIES if mark.kind == "number" else tuple(k for k in QUANTITIES if k != "sum")
        integer = mark.kind == "number" and "." not in mark.value
        quantity = _nearest(marks, mark.start, kinds, before_only=True) or (None if integer else _nearest(marks, mark.end, kinds))
        q = quantity.kind if quantity else ""
        if integer and re.match(rf"\s?(?:{_every('counter')})", sentence[mark.end:]):
            previous_end = mark.end
            continue
        # "scaled" and "scores" overlap (나눈 점수 holds 점수): the longer mark is the one meant
        if quantity and q == "scores" and any(m.kind == "scaled" and m.start <= quantity.start and quantity.end <= m.end for m in marks):
            q = "scaled"
        switches = _switches(marks, mark.start)
        if q == "scores" and switches.get("scale") and not any(m.kind == "scale_off" for m in marks):
            q = "scaled"  # "divided by √2, the score of 생선을 becomes 4.24"
        # "from 0.620 to 0.893", "0.458에서 0.538로": the first number is the view before the condition
        if switches and (re.search(_every("from_before"), sentence[:mark.start], re.I) or re.match(_every("from_after"), sentence[mark.end:])):
            switch, on = next(iter(switches.items()))
            switches = {**switches, switch: not on}
        approximate = re.search(_every("approximately"), sentence[:mark.start], re.I)
        if approximate and mark.kind == "number" and "." not in mark.value and mark.value not in ("0", "-0"):
            previous_end = mark.end
            continue  # "nearly 1": a direction, not a value
        if mark.kind == "tuple":
            times = sentence[max(0, mark.start - 3):mark.start].strip().endswith(("×", "*", "x"))
            add("vector" if times else "row", quantity="v" if times else q, written=mark.value, switches=switches)
        else:
            run = candidates(mark.start, previous_end)
            sum_said = quantity is not None and q == "sum" and mark.start - quantity.end <= 4
            if sum_said:
                add("sum", written=(mark.value,), switches=switches)
            elif mark.value.lstrip("-−") == "∞":
                add("masked", keys=keys_of(run) or (), switches=switches)
            elif mark.value in ("0", "-0") and q in ("weights", "") and (run or q == "weights"):
                near = any(m.kind == "near_zero" and m.start <= mark.end and mark.start <= m.end + 2 for m in marks)
                add("near_zero" if near else "zero", keys=keys_of(run), switches=switches)
            elif "." in mark.value or q or run:
                chosen = keys_of(run if each else run[-1:])
                if "." in mark.value or q:
                    add("value", keys=chosen, quantity=q, written=(mark.value,), switches=switches)
        previous_end = mark.end
    for match in _root().finditer(sentence):
        add("root", written=tuple(g for g in match.groups() if g))
    for match in _d().finditer(sentence):
        before, after = sentence[max(0, match.start() - 8):match.start()], sentence[match.end():match.end() + 14]
        if re.search(_every("hypothetical_before"), before, re.I) or re.match(_every("hypothetical_after"), after):
            continue
        add("d", which=f"d{match.group(1) or ''}", written=(match.group(2),))
    count = re.search(note_words(lang)["tokens_count"], sentence, re.I)
    if count:
        add("tokens", written=(next(g for g in count.groups() if g),))
    # superlatives, equal weights: about the keys named (the query by name is the one who looks)
    for mark in (m for m in marks if m.kind in ("top", "bottom")):
        run = candidates(len(sentence))
        chosen = keys_of([m for m in run if m.kind in ("key", "self")])
        scores = any(m.kind == "score_top" for m in marks) or (lambda n: n is not None and n.kind == "scores")(
            _nearest(marks, mark.start, ("scores", "weights", "scaled")))
        if chosen:
            nearest = min(chosen, key=lambda j: min(abs(m.start - mark.start) for m in keys if m.value == j) if j != query else 10**6)
            add(mark.kind, keys=(nearest,), quantity="scores" if scores else "weights", switches=_switches(marks, mark.start))
        break
    if any(m.kind == "equal" for m in marks):
        chosen = keys_of([m for m in candidates(len(sentence)) if m.kind in ("key", "self")])
        if len(chosen) < 2 and any(m.value == query for m in keys):
            chosen = tuple(dict.fromkeys((query, *chosen)))
        add("equal", keys=chosen if len(chosen) > 1 else (), switches=_switches(marks))
    if any(m.kind == "masks_key" for m in marks):
        chosen = [m.value for m in keys if m.value != query]
        if chosen and not any(s.kind == "masked" for s in said) and not any(m.kind == "causal_off" for m in marks):
            add("masked", keys=tuple(chosen), switches=_switches(marks))
    # comparisons: the view with the sentence's condition against the view without it
    directions = [m for m in marks if m.kind in ("sharper", "flatter", "grows", "shrinks")]
    directions = [m for m in directions if not any(o.kind in ("scale_off", "scale_on", "causal_on", "causal_off") and
                                                   o.start <= m.start < o.end for o in marks)
                  and not re.match(_every("condition_after"), sentence[m.end:])]  # "if it grows": a condition
    # "grows" and "shrinks" speak of a key's weight: of a key or a weight named before them (d_k가 4로
    # 작아져 speaks of d_k)
    directions = [m for m in directions if m.kind in ("sharper", "flatter") or any(
        o.kind in ("key", "self", "weights") and o.end <= m.start for o in marks)]
    directions.sort(key=lambda m: m.kind not in ("sharper", "flatter"))
    if directions:
        conditions = [m for m in marks if m.kind in ("scale_off", "causal_off")]
        negated = any(m.kind == "negation" and not any(c.start <= m.start < c.end for c in conditions) for m in marks)
        switches = _switches(marks) or dict(carried or {})
        one_head = any(m.kind == "one_head" for m in marks)
        for mark in directions[:1]:
            direction = mark.kind
            if negated:
                direction = {"sharper": "flatter", "flatter": "sharper", "grows": "shrinks", "shrinks": "grows"}[direction]
            base = {"heads": 1} if one_head else {}
            if direction in ("sharper", "flatter"):
                add("compare", direction=direction, switches=switches, base=base)
            else:
                chosen = keys_of([m for m in candidates(mark.start) if m.kind in ("key", "self")])
                add("change", direction=direction, keys=chosen[-1:], switches=switches, base=base)
    if any(m.kind == "softmax" for m in marks) and any(m.kind == "scores" for m in marks) and not any(m.kind == "scaled" for m in marks) \
            and any(s.kind in ("row", "value") and s.quantity == "weights" for s in said):
        add("softmax_of_scores", switches=_switches(marks))
    return said


def read_note(note: str, tokens: tuple, query: int, lang: str | None = None) -> list[Said]:
    """Every assertion of a note, sentence by sentence; a comparison with no condition of its own
    is about the condition an earlier sentence of the note spoke of."""
    said, carried, carried_keys = [], {}, frozenset()
    for sentence in sentences(note):
        found = read_sentence(sentence, tokens, query, lang, carried, carried_keys)
        said += found
        if not sentence.endswith("?"):
            lang_here = lang or _language(sentence)
            carried = _switches(_word_marks(sentence, lang_here)) or carried
            carried_keys = frozenset(m.value for m in _key_marks(sentence, tokens) if m.value != query) or carried_keys
    return said
