"""The app without a browser: the component, the sentence entries it ships, the strings and the CLI."""
import json

import numpy as np
import pytest

from app import AttentionExplorer, AttentionView
from app.cli import build_parser
from app.sentences import preset_entries, sentence_entry
from app.strings import STRINGS, text
from attention_core import PRESETS, attention, decode_payload, head_counts


def test_every_ui_string_exists_in_both_languages():
    assert STRINGS["ko"].keys() == STRINGS["en"].keys()
    assert all(value.strip() for lang in STRINGS.values() for value in lang.values())


def test_strings_fill_placeholders():
    assert text("announce", "ko", query="만났다", key="친구를", weight="0.463") == "만났다 → 친구를 0.463"


def test_entries_cover_every_preset_and_are_computed_once_per_process():
    first, second = preset_entries(), preset_entries()
    assert [e["name"] for e in first] == list(PRESETS)
    assert all(a is b for a, b in zip(first, second))


def test_entries_are_json_and_hold_the_cores_weights():
    entry = sentence_entry(PRESETS["cat-fish"])
    entry = json.loads(json.dumps(entry))
    weights = decode_payload(entry["cube"])["weights/1"]
    core = attention(PRESETS["cat-fish"].q, PRESETS["cat-fish"].k, PRESETS["cat-fish"].v)
    assert np.array_equal(weights[1, 0], core.weights)
    assert entry["cube"]["blocks"]["1"]["sqrt_d_k"] == pytest.approx(np.sqrt(2))


def test_view_starts_on_the_presets_default_query():
    assert AttentionView(preset="cat-fish").query == 2
    assert AttentionView().preset == "meet-friend" and AttentionView().query == 4


@pytest.mark.parametrize("name, heads", [
    (name, h) for name, p in PRESETS.items() for h in head_counts(p.q.shape[1], p.v.shape[1])])
def test_every_preset_and_toggle_combination_builds_a_bokeh_model(name, heads):
    for scale in (True, False):
        for causal in (True, False):
            view = AttentionView(preset=name, heads=heads, scale=scale, causal=causal)
            model = view.get_root()
            assert model.data.preset == name and model.data.heads == heads
            assert model.data.scale is scale and model.data.causal is causal


def test_python_side_changes_reach_the_model():
    view = AttentionView()
    model = view.get_root()
    view.param.update(query=1, heads=4, lang="en")
    assert (model.data.query, model.data.heads, model.data.lang) == (1, 4, "en")


def test_notebook_explorer_wraps_one_view():
    explorer = AttentionExplorer(presets=["cat-fish"])
    assert explorer.__panel__() is explorer.view
    assert [e["name"] for e in explorer.view.sentences] == ["cat-fish"]


def test_cli_serve_options():
    args = build_parser().parse_args(["serve", "--port", "7000", "--address", "0.0.0.0", "--num-procs", "2",
                                      "--allow-websocket-origin", "a.example", "--allow-websocket-origin", "b:80"])
    assert (args.port, args.address, args.num_procs) == (7000, "0.0.0.0", 2)
    assert args.allow_websocket_origin == ["a.example", "b:80"]
