"""The exporter without a browser: deterministic files, what they load, and bad arguments."""
import base64
import hashlib
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from app.export import make_deterministic
from support import ROOT, cli_command, run_export, run_together


def test_export_is_deterministic(tmp_path):
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    # two separate processes (run side by side): nothing of one run can leak into the other
    for done in run_together(*(cli_command("export", out, "--preset", "cat-fish", "--sentence", "한 번 더")
                               for out in (first, second))):
        assert done.returncode == 0, done.stderr
    assert hashlib.sha256(first.read_bytes()).digest() == hashlib.sha256(second.read_bytes()).digest()


def test_inline_file_names_no_remote_stylesheet_or_script(exported):
    html = exported.read_text(encoding="utf-8")
    assert not re.search(r"<script[^>]*\ssrc=\"https?://", html)
    assert not re.search(r"<link[^>]*\shref=\"https?://", html)
    assert not re.search(r"https://cdn\.holoviz\.org/panel/[^\"']+\.css", html)


def test_the_files_one_inline_script_is_the_loader_and_the_explorer_travels_deflated(exported):
    from app import client
    from app.export import page_script
    html = exported.read_text(encoding="utf-8")
    inline = re.findall(r"<script type=\"module\">(.*?)</script>", html, re.S)
    # the loader alone: the client is not in the clear
    assert len(inline) == 1 and len(inline[0]) < 2_000 and "DecompressionStream" in inline[0]
    script = page_script(html)
    assert script == client.STANDALONE.read_text(encoding="utf-8")  # the client and standalone.js, bundled
    assert re.search(r"export\{\w+ as start\};?\s*$", script)
    deflated = base64.b64decode(json.loads(re.search(r'id="ae-state">(.*?)</script>', html, re.S).group(1))["script"])
    assert len(script) > 2 * len(deflated)  # inflated: the script travels at a third of its size



def test_cdn_file_is_small_and_loads_bokeh_from_the_cdn(tmp_path):
    out = tmp_path / "small.html"
    run_export(out, "--resources", "cdn", "--preset", "meet-friend", "--practice", "0")
    html = out.read_text(encoding="utf-8")
    # the client (182 kB minified), its strings in two languages and its constants: 403 kB with the
    # lens grid and the masked-word card; Bokeh inline alone is over 1 MB
    assert out.stat().st_size < 410_000
    assert 'src="https://cdn.bokeh.org/bokeh/release/bokeh-' in html


