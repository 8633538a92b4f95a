"""The app without a browser: the component, the sentence entries it ships, the strings and the CLI."""
import base64
import json

import numpy as np
import pytest

from app import AttentionExplorer, AttentionView
from app.cli import build_parser
from app.constants import CONSTANTS, OWN_SENTENCE
from app.models import wired_entry
from app.sentences import preset_entries, sentence_entry
from app.strings import STRINGS, first_strings, text
from attention_core import DEFAULT_PRESET, PRESETS, attention, decode_payload
from support import ask


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
    {"type": 3}, {"type": "numbers", "tokens": 5},
    {"type": "numbers", "tokens": ["a"] * 200_000, "q": [["1"]] * 200_000, "k": [], "v": []},
    {"type": "numbers", "tokens": ["a", "b"], "q": [["1", "2"], ["1"]], "k": [["1"], ["1"]], "v": [["1"], ["1"]]},
    {"type": "numbers", "tokens": ["a", "b"], "q": "xx", "k": None, "v": {}},
    {"type": "sentence", "text": {"x": 1}}, {"type": "sentence", "text": None, "query": "0"},
    {"type": "check", "text": ["junk"]}, {"type": "check"}, {"type": "head", "model": "nope", "layer": 0, "head": 0,
                                                             "merge": True, "special": False},
    {"type": "practice", "number": 10_000}, {"type": "practice", "number": "17; drop"}, {"type": 7},
]


@pytest.mark.parametrize("message", HOSTILE_MESSAGES)
def test_malformed_requests_from_the_browser_get_a_refusal_never_raise_and_keep_the_view(message):
    view = AttentionView(preset="cat-fish")
    before = (view.sentences, view.models)
    answer = ask(view, message)
    assert answer["id"] == 1 and answer["ok"] is False and answer["error"]["code"], answer
    assert view.preset == "cat-fish" and view.query == 2 and (view.sentences, view.models) == before


@pytest.mark.parametrize("message", [None, 5, "x", [], [1], {"type": "sentence", "text": "하나"},
                                     {"id": True, "type": "sentence", "text": "하나"},
                                     {"id": "x" * 65, "type": "sentence", "text": "하나"}, {"id": -1, "type": "head"}])
def test_a_message_without_a_usable_id_gets_no_reply_and_changes_nothing(message):
    view = AttentionView(preset="cat-fish")
    assert ask(view, message if not isinstance(message, dict) else {"id": None, **message}) is None
    assert view.preset == "cat-fish" and OWN_SENTENCE not in view._own


def test_each_request_gets_one_reply_with_its_id_the_entries_it_made_and_the_view_to_open():
    view = AttentionView(preset="cat-fish")
    answer = ask(view, {"id": "r-7", "type": "sentence", "text": "하나 둘 셋", "query": 1})
    assert answer["id"] == "r-7" and answer["type"] == "sentence" and answer["ok"] is True
    [entry] = answer["entries"]
    assert entry["kind"] == "sentence" and entry["name"] == OWN_SENTENCE and entry["typed"] and entry["text"] == "하나 둘 셋"
    assert answer["view"] == {"source": {"kind": "sentence", "name": OWN_SENTENCE}, "query": 1}
    # the page opens it: Python's params are the view the page asked for, not set by the request
    assert view.preset == "cat-fish" and view.current_preset().name == "cat-fish"
    view.source = answer["view"]["source"]
    assert view.current_preset().tokens == ("하나", "둘", "셋")


