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
from app.client import ClientError, assemble, client_dir
from app.constants import CONSTANTS, LANGUAGES, STEPS
from app.strings import STRINGS
from attention_core.words import catalog
from support import ROOT

JS = {path.name: path.read_text(encoding="utf-8") for path in sorted(client_dir().glob("*.js"))}
# the Python that names string keys (not the string table itself, which names them all)
PYTHON = {path: path.read_text(encoding="utf-8") for path in [*ROOT.glob("app/*.py"), *ROOT.glob("attention_core/*.py")]
          if path.name != "strings.py"}


def write_modules(folder, files: dict[str, str]):
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_assembled_client_has_every_module_no_imports_and_exports_only_render():
    module = assemble()
    assert not re.search(r"^import ", module, re.M)
    assert re.findall(r"^export .*", module, re.M) == ["export function render({ model }) {"]
    for name in JS:
        assert f"// ---- static/explorer/{name} ----" in module
    # each module comes after the ones it imports
    position = {name: module.index(f"// ---- static/explorer/{name} ----") for name in JS}
    for name, text in JS.items():
        for source in re.findall(r'^import \{[^}]*\} from "\./([\w-]+\.js)";$', text, re.M):
            assert position[source] < position[name], (source, name)


@pytest.mark.parametrize("files, message", [
    ({"explorer.js": 'import { a } from "./a.js";\nexport function render() {}',
      "a.js": "export function a() {}\nfunction shared() {}", "b.js": "function shared() {}"},
     "b.js is imported by no module"),
    ({"explorer.js": 'import { a } from "./a.js";\nimport { b } from "./b.js";\nfunction helper() {}\nexport function render() {}',
      "a.js": "export function a() {}\nfunction helper() {}", "b.js": "export function b() {}"},
     "helper is also declared in static/explorer/a.js"),
    ({"explorer.js": 'import { missing } from "./a.js";\nexport function render() {}', "a.js": "export function a() {}"},
     "imports missing from ./a.js, which does not export it"),
    ({"explorer.js": 'import * as a from "./a.js";\nexport function render() {}', "a.js": "export function a() {}"},
     "write imports as import { a, b }"),
    ({"explorer.js": 'import { a } from "./a.js";\nexport function render() {}',
      "a.js": 'import { render } from "./explorer.js";\nexport function a() {}'},
     "in a circle"),
    ({"explorer.js": "export default function render() {}"}, "export only declarations"),
    ({"explorer.js": 'import { a } from "./gone.js";\nexport function render() {}'}, "./gone.js, which does not exist"),
    ({"explorer.js": "const first = f(1, 2), second = 3;\nexport function render() {}"}, "one top-level name per statement"),
    ({"explorer.js": "const [first, second] = pair;\nexport function render() {}"}, "one top-level name per statement"),
])
def test_the_assembler_refuses_what_would_break_in_one_module(tmp_path, files, message):
    with pytest.raises(ClientError, match=re.escape(message)):
        assemble(write_modules(tmp_path, files))


def test_dev_mode_watches_the_client_folder_and_reassembles_on_every_page(monkeypatch, tmp_path):
    monkeypatch.setattr(config, "autoreload", True)
    assert AttentionView._esm_path(compiled=False) == client_dir()
    assert AttentionView._render_esm() == assemble()
    monkeypatch.setattr("app.client.client_dir", lambda: write_modules(tmp_path, {"explorer.js": "export function render() {}"}))
    assert "export function render() {}" in AttentionView._render_esm()
    monkeypatch.setattr(config, "autoreload", False)
    assert AttentionView._esm_path(compiled=False) is None


def _js_keys() -> set[str]:
    """String keys the JavaScript asks for by name: t("key"), titledView("key", …), note("key", …),
    notify("key", …), and texts([[node, "key"], …])."""
    patterns = [r'\b(?:t|titledView|note|notify)\("([a-z0-9_]+)"', r'\[\w+, "([a-z0-9_]+)"\]']
    return {key for text in JS.values() for pattern in patterns for key in re.findall(pattern, text)}


def _error_codes() -> set[str]:
    """Every error code Python can send the browser: InputError codes, and the lab's grid codes."""
    codes = set()
    for text in PYTHON.values():
        codes |= set(re.findall(r'InputError\(\s*"([a-z_]+)"', text)) | set(re.findall(r'\bgrid\(\s*"([a-z_]+)"', text))
    return codes


def _dynamic_keys() -> set[str]:
    """Keys built from a code: err_<code>, step_name_<i>, role_<role>, origin_<origin>,
    poly_component_<component> (JavaScript),
    practice_row_<row>, hint_<slip>, practice_hint_<slip> and practice_recheck_<row> (Python and
    JavaScript)."""
    from attention_core import order, polysemy, practice
    from attention_core.answer import SLIPS
    from attention_core.roles import ROLES
    client = "\n".join(JS.values())
    assert all(f"t(`{prefix}${{" in client for prefix in ("err_", "step_name_", "role_", "origin_", "poly_component_",
                                                               "order_component_"))
    assert all(f"`{prefix}${{" in client for prefix in ("practice_row_", "practice_hint_", "practice_recheck_"))
    return ({f"err_{code}" for code in _error_codes()} | {f"step_name_{i}" for i in range(STEPS)}
            | {f"role_{role}" for role in (*ROLES, "predicate")} | {f"hint_{slip}" for slip in SLIPS}
            | {f"origin_{origin}" for origin in ("rules", "hash", "practice")}
            | {f"practice_hint_{slip}" for slip in practice.SLIPS}
            | {f"poly_component_{name}" for name in polysemy.COMPONENTS}
            | {f"order_component_{name}" for name in order.COMPONENTS}
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
PENDING_TITLES = {"imported", "my_numbers_plain"}


def test_every_word_of_the_other_sections_is_used():
    """The worksheet's words and the entries' titles are looked up by key in Python; the presets'
    words by preset name; the roles' by role."""
    from attention_core.presets import PRESETS
    from attention_core.roles import ROLES
    ko = catalog("ko")
    assert sorted((set(ko["worksheet"]) | set(ko["titles"])) - PENDING_TITLES - _python_literals()) == []
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
    assert "app/static/explorer.css" in names and "app/static/standalone.js" in names
    assert {f"app/static/explorer/{name}" for name in JS} <= set(names)
    assert {f"attention_core/locales/{lang}.json" for lang in LANGUAGES} <= set(names)
    installed = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(installed)
    found = subprocess.run([sys.executable, "-c", "from app.client import static_dir, assemble; print(static_dir()); assemble(); "
                            "from attention_core.words import text; assert text('app_title', 'en') == 'Attention Explorer'"],
                           cwd=tmp_path, env={"PYTHONPATH": str(installed)}, capture_output=True, text=True, check=True)
    assert found.stdout.strip() == str(installed / "app" / "static")
