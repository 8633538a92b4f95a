"""Every user-facing word, one catalog per language (`locales/<lang>.json` beside this module),
read once per process and looked up by section and key; plural forms chosen as the page does.

A catalog has sections: `ui` (the page's string table, sent to the browser whole), `worksheet`,
`titles`, `roles` and `presets` (each preset's title and per-head captions, by preset name).
A value is a template with `{placeholders}`, or a plural value: a dict from the language's plural
categories (PLURAL_FORMS: English one/other, Korean other) to templates, picked by the `count`
placeholder as `Intl.PluralRules` picks it in the page (static/explorer/i18n.js).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

#: the languages, Korean first (the default); each has a catalog in LOCALES
LANGUAGES = ("ko", "en")
LOCALES = Path(__file__).resolve().parent / "locales"
#: the plural categories each language's plural values carry, as CLDR (and Intl.PluralRules) name them
PLURAL_FORMS = {"ko": ("other",), "en": ("one", "other")}
#: the placeholder whose number picks a plural value's form
PLURAL_PLACEHOLDER = "count"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _frozen(value):
    """The JSON value read-only: dicts as mapping proxies, lists as tuples."""
    if isinstance(value, dict):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


@lru_cache(maxsize=None)
def catalog(lang: str):
    """The catalog of `lang`, read-only (sections → keys → templates or plural values)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}; there are {', '.join(LANGUAGES)}")
    return _frozen(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")))


def thawed(value):
    """A catalog value as plain JSON types again (dicts and lists), e.g. for a param or a payload."""
    if isinstance(value, MappingProxyType):
        return {key: thawed(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [thawed(item) for item in value]
    return value


def plural_form(lang: str, count) -> str:
    """The plural category of `count` in `lang`: English "one" for exactly 1 (as Intl.PluralRules:
    1, -1, 1.0 and "1" are one; 1.5 and 0 are other), Korean always "other"."""
    if lang == "en":
        number = float(count)
        return "one" if abs(number) == 1 else "other"
    return "other"


def template(value, lang: str, values: dict) -> str:
    """A value's template for these values: a plural value's form by values["count"]."""
    if isinstance(value, str):
        return value
    if PLURAL_PLACEHOLDER not in values:
        raise KeyError(f"a plural value needs {{{PLURAL_PLACEHOLDER}}}: {dict(value)}")
    return value.get(plural_form(lang, values[PLURAL_PLACEHOLDER]), value["other"])


def fill(text: str, values: dict) -> str:
    """`{name}` placeholders filled from values (as format.js `fill`); a missing one is an error here."""
    missing = sorted(set(_PLACEHOLDER.findall(text)) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)} in {text!r}")
    return _PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), text)


def in_language(values: dict, lang: str) -> dict:
    """`values` with each value given per language (`truth_ko`, `truth_en`) also under its own name
    (`truth`) in `lang`, where that name is not given itself (as i18n.js catalogTranslator)."""
    suffix = f"_{lang}"
    return {**{name[:-len(suffix)]: value for name, value in values.items() if name.endswith(suffix)}, **values}


def text(key: str, lang: str = LANGUAGES[0], section: str = "ui", /, **values) -> str:
    """The words `key` of `section` in `lang`, their plural form picked and placeholders filled
    (a value given per language, `name_<lang>`, fills `{name}`)."""
    values = in_language(values, lang)
    return fill(template(catalog(lang)[section][key], lang, values), values)


def placeholders(value) -> set[str]:
    """The placeholders of a template, or of every form of a plural value."""
    forms = [value] if isinstance(value, str) else list(value.values())
    return {name for form in forms for name in _PLACEHOLDER.findall(form)}


def every_language(key: str, section: str = "ui", /, **values) -> dict[str, str]:
    """{lang: text} of `key` in every language, e.g. a title that travels with its entry."""
    return {lang: text(key, lang, section, **values) for lang in LANGUAGES}
