"""The static exporter: one self-contained HTML file with every view precomputed, no server needed."""
from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
import zlib
from collections import Counter
from pathlib import Path

import rjsmin
from bokeh.resources import CDN

from attention_core import PRESETS, custom_preset
from attention_core.practice import MAX_PROBLEM

from panel.custom import JSComponent

from . import client
from .constants import LANGUAGES, PRACTICE_BANK
from .explorer import AttentionView
from .models import experiment_of, model_params, page_sets, view_code
from .trained_model import FAMILY, TRAINED_SENTENCE, training_entries
from .kinds import source_of
from .sentences import practice_bank, preset_entries, sentence_entry
from .strings import STRINGS, file_strings, text
_STRING_SET = re.compile(r'"type":"set","entries":\[((?:"[^"]*",?)*)\]')
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def build_entries(presets=None, sentences=()) -> list[dict]:
    """Preset entries (default: all) followed by one entry per extra sentence.

    Raises ValueError for an unknown preset name or a sentence the tokenizer rejects.
    """
    unknown = [name for name in presets or () if name not in PRESETS]
    if unknown:
        raise ValueError(f"unknown preset {unknown[0]!r}; choose from {', '.join(PRESETS)}")
    entries = list(preset_entries(presets))
    for number, sentence in enumerate(sentences, start=1):
        entries.append(sentence_entry(custom_preset(sentence), name=f"sentence-{number}", kind="sentence"))
    return entries


def make_deterministic(html: str) -> str:
    """Sort serialized sets and replace Bokeh's random UUIDs by ids derived from the rest of the file.

    Each UUID becomes `ae-<n>-<digest>`, numbered in order of first appearance, so two
    exports of the same input are byte-identical.
    """
    # Python's set order changes with the per-process string hash seed; sort serialized sets.
    html = _STRING_SET.sub(
        lambda m: '"type":"set","entries":[' + ",".join(sorted(filter(None, m.group(1).split(",")))) + "]", html)
    found: dict[str, str] = {}
    digest = hashlib.sha256(_UUID.sub("", html).encode("utf-8")).hexdigest()[:12]
    for value in _UUID.findall(html):
        found.setdefault(value, f"ae-{len(found) + 1}-{digest}")
    return _UUID.sub(lambda m: found[m.group(0)], html)


PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>html, body {{ margin: 0; background: #fff; }}</style>
</head>
<body>
<main id="ae-app"></main>
<script type="application/json" id="ae-state">{state}</script>
{inline}<script type="module">
{script}
</script>
</body>
</html>
"""


def view_state(view: AttentionView) -> dict:
    """The view's own params (not Panel's layout ones) and the shared constants, as the browser
    model's initial state: what Panel would send it."""
    # the catalogs as they are (not their JSON strings): the file packs them, its blobs apart
    names = [name for name in type(view).param if name not in JSComponent.param and name not in view._catalogs.values()]
    # every constant (the file has no Python to ask for the rest), and nothing left to ask for
    constants = {"json": json.dumps({**json.loads(view._constants["json"]), **json.loads(view._rest_text)["constants"]},
                                    ensure_ascii=False, separators=(",", ":"))}
    return {**{name: getattr(view, name) for name in names if name not in ("rest_json", "rest_wanted")},
            "esm_constants": constants}


#: the mark of a value stored once in an exported file's table of shared values
SHARED = "$shared"


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def share_repeats(value, least: int = 24) -> tuple[object, list]:
    """`value` with each dict, list or string that occurs more than once and whose JSON is at least
    `least` characters replaced by {"$shared": i}, and the table of those values (their own repeats
    shared the same way): an exported file then holds each repeated layout, token list, title or
    blob once (standalone.js puts them back, each one JavaScript value). The largest repeat is
    taken whole. Raises ValueError where `value` already uses the mark."""
    counts: Counter = Counter()

    def count(item):
        if isinstance(item, (dict, list, str)):
            key = _json(item)
            counts[key] += 1
            if counts[key] > 1:
                return  # its insides were counted with its first copy
        if isinstance(item, dict):
            if SHARED in item:
                raise ValueError(f"the page's state already has a key {SHARED!r}")
            for inner in item.values():
                count(inner)
        elif isinstance(item, list):
            for inner in item:
                count(inner)

    table: list = []
    index: dict[str, int] = {}

    def share(item):
        if isinstance(item, (dict, list, str)):
            key = _json(item)
            if counts[key] > 1 and len(key) >= least:
                if key not in index:
                    index[key] = len(table)
                    table.append(None)
                    table[index[key]] = inside(item)
                return {SHARED: index[key]}
        return inside(item)

    def inside(item):
        if isinstance(item, dict):
            return {name: share(inner) for name, inner in item.items()}
        if isinstance(item, list):
            return [share(inner) for inner in item]
        return item

    count(value)
    return share(value), table


def unshare(value, table: list):
    """Inverse of share_repeats (as standalone.js does it): each {"$shared": i} put back."""
    if isinstance(value, list):
        return [unshare(item, table) for item in value]
    if isinstance(value, dict):
        if list(value) == [SHARED]:
            return unshare(table[value[SHARED]], table)
        return {name: unshare(item, table) for name, item in value.items()}
    return value


#: the words an exported file shows where it cannot inflate its packed state (standalone.js)
UNPACK_FAILED = ("app_title", "err_decode", "err_csp_blob")
#: what static/loader.js takes `start` from in a file made with --csp-safe (its INLINE_START)
INLINE_START = "__attentionExplorerStart"
#: the end of client.STANDALONE as esbuild writes it: its one export
_STANDALONE_EXPORT = re.compile(r"export\s*\{\s*([A-Za-z_$][\w$]*)\s+as\s+start\s*\}\s*;?\s*\Z")

#: the mark of a cube's blob kept out of an exported file's packed state (already compressed)
BLOB = "$blob"


def pack(state: dict, table: list, css: str) -> dict:
    """What an exported file's ae-state element holds: `packed`, the JSON of {state, shared, css}
    zlib-compressed and base64-encoded (the catalogs' words, layouts and titles shrink to a fifth),
    and `blobs`, each cube's blob apart ({"$blob": j} where it was), since compressed numbers do
    not compress again. standalone.js inflates it before the page starts."""
    blobs: list[str] = []

    def take(data):
        """A cube's data as a blob reference; a shared one is moved out of the table once."""
        if isinstance(data, dict) and list(data) == [SHARED] and isinstance(table[data[SHARED]], str):
            table[data[SHARED]] = take(table[data[SHARED]])
            return data
        if isinstance(data, str):
            blobs.append(data)
            return {BLOB: len(blobs) - 1}
        return data

    def walk(item):
        if isinstance(item, dict):
            if item.get("encoding") == "zlib-base64" and "data" in item:
                item["data"] = take(item["data"])
            for inner in item.values():
                walk(inner)
        elif isinstance(item, list):
            for inner in item:
                walk(inner)

    walk(state)
    walk(table)
    text = _json({"state": state, "shared": table, "css": css}).encode("utf-8")
    return {"packed": base64.b64encode(zlib.compress(text, 9)).decode("ascii"), "blobs": blobs}


def unpack(found: dict) -> dict:
    """Inverse of pack (as standalone.js does it): {state, shared, css} with every blob back."""
    inner = json.loads(zlib.decompress(base64.b64decode(found["packed"])).decode("utf-8"))

    def put(item):
        if isinstance(item, dict):
            if list(item) == [BLOB]:
                return found["blobs"][item[BLOB]]
            return {name: put(value) for name, value in item.items()}
        if isinstance(item, list):
            return [put(value) for value in item]
        return item

    return put(inner)


def page_state(page: str) -> dict:
    """The state a standalone page starts from, read back from its HTML (for tests and tools)."""
    found = unpack(json.loads(re.search(r'id="ae-state">(.*?)</script>', page, re.S).group(1)))
    return unshare(found["state"], found["shared"])


def standalone_html(view: AttentionView, lang: str, csp_safe: bool = False) -> str:
    """One page with the explorer's JavaScript, CSS and every cube inline: no Bokeh, no Panel,
    no request to anywhere. A small stand-in for the Panel model drives the same explorer.js.

    csp_safe: the script as a plain inline module (about 90 kB larger) instead of deflated and
    run from a blob: URL, for a site whose Content-Security-Policy has script-src 'unsafe-inline'
    but not blob:."""
    shared_state, table = share_repeats(view_state(view))
    # what the page says where it cannot inflate its packed state (no DecompressionStream) or its
    # script is refused: the title and that message, in every language, outside the pack
    fallback = {code: {key: STRINGS[code][key] for key in UNPACK_FAILED} for code in LANGUAGES}
    # the explorer's script (client.STANDALONE: static/standalone.js and the client, bundled by
    # esbuild) travels deflated beside the state (a third of its size); the one inline script,
    # static/loader.js, inflates and starts it
    script = client.STANDALONE.read_text(encoding="utf-8")
    packed = pack(shared_state, table, client.stylesheet_text())
    if csp_safe:
        inline = f'<script type="module">\n{inline_start(script)}\n</script>\n'
    else:
        inline = ""
        packed["script"] = base64.b64encode(zlib.compress(script.encode("utf-8"), 9)).decode("ascii")
    state = _json({**packed, "fallback": fallback})
    # rjsmin, not esbuild: the loader is read as it is in static/, so exporting needs no Node
    loader = rjsmin.jsmin((client.static_dir() / "loader.js").read_text(encoding="utf-8"))
    if "</script" in loader.lower():
        raise ValueError("the loader would end its own <script> element")
    return PAGE.format(lang=lang, title=html.escape(text("app_title", lang)), state=state.replace("<", "\\u003c"),
                       inline=inline, script=loader)


def inline_start(script: str) -> str:
    """client.STANDALONE as a plain module that leaves its `start` at window[INLINE_START] (an
    inline module script can export nothing). ValueError where the bundle does not end in its one
    export, or would end its own <script> element."""
    found = _STANDALONE_EXPORT.search(script)
    if found is None:
        raise ValueError("the standalone bundle does not end in `export{… as start}`: rebuild it (scripts/bundle.py)")
    if "</script" in script.lower():
        raise ValueError("the standalone bundle would end its own <script> element")
    return f"{script[:found.start()]}window.{INLINE_START}={found.group(1)};"


def page_script(page: str) -> str:
    """The explorer's script a standalone page runs (client.STANDALONE: the client and
    standalone.js, bundled), inflated from its HTML (for tests and tools)."""
    state = json.loads(re.search(r'id="ae-state">(.*?)</script>', page, re.S).group(1))
    return zlib.decompress(base64.b64decode(state["script"])).decode("utf-8")


def _not_carried(shows: dict, entries: list, models: list, practice: int = 0) -> str:
    """What a lesson's stop shows (app.lesson_check.page_lesson `shows`) that the file lacks, in
    words, or "": its sentence (add it with --preset), a sentence typed in the page (only a served
    page reads one), a practice problem past the file's (--practice), or its model's head among the
    model's banked heads (the file's budget, app.models.export_bank)."""
    source = shows["source"]
    if source["kind"] == "sentence":
        return "a typed sentence, which only a served page reads (serve the lesson instead)"
    if source["kind"] == "practice":
        number = int(source["name"].rpartition("-")[2])
        return "" if number <= practice else f"practice problem {number}, which the file does not carry (add --practice {number})"
    if source["kind"] == "preset":
        carried = any(entry["name"] == source["name"] for entry in entries)
        return "" if carried else f"{source['name']}, which the file does not carry (add --preset {source['name']})"
    model = next((entry for entry in models if entry["name"] == source["name"]), None)
    if model is None:
        return f"{source['name']}, which the file does not carry (add --preset {FAMILY})"
    code = model["views"][view_code(shows["merge"], shows["special"])]
    # the experiment's code as the page finds a banked head (loading.js fetchHead): unrotated, another
    # window (the page's -1: the model's own)
    experiment = experiment_of(shows["rope"], None if shows["window"] < 0 else shows["window"], model.get("window", 0))
    for banked in model.get("bank", []):
        head = banked["model_head"]
        if (head["layer"], head["head"]) == (shows["layer"], shows["head"]) \
                and model["views"][view_code(head["merge"], head["special"])] == code \
                and (head.get("experiment") or "") == experiment:
            return ""
    return (f"layer {shows['layer']}, head {shows['head']} of {source['name']} in that token view, which the file does not "
            f"carry (the heads it banks within its budget)")


def export_html(out, presets=None, sentences=(), lang: str = "ko", resources: str = "inline",
                practice: int = PRACTICE_BANK, model=None, attentions=None, compare=None, lesson: dict | None = None,
                scorm: dict | None = None, csp_safe: bool = False) -> int:
    """Write the explorer to `out` as one HTML file and return its size in bytes.

    practice: practice problems 1 to `practice` travel in the file (0: none, and no practice button).

    inline (default): a standalone page, everything inside, works from file:// offline.
    cdn: the Panel page itself, loading Bokeh and Panel from their public CDNs.

    model: a checkpoint folder; the sentences (default: the book's) are run through it and every
    layer and head travels in the file, within app.models.EXPORT_BUDGET (app.models.export_bank).
    compare: a second checkpoint folder, each head compared with it (A1 - A2: app.models.compared_sets).
    attentions: an .npz of weights computed elsewhere, the same way.
    lesson: a checked lesson as the page receives it (app.lesson_check.page_lesson): the file opens it,
    on the projector or walked alone offline; every preset it shows must travel in the file.
    scorm: {mastery} for a SCORM package's page (app/scorm.py): it walks the lesson alone and reports
    to the LMS that launches it.
    csp_safe (inline only): the script as a plain inline module, for a site whose
    Content-Security-Policy allows inline scripts but not blob: ones (standalone_html).
    """
    if resources not in ("inline", "cdn"):
        raise ValueError("resources must be 'inline' or 'cdn'")
    if csp_safe and resources != "inline":
        raise ValueError("--csp-safe makes the inline page: the cdn page loads Bokeh and Panel from their CDNs")
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    if not 0 <= practice <= MAX_PROBLEM:
        raise ValueError(f"--practice must be 0 to {MAX_PROBLEM}, not {practice}")
    sets, _ = page_sets(model, attentions, sentences, compare)
    # the small model trained here comes with every preset, or when asked for by its name
    trained = not sets and (not presets or FAMILY in presets)
    presets = [name for name in presets or () if name != FAMILY] or None
    entries = build_entries(presets, () if model else sentences)
    shown = model_params(sets, bank=True) if sets else {"source": source_of(entries[0])}
    shown.pop("attention_sets", None)  # the file carries every head: no Python to ask
    shown.pop("checkpoint", None)
    shown["models"] = shown.get("models", []) + (training_entries(TRAINED_SENTENCE, bank=True)[0] if trained else [])
    if lesson is not None:
        for stop in lesson["stops"]:
            missing = _not_carried(stop["shows"], entries, shown["models"], practice)
            if missing:
                raise ValueError(f"the lesson's stop {stop['title']!r} shows {missing}")
        shown["lesson"] = lesson
    if scorm is not None:  # a SCORM package's page (app/scorm.py): its lesson walked alone, reported to the LMS
        shown.update(scorm=scorm, mode="self")
    view = AttentionView(sentences=entries, lang=lang, strings=file_strings(), url_sync=True, lab=False, practice_bank=practice_bank(practice, one_blob=resources == "inline"),
                         trained=False, **shown)
    if resources == "inline":
        page = standalone_html(view, lang, csp_safe)
    else:
        buffer = io.StringIO()
        view.save(buffer, resources=CDN, title=text("app_title", lang))
        page = make_deterministic(buffer.getvalue())
    data = page.encode("utf-8")
    Path(out).write_bytes(data)
    return len(data)
