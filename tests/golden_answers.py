"""The golden file of the answer checker (tests/golden/answers.json): typed answers, each with how
the core reads it and, for many, the core's verdict on a view of a preset or on a practice row.
The same file is run against Python (tests/unit/test_golden_answers.py) and against the page's
checker (tests/node/checker.test.mjs): any difference fails, so the two implementations are one
rule book. Regenerate after a deliberate change of the rules, from the repository's root:

    python -m tests.golden_answers

The cases are drawn from a generator seeded with SEED (the same file on every machine); their
expectations come from the core alone (`cases`, `checker`). The cubes the page needs to judge them
come from app/sentences.py (`entries`), checked against a fresh export in tests/app.
"""
from __future__ import annotations

import json
import random
from functools import lru_cache
from pathlib import Path

import numpy as np

from attention_core import PRESETS, InputError
from attention_core.attention import attention, softmax, split_heads
from attention_core.answer import MAX_ANSWER_CHARS, MAX_NUMBERS, answer_paths, check_answer, located, parse_vector
from attention_core.numbers import MAX_NUMBER_CHARS
from attention_core.practice import ROWS, check_row, practice_problem, practice_rows, rule_book

GOLDEN = Path(__file__).parent / "golden" / "answers.json"
SEED = 19
#: The practice problems the verdicts are on: the first three (together they have every row slip),
#: and two drawn with the seed.
PRACTICE_FIXED = (1, 2, 3)

# What a student's keyboard, clipboard or input mode puts between and around numbers.
SPACES = [" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u1680", "\u2000", "\u2002", "\u2003", "\u2007", "\u2009",
          "\u200a", "\u202f", "\u205f", "\u3000", "\u2028", "\u2029", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f",
          "\x85", "\x00", "\x07", "\x7f", "\x9f"]
IGNORED = ["\ufeff", "\u200b", "\u200c", "\u200d", "\u2060", "\u00ad", "\u200e", "\u200f", "\u202a", "\u202c",
           "\u2066", "\u2069", "\u180e", "\u2063"]
COMMAS = [",", ", ", " , ", ";", "; ", "\uff0c", "\uff0c ", "\uff1b", "\u3000,\u3000", ",\u00a0", " ,, "]
BRACKETS = [("", ""), ("(", ")"), ("[", "]"), ("\uff08", "\uff09"), ("\uff3b", "\uff3d"), ("((", "))"), ("( ", " )"),
            ("(", ""), ("", "]")]
MINUSES = ["-", "\u2212", "\uff0d"]
# characters a fuzzed answer is made of: the above, and what must never read as a digit or a sign
FUZZ = list("0123456789") * 3 + list(".e+-/ ,;()[]E") * 2 + SPACES + IGNORED + [
    "\uff10", "\uff15", "\uff0e", "\uff0f", "\u2212", "\uff0b", "\uff45", "a", "x", "<", ">", "_", "'", "\"",
    "\u0663", "\u0967", "\u00b2", "\u00bd", "\u2460", "\U0001d7ce", "\U0001f600", "\u2044", "\u00b7", "\u3001",
    "\u3002", "\u2013", "\ufe63", "\u2010", "\u00e9", "\u1d49", "{", "}", "%", "*", "i", "n", "f"]