def test_a_served_page_gets_whole_only_the_entry_its_link_opens_and_the_others_on_request(monkeypatch):
    from app import explorer
    from app.kinds import travelling_later
    from app.server import linked_name
    assert linked_name({"preset": [b"cat-fish"]}) == "cat-fish"
    assert linked_name({"preset": [b"trained-0200"]}) == "trained-0200"
    assert linked_name({}) == DEFAULT_PRESET
    view = AttentionView(url_sync=True, numbers_for="cat-fish")
    sentences, models = json.loads(view.sentences_json), json.loads(view.models_json)
    assert {e["name"]: "later" in e for e in sentences} == {name: name != "cat-fish" for name in PRESETS}
    assert models and all(e["later"] for e in models)
    whole = preset_entries(["meet-friend"])[0]
    stub = next(e for e in sentences if e["name"] == "meet-friend")
    assert stub == travelling_later(whole) and stub["cube"]["data"] is None and "layout" not in stub["cube"]
    assert stub["cube"]["tokens"] == whole["cube"]["tokens"] and "captions" not in stub
    # Python keeps every entry whole: what it answers, and what a typed sentence goes through
    assert view.sentences == preset_entries()
    answer = ask(view, {"id": 3, "type": "entry", "kind": "preset", "name": "meet-friend"})
    assert answer["ok"] and answer["entries"] == [whole] and answer["view"] is None
    trained = view.models[-1]
    answer = ask(view, {"id": 4, "type": "entry", "kind": "trained", "name": trained["name"]})
    # its overview's packed pixels as bytes: the socket sends them as a binary frame
    assert answer["ok"] and answer["entries"] == [wired_entry(trained)] and "overview" in trained
    assert answer["entries"][0]["overview"]["data"] == base64.b64decode(trained["overview"]["data"])
    stub = next(e for e in models if e["name"] == trained["name"])
    assert stub == {**{k: trained[k] for k in ("kind", "name", "link", "titles", "source", "training")}, "later": True}
    for asked in ({"kind": "preset", "name": "custom"}, {"kind": "trained", "name": "meet-friend"}, {"kind": "x", "name": "y"}):
        refused = ask(view, {"id": 5, "type": "entry", **asked})
        assert not refused["ok"] and refused["error"] == {"code": "no_numbers", "values": {"name": asked["name"]}}
    # the link opens a model: that step travels whole, and the presets wait
    view = AttentionView(url_sync=True, numbers_for=trained["name"])
    models = json.loads(view.models_json)
    assert [e["name"] for e in models if "later" not in e] == [trained["name"]]
    assert all("later" in e for e in json.loads(view.sentences_json) if e["name"] != view.preset)
    # a sentence typed through the model, as its link names it: the model it goes through again
    view = AttentionView(url_sync=True, numbers_for=trained["typed_name"])
    assert [e["name"] for e in json.loads(view.models_json) if "later" not in e] == [trained["name"]]
    # a large model (a real one's overview) travels without its body even when the link opens it:
    # the page asks for it at once, and the reply carries its overview binary
    monkeypatch.setattr(explorer, "LINKED_MODEL_TEXT", len(json.dumps(trained)) - 1)
    view = AttentionView(url_sync=True, numbers_for=trained["name"])
    assert all(e["later"] for e in json.loads(view.models_json))
    # a link naming nothing on offer: the entry on show travels whole
    view = AttentionView(url_sync=True, numbers_for="nope")
    assert [e["name"] for e in json.loads(view.sentences_json) if "later" not in e] == [DEFAULT_PRESET]
    notebook = AttentionView()  # a notebook gets them all
    assert json.loads(notebook.sentences_json) == preset_entries() and json.loads(notebook.models_json) == notebook.models


def test_only_the_catalog_python_changed_is_written_again_for_the_page():
    view = AttentionView(url_sync=True, numbers_for=DEFAULT_PRESET)
    written = []
    view.param.watch(lambda event: written.append(event.name), [*view._catalogs.values()])
    view.lang = "en"
    assert written == ["strings_json"] and set(json.loads(view.strings_json)) == {"ko", "en"}


def test_a_grid_larger_than_the_limits_is_refused_before_parsing():
    view = AttentionView()
    answer = ask(view, {"type": "numbers", "tokens": ["a"] * 25, "q": [["x"]] * 25, "k": [["x"]] * 25, "v": [["x"]] * 25})
    assert answer["error"]["code"] == "cells" and [e["code"] for e in answer["error"]["cells"]] == ["too_many_rows"]


def test_a_boolean_query_is_not_a_token_number():
    view = AttentionView()
    view.apply_sentence("하나 둘 셋", query=True)
    assert view.query == 2


def test_answers_are_checked_against_the_sentence_on_show():
    view = AttentionView()
    view.apply_sentence("하나 둘 셋")
    view.apply_numbers(["a", "b"], [["1", "0"], ["0", "1"]], [["1", "0"], ["0", "1"]], [["1", "0"], ["0", "1"]])
    view.param.update(source={"kind": "sentence", "name": "custom"}, query=2)
    from attention_core import custom_preset
    own = custom_preset("하나 둘 셋")
    truth = attention(own.q, own.k, own.v).output[0, 2]
    verdict = view.check(", ".join(f"{x:.3f}" for x in truth))
    assert verdict["status"] == "correct" and verdict["source"] == {"kind": "sentence", "name": "custom"}


