"""The app without a browser: the component, the sentence entries it ships, the strings and the CLI."""
import json

import numpy as np
import pytest

from app import AttentionExplorer, AttentionView
from app.cli import build_parser
from app.sentences import preset_entries, sentence_entry
from app.strings import STRINGS, text
from attention_core import PRESETS, attention, decode_payload


def test_every_ui_string_exists_in_both_languages():
    assert STRINGS["ko"].keys() == STRINGS["en"].keys()
    forms = [form for lang in STRINGS.values() for value in lang.values()
             for form in ([value] if isinstance(value, str) else value.values())]
    assert len(forms) > 2 * len(STRINGS["ko"]) and all(form.strip() for form in forms)


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


def test_notebook_explorer_wraps_one_view():
    explorer = AttentionExplorer(presets=["cat-fish"])
    assert explorer.__panel__() is explorer.view
    assert [e["name"] for e in explorer.view.sentences] == ["cat-fish"]


def test_cli_serve_options():
    args = build_parser().parse_args(["serve", "--port", "7000", "--address", "0.0.0.0", "--num-procs", "2",
                                      "--allow-websocket-origin", "a.example", "--allow-websocket-origin", "b:80"])
    assert (args.port, args.address, args.num_procs) == (7000, "0.0.0.0", 2)
    assert args.allow_websocket_origin == ["a.example", "b:80"]


HOSTILE_MESSAGES = [
    None, 5, "text", [], {"type": 3}, {"type": "numbers", "tokens": 5},
    {"type": "numbers", "tokens": ["a"] * 200_000, "q": [["1"]] * 200_000, "k": [], "v": []},
    {"type": "numbers", "tokens": ["a", "b"], "q": [["1", "2"], ["1"]], "k": [["1"], ["1"]], "v": [["1"], ["1"]]},
    {"type": "numbers", "tokens": ["a", "b"], "q": "xx", "k": None, "v": {}},
    {"type": "sentence", "text": {"x": 1}}, {"type": "sentence", "text": None, "query": "0"},
    {"type": "check", "text": ["junk"]}, {"type": "check"},
]


@pytest.mark.parametrize("message", HOSTILE_MESSAGES)
def test_malformed_messages_from_the_browser_never_raise_and_keep_the_view(message):
    view = AttentionView(preset="cat-fish")
    view._handle_msg(message)
    assert view.preset == "cat-fish" and view.query == 2


def test_a_grid_larger_than_the_limits_is_refused_before_parsing():
    view = AttentionView()
    view._handle_msg({"type": "numbers", "tokens": ["a"] * 25, "q": [["x"]] * 25, "k": [["x"]] * 25, "v": [["x"]] * 25})
    assert [e["code"] for e in view.grid_errors] == ["too_many_rows"]


def test_a_boolean_query_is_not_a_token_number():
    view = AttentionView()
    view.apply_sentence("하나 둘 셋", query=True)
    assert view.query == 2


def test_answers_are_checked_against_the_sentence_on_show():
    view = AttentionView()
    view.apply_sentence("하나 둘 셋")
    view.apply_numbers(["a", "b"], [["1", "0"], ["0", "1"]], [["1", "0"], ["0", "1"]], [["1", "0"], ["0", "1"]])
    view.param.update(preset="custom", query=2)
    from attention_core import custom_preset
    own = custom_preset("하나 둘 셋")
    truth = attention(own.q, own.k, own.v).output[0, 2]
    verdict = view.check(", ".join(f"{x:.3f}" for x in truth))
    assert verdict["status"] == "correct" and verdict["preset"] == "custom"


def test_a_check_for_a_view_that_does_not_exist_is_invalid_not_an_error():
    view = AttentionView(preset="cat-fish")
    view.param.update(query=99)
    assert view.check("1, 2")["key"] == "err_view"
    view.param.update(query=0, heads=4)  # 4 heads do not divide d = 2
    assert view.check("1, 2")["key"] == "err_view"


def test_a_notebook_check_with_a_head_view_past_the_heads_checks_head_1_as_the_page_shows():
    view = AttentionView(preset="cat-fish", query=2)
    view.param.update(head_view=1)  # one head: the page shows head 1 (all heads)
    assert view.check("0.214, 0.977")["status"] == "correct"


def test_an_answer_for_a_view_the_page_has_left_is_invalid_and_says_which_view():
    view = AttentionView(preset="cat-fish", query=2)
    verdict = view.check("0.214, 0.977", view={"preset": "meet-friend", "query": 2, "heads": 1, "head": 0,
                                                "scale": True, "causal": False, "all_heads": False})
    assert verdict["key"] == "err_view" and verdict["preset"] == "meet-friend"


def test_from_numbers_checks_answers_on_those_numbers():
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    explorer = AttentionExplorer.from_numbers(["a", "b"], q, q, q)
    truth = attention(q, q, q).output[0, 1]
    assert explorer.view.check(f"{truth[0]:.3f} {truth[1]:.3f}")["status"] == "correct"
    assert q.flags.writeable
