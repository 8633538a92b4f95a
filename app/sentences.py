"""Presets and custom sentences turned into the entries the browser view indexes."""
from __future__ import annotations

from functools import lru_cache

from attention_core import PRESETS, Preset, cube_payload, state_cube


def caption_scope(preset: Preset, heads: int) -> list[list[list[int]]]:
    """For each head's caption, the (query, key) token indices it speaks of; [] for a general one.
    A claim names tokens by their text (a designed preset) or by index (a typed sentence)."""
    index = lambda token: token if isinstance(token, int) else preset.tokens.index(token)  # noqa: E731
    claims = preset.claims.get(heads, [[] for _ in range(heads)])
    return [[[index(claim[0]), index(claim[1])] for claim in head] for head in claims]


def sentence_entry(preset: Preset, name: str | None = None) -> dict:
    """One sentence for the view: titles, per-head captions, default query and the packed cube."""
    return {
        "name": name or preset.name,
        "titles": {"ko": preset.title_ko, "en": preset.title_en},
        "captions": {str(h): {**by_lang, "scope": caption_scope(preset, h)} for h, by_lang in preset.captions.items()},
        "default_query": preset.default_query,
        "origin": preset.origin,
        "roles": list(preset.roles),
        "cube": cube_payload(state_cube(preset.tokens, preset.q, preset.k, preset.v, preset.head_choices)),
    }


@lru_cache(maxsize=None)
def _preset_entry(name: str) -> dict:
    return sentence_entry(PRESETS[name])


def preset_entries(names=None) -> list[dict]:
    """Entries for the named presets (default: all), each computed once per process."""
    return [_preset_entry(name) for name in (names or PRESETS)]
