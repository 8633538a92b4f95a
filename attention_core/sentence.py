"""Any sentence as tokens and deterministic toy Q, K, V, so students can try their own."""
from __future__ import annotations

import hashlib
import unicodedata

import numpy as np

from .errors import InputError
from .presets import Preset
from .roles import read_roles, role_captions, rule_qk
from .words import every_language

MAX_TOKENS = 24
MAX_CHARS = 400
TOY_D_MODEL = 8

# Invisible characters that would make two different tokens look the same, or
# reorder the text on screen: zero-width space, BOM, and the bidirectional controls.
_INVISIBLE = {"\u200b", "\ufeff", "\u200e", "\u200f", "\u061c",
              *map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}


def tokenize(text: str) -> tuple[str, ...]:
    """Split a sentence on whitespace; Korean eojeol stay whole.

    Control characters count as whitespace; zero-width and direction marks are
    dropped. Raises ValueError for empty text or more than MAX_TOKENS tokens.
    """
    if not isinstance(text, str):
        raise InputError("not_text", "the sentence must be text")
    if len(text) > MAX_CHARS:
        raise InputError("too_long", f"the sentence is too long: {len(text)} characters, at most {MAX_CHARS}",
                         count=len(text), limit=MAX_CHARS)
    text = unicodedata.normalize("NFC", text)
    cleaned = "".join(
        " " if unicodedata.category(ch) == "Cc" else ch
        for ch in text if ch not in _INVISIBLE
    )
    tokens = tuple(cleaned.split())
    if not tokens:
        raise InputError("empty_sentence", "the sentence is empty: type at least one word")
    if len(tokens) > MAX_TOKENS:
        raise InputError("too_many_tokens", f"the sentence has {len(tokens)} tokens, at most {MAX_TOKENS}",
                         count=len(tokens), limit=MAX_TOKENS)
    return tokens


def _hashed_tenths(key: str, d: int) -> np.ndarray:
    """(d,) whole numbers in -20..20 from BLAKE2b of key: the same on every machine."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=2 * d).digest()
    return np.frombuffer(digest, dtype="<u2").astype(np.int64) % 41 - 20


def toy_qkv(tokens, d_model: int = TOY_D_MODEL):
    """Deterministic toy Q, K, V, each (n, d_model), from each token plus its position.

    The same word gets the same token part everywhere; a smaller position part
    tells two copies of a word apart. Python's hash() is salted per process, so
    BLAKE2b is used instead.
    """
    def matrix(role: str) -> np.ndarray:
        # token part in tenths plus half a position part, summed as integers and divided once,
        # so every value is the double nearest a two-decimal number (0.15, not 0.15000000000000002)
        twentieths = np.stack([
            2 * _hashed_tenths(f"{role}|token|{token}", d_model) + _hashed_tenths(f"{role}|position|{i}", d_model)
            for i, token in enumerate(tokens)
        ])
        return twentieths / 20.0
    return matrix("q"), matrix("k"), matrix("v")


def custom_preset(text: str) -> Preset:
    """A Preset for any sentence. A Korean sentence the rules can read (attention_core.roles) gets
    rule-made Q and K, with captions for its roles; any other gets toy_qkv's arbitrary numbers.
    V is toy_qkv's either way. Raises ValueError as tokenize does."""
    tokens = tokenize(text)
    q, k, v = toy_qkv(tokens)
    roles = read_roles(tokens)
    captions, claims = {}, {}
    if roles:
        q, k = rule_qk(roles)
        captions, claims = role_captions(tokens, roles)
    titles = every_language("my_sentence", "titles", sentence=" ".join(tokens))
    return Preset(
        name="custom", tokens=tokens, q=q, k=k, v=v,
        title_ko=titles["ko"], title_en=titles["en"],
        captions=captions, claims=claims, default_query=len(tokens) - 1,
        origin="rules" if roles else "hash", roles=tuple(role or "" for role in roles) if roles else (),
    )
