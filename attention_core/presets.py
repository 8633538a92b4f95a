"""The textbook's example sentences with their Q, K, V, titles and per-head captions."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .layer import attention_layer
from .cube import HEAD_CHOICES, head_counts


@dataclass(frozen=True)
class Preset:
    """One example sentence. q, k: (n, d_model); v: (n, dv_model).

    captions[heads][lang] is a list of `heads` strings, one per head.
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


def _matrix(rows) -> np.ndarray:
    return np.array(rows, dtype=np.float64)


#: cat-fish from its embeddings (issue: "where Q, K and V come from"): token embeddings E, a
#: learned position table P and W_Q, W_K, W_V, all small integers, whose products X W = (E + P) W
#: are exactly the book's Q, K and V, so the hand calculation is unchanged and has a "before".
#: X is 3 wide, not 2: the columns of the book's Q, K and V together span three dimensions, so no
#: X of width 2 gives all three (tests/test_layer.py shows it). Each head still has d_k = 2.
CAT_FISH_LAYER = {
    "embeddings": _matrix([[1, 0, 0], [0, 1, 0], [0, 0, 1]]),   # 고양이가, 생선을, 먹었다: one axis each
    "positions": _matrix([[0, 0, 0], [1, 0, 0], [1, 1, 0]]),    # position 1, 2, 3
    "w_q": _matrix([[2, 1], [-1, 1], [0, 1]]),
    "w_k": _matrix([[1, 0], [-1, 2], [1, -1]]),
    "w_v": _matrix([[1, 0], [-1, 1], [1, 0]]),
}

# The book's hand calculation (chapter 13.4), d = 2.
CAT_FISH = Preset(
    name="cat-fish",
    tokens=("고양이가", "생선을", "먹었다"),
    q=_matrix([[2, 1], [1, 2], [1, 3]]),
    k=_matrix([[1, 0], [0, 2], [1, 1]]),
    v=_matrix([[1, 0], [0, 1], [1, 1]]),
    title_ko="손계산: 고양이가 생선을 먹었다",
    title_en="Hand calculation: the cat ate the fish",
    captions={
        1: {"ko": ["교과서 손계산 그대로"], "en": ["The textbook's hand calculation"]},
        2: {"ko": ["Q·K의 1번째 성분만으로 (d_k = 1)", "Q·K의 2번째 성분만으로 (d_k = 1)"],
            "en": ["Only the 1st component of Q and K (d_k = 1)", "Only the 2nd component of Q and K (d_k = 1)"]},
    },
    default_query=2,
    layer=CAT_FISH_LAYER,
)

# The book's interactive widget. d_model = 8; at 4 heads each head owns two
# dimensions and one relation: (0,1) object, (2,3) subject, (4,5) time, (6,7) place.
# The first dimension of a head carries the relation (Key = 2 on the target,
# Query = strength on the token that seeks it); the second lets nouns look at the verb.
MEET_FRIEND = Preset(
    name="meet-friend",
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
    title_ko="나는 어제 학교에서 친구를 만났다",
    title_en="I met a friend at school yesterday",
    captions={
        1: {"ko": ["모든 관계를 한 번에"], "en": ["All relations at once"]},
        2: {"ko": ["누가·누구를 (주어·목적어)", "언제·어디서 (시간·장소)"],
            "en": ["Who and whom (subject, object)", "When and where (time, place)"]},
        4: {"ko": ["목적어를 보는 head", "주어를 보는 head", "시간을 보는 head", "장소를 보는 head"],
            "en": ["Looks at the object", "Looks at the subject", "Looks at the time", "Looks at the place"]},
        8: {"ko": ["목적어 찾기", "명사 → 서술어", "주어 찾기", "주어 → 서술어",
                   "시간 찾기", "(비어 있음)", "장소 찾기", "장소 → 서술어"],
            "en": ["Find the object", "Noun → verb", "Find the subject", "Subject → verb",
                   "Find the time", "(unused)", "Find the place", "Place → verb"]},
    },
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
    title_ko="나는 어제 산 커피를 오늘 마셨다",
    title_en="Today I drank the coffee I bought yesterday",
    captions={
        1: {"ko": ["모든 관계를 한 번에"], "en": ["All relations at once"]},
        2: {"ko": ["무엇을·언제", "누가·어떤"], "en": ["What and when", "Who and which"]},
        4: {"ko": ["목적어를 보는 head", "시간을 보는 head", "주어를 보는 head", "수식어를 보는 head"],
            "en": ["Looks at the object", "Looks at the time", "Looks at the subject",
                   "Looks at the modifier"]},
        8: {"ko": ["목적어 찾기", "자기 자신 피하기", "오늘 찾기", "어제 찾기",
                   "주어 찾기", "(비어 있음)", "수식어 찾기", "(비어 있음)"],
            "en": ["Find the object", "Avoid itself", "Find 'today'", "Find 'yesterday'",
                   "Find the subject", "(unused)", "Find the modifier", "(unused)"]},
    },
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
    tokens=_COT_TOKENS,
    q=_cot_q,
    k=_cot_k,
    v=_matrix([[1, 1, -1, 1, 0, -1, -1, 1], [1, 1, 1, 2, 1, 0, 1, 1], [-1, -1, 1, 0, 1, 0, -1, -1],
               [0, 2, 0, 0, 1, 2, 0, 1], [0, 1, 0, 1, 1, 1, 2, -1], [1, 0, 0, -1, -1, 0, 2, -1],
               [0, 2, 2, -1, -1, 1, -1, 0], [0, 2, -1, 1, 1, -1, 2, 2], [0, 2, 1, 2, 2, 1, 0, -1],
               [1, -1, 2, 2, -1, 1, -1, -1]]),
    title_ko="Which do you like better, coffee or tea? (멀티헤드)",
    title_en="Which do you like better, coffee or tea? (multi-head)",
    captions={
        1: {"ko": ["네 관계가 한 head에 섞임"], "en": ["Four relations mixed in one head"]},
        2: {"ko": ["문장 유형 + 주어-동사", "선택 후보 + 비교"],
            "en": ["Sentence type + subject-verb", "Candidates + comparison"]},
        4: {"ko": ["문장 유형: Which ↔ ?", "주어-동사: you ↔ like", "선택 후보: coffee ↔ tea",
                   "비교: better ↔ or"],
            "en": ["Sentence type: Which ↔ ?", "Subject-verb: you ↔ like", "Candidates: coffee ↔ tea",
                   "Comparison: better ↔ or"]},
        8: {"ko": ["Which → ?", "? → Which", "you → like", "like → you",
                   "coffee → tea", "tea → coffee", "better → or", "or → better"],
            "en": ["Which → ?", "? → Which", "you → like", "like → you",
                   "coffee → tea", "tea → coffee", "better → or", "or → better"]},
    },
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
    tokens=("그", "고양이가", "생선을", "먹었다"),
    q=_ws_q,
    k=_ws_k,
    v=_ws_v,
    title_ko="왜 √d로 나누나 (d = 64)",
    title_en="Why divide by √d (d = 64)",
    head_choices=(1,),  # more heads would make d_k smaller than the 64 of its point
    captions={
        1: {"ko": ["d_k = 64: √d를 끄면 한 곳에 몰린다"], "en": ["d_k = 64: without √d it collapses"]},
    },
    default_query=3,
)

PRESETS: dict[str, Preset] = {p.name: p for p in (MEET_FRIEND, CAT_FISH, COFFEE_TODAY, COFFEE_OR_TEA, WHY_SCALE)}
DEFAULT_PRESET = "meet-friend"

