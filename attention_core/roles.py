"""Rule-made Q and K for a typed Korean sentence: particles and endings mark each token's role,
and heads look for those roles as in the meet-friend preset. Rules, not a learned model."""
from __future__ import annotations

import numpy as np

from .reading import UNREAD, read_sentence  # noqa: F401 (UNREAD: what a token the rules cannot read is)
from .words import LANGUAGES, catalog

#: The roles a head looks for, in head order at 4 heads (each owns two of the 8 dimensions).
ROLES = ("object", "subject", "time", "place")
#: How strongly the predicate's query seeks each role, and each role's query seeks the predicate.
PREDICATE_SEEKS = {"object": 3.0, "subject": 1.5, "time": 1.5, "place": 1.5}
SEEKS_PREDICATE = 2.0
KEY = 2.0


def read_roles(tokens) -> tuple[str, ...] | None:
    """Each token's role (a ROLES entry, 'predicate', '' for a word with none, UNREAD for a word
    the rules cannot read), or None when the rules cannot read the sentence: it must end in a
    predicate and have at least one other role. See attention_core.reading for the rules."""
    roles = read_sentence(tokens)
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
    predicate = len(roles) - 1
    def caption(lang, role):
        count, words = roles.count(role), catalog(lang)["roles"]
        return words["caption"][role] if count == 1 else words["split"][role] if count else words["empty"]

    captions = {lang: [caption(lang, role) for role in ROLES] for lang in LANGUAGES}
    claims = [[(predicate, roles.index(role))] if roles.count(role) == 1 else [] for role in ROLES]
    return {4: captions}, {4: claims}
