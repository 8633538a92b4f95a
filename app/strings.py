"""The page's string table: the `ui` section of every language's catalog (attention_core.words),
as plain dicts for the `strings` param, and `text()` to fill one string in Python."""
from __future__ import annotations

import re
from functools import lru_cache

from attention_core import words

from .constants import LANGUAGES

#: {lang: {key: template or plural value}}, every language of the UI, Korean first
STRINGS: dict[str, dict] = {lang: words.thawed(words.catalog(lang)["ui"]) for lang in LANGUAGES}


#: the start of the keys of the words only a served page shows, which an exported file leaves out
#: (its 300 kB budget): the next-token card's (static/explorer/served.js), the refusals of a
#: room's server (a file holds no room and reaches no server) and of a lesson's check (a file has
#: no Python to check one: lesson_problem.js, which only the served authoring loads) …
SERVED_ONLY = ("next_", "err_room_", "err_lesson_")
#: … but for what a file says instead (room_offline.js, assignment.js)
FILE_SAYS = frozenset({"err_room_needs_server"})


def file_strings() -> dict[str, dict]:
    """STRINGS without the words only a served page shows: an exported file's. Those are the
    SERVED_ONLY keys, and the keys only modules the file does not carry name (served_keys():
    writing a lesson, which Python checks)."""
    absent = served_keys()
    shown = lambda key: key in FILE_SAYS or not (key.startswith(SERVED_ONLY) or key in absent)  # noqa: E731
    return {lang: {key: value for key, value in table.items() if shown(key)} for lang, table in STRINGS.items()}


#: the exported file's entry (static/standalone.js) imports these modules of the client
_FILE_ENTRY = ("explorer.js", "cube.js", "room_offline.js", "scorm.js")


@lru_cache(maxsize=1)
def served_keys() -> frozenset[str]:
    """The keys that only modules a served page loads name, and none of the exported file's
    (its entry's modules, and every module they import, statically or on first use)."""
    from .client import client_dir
    folder = client_dir()
    imports = lambda text: [a or b for a, b in _STATIC_IMPORT.findall(text)] + _FIRST_USE_IMPORT.findall(text)  # noqa: E731
    carried = _modules(folder, _FILE_ENTRY, imports)
    every = {path.name for path in folder.glob("*.js")}
    keys = set().union(*STRINGS.values())
    return frozenset(_keys_named(folder, every - carried, keys) - _keys_named(folder, carried, keys))


#: the client's entry as served (app/client.py ENTRY) and how its modules import each other: statically
#: (`import … from "./x.js"`, `import "./x.js"`), or on first use (`import("./x.js")`)
_ENTRY = "served.js"
_STATIC_IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?\bfrom\s*"\./([\w.-]+\.js)"|^\s*import\s*"\./([\w.-]+\.js)"', re.M)
_FIRST_USE_IMPORT = re.compile(r'\bimport\(\s*"\./([\w.-]+\.js)"\s*\)')
#: a catalog key written whole in a module ("room_open"), or the start of keys it makes (`step_name_${i}`)
_KEY = re.compile(r'["\'`]([a-z][a-z0-9_]*)["\'`]')
_KEY_START = re.compile(r'`([a-z][a-z0-9_]*)\$\{')


def _modules(folder, starts, pattern_of) -> set[str]:
    """The modules `starts` reach through the imports `pattern_of(text)` finds, transitively."""
    seen, todo = set(), list(starts)
    while todo:
        name = todo.pop()
        if name in seen or not (folder / name).is_file():
            continue
        seen.add(name)
        todo += pattern_of((folder / name).read_text(encoding="utf-8"))
    return seen


def _keys_named(folder, modules, keys) -> set[str]:
    """The catalog `keys` that `modules` name, whole or by their start."""
    named = set()
    for module in modules:
        source = (folder / module).read_text(encoding="utf-8")
        named |= set(_KEY.findall(source)) & keys
        for start in _KEY_START.findall(source):
            named |= {key for key in keys if key.startswith(start)}
    return named


#: the start of the keys of an error and of a notice about a bad link: their words are shown only
#: after a bad input, so a served page gets them with the rest (the first missing key asks for them:
#: static/explorer/i18n.js, and every view draws again with them: dom.js memo), a round trip later
ERROR_KEYS = ("err_", "notice_")


@lru_cache(maxsize=1)
def later_keys() -> frozenset[str]:
    """The keys only the client's modules loaded on first use name (a room, a lesson, practice, a
    model's cards…: static/explorer, bench/first_load.py): a served page's first words leave them
    out, and the page asks for the rest (`words_wanted`) before such a module draws. So do the errors'
    words (ERROR_KEYS). A key no module names (a notice's, made in Python) stays among the first words."""
    from .client import client_dir

    folder = client_dir()
    statics = lambda text: [a or b for a, b in _STATIC_IMPORT.findall(text)]  # noqa: E731
    first = _modules(folder, [_ENTRY], statics)
    every = _modules(folder, [_ENTRY], lambda text: statics(text) + _FIRST_USE_IMPORT.findall(text))
    later = every - first
    keys = set().union(*STRINGS.values())
    errors = {key for key in keys if key.startswith(ERROR_KEYS)}
    return frozenset((_keys_named(folder, later, keys) - _keys_named(folder, first, keys)) | errors)


@lru_cache(maxsize=None)
def first_strings(lang: str) -> dict:
    """`lang`'s words without later_keys(): what a served page gets first (made once a language;
    every session shares it, and none changes it)."""
    later = later_keys()
    return {key: value for key, value in STRINGS[lang].items() if key not in later}


def text(string_id: str, lang: str = LANGUAGES[0], /, **values) -> str:
    """The UI string `string_id` in `lang`, its plural form picked by `count`, {placeholders} filled."""
    return words.text(string_id, lang, **values)