# The parser's cases written out: every rule of attention_core.answer's docstring, and its edges.
WRITTEN = [
    # honest answers with what a paste brings along
    "0.214, 0.977", "0.214 0.977", "(0.214, 0.977)", "[0.214; 0.977]", "0.214\ufeff, 0.977", "\ufeff0.214, 0.977",
    "\x1c0.214 0.977", "0.214\u00a00.977", "0.214\u3000 0.977", "0.2\u200b14, 0.977", "0.214\u200d,0.977",
    "0.214\u2028\u20290.977", "\uff10.\uff12\uff11\uff14\uff0c\uff10.\uff19\uff17\uff17", "\uff080.214\uff1b0.977\uff09",
    "\u22120.5, \u22121/4", "\uff0d0.5", "-.5 +.5 5. 5", "1e-3, 1E+2, 2.5e0", "  \t0.5\n", "\u00ad0.5\u00ad",
    # empty, and nothing but separators or invisible characters
    "", " ", "\ufeff", "\u200b\u200b", "()", "[ ]", ",,,", "\uff08\uff09", "\x00", "\u2028", " ; , ",
    # fractions
    "1/2", "1 / 2", "1/ 2", "1 /2", "\u22123/4", "-3/4", "3/-4", "+1/+2", "1/0", "0/0", "-0/5", "1/-0", "1/0000",
    "\uff11\uff0f\uff10", "1//2", "1/2/3", "1.5/2", "1/2.5", "/2", "2/", "1/2e3", "\u00bd", "1\u20442",
    "1\u00a0/\u00a02", "1\ufeff/2", "1/2, 1/3, 1/6", "1/3 2/3",
    # numbers, exponents and what is not a number
    "1.", ".5", ".", "-", "+", "e5", "1e", "1e+", "1.2.3", "1,5", "1_000", "0x10", "1e5", "007", "-0", "+0",
    "inf", "-inf", "Infinity", "nan", "NaN", "\u0663", "\u0967", "10\u00b2", "\u2460", "\U0001d7ce", "<b>x</b>",
    "0.5x", "\U0001f600", "\u00b7", "0\u30025", "1e0000000000000000000000000000000005",
    # magnitudes: the 1e6 boundary, tiny, overflowing
    "1000000", "-1000000", "1e6", "1000000.0000001", "1000001", "999999.9999", "1e6 1e-6", "1e-300", "1e-400",
    "1e400", "-1e400", "1e308", "2e308", "9" * 39 + "/1", "1/" + "9" * 38, "0." + "0" * 37 + "1",
    # lengths: a number of 40 and 41 characters, 64 and 65 numbers, the 2000-character cut
    "1" + "0" * 5 + "." + "0" * 34, "1" + "0" * 5 + "." + "0" * 35, "0." + "5" * 38, "0." + "5" * 39,
    " ".join(["1"] * MAX_NUMBERS), " ".join(["1"] * (MAX_NUMBERS + 1)), ",".join(["0.5"] * (MAX_NUMBERS + 1)),
    "0.214, 0.977" + " " * MAX_ANSWER_CHARS + "x", " " * (MAX_ANSWER_CHARS - 2) + "1 2",
    "0.5 " + "\U0001f600" * 25, "\U0001f600" * 30, "\U0001d7cf" * 3,
    "\ufeff" * (MAX_ANSWER_CHARS - 1) + "12", "x" * 30, "\u00e9" * 25,
    # numbers as people write them in a sentence or a list (attention_core.answer: ENDING, the
    # ideographic comma and middle dots, percentages), and what stays not a number beside them
    "0.214\u3001 0.977", "0.214\u30010.977", "0.214 \u00b7 0.977", "0.214\u00b70.977", "0.214\u30fb0.977",
    "0.214\uff640.977", "0.214, 0.977.", "0.214, 0.977. ", "0.214, 0.977\u3002", "0.214 0.977!", "(0.214, 0.977).",
    "(0.214, 0.977)\uc785\ub2c8\ub2e4", "(0.214, 0.977)\uc785\ub2c8\ub2e4.", "0.214, 0.977 \uc785\ub2c8\ub2e4",
    "0.214, 0.977\uc774\uc5d0\uc694", "0.5\uc608\uc694", "0.5\uc774\ub2e4", "0.5\uc694", "1/2.", "5.", "-0.5.",
    "62%, 31%, 8%", "62 %, 31 %, 8 %", "62\uff05 31\uff05", "12.5%", "-5%", "0%", "100%", "1e2%", ".5%",
    "(62%, 31%, 8%)\uc785\ub2c8\ub2e4.", "62%\u3001 31%\u3001 8%",
    "%", "5%%", "%5", "1/2%", "5 % 3", "0.5..", "0.977\uc785\ub2c8\ub2e4\uc694", "\uc815\ub2f5: 0.2, 0.8",
    "0.2, 0.8 \uc785\ub2c8\ub2e4 !!", "\u3002", "\uc694", "0.2 \ub611\ub294 0.8",
]


def parsed(text: str) -> dict:
    """How the core reads `text`, in the shape of checker.js's parseAnswer: {numbers} or {error: [key, values]}."""
    try:
        return {"numbers": [float(x) for x in parse_vector(text)]}
    except InputError as error:
        return {"error": [f"err_{error.code}", dict(error.values)]}


def verdict(check) -> dict:
    return {"status": check.status, "slip": check.slip, "key": check.key, "values": dict(check.values)}


@lru_cache(maxsize=None)
def problem(number: int):
    return practice_problem(number)


@lru_cache(maxsize=None)
def paths_of(name: str, heads: int, scale: bool, causal: bool) -> dict:
    preset = PRESETS[name]
    return answer_paths(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal)


