"""The entry on show is a typed source, {kind, name} (app/kinds.py): found in its kind's catalog
only, refused (with the last good one kept) when its kind or name names no entry; `preset=<name>`
still opens one, and `preset` still reads its name."""
import pytest

from app import AttentionExplorer, AttentionView
from app.kinds import SOURCE_KINDS, entry_of, source_of, source_problem
from app.sentences import preset_entries, sentence_entry
from attention_core import PRESETS
from support import ask

CAT = {"kind": "preset", "name": "cat-fish"}
TRAINED = {"kind": "trained", "name": "trained-2000"}


def test_a_preset_keyword_opens_its_entry_as_a_typed_source_and_preset_reads_its_name():
    view = AttentionView(preset="cat-fish")
    assert view.source == CAT and view.preset == "cat-fish" and view.query == PRESETS["cat-fish"].default_query
    assert AttentionView(preset="trained-2000").source == TRAINED
    assert AttentionExplorer(presets=["cat-fish"], preset="cat-fish").view.source == CAT
    assert AttentionView().source == {"kind": "preset", "name": "meet-friend"}
    assert AttentionView(source=TRAINED).preset == "trained-2000"
    with pytest.raises(AttributeError):
        view.preset = "meet-friend"  # read-only: `source` is what is set
    with pytest.raises(ValueError, match="unknown preset 'nope'"):
        AttentionView(preset="nope")


@pytest.mark.parametrize("source, words", [
    ({"kind": "bogus", "name": "cat-fish"}, "unknown kind 'bogus'"),
    ({"kind": "model", "name": "cat-fish"}, "no model entry named 'cat-fish' among the models on offer (there is a preset"),
    ({"kind": "preset", "name": "trained-2000"}, "no preset entry named 'trained-2000' among the sentences on offer (there is a trained"),
    ({"kind": "sentence", "name": "cat-fish"}, "no sentence entry named 'cat-fish'"),
    ({"kind": "preset", "name": "nope"}, "no preset entry named 'nope'"),
    ({"name": "cat-fish"}, "exactly 'kind' and 'name'"),
    ({"kind": "preset", "name": "cat-fish", "query": 1}, "exactly 'kind' and 'name'"),
    ({"kind": "preset", "name": ""}, "1 to 200 characters"),
    ("cat-fish", "exactly 'kind' and 'name'"),
])
def test_a_source_of_an_unknown_or_wrong_kind_or_name_is_refused_and_the_last_good_one_stays(source, words):
    view = AttentionView(preset="cat-fish")
    with pytest.raises(ValueError, match="source .*" + words.replace("(", r"\(")):
        view.source = source
    assert view.source == CAT and view.preset == "cat-fish"
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        AttentionView(source=source)


def test_a_sentence_named_like_a_model_is_found_among_the_sentences_and_the_model_among_the_models():
    twin = sentence_entry(PRESETS["cat-fish"], name="trained-2000", kind="sentence")
    view = AttentionView(sentences=[twin] + preset_entries(), source={"kind": "sentence", "name": "trained-2000"})
    assert view.source == {"kind": "sentence", "name": "trained-2000"} and view.preset == "trained-2000"
    # the sentence of that name on show: a typed sentence is the toy sentence, not the model's
    assert view.apply_sentence("하나 둘 셋") and view.source == {"kind": "sentence", "name": "custom"}
    # the model of that name on show: the typed sentence goes through the model
    view.source = TRAINED
    assert view.apply_sentence("나는 어제 카페에서 커피를 마셨다")
    assert view.source == {"kind": "trained", "name": "trained-own-2000"}
    assert entry_of({"kind": "sentence", "name": "trained-2000"}, view.sentences, view.models) is twin
    assert entry_of(TRAINED, view.sentences, view.models)["kind"] == "trained"


def test_replies_and_python_s_own_requests_open_their_entry_as_a_source():
    view = AttentionView(preset="cat-fish")
    numbers = ask(view, {"type": "numbers", "tokens": ["a", "b"], "q": [["1", "0"], ["0", "1"]],
                         "k": [["1", "0"], ["0", "1"]], "v": [["1", "0"], ["0", "1"]]})
    assert numbers["view"]["source"] == {"kind": "numbers", "name": "numbers"} == source_of(numbers["entries"][0])
    view.source = numbers["view"]["source"]  # the page adopts it: Python knows the entry its reply made
    assert view.current_preset().tokens == ("a", "b")
    assert view.open_practice(3) and view.source == {"kind": "practice", "name": view.sentences[-1]["name"]}
    assert view.open_head("trained-2000", 0, 1, True, True) and view.source == TRAINED
    assert not view.open_head("cat-fish", 0, 0, True, False) and view.source == TRAINED


def test_source_problem_accepts_every_kind_and_nothing_else():
    assert all(source_problem({"kind": kind, "name": "x"}) is None for kind in SOURCE_KINDS)
    assert source_problem({"kind": "head", "name": "m|0|0|10"})  # a head is shown through its model
    assert source_problem({"kind": "preset", "name": 5})