def test_a_notebook_check_credits_an_output_computed_from_the_students_own_weights():
    view = AttentionView(preset="cat-fish", query=2, checking=True)
    verdict = view.check("0.7, 0.5", weights="0.5, 0.3, 0.2")
    assert (verdict["status"], verdict["key"]) == ("carried", "answer_carried") and view.checking  # not the answer
    assert view.check("0.7, 0.5")["status"] == "wrong"


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
    shown = {"query": 2, "heads": 1, "head": 0, "scale": True, "causal": False, "all_heads": False}
    verdict = view.check("0.214, 0.977", view={"source": {"kind": "preset", "name": "meet-friend"}, **shown})
    assert verdict["key"] == "err_view" and verdict["source"] == {"kind": "preset", "name": "meet-friend"}
    # the same name of another kind is another view
    assert view.check("0.214, 0.977", view={"source": {"kind": "sentence", "name": "cat-fish"}, **shown})["key"] == "err_view"
    # a notebook's older view names the sentence on show by its `preset` name
    assert view.check("0.214, 0.977", view={"preset": "cat-fish", **shown})["status"] == "correct"
    assert view.check("0.214, 0.977", view={"preset": "meet-friend", **shown})["key"] == "err_view"


def test_from_numbers_checks_answers_on_those_numbers():
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    explorer = AttentionExplorer.from_numbers(["a", "b"], q, q, q)
    truth = attention(q, q, q).output[0, 1]
    assert explorer.view.check(f"{truth[0]:.3f} {truth[1]:.3f}")["status"] == "correct"
    assert q.flags.writeable


def test_a_page_that_lost_its_session_s_sentences_gets_them_back_and_a_model_sentence_goes_through_again():
    view = AttentionView(preset="trained-2000")
    assert ask(view, {"type": "restore"})["entries"] == []
    typed = ask(view, {"type": "sentence", "text": "나는 어제 카페에서 커피를 마셨다", "query": None, "model": "trained-2000"})
    own = ask(view, {"type": "sentence", "text": "하나 둘 셋", "query": None})
    restored = ask(view, {"type": "restore"})
    assert restored["view"] is None
    assert [e["name"] for e in restored["entries"]] == [e["name"] for e in typed["entries"] + own["entries"]]
    # a second sentence typed while the model's own sentence is on show goes through the model again
    again = ask(view, {"type": "sentence", "text": "할머니께서 어제 집에서 밥을 드셨다", "query": None,
                       "model": "trained-own-2000"})
    assert again["view"]["source"] == {"kind": "trained", "name": "trained-own-2000"}
    assert again["entries"][0]["text"].startswith("할머니께서")


def test_a_served_page_gets_the_words_of_its_language_and_the_others_when_it_switches():
    view = AttentionView(url_sync=True)
    assert list(view.strings) == ["ko"] and view.strings["ko"] == first_strings("ko") and view.rest_json is None
    view.lang = "en"
    assert list(view.strings) == ["ko", "en"] and view.strings["en"] == first_strings("en")
    assert list(AttentionView(lang="en", url_sync=True).strings) == ["en"]
    # a notebook's view gets every word of its language at once (no round trip through a kernel)
    notebook = AttentionView()
    assert notebook.strings == {"ko": STRINGS["ko"]} and notebook.rest_json == AttentionView._rest_text


def test_a_page_gets_the_first_screens_words_then_the_rest_when_it_asks():
    """The first words leave out what only modules loaded on first use name (a room's, a lesson's,
    the checker's) and every error's; asked for (rest_wanted), the page gets every word of its
    languages and the constants those modules read."""
    view = AttentionView(url_sync=True)
    first = view.strings["ko"]
    assert {"room_open", "lesson_start", "edit_numbers", "check"} <= set(first)   # what the first screen draws
    assert not {"hint_forgot_scale", "err_not_number", "qkv_title", "room_qr"} & set(first)  # on first use
    assert "checker" not in json.loads(AttentionView._constants["json"])
    view.rest_wanted = True
    assert view.strings == {"ko": STRINGS["ko"]}
    rest = json.loads(view.rest_json)["constants"]
    assert rest["checker"] == CONSTANTS["checker"] and "kinds" in rest["questions"]
    view.lang = "en"
    assert view.strings["en"] == STRINGS["en"]
    # a page given every word (an exported file, a notebook told so) has the rest already
    assert AttentionView(strings=STRINGS).rest_json == AttentionView._rest_text


