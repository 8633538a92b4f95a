"""A small grammar of Korean sentences in the textbook's style, for a model to learn attention on:
subject, time, place, object, predicate. The predicate is one word that depends on three others,
so a model that predicts it has to look at them:

  its verb on the object        친구를 → 만나다, 밥을 → 먹다, 커피를 → 마시다, 책을 → 읽다
  its tense on the time word    어제 → 만났다, 오늘 → 만난다, 내일 → 만나겠다
  its honorific on the subject  할머니께서 → 드셨다 (먹다 and 마시다 both become 드시다)

Time and place come in either order, so position alone does not say which word is which.
Every predicate is one token ("만나겠다", not "만날 것이다"), so one query holds the whole answer.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: subjects: (word, honorific)
SUBJECTS = (("나는", False), ("동생이", False), ("철수가", False), ("민지가", False), ("학생들이", False),
            ("우리는", False), ("할머니께서", True), ("선생님께서", True), ("할아버지께서", True), ("사장님께서", True))
#: time words: (word, tense)
TIMES = (("어제", "past"), ("지난주에", "past"), ("오늘", "present"), ("지금", "present"),
         ("내일", "future"), ("다음주에", "future"))
PLACES = ("학교에서", "집에서", "도서관에서", "카페에서", "공원에서", "식당에서")
#: objects: (word, verb)
OBJECTS = (("친구를", "만나다"), ("동생을", "만나다"), ("밥을", "먹다"), ("빵을", "먹다"), ("커피를", "마시다"),
           ("물을", "마시다"), ("책을", "읽다"), ("신문을", "읽다"))
#: predicate forms: [verb][honorific][tense]
PREDICATES = {
    "만나다": {False: {"past": "만났다", "present": "만난다", "future": "만나겠다"},
              True: {"past": "만나셨다", "present": "만나신다", "future": "만나시겠다"}},
    "먹다": {False: {"past": "먹었다", "present": "먹는다", "future": "먹겠다"},
            True: {"past": "드셨다", "present": "드신다", "future": "드시겠다"}},
    "마시다": {False: {"past": "마셨다", "present": "마신다", "future": "마시겠다"},
              True: {"past": "드셨다", "present": "드신다", "future": "드시겠다"}},
    "읽다": {False: {"past": "읽었다", "present": "읽는다", "future": "읽겠다"},
            True: {"past": "읽으셨다", "present": "읽으신다", "future": "읽으시겠다"}},
}
#: the roles of a sentence's words, in the order they carry them
ROLES = ("subject", "time", "place", "object", "predicate")
#: every sentence, held out or not, is one of the grammar's; sentences whose index in
#: all_sentences() is a multiple of HELD_OUT_EVERY are never trained on
HELD_OUT_EVERY = 5


@dataclass(frozen=True)
class Sentence:
    """One sentence: its words, and where each role's word stands."""

    words: tuple[str, ...]
    positions: dict  # role → index in words
    verb: str
    tense: str
    honorific: bool

    @property
    def text(self) -> str:
        return " ".join(self.words)


def role_of(word: str) -> str | None:
    """The role (ROLES) the grammar gives `word`, or None for a word it does not use."""
    return _roles().get(word)


@lru_cache(maxsize=1)
def _roles() -> dict[str, str]:
    """Every word of the grammar → its role, made once."""
    lists = {"subject": [w for w, _ in SUBJECTS], "time": [w for w, _ in TIMES], "place": list(PLACES),
             "object": [w for w, _ in OBJECTS],
             "predicate": [form for by_honor in PREDICATES.values() for by_tense in by_honor.values() for form in by_tense.values()]}
    return {word: role for role, words in lists.items() for word in words}


def vocabulary() -> tuple[str, ...]:
    """Every word the grammar uses, once, in a fixed order."""
    predicates = [form for by_honor in PREDICATES.values() for by_tense in by_honor.values() for form in by_tense.values()]
    words = [w for w, _ in SUBJECTS] + [w for w, _ in TIMES] + list(PLACES) + [w for w, _ in OBJECTS] + predicates
    return tuple(dict.fromkeys(words))


def all_sentences() -> tuple[Sentence, ...]:
    """Every sentence of the grammar, in a fixed order."""
    made = []
    for (subject, honorific), (time, tense), place, (obj, verb), time_first in itertools.product(
            SUBJECTS, TIMES, PLACES, OBJECTS, (True, False)):
        middle = (time, place) if time_first else (place, time)
        words = (subject, *middle, obj, PREDICATES[verb][honorific][tense])
        positions = {"subject": 0, "time": 1 if time_first else 2, "place": 2 if time_first else 1, "object": 3,
                     "predicate": 4}
        made.append(Sentence(words=words, positions=positions, verb=verb, tense=tense, honorific=honorific))
    return tuple(made)


def split() -> tuple[tuple[Sentence, ...], tuple[Sentence, ...]]:
    """(train, held out): every HELD_OUT_EVERY-th sentence is held out, never trained on."""
    sentences = all_sentences()
    return (tuple(s for i, s in enumerate(sentences) if i % HELD_OUT_EVERY),
            tuple(s for i, s in enumerate(sentences) if i % HELD_OUT_EVERY == 0))


def corpus(count: int = 30_000, seed: int = 0) -> tuple[Sentence, ...]:
    """`count` training sentences drawn (with repeats) from the training split, deterministically."""
    train, _ = split()
    picks = np.random.default_rng(seed).integers(0, len(train), size=count)
    return tuple(train[i] for i in picks)
