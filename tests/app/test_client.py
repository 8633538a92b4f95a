"""The browser client without a browser: how static/'s modules are assembled, the strings the
JavaScript asks for and the catalogs they come from, the constants both sides share, and that a
wheel carries the client and the catalogs."""
import json
import re
import shutil
import subprocess
import sys
import zipfile

import pytest
from panel.config import config

from app import AttentionView
from app.client import ClientError, assemble, client_dir, static_dir
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


def node_import(folder, module: str, then: str) -> str:
    """What `then` prints once node has imported `module` (ES module text) as `module`."""
    path = folder / "assembled.mjs"
    path.write_text(module, encoding="utf-8")
    script = f"const module = await import({json.dumps(path.as_uri())});\n{then}"
    run = subprocess.run([NODE, "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_assembled_client_has_every_module_in_its_own_function_after_its_imports_and_exports_only_render():
    module = assemble()
    assert not re.search(r"^import ", module, re.M)
    assert re.findall(r"^export .*", module, re.M) == ["export { render };"]
    position = {}
    for name in JS:
        assert f'// ---- static/explorer/{name} ----\n__modules["{name}"] = (() => {{' in module
        position[name] = module.index(f"// ---- static/explorer/{name} ----")
    for name, text in JS.items():
        for source in re.findall(r'^import \{[^}]*\} from "\./([\w-]+\.js)";$', text, re.M):
            assert position[source] < position[name], (source, name)


def test_a_files_line_keeps_its_number_inside_its_function():
    lines = assemble().splitlines()
    for name, text in JS.items():
        opening = lines.index(f'__modules["{name}"] = (() => {{') if f'__modules["{name}"] = (() => {{' in lines else \
            next(i for i, line in enumerate(lines) if line.startswith(f'__modules["{name}"] = (() => {{ const'))
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.startswith(("import", "export")):  # a comment's line is empty (the next test)
                assert lines[opening + number] == ("" if line.lstrip().startswith("//") else line), (name, number)


@needs_node
def test_the_assembled_client_is_valid_javascript_and_so_is_the_exported_files_script(tmp_path):
    client = assemble()
    standalone = (static_dir() / "standalone.js").read_text(encoding="utf-8")
    loader = (static_dir() / "loader.js").read_text(encoding="utf-8")
    for name, text in {"client.mjs": client, "exported.mjs": client + "\n" + standalone, "loader.mjs": loader}.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        check = subprocess.run([NODE, "--check", str(tmp_path / name)], capture_output=True, text=True, timeout=60)
        assert check.returncode == 0, (name, check.stderr)


@needs_node
def test_the_served_bundle_is_the_client_assembled_and_minified_and_up_to_date(tmp_path, monkeypatch):
    from app import client
    monkeypatch.setattr(config, "autoreload", False)
    on_disk = client.BUNDLE.read_text(encoding="utf-8")
    assert on_disk == client.minified(assemble()), "static/explorer/ changed: run scripts/bundle.py"
    assert len(on_disk) < 0.9 * len(assemble())
    assert node_import(tmp_path, on_disk, "console.log(JSON.stringify(Object.keys(module)), typeof module.render)") \
        == '["render"] function'
    # a notebook gets the bundle's text; a served session, its address (Panel serves the file)
    assert AttentionView._esm_path() == client.BUNDLE and AttentionView._render_esm(True, server=False) == on_disk
    # the stylesheet beside it: static/explorer.css minified, and what a notebook's view carries
    css = client.STYLESHEET.read_text(encoding="utf-8")
    assert css == client.stylesheet_text(), "static/explorer.css changed: run scripts/bundle.py"
    assert len(css) < 0.85 * len(client.stylesheet()) and ".ae-root" in css and "/*" not in css
    assert css in AttentionView().get_root().stylesheets


@needs_node
def test_the_assembled_client_runs_every_module_and_exports_only_render(tmp_path):
    assert node_import(tmp_path, assemble(), "console.log(JSON.stringify(Object.keys(module)), typeof module.render)") \
        == '["render"] function'


@needs_node
def test_two_modules_may_declare_the_same_name_and_each_uses_its_own(tmp_path):
    folder = write_modules(tmp_path / "explorer", {
        "explorer.js": 'import { a } from "./a.js";\nimport { b } from "./b.js";\n'
                       'const shared = "entry";\nexport function render() { return [a(), b(), shared].join(" "); }',
        "a.js": 'const shared = "a";\nexport function a() { return shared; }',
        "b.js": 'function shared() { return "b"; }\nexport function b() { return shared(); }'})
    assert node_import(tmp_path, assemble(folder), "console.log(module.render())") == "a b entry"


@needs_node
def test_every_supported_import_and_export_form_reaches_the_importer(tmp_path):
    folder = write_modules(tmp_path / "explorer", {
        "explorer.js": 'import { one, two as second, Three, step } from "./forms.js";\n'
                       "import {\n  counted,\n  listed as renamed,\n  kept,\n} from \"./forms.js\";\n"
                       "const important = 8;\n"
                       "export function render() {\n"
                       "  return [one, second(), new Three().n, counted, renamed, kept, step(), important].join(\" \");\n}",
        "forms.js": "export const one = f(1, 2);\nfunction f(x, y) { return x + y; }\n"
                    "export async function two() {}\nexport class Three { constructor() { this.n = 3; } }\n"
                    "export let counted = 0;\ncounted += 4;\n"
                    "const listed = 5, kept = 6;\nexport { listed, kept };\n"
                    'import { next as step } from "./gen.js";\nexport { step };',  # an import passed on
        "gen.js": "export function* numbers() { yield 7; }\nconst it = numbers();\n"
                  "function next() { return it.next().value; }\nexport {\n  next,\n};"})
    assert node_import(tmp_path, assemble(folder), "console.log(module.render())") == "3 [object Promise] 3 4 5 6 7 8"


@pytest.mark.parametrize("files, message", [
    ({"explorer.js": 'import { a } from "./a.js";\nexport function render() {}',
      "a.js": "export function a() {}\nfunction shared() {}", "b.js": "function shared() {}"},
     "static/explorer: b.js is imported by no module"),
    ({"explorer.js": 'import { a } from "./a.js";\nimport { missing as gone } from "./a.js";\nexport function render() {}',
      "a.js": "export function a() {}"},
     "static/explorer/explorer.js:2 imports missing from ./a.js, which does not export it"),
    ({"explorer.js": '// the entry\nimport * as a from "./a.js";\nexport function render() {}', "a.js": "export function a() {}"},
     "static/explorer/explorer.js:2: write imports as import { a, b as c }"),
    ({"explorer.js": 'import { a } from "./a.js";\nexport function render() {}',
      "a.js": 'import { render } from "./explorer.js";\nexport function a() {}'},
     "static/explorer/a.js:1: modules import each other in a circle: explorer.js -> a.js -> explorer.js"),
    ({"explorer.js": "export default function render() {}"}, "static/explorer/explorer.js:1: export a declaration"),
    ({"explorer.js": 'import { a } from "./gone.js";\nexport function render() {}'},
     "static/explorer/explorer.js:1 imports ./gone.js, which does not exist"),
    ({"explorer.js": "export const first = f(1, 2), second = 3;\nexport function render() {}"},
     "static/explorer/explorer.js:1: export one name per export const"),
    ({"explorer.js": "export let [first, second] = pair;\nexport function render() {}"},
     "static/explorer/explorer.js:1: export one name per export let"),
    ({"explorer.js": 'export function render() {}\nexport { a } from "./a.js";', "a.js": "export function a() {}"},
     "static/explorer/explorer.js:2: export a list as export { a, b as c }; (no re-export from a file)"),
    ({"explorer.js": "export function render() {}\nexport { helpr };\nfunction helper() {}"},
     "static/explorer/explorer.js:2: exports helpr, which it does not declare"),
    ({"explorer.js": "function render() {}\nexport { render as draw };"},
     "static/explorer/explorer.js must export render"),
    ({"explorer.js": "export function render() {}\nexport { render };"},
     "static/explorer/explorer.js:2: render is exported twice"),
    ({"explorer.js": 'import { a } from "./a.js";\nimport { b as a } from "./a.js";\nexport function render() {}',
      "a.js": "export function a() {}\nexport function b() {}"},
     "static/explorer/explorer.js:2: a is imported twice"),
    ({"explorer.js": "export function render() {}\nconst __modules = 1;"},
     "static/explorer/explorer.js:2: __modules is the assembler's name"),
])
def test_the_assembler_refuses_what_it_cannot_assemble_naming_file_and_line(tmp_path, files, message):
    with pytest.raises(ClientError, match=re.escape(message)):
        assemble(write_modules(tmp_path, files))


def test_dev_mode_watches_the_client_folder_and_reassembles_on_every_page(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "autoreload", True)
    assert AttentionView._esm_path(compiled=False) == client_dir()
    assert AttentionView._render_esm() == assemble()
    monkeypatch.setattr("app.client.client_dir",
                        lambda: write_modules(tmp_path, {"explorer.js": 'export function render() { return "edited"; }'}))
    assert 'function render() { return "edited"; }' in AttentionView._render_esm()
    monkeypatch.setattr(config, "autoreload", False)
    assert AttentionView._esm_path(compiled=False) is None


def _js_keys() -> set[str]:
    """String keys the JavaScript asks for by name: t("key"), titledView("key", …), note("key", …),
    notify("key", …), and texts([[node, "key"], …])."""
    patterns = [r'\b(?:t|titledView|note|notify|showError)\("([a-z0-9_]+)"', r'\[\w+, "([a-z0-9_]+)"\]']
    return {key for text in JS.values() for pattern in patterns for key in re.findall(pattern, text)}


def _error_codes() -> set[str]:
    """Every error code Python can send the browser: InputError codes, the lab's grid codes, the
    protocol's refusals and the rooms' (room_<code>)."""
    codes = set()
    for text in PYTHON.values():
        codes |= set(re.findall(r'InputError\(\s*"([a-z_]+)"', text)) | set(re.findall(r'\bgrid\(\s*"([a-z_]+)"', text))
        codes |= set(re.findall(r'Refused\(\s*"([a-z_]+)"', text))
        codes |= {f"room_{code}" for code in re.findall(r'RoomError\(\s*"([a-z_]+)"', text)}  # err_room_<code>
    # refusals the page words otherwise: each bad cell by its own code, a missing problem as notice_practice
    return codes - {"cells", "practice"}


#: the states a page can be in in a room (static/explorer/room.js statusOf; room-status data-state, - as _)
ROOM_STATES = ("following", "exploring", "lecturer_away", "closed", "reconnecting", "lecturing")


def _dynamic_keys() -> set[str]:
    """Keys built from a code: err_<code>, step_name_<i>, role_<role>, origin_<origin>,
    poly_component_<component>, poll_outcome_<outcome>, poll_choice_<what_if> (JavaScript),
    practice_row_<row>, hint_<slip>, practice_hint_<slip> and practice_recheck_<row> (Python and
    JavaScript)."""
    from app.constants import OUTCOMES, WHAT_IF
    from attention_core import order, polysemy, practice
    from attention_core.answer import SLIPS
    from attention_core.roles import ROLES
    client = "\n".join(JS.values())
    assert all(f"t(`{prefix}${{" in client for prefix in ("err_", "step_name_", "role_", "origin_", "poly_component_",
                                                               "order_component_", "poll_outcome_", "poll_choice_",
                                                               "room_status_"))
    assert all(f"`{prefix}${{" in client for prefix in ("practice_row_", "practice_hint_", "practice_recheck_"))
    return ({f"err_{code}" for code in _error_codes()} | {f"step_name_{i}" for i in range(STEPS)}
            | {f"role_{role}" for role in (*ROLES, "predicate")} | {f"hint_{slip}" for slip in SLIPS}
            | {f"origin_{origin}" for origin in ("rules", "hash", "practice")}
            | {f"practice_hint_{slip}" for slip in practice.SLIPS}
            | {f"poly_component_{name}" for name in polysemy.COMPONENTS}
            | {f"order_component_{name}" for name in order.COMPONENTS}
            | {f"poll_outcome_{name}" for name in OUTCOMES} | {f"poll_choice_{name}" for name in WHAT_IF}
            | {f"room_status_{state}" for state in ROOM_STATES}
            | {f"{prefix}_{row}" for row in practice.ROWS for prefix in ("practice_recheck", "practice_row")})


def test_every_string_the_javascript_asks_for_exists_in_every_language():
    keys = _js_keys()
    assert len(keys) > 50  # the scan finds the client's strings
    keys |= _dynamic_keys()
    for lang in LANGUAGES:
        assert sorted(keys - STRINGS[lang].keys()) == [], lang


def _python_literals() -> set[str]:
    return {key for text in PYTHON.values() for key in re.findall(r'["\']([a-z0-9_]+)["\']', text)}


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
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "*.egg-info", "screenshots", "__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(tmp_path), str(source)],
                   check=True, capture_output=True, text=True)
    wheel = next(tmp_path.glob("attention_explorer-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "app/static/explorer.css" in names and "app/static/standalone.js" in names and "app/static/loader.js" in names
    assert "app/AttentionView.bundle.js" in names and "app/AttentionView.min.css" in names
    assert {f"app/static/explorer/{name}" for name in JS} <= set(names)
    assert {f"attention_core/locales/{lang}.json" for lang in LANGUAGES} <= set(names)
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    found = subprocess.run([sys.executable, "-c", "from app.client import static_dir, assemble; print(static_dir()); assemble(); "
                            "from attention_core.words import text; assert text('app_title', 'en') == 'Attention Explorer'"],
                           cwd=tmp_path, env={"PYTHONPATH": str(installed)}, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == str(installed / "app" / "static")


def test_comment_lines_travel_as_empty_lines_but_not_inside_a_template_literal(tmp_path):
    (tmp_path / "explorer.js").write_text(
        "// dropped, with an odd ` backtick\n"
        "const STYLE = `a {\n"
        "// not a comment: CSS text\n"
        "}`;\n"
        "  // indented, dropped too\n"
        "export function render() { return STYLE; }\n", encoding="utf-8")
    assembled = assemble(tmp_path)
    assert "dropped" not in assembled
    assert "`a {\n// not a comment: CSS text\n}`" in assembled