def test_export_rejects_an_unknown_preset_with_a_message(tmp_path):
    result = subprocess.run([sys.executable, "-m", "app.cli", "export", str(tmp_path / "x.html"), "--preset", "nope"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and "unknown preset 'nope'" in result.stderr
    assert not (tmp_path / "x.html").exists()


def test_make_deterministic_sorts_sets_and_names_uuids_by_content():
    first = ('{"id":"1b9a2c3d-0000-4000-8000-00000000000a","type":"set","entries":["b","a"],'
             '"ref":"1b9a2c3d-0000-4000-8000-00000000000a","other":"2b9a2c3d-0000-4000-8000-00000000000b"}')
    second = first.replace("1b9a2c3d", "9f9f9f9f").replace("2b9a2c3d", "8e8e8e8e").replace('["b","a"]', '["a","b"]')
    out = make_deterministic(first)
    assert out == make_deterministic(second)
    assert '"entries":["a","b"]' in out
    ids = re.findall(r"ae-\d+-[0-9a-f]{12}", out)
    assert ids[0] == ids[1] != ids[2] and ids[0].startswith("ae-1-") and ids[2].startswith("ae-2-")


def test_the_cdn_export_is_byte_identical_across_processes_and_hash_seeds(tmp_path):
    # one process per hash seed, side by side
    processes = [subprocess.Popen(cli_command("export", tmp_path / f"cdn-{seed}.html", "--resources", "cdn", "--preset", "cat-fish"),
                                  cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for seed in ("1", "2")]
    for process in processes:
        _, stderr = process.communicate()
        assert process.returncode == 0, stderr
    outs = [(tmp_path / f"cdn-{seed}.html").read_bytes() for seed in ("1", "2")]
    assert outs[0] == outs[1]
    assert not re.search(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", outs[0])


def test_shared_values_are_stored_once_and_put_back_exactly():
    from app.export import share_repeats, unshare
    layout = {"weights/1": {"axes": ["scale", "causal", "head", "query", "key"], "offset": 0, "shape": [2, 2, 1, 3, 3]}}
    state = {"bank": [{"cube": {"layout": layout, "data": "x" * 40, "select": {"problem": i}}} for i in range(3)],
             "short": ["a", "a"], "other": [layout["weights/1"]["axes"], 1]}
    shared, table = share_repeats(state)
    text = json.dumps([shared, table])
    assert text.count('"scale"') == 1 and text.count("x" * 40) == 1 and text.count('"a"') == 2  # too short to share
    assert unshare(shared, table) == state
    with pytest.raises(ValueError, match=r"\$shared"):
        share_repeats({"$shared": 1})


def test_the_inline_file_holds_the_practice_problems_numbers_once(tmp_path):
    from app.export import page_state
    from app.sentences import practice_entry
    from attention_core import decode_payload
    out = tmp_path / "ten.html"
    run_export(out, "--preset", "cat-fish", "--practice", "10")
    page = out.read_text(encoding="utf-8")
    bank = page_state(page)["practice_bank"]
    blob = bank[0]["cube"]["data"]
    assert len({entry["cube"]["data"] for entry in bank}) == 1 and page.count(blob) == 1
    for entry in (bank[0], bank[6]):   # each entry selects its own problem: the served entry's numbers
        alone = decode_payload(practice_entry(entry["practice"]["number"])["cube"])
        for name, values in decode_payload(entry["cube"]).items():
            kept = tuple(slice(0, size) for size in alone[name].shape)  # a row with fewer slips is padded
            np.testing.assert_array_equal(values[kept], alone[name], err_msg=name)


def test_the_packed_state_keeps_each_blob_apart_and_unpacks_to_what_was_packed():
    from app.export import pack, share_repeats, unpack, unshare
    blob = "eNoz" + "A" * 60
    state = {"sentences": [{"cube": {"encoding": "zlib-base64", "data": blob, "layout": {}}, "titles": {"ko": "가"}}] * 2,
             "other": {"cube": {"encoding": "zlib-base64", "data": "eNoz" + "B" * 10}}, "words": "나는 " * 30}
    shared, table = share_repeats(state)
    packed = pack(json.loads(json.dumps(shared)), json.loads(json.dumps(table)), "p { color: red }")
    assert sorted(packed["blobs"]) == sorted([blob, "eNoz" + "B" * 10])  # each once, outside the deflated part
    assert blob not in packed["packed"]
    found = unpack(packed)
    assert found["css"] == "p { color: red }" and unshare(found["state"], found["shared"]) == state


def test_the_file_with_every_preset_the_practice_problems_and_the_trained_model_is_within_its_budget(tmp_path):
    from app.export import export_html, page_state
    out = tmp_path / "all.html"
    size = export_html(out)
    assert size <= 300_000, f"{size:,} bytes: over the 300,000-byte budget (bench/export_size.py names the parts)"
    models = page_state(out.read_text(encoding="utf-8"))["models"]
    # every step travels for the last training step; before it, the weights alone, and the page says why
    last = models[-1]
    assert last["bank_steps"] and any(entry["model_head"]["steps"] for entry in last["bank"])
    for model in models[:-1]:
        assert model["bank_steps"] is False and model["in_file"]
        assert not any(entry["model_head"]["steps"] for entry in model["bank"]) and len(model["bank"]) == len(last["bank"])


def test_export_help_states_each_files_size_as_it_is(tmp_path):
    """`export --help` says about how large the inline page and the --resources cdn page are: each
    figure is the measured size, to the digits it gives."""
    help_text = " ".join(subprocess.run([sys.executable, "-m", "app.cli", "export", "--help"], cwd=ROOT,
                                        capture_output=True, text=True, check=True).stdout.split())
    inline_said, cdn_said = (float(found) for found in re.findall(r"about (\d+\.\d+) MB", help_text)[:2])
    inline, cdn = tmp_path / "inline.html", tmp_path / "cdn.html"
    run_export(inline)
    run_export(cdn, "--resources", "cdn")
    assert abs(inline.stat().st_size / 1e6 - inline_said) <= 0.005 + 0.01, (inline.stat().st_size, inline_said)
    assert abs(cdn.stat().st_size / 1e6 - cdn_said) <= 0.05 + 0.05, (cdn.stat().st_size, cdn_said)
