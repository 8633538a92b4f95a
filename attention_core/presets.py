"""The textbook's example sentences with their Q, K, V, titles and per-head captions."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .layer import attention_layer
from .cube import HEAD_CHOICES, head_counts
from .words import LANGUAGES, catalog


@dataclass(frozen=True)
class Preset:
    """One example sentence. q, k: (n, d_model); v: (n, dv_model).

    captions[heads][lang] is a list of `heads` strings, one per head. The textbook's presets take
    their titles and captions from the catalogs (`preset_words`, attention_core/locales).
    claims[heads] is a list, one per head, of the (query token, key token) pairs its caption speaks
    of: at the default switches (√d on, mask off) that key gets the query's largest weight, by a
    margin (tests/test_presets.py). The page shows each caption with the queries it holds for.
    A (query, key, "least") claim says that key gets the smallest weight instead.
    head_choices: the head counts to offer (default: every count that divides d_model).
    """

    name: str
    tokens: tuple[str, ...]
    q: np.ndarray
    k: np.ndarray
    v: np.ndarray
    title_ko: str
    title_en: str
    captions: dict = field(default_factory=dict)
    default_query: int = 0
    claims: dict = field(default_factory=dict)
    head_choices: tuple | None = None
    #: where Q and K come from: "preset" (designed), "rules" (read from particles and endings),
    #: "hash" (arbitrary numbers fixed by each token) or "numbers" (typed)
    origin: str = "preset"
    roles: tuple = ()
    #: where Q, K and V come from, when the preset shows it: the inputs of
    #: attention_core.layer.attention_layer (embeddings, positions, w_q, w_k, w_v), whose
    #: products must be exactly q, k and v
    layer: dict | None = None
    #: W_O (dv_model, d_out), when the preset shows the heads' outputs concatenated and projected
    w_o: np.ndarray | None = None

    def offered_heads(self) -> tuple[int, ...]:
        """The head counts to offer: those of head_choices that divide d_model and dv_model."""
        return tuple(h for h in head_counts(self.q.shape[1], self.v.shape[1]) if h in (self.head_choices or HEAD_CHOICES))

    def __post_init__(self):
        # own read-only copies: a preset never changes, and never freezes its caller's arrays
        for name in ("q", "k", "v"):
            array = np.array(getattr(self, name), dtype=np.float64)
            array.setflags(write=False)
            object.__setattr__(self, name, array)
        if self.layer is not None:
            made = attention_layer(**self.layer)
            for name in ("q", "k", "v"):
                if not np.array_equal(getattr(made, name), getattr(self, name)):
                    raise ValueError(f"{self.name}: X W_{name.upper()} from its layer is not its {name.upper()}")


def preset_words(name: str) -> dict:
    """The title_ko, title_en and captions ({heads: {lang: [one per head]}}) of the preset `name`,
    from the `presets` section of every language's catalog."""
    words = {lang: catalog(lang)["presets"][name] for lang in LANGUAGES}
    return {"title_ko": words["ko"]["title"], "title_en": words["en"]["title"],
            "captions": {int(heads): {lang: list(words[lang]["captions"][heads]) for lang in LANGUAGES}
                         for heads in words[LANGUAGES[0]]["captions"]}}


def _matrix(rows) -> np.ndarray:
    return np.array(rows, dtype=np.float64)


#: cat-fish from its embeddings (issue: "where Q, K and V come from"): token embeddings E, a
#: learned position table P and W_Q, W_K, W_V, all small integers, whose products X W = (E + P) W
#: are exactly the book's Q, K and V, so the hand calculation is unchanged and has a "before".
#: X is 3 wide, not 2: the columns of the book's Q, K and V together span three dimensions, so no
#: X of width 2 gives all three (tests/test_layer.py shows it). Each head still has d_k = 2.
CAT_FISH_LAYER = {
    # 고양이가, 생선을, 먹었다; with one-axis embeddings the positions were the sums of the earlier
    # words' embeddings, which read as "position adds the earlier words": each position now has a
    # direction of its own (none at the first), unrelated to the words
    "embeddings": _matrix([[1, 0, 0], [1, 1, -1], [1, 0, 1]]),
    "positions": _matrix([[0, 0, 0], [0, 0, 1], [0, 1, 0]]),    # position 1, 2, 3
    "w_q": _matrix([[2, 1], [-1, 1], [0, 1]]),
    "w_k": _matrix([[1, 0], [-1, 2], [1, -1]]),
    "w_v": _matrix([[1, 0], [-1, 1], [1, 0]]),
}