def practice_numbers(rng: random.Random) -> list[int]:
    return [*PRACTICE_FIXED, *sorted(rng.sample(range(4, 1000), 2))]


def judged(case: dict) -> dict:
    """The core's verdict on a case with a `check`: check_row on a row of a practice problem (after
    the student's `previous` row, when the case has one), or check_answer on a view of a preset,
    with the query and head it was for."""
    check = case["check"]
    if "row" in check:
        return verdict(check_row(case["text"], problem(int(check["entry"].split("-")[1])), check["row"],
                                 check.get("previous")))
    view, preset = check["view"], PRESETS[check["entry"]]
    result = check_answer(case["text"], preset.q, preset.k, preset.v, query=view["query"], heads=view["heads"],
                          head=view["head"], scale=view["scale"], causal=view["causal"], all_heads=view["all_heads"],
                          weights=check.get("weights"))
    return verdict(located(result, preset.tokens, view["query"], view["head"]))


def expected(case: dict) -> dict:
    """A case with what the core makes of it: `parse`, and `verdict` when it has a `check`."""
    out = {**case, "parse": parsed(case["text"])}
    if "check" in case:
        out["verdict"] = judged(case)
    return out


def steady(values, places: int) -> np.ndarray:
    """`values` rounded to `places` as a student rounds them, the same on every machine: rounded to
    12 places first, so a last-bit difference between NumPy builds or BLAS thread counts
    (0.91499999… against 0.915000…, a weight of 0.12499999… against 1/8) cannot flip a digit."""
    return np.round(np.round(np.asarray(values, dtype=float), 12), places)


def written(rng: random.Random, vector, places: int) -> str:
    """`vector` as a student might type it: rounded to `places`, with separators, brackets, minus
    signs, full-width digits, spaces and invisible characters drawn from `rng`."""
    minus = rng.choice(MINUSES) if rng.random() < 0.4 else "-"
    # rounded to 12 places first (steady): the file must not depend on the machine that made it
    numbers = [f"{round(float(x), 12):.{places}f}".replace("-", minus) for x in vector]
    if rng.random() < 0.15:
        numbers = ["".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in n) for n in numbers]
    separator = rng.choice(COMMAS + SPACES) if rng.random() < 0.7 else ", "
    opening, closing = rng.choice(BRACKETS) if rng.random() < 0.5 else ("", "")
    text = opening + separator.join(numbers) + closing
    if rng.random() < 0.3:
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice(IGNORED) + text[at:]
    if rng.random() < 0.3:
        text = rng.choice(SPACES + IGNORED) + text + rng.choice(SPACES + IGNORED)
    return text


def fuzzed(rng: random.Random) -> str:
    return "".join(rng.choice(FUZZ) for _ in range(rng.randint(1, 14)))


def views(rng: random.Random) -> list[tuple[str, dict]]:
    """Views of cat-fish and meet-friend: each head count, √d on and off, the mask on and off, all
    heads shown and one head (drawn), each at a drawn query."""
    out = []
    for name in ("cat-fish", "meet-friend"):
        preset = PRESETS[name]
        for heads in (1, 2, 4):
            if preset.q.shape[1] % heads or preset.v.shape[1] % heads:
                continue
            for scale in (True, False):
                for causal in (False, True):
                    for shown in ([-1, rng.randrange(heads)] if heads > 1 else [-1]):
                        query = rng.randrange(len(preset.tokens))
                        out.append((name, {"query": query, "heads": heads,
                                           "head": shown if shown >= 0 else rng.randrange(heads),
                                           "scale": scale, "causal": causal,
                                           "all_heads": shown < 0 and heads > 1}))
    return out


