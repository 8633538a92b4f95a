"""The browser client: static/'s ES modules bundled by esbuild into the one ES module that Panel's
`_esm`, the notebook and the exported file load (Panel loads `_esm` from a Blob URL, where relative
imports do not resolve).

esbuild is a real bundler (ES modules in, one script out, source maps), pinned in
bundler/package-lock.json and installed by `make test` (scripts/ensure-esbuild.sh). It writes two
files, committed so that running the app and exporting need no Node:

- BUNDLE and its CHUNKS: static/explorer/served.js and what it imports, minified and split by
  esbuild (--splitting): what the first screen needs in BUNDLE, each module the page loads on
  first use (`import()`: a room, …) in a chunk beside it, which the served page fetches by URL
  (AttentionView._js lists them for Panel's own route). BUNDLE's one export is `render` (Panel calls `render({model, el})`).
- NOTEBOOK: the same client in one module (a notebook, and the Panel page `export --resources cdn`
  writes, get its text and run it from a blob: URL, where no chunk could be fetched).
- STANDALONE: static/standalone.js (the stand-in for the Panel model) and the client, minified.
  Its one export is `start`, which an exported file's loader calls (app/export.py packs it).

scripts/bundle.py writes them again after a change in static/ (tests/app/test_client.py builds
them and fails while they differ); `scripts/bundle.py --dev` also writes their source maps beside
them (not committed), to read a minified position back as file and line. `attention-viz serve
--dev` (Panel's autoreload) builds the client for every page, unminified and with an inline
source map, where esbuild is installed, and serves BUNDLE as committed where it is not.
"""
from __future__ import annotations

import base64
import json
import logging
import subprocess
from functools import lru_cache
from pathlib import Path

import rcssmin

ENTRY = "served.js"
#: esbuild as bundler/ installs it beside app/ in a checkout (an installed wheel has none: it
#: serves and exports the committed builds)
ESBUILD = Path(__file__).resolve().parent.parent / "bundler" / "node_modules" / ".bin" / "esbuild"
# options of every build: one ES module for browsers; no target, so the syntax stays as written
# (the client already runs as it is in the browsers it supports); −, ∞, × and the like as UTF-8
# rather than \u escapes (shorter); esbuild's warnings reported, and taken as failures (_esbuild)
_OPTIONS = ("--bundle", "--format=esm", "--platform=browser", "--charset=utf8", "--color=false", "--log-level=warning")
_MAP_COMMENT = "//# sourceMappingURL=data:application/json;base64,"

log = logging.getLogger(__name__)


class ClientError(ValueError):
    """static/'s modules that esbuild refused (or warned about): its message names file, line and column."""


def static_dir() -> Path:
    """The browser code: `static/` beside `app/` in a checkout (or an editable install), mapped
    into the package as `app/static/` in a wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "static", here.parent / "static"):
        if (candidate / "explorer" / ENTRY).is_file():
            return candidate
    raise FileNotFoundError(f"the browser client (static/explorer/{ENTRY}) is missing beside {here}")


def client_dir() -> Path:
    """The folder of the client's ES modules."""
    return static_dir() / "explorer"


def stylesheet() -> str:
    """The client's CSS."""
    return (static_dir() / "explorer.css").read_text(encoding="utf-8")


#: the served component's bundle: Panel serves a component's `<class>.bundle.js` beside its module
#: over HTTP (gzipped, and revalidated rather than fetched again on a reload) instead of sending
#: the module's text in every session's first websocket frame (bench/first_load.py); the chunks it
#: imports on first use lie beside it (CHUNK_GLOB)
BUNDLE = Path(__file__).with_name("AttentionView.bundle.js")
#: BUNDLE's chunks, named by esbuild from their content (CHUNK_NAMES)
CHUNK_GLOB = "AttentionView.chunk-*.js"
CHUNK_NAMES = "AttentionView.chunk-[hash]"
#: where BUNDLE imports its chunks from, relative to its own URL: Panel serves BUNDLE at
#: components/<module>/AttentionView/_bundle_path/<name> and the files a component lists in `_js`
#: (which only templates otherwise read) at …/AttentionView/_js/<name> (panel.io.server
#: ComponentResourceHandler), so a chunk imports another from the same relative path
CHUNK_PATH = "../_js"
#: the client in one module, for a page that gets the module's text (a notebook, export --resources cdn)
NOTEBOOK = Path(__file__).with_name("notebook.bundle.js")
#: the exported file's script: the client and static/standalone.js, which starts it with no server
STANDALONE = Path(__file__).with_name("standalone.bundle.js")


def chunks() -> list[Path]:
    """BUNDLE's chunks as committed beside it."""
    return sorted(BUNDLE.parent.glob(CHUNK_GLOB))


def entries() -> dict[Path, Path]:
    """Each committed one-module build and the module it starts from (BUNDLE, split, apart)."""
    return {NOTEBOOK: client_dir() / ENTRY, STANDALONE: static_dir() / "standalone.js"}