# The book's hand calculation (chapter 13.4), d = 2.
CAT_FISH = Preset(
    name="cat-fish",
    **preset_words("cat-fish"),
    tokens=("고양이가", "생선을", "먹었다"),
    q=_matrix([[2, 1], [1, 2], [1, 3]]),
    k=_matrix([[1, 0], [0, 2], [1, 1]]),
    v=_matrix([[1, 0], [0, 1], [1, 1]]),
    default_query=2,
    layer=CAT_FISH_LAYER,
)

# The book's interactive widget. d_model = 8; at 4 heads each head owns two
# dimensions and one relation: (0,1) object, (2,3) subject, (4,5) time, (6,7) place.
# The first dimension of a head carries the relation (Key = 2 on the target,
# Query = strength on the token that seeks it); the second lets nouns look at the verb.
MEET_FRIEND = Preset(
    name="meet-friend",
    **preset_words("meet-friend"),
    tokens=("나는", "어제", "학교에서", "친구를", "만났다"),
    #              object    subject   time      place
    q=_matrix([[0, 0,    0, 2,     0, 0,     0, 0],     # 나는: subject looks at its verb
               [2, 0,    0, 0,     2, 0,     0, 0],     # 어제: the object and itself, equally
               [0, 0,    0, 0,     0, 0,     0, 2],     # 학교에서: place looks at its verb
               [0, 2,    0, 0,     0, 0,     0, 0],     # 친구를: object looks at its verb
               [3, 0,    1.5, 0,   1.5, 0,   1.5, 0]],  # 만났다: whom most; who, when, where
              ),
    k=_matrix([[0, 0,    2, 0,     0, 0,     0, 0],     # 나는 = the subject
               [0, 0,    0, 0,     2, 0,     0, 0],     # 어제 = the time
               [0, 0,    0, 0,     0, 0,     2, 0],     # 학교에서 = the place
               [2, 0,    0, 0,     0, 0,     0, 0],     # 친구를 = the object
               [0, 2,    0, 2,     0, 0,     0, 2]]),   # 만났다 = the verb
    v=_matrix([[2, 1, 1, 2, 1, 2, 2, -1], [-1, 0, 0, 2, 2, -1, 0, 2], [-1, 2, -1, 0, 2, 0, 0, 0],
               [1, 0, 2, 0, 0, 1, 1, 1], [1, 2, 2, 2, 1, 1, 0, 2]]),
    default_query=4,
    # An example W_O, not a learned one: each output component is the mean of two components two
    # apart, so at 4 heads every output component blends two neighbouring heads.
    w_o=0.5 * (np.eye(8) + np.roll(np.eye(8), 2, axis=1)),
    claims={
        2: [[("만났다", "친구를"), ("나는", "만났다"), ("친구를", "만났다")], [("학교에서", "만났다")]],
        4: [[("만났다", "친구를")], [("만났다", "나는")], [("만났다", "어제")], [("만났다", "학교에서")]],
        8: [[("만났다", "친구를")], [("친구를", "만났다")], [("만났다", "나는")], [("나는", "만났다")],
            [("만났다", "어제")], [], [("만났다", "학교에서")], [("학교에서", "만났다")]],
    },
)

# Chapter 2's example: 마셨다 looks at 커피를 (about 0.55), then 오늘 (about 0.25).
# Heads: (0,1) object, (2,3) time, (4,5) subject, (6,7) modifier.
COFFEE_TODAY = Preset(
    name="coffee-today",
    **preset_words("coffee-today"),
    tokens=("나는", "어제", "산", "커피를", "오늘", "마셨다"),
    #              object      time        subject    modifier
    q=_matrix([[0, 0,      0, 0,       0, 0,      0, 0],      # 나는
               [0, 0,      0, 0,       0, 0,      0, 0],      # 어제
               [2, 0,      0, 2,       2, 0,      0, 0],      # 산: bought what, when, who
               [0, 0,      0, 0,       0, 0,      2, 0],      # 커피를: which coffee (the one bought)
               [0, 0,      0, 0,       0, 0,      0, 0],      # 오늘
               [3.4, 2,    2.3, 0,     0, 0,      1, 0]],     # 마셨다: drank what, when
              ),
    k=_matrix([[0, 0,      0, 0,       2, 0,      0, 0],      # 나는 = the subject
               [0, 0,      0, 2,       0, 0,      0, 0],      # 어제 = time of 산
               [0, 0,      0, 0,       0, 0,      2, 0],      # 산 = modifier of 커피를
               [2, 0,      0, 0,       0, 0,      0, 0],      # 커피를 = the object
               [0, 0,      2, 0,       0, 0,      0, 0],      # 오늘 = time of 마셨다
               [0, -1,     0, 0,       0, 0,      0, 0]]),    # 마셨다 looks away from itself
    v=_matrix([[0, -1, 2, -1, 2, 1, -1, -1], [0, -1, -1, 1, 2, 0, 2, 2], [2, 1, 0, 1, 0, 0, 0, -1],
               [2, -1, -1, -1, 2, 1, 2, -1], [1, 0, 0, -1, 1, 2, 1, -1], [1, 0, 2, 2, -1, 1, 2, 2]]),
    default_query=5,
    claims={
        2: [[("마셨다", "커피를")], [("산", "나는"), ("커피를", "산")]],
        4: [[("마셨다", "커피를"), ("산", "커피를")], [("마셨다", "오늘"), ("산", "어제")], [("산", "나는")],
            [("커피를", "산")]],
        8: [[("마셨다", "커피를"), ("산", "커피를")], [("마셨다", "마셨다", "least")], [("마셨다", "오늘")],
            [("산", "어제")], [("산", "나는")], [], [("커피를", "산")], []],
    },
)