def answers_for(rng: random.Random, name: str, view: dict) -> list[str]:
    """Typed answers on one view: honest at 2, 3 and 4 decimals, every slip's path, another head,
    all heads at once, near misses at the allowances' edges, another length, unreadable."""
    preset = PRESETS[name]
    heads, query, head = view["heads"], view["query"], view["head"]
    paths = answer_paths(preset.q, preset.k, preset.v, heads=heads, scale=view["scale"], causal=view["causal"])
    truth = paths["truth"][head, query]
    vectors = [(truth, 3), (truth, 2), (truth, rng.choice((1, 4)))]
    vectors += [(path[head, query], 3) for key, path in paths.items() if key != "truth"
                if np.all(np.isfinite(path[head, query]))]
    vectors += [(paths["truth"][h, query], 3) for h in range(heads) if h != head]
    if heads > 1:
        vectors.append((paths["truth"][:, query].reshape(-1), 3))
    for offset in (0.0015, 0.0025, 0.014, 0.016, 0.2):
        vectors.append((truth + offset * np.array([rng.choice((-1, 1)) for _ in truth]), 4))
    values = split_heads(np.asarray(preset.v, dtype=float), heads)[head]
    seen = np.arange(len(preset.tokens)) <= query if view["causal"] else np.ones(len(preset.tokens), dtype=bool)
    scores = attention(preset.q, preset.k, preset.v, heads=heads).scores[head, query]
    d_k = preset.q.shape[1] // heads
    vectors.append((softmax(np.where(seen, scores / d_k, -np.inf)) @ values, 3))   # ÷d for ÷√d
    d_model = preset.q.shape[1]
    vectors.append((softmax(np.where(seen, scores / np.sqrt(d_model), -np.inf)) @ values, 3))  # ÷√d_model for ÷√d_k
    vectors += [(paths["truth"][head, j], 3) for j in range(len(preset.tokens)) if j != query][:2]  # another query's
    vectors.append((values[seen].mean(axis=0), 3))                                 # weights all alike
    vectors.append((truth + 5, 3))                                                 # beyond every v
    vectors.append(rng.choice([(truth[:1], 3), (np.append(truth, 0.5), 3)]))
    texts = [written(rng, vector, places) for vector, places in vectors]
    return texts + [rng.choice(["", "1/0, 1", "1e9 1", "abc", "\ufeff", fuzzed(rng)])]


def weighted_answers(rng: random.Random, name: str, view: dict) -> list[tuple[str, str]]:
    """Outputs typed with the weights beside them: right weights and their output, wrong weights
    (another query's, √d the other way) and the output computed from them, and weights that
    cannot be used (another length, unreadable, on a masked key)."""
    preset = PRESETS[name]
    heads, query, head = view["heads"], view["query"], view["head"]
    values = split_heads(np.asarray(preset.v, dtype=float), heads)[head]
    made = attention(preset.q, preset.k, preset.v, heads=heads, scale=view["scale"], causal=view["causal"])
    other = attention(preset.q, preset.k, preset.v, heads=heads, scale=not view["scale"], causal=view["causal"])
    pairs = []
    for weights in (made.weights[head, query], other.weights[head, query], made.weights[head, (query + 1) % len(values)]):
        kept = steady(weights, rng.choice((2, 3)))
        pairs.append((written(rng, kept @ values, rng.choice((2, 3))), written(rng, kept, 3)))
    truth = made.output[head, query]
    pairs += [(written(rng, truth, 2), "0.5"), (written(rng, truth + 0.3, 3), "x"),
              (written(rng, np.ones(len(values)) / len(values) @ values, 3), written(rng, np.ones(len(values)) / len(values), 3))]
    return pairs


def row_answers(rng: random.Random, number: int, row: str) -> list[tuple[str, str | None]]:
    """Typed rows of a practice problem, each with the row typed before it (or None): honest, each
    of the row's slips, near misses, another length; and rows computed from a slipped row before."""
    rows = practice_rows(problem(number))
    truth_row = rows[row]
    vectors = [(truth_row.truth, 3), (truth_row.truth, 2), (truth_row.truth, 1)]
    vectors += [(path, 3) for _, path in truth_row.slips]
    for offset in (0.0015, 0.008, 0.03, 0.3):
        vectors.append((truth_row.truth + offset * np.array([rng.choice((-1, 1)) for _ in truth_row.truth]), 4))
    vectors.append((truth_row.truth[:-1], 3))
    texts = [(written(rng, vector, places), None) for vector, places in vectors]
    position = ROWS.index(row)
    if position:
        before = rows[ROWS[position - 1]]
        for _, path in [("truth", before.truth), *before.slips][:4]:
            previous = written(rng, path, 2)
            texts.append((written(rng, next_row(number, row, steady(path, 2)), rng.choice((2, 3))), previous))
        texts.append((written(rng, truth_row.truth, 3), "x"))
    return texts + [(rng.choice(["", "1/0 1 1", "x", "\u00a0"]), None)]


def next_row(number: int, row: str, previous: np.ndarray) -> np.ndarray:
    """Row `row` computed exactly from the student's row before it."""
    p = problem(number)
    if row == "scaled":
        return previous / np.sqrt(p.q.shape[1])
    if row == "weights":
        return np.exp(previous) / np.exp(previous).sum()
    return previous @ p.v


