"""The page's string table: the `ui` section of every language's catalog (attention_core.words),
as plain dicts for the `strings` param, and `text()` to fill one string in Python."""
from __future__ import annotations

from attention_core import words

from .constants import LANGUAGES

#: {lang: {key: template or plural value}}, every language of the UI, Korean first
STRINGS: dict[str, dict] = {lang: words.thawed(words.catalog(lang)["ui"]) for lang in LANGUAGES}


#: the start of the keys of the words only a served page's cards show (static/explorer/served.js:
#: the next-token card), which an exported file leaves out (its 300 kB budget)
SERVED_ONLY = "next_"


def file_strings() -> dict[str, dict]:
    """STRINGS without the words only a served page shows (SERVED_ONLY): an exported file's."""
    return {lang: {key: value for key, value in table.items() if not key.startswith(SERVED_ONLY)} for lang, table in STRINGS.items()}


def text(string_id: str, lang: str = LANGUAGES[0], /, **values) -> str:
    """The UI string `string_id` in `lang`, its plural form picked by `count`, {placeholders} filled."""
    return words.text(string_id, lang, **values)