# Chapter 2's multi-head example, hand-segmented; each head links one pair both ways.
# Heads: (0,1) Which↔?, (2,3) you↔like, (4,5) coffee↔tea, (6,7) better↔or.
_COT_TOKENS = ("Which", "do", "you", "like", "better", ",", "coffee", "or", "tea", "?")
_COT_PAIRS = (("Which", "?"), ("you", "like"), ("coffee", "tea"), ("better", "or"))


def _pair_heads(tokens, pairs, strength: float):
    """Q, K (n, 2 * len(pairs)): head h links pair h both ways, one dimension per direction."""
    n, d_model = len(tokens), 2 * len(pairs)
    q, k = np.zeros((n, d_model)), np.zeros((n, d_model))
    for head, (a, b) in enumerate(pairs):
        i, j = tokens.index(a), tokens.index(b)
        q[i, 2 * head], k[j, 2 * head] = strength, 2.0
        q[j, 2 * head + 1], k[i, 2 * head + 1] = strength, 2.0
    return q, k


_cot_q, _cot_k = _pair_heads(_COT_TOKENS, _COT_PAIRS, strength=2.5)
COFFEE_OR_TEA = Preset(
    name="coffee-or-tea",
    **preset_words("coffee-or-tea"),
    tokens=_COT_TOKENS,
    q=_cot_q,
    k=_cot_k,
    v=_matrix([[1, 1, -1, 1, 0, -1, -1, 1], [1, 1, 1, 2, 1, 0, 1, 1], [-1, -1, 1, 0, 1, 0, -1, -1],
               [0, 2, 0, 0, 1, 2, 0, 1], [0, 1, 0, 1, 1, 1, 2, -1], [1, 0, 0, -1, -1, 0, 2, -1],
               [0, 2, 2, -1, -1, 1, -1, 0], [0, 2, -1, 1, 1, -1, 2, 2], [0, 2, 1, 2, 2, 1, 0, -1],
               [1, -1, 2, 2, -1, 1, -1, -1]]),
    default_query=0,
    claims={
        2: [[(a, b) for x, y in _COT_PAIRS[:2] for a, b in ((x, y), (y, x))],
            [(a, b) for x, y in _COT_PAIRS[2:] for a, b in ((x, y), (y, x))]],
        4: [[(x, y), (y, x)] for x, y in _COT_PAIRS],
        8: [[pair] for x, y in _COT_PAIRS for pair in ((x, y), (y, x))],
    },
)


def _why_scale():
    """d_model = 64: score(i, j) = K[j, i] (Q is one-hot), so the query 먹었다 gets raw (2, 4, 20, 3)."""
    raw = np.array([[6, 2, 1, 3], [5, 9, 4, 2], [1, 12, 8, 3], [2, 4, 20, 3]], dtype=np.float64)
    n, d_model = raw.shape[0], 64
    q = np.zeros((n, d_model))
    q[np.arange(n), np.arange(n)] = 1.0
    k = np.zeros((n, d_model))
    k[:, :n] = raw.T
    v = np.zeros((n, 8))
    v[np.arange(n), np.arange(n)] = 1.0  # V one-hot: the output shows the weights themselves
    return q, k, v


_ws_q, _ws_k, _ws_v = _why_scale()
WHY_SCALE = Preset(
    name="why-scale",
    **preset_words("why-scale"),
    tokens=("그", "고양이가", "생선을", "먹었다"),
    q=_ws_q,
    k=_ws_k,
    v=_ws_v,
    head_choices=(1,),  # more heads would make d_k smaller than the 64 of its point
    default_query=3,
)

PRESETS: dict[str, Preset] = {p.name: p for p in (MEET_FRIEND, CAT_FISH, COFFEE_TODAY, COFFEE_OR_TEA, WHY_SCALE)}
DEFAULT_PRESET = "meet-friend"