def generate(seed: int = SEED) -> dict:
    """Every case, with the core's expectations; deterministic in `seed`."""
    rng = random.Random(seed)
    cases = [{"text": text} for text in WRITTEN]
    for name, view in views(rng):
        cases += [{"text": text, "check": {"entry": name, "view": view}} for text in answers_for(rng, name, view)]
        cases += [{"text": text, "check": {"entry": name, "view": view, "weights": weights}}
                  for text, weights in weighted_answers(rng, name, view)]
    for number in practice_numbers(rng):
        for row in ROWS:
            cases += [{"text": text, "check": {"entry": f"practice-{number}", "row": row,
                                               **({"previous": previous} if previous is not None else {})}}
                      for text, previous in row_answers(rng, number, row)]
    # honest vectors written every way, with no view: the reading alone
    for _ in range(400):
        vector = [rng.uniform(-3, 3) for _ in range(rng.randint(1, 6))]
        cases.append({"text": written(rng, vector, rng.choice((0, 1, 2, 3, 6)))})
    # fuzzed: short strings of digits, signs, separators and look-alikes
    for _ in range(900):
        cases.append({"text": fuzzed(rng)})
    # long numbers around the limit, in every width of space and digit
    for _ in range(60):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(MAX_NUMBER_CHARS - 3, MAX_NUMBER_CHARS + 2)))
        cases.append({"text": rng.choice(SPACES) + "0." + digits[2:] + rng.choice(IGNORED)})
    cases += people_cases()
    return {"seed": seed, "checker": rule_book(), "cases": [expected(case) for case in cases]}


def people_cases() -> list[dict]:
    """Honest answers written as people write numbers, each with a verdict: the output of
    meet-friend's default view with an ideographic comma, a full stop or 입니다, and practice
    problem 1's weights as percentages (whole and one decimal), each written five ways."""
    view = {"query": 4, "heads": 1, "head": 0, "scale": True, "causal": False, "all_heads": False}
    preset = PRESETS["meet-friend"]
    truth = answer_paths(preset.q, preset.k, preset.v, heads=1, scale=True, causal=False)["truth"][0, 4]
    numbers = [f"{x:.3f}" for x in steady(truth, 3)]
    outputs = ["\u3001 ".join(numbers), " \u00b7 ".join(numbers), ", ".join(numbers) + ".",
               "(" + ", ".join(numbers) + ")\uc785\ub2c8\ub2e4", ", ".join(numbers) + "\u3002"]
    cases = [{"text": text, "check": {"entry": "meet-friend", "view": view}} for text in outputs]
    weights = practice_rows(problem(1))["weights"].truth
    for places in (0, 1):
        shares = [f"{x:.{places}f}%" for x in steady(100 * weights, places)]
        for text in (", ".join(shares), " ".join(shares), "\u3001".join(shares), ", ".join(shares) + ".",
                     "(" + ", ".join(shares) + ")\uc785\ub2c8\ub2e4"):
            cases.append({"text": text, "check": {"entry": "practice-1", "row": "weights"}})
    return cases


def entries(golden: dict) -> dict:
    """The cubes the page needs for the cases' checks, as app/sentences.py makes them (only what
    checker.js reads: the cube, and a practice problem's slips)."""
    from app.sentences import practice_entry, preset_entries

    names = sorted({case["check"]["entry"] for case in golden["cases"] if "check" in case})
    out = {}
    for name in names:
        if name.startswith("practice-"):
            entry = practice_entry(int(name.split("-")[1]))
            out[name] = {"cube": entry["cube"], "practice": entry["practice"]}
        else:
            out[name] = {"cube": preset_entries([name])[0]["cube"]}
    return out


def dumps(golden: dict) -> str:
    """The file's text: ASCII JSON (every odd character escaped), one case per line."""
    head = {key: value for key, value in golden.items() if key != "cases"}
    lines = [json.dumps(case, ensure_ascii=True, sort_keys=True) for case in golden["cases"]]
    body = json.dumps(head, ensure_ascii=True, sort_keys=True)[:-1]
    return body + ', "cases": [\n' + ",\n".join(lines) + "\n]}\n"


def load() -> dict:
    return json.loads(GOLDEN.read_text(encoding="ascii"))


def main():
    golden = generate()
    golden["entries"] = entries(golden)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(dumps(golden), encoding="ascii")
    checked = sum("verdict" in case for case in golden["cases"])
    print(f"wrote {GOLDEN}: {len(golden['cases'])} cases, {checked} with a verdict, {GOLDEN.stat().st_size} bytes")


if __name__ == "__main__":
    main()
