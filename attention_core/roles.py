"""Rule-made Q and K for a typed Korean sentence: particles and endings mark each token's role,
and heads look for those roles as in the meet-friend preset. Rules, not a learned model."""
from __future__ import annotations

import numpy as np

from .words import LANGUAGES, catalog

#: The roles a head looks for, in head order at 4 heads (each owns two of the 8 dimensions).
ROLES = ("object", "subject", "time", "place")
#: Words that say when, with or without a particle after them.
TIME_WORDS = ("어제", "오늘", "내일", "지금", "방금", "아까", "아침", "점심", "저녁", "밤", "주말", "작년", "올해",
              "내년", "매일", "오전", "오후", "새벽", "요즘", "나중", "봄", "여름", "가을", "겨울", "월요일", "화요일",
              "수요일", "목요일", "금요일", "토요일", "일요일", "평일", "방학")
#: Words that end like a particle but are not nouns with one (adverbs, adjectives before a noun).
NOT_ROLES = ("많이", "같이", "깊이", "높이", "멀리", "좋은", "작은", "높은", "많은", "같은", "다른", "좋는")
_FINAL_PUNCTUATION = ".!?…。"
_TIME_PARTICLES = ("", "은", "는", "에", "도", "부터", "까지", "에는")
# Endings read from the end of a token, longest first; the first that matches gives the role.
_ENDINGS = (("께서", "subject"), ("에서", "place"), ("을", "object"), ("를", "object"), ("이", "subject"),
            ("가", "subject"), ("은", "subject"), ("는", "subject"), ("에", "place"))
_PREDICATE_ENDINGS = ("다", "요", "까", "라")
#: How strongly the predicate's query seeks each role, and each role's query seeks the predicate.
PREDICATE_SEEKS = {"object": 3.0, "subject": 1.5, "time": 1.5, "place": 1.5}
SEEKS_PREDICATE = 2.0
KEY = 2.0


def _is_hangul(token: str) -> bool:
    return all("\uac00" <= ch <= "\ud7a3" for ch in token)


def token_role(token: str, last: bool) -> str | None:
    """The role the rules read in one token ('predicate', a ROLES entry), or None."""
    token = token.rstrip(_FINAL_PUNCTUATION) if last else token
    if not token or not _is_hangul(token) or len(token) < 2 and not last or token in NOT_ROLES:
        return None
    if any(token == word + particle for word in TIME_WORDS for particle in _TIME_PARTICLES):
        return "time"
    if last and token.endswith(_PREDICATE_ENDINGS):
        return "predicate"
    for ending, role in _ENDINGS:
        if token.endswith(ending) and len(token) > len(ending):
            return role
    return None


def read_roles(tokens) -> tuple[str | None, ...] | None:
    """Each token's role, or None when the rules cannot read the sentence: it must end in a
    predicate and have at least one other role."""
    roles = tuple(token_role(token, last=i == len(tokens) - 1) for i, token in enumerate(tokens))
    if roles[-1] != "predicate" or not any(role in ROLES for role in roles):
        return None
    return roles


def rule_qk(roles) -> tuple[np.ndarray, np.ndarray]:
    """Q, K (n, 8) from the roles: the predicate's query seeks each role present (the object most),
    each role's key answers in its head's first dimension, and each role's query seeks the
    predicate through its head's second dimension."""
    n = len(roles)
    q, k = np.zeros((n, 2 * len(ROLES))), np.zeros((n, 2 * len(ROLES)))
    present = set(roles)
    for i, role in enumerate(roles):
        if role == "predicate":
            for head, seeks in enumerate(ROLES):
                q[i, 2 * head] = PREDICATE_SEEKS[seeks] if seeks in present else 0.0
                k[i, 2 * head + 1] = KEY
        elif role in ROLES:
            head = ROLES.index(role)
            k[i, 2 * head] = KEY
            q[i, 2 * head + 1] = SEEKS_PREDICATE
    return q, k


def role_captions(tokens, roles) -> tuple[dict, dict]:
    """Captions and claims at 4 heads: a head's caption names its role; it claims the predicate
    looks at that role's token where exactly one token has the role."""
    predicate = roles.index("predicate")
    def caption(lang, role):
        count, words = roles.count(role), catalog(lang)["roles"]
        return words["caption"][role] if count == 1 else words["split"][role] if count else words["empty"]

    captions = {lang: [caption(lang, role) for role in ROLES] for lang in LANGUAGES}
    claims = [[(predicate, roles.index(role))] if roles.count(role) == 1 else [] for role in ROLES]
    return {4: captions}, {4: claims}