def test_a_request_that_fails_inside_python_still_gets_its_one_reply(monkeypatch):
    view = AttentionView(preset="cat-fish")
    monkeypatch.setitem(view._requests, "practice", lambda number: 1 / 0)
    answer = ask(view, {"type": "practice", "number": 3})
    assert answer == {"id": 1, "type": "practice", "ok": False, "error": {"code": "internal", "values": {}}}


def test_the_page_receives_each_catalog_as_one_json_string_kept_in_step_with_python():
    from bokeh.document import Document
    view = AttentionView(preset="cat-fish")
    model = view.get_root(Document())
    data = model.data
    assert json.loads(data.sentences_json) == view.sentences and json.loads(data.models_json) == view.models
    assert json.loads(data.strings_json) == view.strings
    assert not hasattr(data, "sentences") and not hasattr(data, "models")  # the nested values are not sent
    view.sentences = preset_entries(["cat-fish"])  # a notebook changes what it offers: the page gets it
    assert [e["name"] for e in json.loads(model.data.sentences_json)] == ["cat-fish"]


def test_preset_trained_names_the_trained_model_at_its_last_step_and_a_served_link_gets_it_whole():
    assert AttentionView(preset="trained").source == {"kind": "trained", "name": "trained-2000"}
    served = AttentionView(url_sync=True, numbers_for="trained")
    whole = [m["name"] for m in json.loads(served.models_json) if not m.get("later")]
    assert whole == ["trained-2000"]


def test_a_request_carries_the_view_it_needs_and_python_reads_no_view_it_was_not_sent():
    view = AttentionView(preset="cat-fish")
    assert view.query == 2 and view.heads == 1
    cells = [["1", "0"], ["0", "1"]]
    # the student clicked token 0 and typed numbers before the pause wrote the query to Python
    answer = ask(view, {"type": "numbers", "tokens": ["a", "b"], "q": cells, "k": cells, "v": cells, "heads": 2, "query": 0})
    assert answer["ok"] and answer["view"]["query"] == 0, answer
    # … and the head count on the student's screen, not Python's (1): d = 2 does not split into 4 heads
    four = ask(view, {"type": "numbers", "tokens": ["a", "b"], "q": cells, "k": cells, "v": cells, "heads": 4, "query": 0})
    assert [cell["code"] for cell in four["error"]["cells"]] == ["d_heads"]
    # a page that leaves a view field out is refused naming it, not answered from Python's view
    refused = {}
    view._send_msg = refused.update
    view._handle_msg({"id": 2, "type": "numbers", "tokens": ["a", "b"], "q": cells, "k": cells, "v": cells, "heads": 1})
    assert refused["error"] == {"code": "bad_request", "values": {"field": "query"}}


def test_python_and_the_page_are_refused_alike_by_the_one_schema():
    view = AttentionView(preset="cat-fish")
    assert not view.apply_sentence(5) and view.refused == {"code": "bad_request", "values": {"field": "text"}}
    assert ask(view, {"type": "sentence", "text": 5})["error"] == view.refused
    assert not view.open_head("model-1", "0", 0, True, False) and view.refused == {"code": "bad_request", "values": {"field": "layer"}}
    assert not view.open_practice("17") and view.refused == {"code": "bad_request", "values": {"field": "number"}}
    assert view.preset == "cat-fish" and view.query == 2


def test_a_view_params_value_reads_alike_from_a_rooms_json_and_a_links_text():
    """app.view_params.param_value: one reader of the declared kinds, for a room's view (JSON values)
    and a lesson's view (a link's text); out of range, of another kind or not a choice is None."""
    from app.view_params import param_value, view_table

    rows = {row["name"]: row for row in view_table()}
    for name, json_value, text in (("scale", False, "0"), ("heads", 4, "4"), ("head_view", -1, "-1"), ("lang", "en", "en"),
                                   ("query", 12, "12"), ("step", 5, "5")):
        assert param_value(rows[name], json_value) == json_value == param_value(rows[name], text, written=True), name
    for name, json_value, text in (("scale", 1, "yes"), ("heads", 3, "3"), ("head_view", 8, "8"), ("lang", "fr", "fr"),
                                   ("query", -1, "-1"), ("step", True, "1.0"), ("heads", "4", "four")):
        assert param_value(rows[name], json_value) is None and param_value(rows[name], text, written=True) is None, name
