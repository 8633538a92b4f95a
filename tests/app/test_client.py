"""The browser client without a browser: the bundles esbuild makes of static/'s modules, the
strings the JavaScript asks for and the catalogs they come from, the constants both sides share,
and that a wheel carries the client and the catalogs."""
import json
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from panel.config import config

from app import AttentionView, client
from app.client import ClientError, build, build_with_map, client_dir, static_dir
from app.constants import CONSTANTS, LANGUAGES, STEPS
from app.strings import STRINGS
from attention_core.words import catalog
from support import ROOT

JS = {path.name: path.read_text(encoding="utf-8") for path in sorted(client_dir().glob("*.js"))}
# the Python that names string keys (not the string table itself, which names them all)
PYTHON = {path: path.read_text(encoding="utf-8") for path in [*ROOT.glob("app/*.py"), *ROOT.glob("attention_core/*.py")]
          if path.name != "strings.py"}


def write_modules(folder, files: dict[str, str]):
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


NODE = shutil.which("node")
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (make test installs Debian's nodejs)")
needs_esbuild = pytest.mark.skipif(not client.esbuild_installed(), reason="esbuild is not installed in bundler/ "
                                   "(make test installs it: scripts/ensure-esbuild.sh)")


def node_run(folder, module: str, then: str) -> str:
    """What `then` (an ES module's code, which may read `text`, the module as written) prints once
    node has imported `module` (ES module text) as `module`."""
    path = folder / "bundled.mjs"
    path.write_text(module, encoding="utf-8")
    script = (f"const module = await import({json.dumps(path.as_uri())});\n"
              f"const text = (await import('node:fs')).readFileSync({json.dumps(str(path))}, 'utf8');\n{then}")
    run = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


@needs_esbuild
def test_the_committed_bundles_are_esbuilds_build_of_static_byte_for_byte():
    for path, entry in client.entries().items():
        fresh = build(entry)
        assert path.read_text(encoding="utf-8") == fresh, f"static/ changed: run scripts/bundle.py ({path.name})"
        assert build(entry) == fresh  # esbuild's output is deterministic: the same files, the same bytes
    # the served bundle and its chunks: exactly the files a split build writes, no chunk left over
    split = client.build_split()
    assert {client.BUNDLE.name, *(path.name for path in client.chunks())} == set(split), "run scripts/bundle.py"
    for name, text in split.items():
        assert client.BUNDLE.with_name(name).read_text(encoding="utf-8") == text, f"run scripts/bundle.py ({name})"
    assert client.build_split() == split
    # Panel serves each chunk as one of the component's _js files, where the bundle imports it from
    assert AttentionView._js == [path.name for path in client.chunks()] and AttentionView._js
    assert client.STYLESHEET.read_text(encoding="utf-8") == client.stylesheet_text(), \
        "static/explorer.css changed: run scripts/bundle.py"


@needs_node
def test_the_served_bundle_exports_only_render_and_the_exported_files_script_only_start(tmp_path, monkeypatch):
    monkeypatch.setattr(config, "autoreload", False)
    on_disk = client.BUNDLE.read_text(encoding="utf-8")
    # minified: well under half the modules as written
    assert len(on_disk) < 0.5 * sum(len(text.encode("utf-8")) for text in JS.values())
    keys = "console.log(JSON.stringify(Object.keys(module)), typeof Object.values(module)[0])"
    assert 'import("../_js/AttentionView.chunk-' in on_disk  # what loads on first use
    assert node_run(tmp_path, client.STANDALONE.read_text(encoding="utf-8"), keys) == '["start"] function'
    assert node_run(tmp_path, client.NOTEBOOK.read_text(encoding="utf-8"), keys) == '["render"] function'
    # a notebook gets the client in one module (it runs from a blob:, where no chunk resolves); a
    # served session, the split bundle's address (Panel serves the file and its chunks)
    assert AttentionView._esm_path() == client.BUNDLE
    assert AttentionView._render_esm(True, server=False) == client.NOTEBOOK.read_text(encoding="utf-8")
    assert "import(" not in client.NOTEBOOK.read_text(encoding="utf-8")
    assert AttentionView._render_esm(True, server=True).endswith("/_bundle_path/AttentionView.bundle.js")
    # the stylesheet beside it: static/explorer.css minified, and what a notebook's view carries
    css = client.STYLESHEET.read_text(encoding="utf-8")
    assert len(css) < 0.85 * len(client.stylesheet()) and ".ae-root" in css and "/*" not in css
    assert css in AttentionView().get_root().stylesheets


@needs_node
def test_the_exported_files_loader_is_valid_javascript(tmp_path):
    (tmp_path / "loader.mjs").write_text((static_dir() / "loader.js").read_text(encoding="utf-8"), encoding="utf-8")
    check = subprocess.run([NODE, "--check", str(tmp_path / "loader.mjs")], capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stderr


@needs_esbuild
@needs_node
def test_the_source_map_reads_a_minified_position_back_as_file_and_line(tmp_path):
    script, source_map = build_with_map(client_dir() / client.ENTRY)
    assert script == client.NOTEBOOK.read_text(encoding="utf-8")  # the map is the committed one-module build's
    # every module is in a bundle, the served page's or the exported file's (the file's own:
    # scorm.js, room_offline.js): none is left that nothing imports
    _, file_map = build_with_map(client.entries()[client.STANDALONE])
    modules = set(source_map["sources"]) | set(file_map["sources"]) - {"static/standalone.js"}
    assert sorted(modules) == sorted(f"static/explorer/{name}" for name in JS)
    assert "static/explorer/scorm.js" not in source_map["sources"]  # never on a served page
    (tmp_path / "bundle.map").write_text(json.dumps(source_map), encoding="utf-8")
    # where the bundle declares what it exports as render, read back by Node's own source-map reader
    found = node_run(tmp_path, script, f"""
        import {{ SourceMap }} from "node:module";
        import {{ readFileSync }} from "node:fs";
        const map = new SourceMap(JSON.parse(readFileSync({json.dumps(str(tmp_path / "bundle.map"))}, "utf8")));
        const name = text.match(/export\\{{([\\w$]+) as render\\}}/)[1];  // a minified name may hold $
        const before = text.slice(0, text.indexOf(`function ${{name}}(`) + "function ".length).split("\\n");
        const entry = map.findEntry(before.length - 1, before.at(-1).length);
        console.log(entry.originalSource, entry.originalLine + 1, entry.name);""")
    line = next(number for number, text in enumerate(JS[client.ENTRY].splitlines(), start=1)
                if text.startswith("export function render("))
    assert found == f"static/explorer/{client.ENTRY} {line} render"


@needs_esbuild
@needs_node
def test_two_modules_may_declare_the_same_name_and_each_uses_its_own(tmp_path):
    folder = write_modules(tmp_path / "explorer", {
        "explorer.js": 'import { a } from "./a.js";\nimport { b } from "./b.js";\n'
                       'const shared = "entry";\nexport function render() { return [a(), b(), shared].join(" "); }',
        "a.js": 'const shared = "a";\nexport function a() { return shared; }',
        "b.js": 'function shared() { return "b"; }\nexport function b() { return shared(); }'})
    assert node_run(tmp_path, build(folder / "explorer.js"), "console.log(module.render())") == "a b entry"


@needs_esbuild
@pytest.mark.parametrize("files, message", [
    ({"explorer.js": 'import { a } from "./a.js";\nimport { missing } from "./a.js";\n'
                     "export function render() { return [a, missing]; }",
      "a.js": "export function a() {}"},
     r'\[ERROR\] No matching export in "[^"]*a\.js" for import "missing"(?s:.*)explorer\.js:2:\d+:'),
    ({"explorer.js": 'import { a } from "./gone.js";\nexport function render() {}'},
     r'\[ERROR\] Could not resolve "\./gone\.js"(?s:.*)explorer\.js:1:\d+:'),
    ({"explorer.js": "export function render() {\n  return 1 +;\n}"},
     r"\[ERROR\] Unexpected(?s:.*)explorer\.js:2:\d+:"),
    # a warning fails the build too: each of esbuild's is a likely bug
    ({"explorer.js": "export function render(x) {\n  return x === -0;\n}"},
     r"\[WARNING\] Comparison with -0(?s:.*)explorer\.js:2:\d+:"),
])
def test_esbuilds_refusal_names_file_and_line(tmp_path, files, message):
    folder = write_modules(tmp_path / "explorer", files)
    with pytest.raises(ClientError, match=message):
        build(folder / "explorer.js")


@needs_esbuild
def test_dev_mode_watches_the_client_folder_and_builds_it_again_for_every_page(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "autoreload", True)
    assert AttentionView._esm_path(compiled=False) == client_dir()
    dev = AttentionView._render_esm()
    # readable, and mapped back to static/'s files by an inline source map
    assert re.search(r"\nexport \{\n  render\d* as render\n\};\n|\nexport \{\n  render\n\};\n", dev)
    assert "//# sourceMappingURL=data:application/json;base64," in dev
    edited = write_modules(tmp_path / "explorer", {client.ENTRY: 'export function render() { return "edited"; }'})
    monkeypatch.setattr("app.client.client_dir", lambda: edited)
    assert 'return "edited";' in AttentionView._render_esm()
    # without esbuild, the committed bundle (static/'s changes show once scripts/bundle.py has run)
    monkeypatch.setattr("app.client.ESBUILD", tmp_path / "no-esbuild")
    assert AttentionView._render_esm() == client.NOTEBOOK.read_text(encoding="utf-8")
    monkeypatch.setattr(config, "autoreload", False)
    assert AttentionView._esm_path(compiled=False) is None


def _js_keys() -> set[str]:
    """String keys the JavaScript asks for by name: t("key"), titledView("key", …), note("key", …),
    notify("key", …), texts([[node, "key"], …]), and a value a notice translates ({key: "key", values})."""
    patterns = [r'\b(?:t|titledView|note|notify|showError)\("([a-z0-9_]+)"', r'\[\w+, "([a-z0-9_]+)"\]',
                r'\{key: "([a-z0-9_]+)"']
    return {key for text in JS.values() for pattern in patterns for key in re.findall(pattern, text)}


def _error_codes() -> set[str]:
    """Every error code Python can send the browser: InputError codes, the lab's grid codes, the
    protocol's refusals, a model's (ModelError, PredictionError), the rooms' (room_<code>) and a
    lesson's problems (lesson_<code>)."""
    codes = set()
    for text in PYTHON.values():
        codes |= set(re.findall(r'InputError\(\s*"([a-z_]+)"', text)) | set(re.findall(r'\bgrid\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'Refused\(\s*"([a-z_]+)"', text))
        # a ModelError's or PredictionError's code: the argument after its message's literals
        codes |= set(re.findall(r'(?:Model|Prediction)Error\(\s*(?:f?"[^"]*"\s*)+,\s*"([a-z_]+)"', text))
        codes |= {f"room_{code}" for code in re.findall(r'RoomError\(\s*"([a-z_]+)"', text)}  # err_room_<code>
        codes |= {f"lesson_{code}" for code in re.findall(r'LessonError\(\s*"([a-z_]+)"', text)}  # err_lesson_<code>
    # refusals the page words otherwise: each bad cell by its own code, a missing problem as notice_practice
    return codes - {"cells", "practice"}


#: the states a page can be in in a room (static/explorer/room.js statusOf; room-status data-state, - as _)
ROOM_STATES = ("following", "exploring", "lecturer_away", "closed", "reconnecting", "lecturing")


def _dynamic_keys() -> set[str]:
    """Keys built from a code: err_<code>, step_name_<i>, role_<role>, origin_<origin>,
    poly_component_<component>, poll_outcome_<outcome>, poll_choice_<what_if> (JavaScript),
    practice_row_<row>, hint_<slip>, hint_parts_at_<part>, practice_hint_<slip> and
    practice_recheck_<row> (Python and JavaScript)."""
    from app.constants import OUTCOMES, WHAT_IF
    from attention_core import order, polysemy, practice
    from attention_core.answer import SLIPS, UNNAMED_PARTS
    from attention_core.roles import ROLES
    client = "\n".join(JS.values())
    assert all(f"t(`{prefix}${{" in client for prefix in ("err_", "step_name_", "role_", "origin_", "poly_component_",
                                                               "order_component_", "poll_outcome_", "poll_choice_",
                                                               "room_status_"))
    assert all(f"`{prefix}${{" in client for prefix in ("practice_row_", "practice_hint_", "practice_recheck_",
                                                          "err_lesson_", "err_room_", "hint_parts_at_", "lesson_card_"))
    from app.lessons import CARDS
    return ({f"err_{code}" for code in _error_codes()} | {f"step_name_{i}" for i in range(STEPS)}
            | {f"role_{role}" for role in (*ROLES, "predicate")} | {f"hint_{slip}" for slip in SLIPS}
            | {f"hint_parts_at_{part}" for part in UNNAMED_PARTS.values()}
            | {f"origin_{origin}" for origin in ("rules", "hash", "practice")}
            | {f"practice_hint_{slip}" for slip in practice.SLIPS}
            | {f"poly_component_{name}" for name in polysemy.COMPONENTS}
            | {f"order_component_{name}" for name in order.COMPONENTS}
            | {f"poll_outcome_{name}" for name in OUTCOMES} | {f"poll_choice_{name}" for name in WHAT_IF}
            | {f"room_status_{state}" for state in ROOM_STATES} | {f"lesson_card_{name}" for name in CARDS}
            | {f"{prefix}_{row}" for row in practice.ROWS for prefix in ("practice_recheck", "practice_row")})


def test_every_string_the_javascript_asks_for_exists_in_every_language():
    keys = _js_keys()
    assert len(keys) > 50  # the scan finds the client's strings
    keys |= _dynamic_keys()
    for lang in LANGUAGES:
        assert sorted(keys - STRINGS[lang].keys()) == [], lang


def _python_literals() -> set[str]:
    return {key for text in PYTHON.values() for key in re.findall(r'["\']([a-z0-9_]+)["\']', text)}


def test_only_the_served_cards_ask_for_the_words_an_exported_file_leaves_out():
    """An exported file's words lack the served-only ones (app.strings.SERVED_ONLY): the next-token
    card's, which only the modules static/explorer/served.js adds ask for (the file's bundle has none
    of them), and a room server's refusals, but for what a file says instead (FILE_SAYS: room_offline.js)."""
    from app import client
    from app.strings import FILE_SAYS, SERVED_ONLY, file_strings

    card = SERVED_ONLY[0]
    asking = {path.name for path in (ROOT / "static" / "explorer").glob("*.js")
              if re.search(r'\bt\(\s*["\']' + card, path.read_text(encoding="utf-8"))}
    assert asking == {"next_token.js"}
    assert "next_token.js" in (ROOT / "static" / "explorer" / "served.js").read_text(encoding="utf-8")
    assert not re.search(r'["\']' + card + r'[a-z_]+["\']', client.STANDALONE.read_text(encoding="utf-8"))
    offline = set(re.findall(r'"(err_room_[a-z_]+)"', (ROOT / "static" / "explorer" / "room_offline.js").read_text(encoding="utf-8")))
    assert offline and offline <= FILE_SAYS
    from app.strings import served_keys
    for lang, table in file_strings().items():
        assert table and FILE_SAYS <= set(table)
        assert set(STRINGS[lang]) - set(table) == {key for key in STRINGS[lang]
                                                   if (key.startswith(SERVED_ONLY) or key in served_keys()) and key not in FILE_SAYS}
    # the words of writing a lesson travel only to a served page: the file's bundle has no authoring
    assert {"lesson_add_stop", "lesson_check_ok", "lesson_outline_label"} <= served_keys()
    standalone = client.STANDALONE.read_text(encoding="utf-8")
    assert '"lesson-author"' not in standalone and '"lesson-outline"' not in standalone
    assert not served_keys() & {"lesson_next", "lesson_prev", "lesson_handout", "lesson_predict_submit", "step_stage_caption"}


def test_every_string_in_the_table_is_used():
    unused = set(STRINGS["ko"]) - _js_keys() - _dynamic_keys() - _python_literals()
    assert sorted(unused) == []


#: titles the lead's rewrite of app/explorer.py will look up (it still writes them in place)


def test_every_word_of_the_other_sections_is_used():
    """The worksheet's words and the entries' titles are looked up by key in Python; the presets'
    words by preset name; the roles' by role."""
    from attention_core.presets import PRESETS
    from attention_core.roles import ROLES
    ko = catalog("ko")
    assert sorted((set(ko["worksheet"]) | set(ko["titles"])) - _python_literals()) == []
    assert set(ko["presets"]) == set(PRESETS)
    assert set(ko["roles"]["caption"]) == set(ko["roles"]["split"]) == set(ROLES)


def test_the_page_gets_the_ui_section_of_every_catalog_with_its_plural_values():
    assert tuple(STRINGS) == LANGUAGES
    assert STRINGS["en"]["rest_keys"] == {"one": "The other {count} key carries {weight}",
                                          "other": "The other {count} keys carry {weight}"}
    assert STRINGS["ko"]["app_title"] == catalog("ko")["ui"]["app_title"] == "어텐션 탐색기"
    assert json.loads(json.dumps(STRINGS)) == STRINGS  # plain JSON for the param


def test_param_bounds_come_from_the_shared_constants():
    params = AttentionView.param
    assert params.heads.objects == CONSTANTS["head_choices"]
    assert params.head_view.bounds == (-1, max(CONSTANTS["head_choices"]) - 1)
    assert params.step.bounds == (-1, CONSTANTS["steps"] - 1)
    assert params.lang.objects == CONSTANTS["languages"] and params.mode.objects == CONSTANTS["modes"]


def test_the_javascript_holds_no_copy_of_a_python_constant():
    client = "\n".join(JS.values())
    for copied in ['"ko"', '"en"', '=== "custom"', '=== "numbers"', '["custom"', "STEPS", "max_d = ", "[1, 2, 4, 8]",
                   "causal === 1", "{step}/6"]:
        assert copied not in client, copied


def test_a_wheel_carries_the_client_and_finds_it_inside_the_package(tmp_path):
    source = tmp_path / "source"  # a copy, so that no build/ folder is left in (or taken from) the checkout
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "*.egg-info", "screenshots", "__pycache__",
                                                                "node_modules"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path), str(source)],
                   check=True, capture_output=True, text=True)
    wheel = next(tmp_path.glob("attention_explorer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "app/static/explorer.css" in names and "app/static/standalone.js" in names and "app/static/loader.js" in names
    assert {"app/AttentionView.bundle.js", "app/notebook.bundle.js", "app/standalone.bundle.js", "app/AttentionView.min.css",
            *(f"app/{path.name}" for path in client.chunks())} <= set(names)
    assert {f"app/static/explorer/{name}" for name in JS} <= set(names)
    assert {f"attention_core/locales/{lang}.json" for lang in LANGUAGES} <= set(names)
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    # an installed wheel has no esbuild: it serves and exports the committed bundles
    check = ("from app.client import BUNDLE, STANDALONE, esbuild_installed, static_dir; print(static_dir()); "
             "assert BUNDLE.is_file() and STANDALONE.is_file() and not esbuild_installed(); "
             "from attention_core.words import text; assert text('app_title', 'en') == 'Attention Explorer'")
    found = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, env={"PYTHONPATH": str(installed)},
                           capture_output=True, text=True, check=True)
    assert found.stdout.strip() == str(installed / "app" / "static")


def test_the_first_screen_loads_the_bundle_and_one_chunk():
    """The served page's first load fetches BUNDLE and the chunks it imports statically, a request
    each (bench/first_load.py: headers and gzip's start, ~400 bytes a file). The modules the first
    screen shares with those loaded on first use travel as one chunk: each of the latter imports
    static/explorer/first_screen.js, which names them (without it, esbuild made eight)."""
    from app import client

    def static_chunks(text):
        return set(re.findall(r'(?:^|[;}])\s*import\s*(?:\{[^}]*\}\s*from\s*)?"\.\./_js/(AttentionView\.chunk-[A-Z0-9]+\.js)"', text))

    loaded, todo = set(), static_chunks(client.BUNDLE.read_text(encoding="utf-8"))
    while todo:
        name = todo.pop()
        loaded.add(name)
        todo |= static_chunks((client.BUNDLE.parent / name).read_text(encoding="utf-8")) - loaded
    assert len(loaded) == 1, sorted(loaded)
    lazy = set(re.findall(r'import\("\./([a-z_]+\.js)"\)', "".join(path.read_text(encoding="utf-8")
                                                                 for path in client.client_dir().glob("*.js"))))
    for module in sorted(lazy):
        assert 'import "./first_screen.js";' in (client.client_dir() / module).read_text(encoding="utf-8"), module
