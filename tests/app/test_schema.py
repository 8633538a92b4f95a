"""Every entry and reply the app can make is of the one schema (docs/entries.schema.json), and the
page's type declarations (static/explorer/entries.d.ts) are the ones generated from it."""
import base64
import json

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from app import AttentionExplorer, AttentionView
from app.export import build_entries
from app.models import VIEWS, head_entry, model_entry
from app.kinds import travelling_later
from app.sentences import practice_entry, preset_entries
from app.trained_model import default_training_entries, training_entries
from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.heads import from_run
from support import ROOT, ask
from tiny_models import write_bert, write_gpt2

SCHEMA = json.loads((ROOT / "docs" / "entries.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
SENTENCE = "나는 어제 학교에서 친구를 만났다"


def valid(document, kind: str) -> None:
    """Fails naming the first place `document` leaves the schema's $defs/`kind`."""
    validator = Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{kind}"})
    errors = sorted(validator.iter_errors(json.loads(json.dumps(document))), key=lambda e: e.path)
    assert not errors, f"{kind}: {errors[0].message} at {list(errors[0].absolute_path)}"
    VALIDATOR.validate(json.loads(json.dumps(document)))  # and of the schema as a whole


def test_the_schema_is_a_valid_json_schema():
    Draft202012Validator.check_schema(SCHEMA)


def test_every_preset_practice_problem_and_exported_sentence_is_a_sentence_entry():
    for entry in preset_entries():
        valid(entry, "SentenceEntry")
        valid(travelling_later(entry), "LaterSentence")  # a served page's preset not on show
    for number in (1, 17, 100, 9999):
        valid(practice_entry(number), "SentenceEntry")
    for entry in build_entries(["cat-fish"], ["오늘 아침 우리는 책을 읽었다"]):
        valid(entry, "SentenceEntry")


def test_every_reply_of_every_request_is_a_reply_and_its_entries_are_entries():
    view = AttentionView(preset="cat-fish")
    cells = [["1", "0"], ["0", "1"]]
    requests = [
        {"type": "sentence", "text": "하나 둘 셋", "query": 1}, {"type": "sentence", "text": ""},
        {"type": "numbers", "tokens": ["a", "b"], "q": cells, "k": cells, "v": cells},
        {"type": "numbers", "tokens": ["a", "b"], "q": [["x", "0"], ["0", "1"]], "k": cells, "v": cells},
        {"type": "layer", "base": "cat-fish", "w_q": None, "w_k": None, "w_v": None},
        {"type": "practice", "number": 3}, {"type": "practice", "number": 0},
        {"type": "head", "model": "trained-2000", "layer": 1, "head": 2, "merge": True, "special": True},
        {"type": "head", "model": "trained-2000", "layer": 9, "head": 2, "merge": True, "special": True},
        {"type": "ablation", "model": "trained-2000", "layer": 1, "head": 2},
        {"type": "ablation", "model": "trained-2000", "layer": 1, "head": 99},
        {"type": "sentence", "text": "나는 어제 카페에서 커피를 마셨다", "query": None, "model": "trained-2000"},
        {"type": "cube", "name": "meet-friend"}, {"type": "cube", "name": "custom"},
        {"type": "unknown"},
    ]
    seen = set()
    for request in requests:
        answer = ask(view, request)
        # a model entry's overview bytes (a binary frame on the socket) as their JSON form, base64
        valid(json.loads(json.dumps(answer, default=lambda data: base64.b64encode(data).decode("ascii"))), "Reply")
        seen.add((answer["type"], answer["ok"]))
    assert {("sentence", True), ("sentence", False), ("numbers", True), ("numbers", False), ("layer", False),
            ("practice", True), ("practice", False), ("head", True), ("head", False), ("ablation", True),
            ("ablation", False)} <= seen


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    folders = {name: write(tmp_path_factory.mktemp(name)) for name, write in (("bert", write_bert), ("gpt2", write_gpt2))}
    return {name: from_run(name, *run_checkpoint(load_checkpoint(folder), SENTENCE)) for name, folder in folders.items()}


def test_every_model_and_every_head_in_every_token_view_is_of_the_schema(models):
    for name, aset in models.items():
        valid(model_entry(aset, name, {"ko": name, "en": name}, bank=True), "ModelEntry")
        valid(travelling_later(model_entry(aset, name, {"ko": name, "en": name})), "LaterModel")
        for code in VIEWS:
            valid(head_entry(aset, name, {"ko": name, "en": name}, 1, 0, code), "HeadEntry")
    for entry in default_training_entries()[0]:
        valid(entry, "ModelEntry")
        valid(travelling_later(entry), "LaterModel")  # a served page's model not on show
    typed, _ = training_entries("나는 어제 카페에서 커피를 마셨다", "trained-own")
    valid({**typed[0], "typed": True, "link": "text", "text": "나는 어제 카페에서 커피를 마셨다"}, "ModelEntry")
    rng = np.random.default_rng(1)
    weights = rng.dirichlet(np.ones(4), size=(2, 2, 4))
    imported = AttentionExplorer.from_attentions(list("abcd"), weights).view
    for entry in imported.models:
        valid(entry, "ModelEntry")


@pytest.mark.parametrize("change", [{"colour": "red"}, {"kind": "poem"}, {"link": "mail"}, {"default_query": -1}])
def test_the_schema_refuses_an_entry_with_a_key_or_value_it_does_not_know(change):
    entry = {**preset_entries()[0], **change}
    errors = list(Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/SentenceEntry"}).iter_errors(entry))
    assert errors, change


def test_the_pages_types_are_generated_from_the_schema():
    import runpy
    declarations = runpy.run_path(str(ROOT / "scripts" / "entry_types.py"))["declarations"]
    shipped = (ROOT / "static" / "explorer" / "entries.d.ts").read_text(encoding="utf-8")
    assert shipped == declarations(SCHEMA), "run: python scripts/entry_types.py"