def esbuild_installed() -> bool:
    """Whether bundler/ has esbuild (scripts/ensure-esbuild.sh), so that static/ can be built here."""
    return ESBUILD.is_file()


def _esbuild(entry: Path, *options: str) -> str:
    if not esbuild_installed():
        raise FileNotFoundError(f"esbuild is not installed at {ESBUILD}: run scripts/ensure-esbuild.sh (needs npm)")
    # run from the folder above static/, so that a message or a map names static/explorer/<file>
    run = subprocess.run([str(ESBUILD), str(entry.resolve()), *_OPTIONS, *options],
                         cwd=static_dir().parent, capture_output=True, encoding="utf-8", timeout=120)
    if run.returncode != 0 or run.stderr.strip():
        raise ClientError(f"esbuild could not bundle {entry.name} cleanly:\n{run.stderr.strip()}")
    return run.stdout


def build(entry: Path, *, dev: bool = False) -> str:
    """`entry` and every module it imports as one ES module, by esbuild: minified (what BUNDLE and
    STANDALONE hold) or, dev, unminified with an inline source map (Panel's autoreload).

    Raises ClientError where esbuild fails or warns (a missing file or export, a syntax error…),
    FileNotFoundError where it is not installed."""
    return _esbuild(entry, "--sourcemap=inline" if dev else "--minify")


def build_split(*, maps: bool = False) -> dict[str, str]:
    """BUNDLE and its chunks as esbuild splits the served entry: file name → text (minified), with
    each one's source map beside it (<name>.map) where `maps`. The entry is BUNDLE's name; every
    module imported with `import()` and the code such modules share are chunks (CHUNK_NAMES)."""
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        _esbuild(client_dir() / ENTRY, "--minify", "--splitting", f"--outdir={out}", f"--entry-names={BUNDLE.stem}",
                 f"--chunk-names={CHUNK_NAMES}", f"--public-path={CHUNK_PATH}", *(["--sourcemap"] if maps else []))
        return {path.name: path.read_text(encoding="utf-8") for path in sorted(Path(out).iterdir())}


def build_with_map(entry: Path) -> tuple[str, dict]:
    """The minified build and its source map (scripts/bundle.py --dev, tests, bench/click_cost.py):
    the script is build(entry)'s, byte for byte; the map names its sources from the folder above
    static/ (static/explorer/<file>) and carries their text."""
    # an inline map is the one way to get a map on stdout: esbuild appends it as the last line
    script, _, encoded = _esbuild(entry, "--minify", "--sourcemap=inline").rpartition(_MAP_COMMENT)
    return script, json.loads(base64.b64decode(encoded))


def dev_bundle() -> str:
    """What Panel's autoreload loads: the client as static/ has it now, where esbuild is installed;
    else the committed NOTEBOOK (a change in static/ then shows once scripts/bundle.py has run)."""
    if esbuild_installed():
        return build(client_dir() / ENTRY, dev=True)
    _say_without_esbuild()
    return NOTEBOOK.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _say_without_esbuild() -> None:
    """Once a process, not on every page."""
    log.warning("esbuild is not installed (scripts/ensure-esbuild.sh): serving the committed %s, "
                "without the changes in static/explorer/", NOTEBOOK.name)


#: the client's stylesheet, minified, beside the bundle: a served page links it (Panel serves a
#: component's stylesheet file over HTTP, gzipped and revalidated on a reload) instead of carrying
#: it in every session's first websocket frame; a notebook and an exported file get its text. Not
#: named <bundle>.css: Panel would link that one too, beside _stylesheets, in a served page only.
STYLESHEET = Path(__file__).with_name("AttentionView.min.css")


def stylesheet_text() -> str:
    """What STYLESHEET holds: static/explorer.css without comments and spaces (rcssmin)."""
    return rcssmin.cssmin(stylesheet())


def write_bundle(maps: bool = False) -> list[Path]:
    """Write BUNDLE and its chunks, NOTEBOOK, STANDALONE and STYLESHEET again where out of date
    (scripts/bundle.py, after a change in static/; a test fails while they are), removing the
    chunks no build has any more; with maps, each build's source map beside it (<build>.map, not
    committed). The files it wrote or removed."""
    texts = {STYLESHEET: stylesheet_text()}
    for name, text in build_split(maps=maps).items():
        texts[BUNDLE.with_name(name)] = text
    for path, entry in entries().items():
        if maps:
            texts[path], source_map = build_with_map(entry)
            source_map["sourceRoot"] = "../"  # the map sits in app/, its sources are named from the folder above
            texts[path.with_name(path.name + ".map")] = json.dumps(source_map, ensure_ascii=False)
        else:
            texts[path] = build(entry)
    wrote = []
    for path in chunks():
        if path not in texts:
            path.unlink()
            wrote.append(path)
    for path, text in texts.items():
        if not (path.is_file() and path.read_text(encoding="utf-8") == text):
            path.write_text(text, encoding="utf-8")
            wrote.append(path)
    return wrote
