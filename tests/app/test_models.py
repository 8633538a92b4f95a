"""A model's attention as the page's entries (app/models.py), the view's `head` message, the
commands (serve/export --model, import) and the notebook API, without a browser."""
from __future__ import annotations

import base64
import zlib
import json

import numpy as np
import pytest

from app import models
from app.explorer import AttentionExplorer, AttentionView
from app.export import page_state
from app.models import canonical_views, head_entry, model_entry
from app.strings import text
from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.cube import decode_payload, payload_axes
from attention_core.heads import digest, from_run, grouped_weights, ranked, token_groups
from support import ask, cli_command, run_together
from tiny_models import write_bert, write_gpt2, write_llama

SENTENCE = "나는 어제 학교에서 친구를 만났다"
TITLES = {"ko": "작은 BERT", "en": "tiny BERT"}


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    return {"bert": write_bert(root / "bert"), "gpt2": write_gpt2(root / "gpt2")}


@pytest.fixture(scope="module")
def bert(folders):
    return from_run("bert", *run_checkpoint(load_checkpoint(folders["bert"]), SENTENCE))


def test_a_head_on_the_model_s_own_tokens_carries_every_step_and_the_experiments(bert):
    entry = head_entry(bert, "m", TITLES, 1, 1, "01")
    assert entry["model_head"]["steps"] and entry["cube"]["tokens"] == list(bert.pieces)
    arrays = decode_payload(entry["cube"])
    assert payload_axes(entry["cube"])["weights/1"] == ["scale", "causal", "head", "query", "key"]
    for s in (False, True):
        for c in (False, True):
            made = bert.head_attention(1, 1, scale=s, causal=c)
            np.testing.assert_allclose(arrays["weights/1"][int(s), int(c), 0], made.weights[0], atol=1e-7)
            np.testing.assert_allclose(arrays["output/1"][int(s), int(c), 0], made.output[0], rtol=1e-6, atol=1e-6)
            rank, rest = ranked(made.weights[0])
            np.testing.assert_array_equal(arrays["rank/1"][int(s), int(c), 0], rank)
    np.testing.assert_allclose(arrays["scores/1"][0], bert.head_attention(1, 1).scores[0], rtol=1e-6)
    assert entry["model_head"]["own"] == {"scale": True, "causal": False}


def test_a_head_carries_what_each_lens_draws_rows_summing_to_one_and_ranked(folders):
    """lens/drawn: the share of what each key moves, the rollout and the row without the first
    token, written out here from their definitions (a BERT and a causal GPT-2); lens/rank and
    lens/rest rank them as the weights are ranked, for a long row's strongest keys."""
    for name in ("bert", "gpt2"):
        aset = from_run(name, *run_checkpoint(load_checkpoint(folders[name]), SENTENCE))
        arrays = decode_payload(head_entry(aset, "m", TITLES, 1, 0, "01")["cube"])
        assert payload_axes(head_entry(aset, "m", TITLES, 1, 0, "01")["cube"])["lens/drawn"] == ["lens", "query", "key"]
        weights = aset.head_attention(1, 0).weights[0]
        v, w_o = aset.run.head_qkv(1, 0)[2], aset.run.head_w_o(1, 0)
        moved = np.array([[weights[i, j] * np.linalg.norm(v[j] @ w_o) for j in range(aset.n)] for i in range(aset.n)])
        layer_means = [aset.layer_weights(layer).mean(axis=0) for layer in range(2)]
        rolled = np.eye(aset.n)
        for mean in layer_means:
            rolled = (mean + np.eye(aset.n)) / 2 @ rolled
        no_first = weights.copy()
        no_first[:, 0] = 0
        sums = no_first.sum(axis=1, keepdims=True)
        no_first = np.where(sums > 0, no_first / np.where(sums > 0, sums, 1), 0)
        expected = np.stack([moved / moved.sum(axis=1, keepdims=True), rolled, no_first])
        np.testing.assert_allclose(arrays["lens/drawn"], expected, atol=1e-6)
        for lens in range(3):
            sums = expected[lens].sum(axis=1)
            assert np.allclose(sums[sums > 0], 1)  # each row a share of 1, as weights are
            rank, rest = ranked(expected[lens])
            np.testing.assert_array_equal(arrays["lens/rank"][lens], rank)
            np.testing.assert_allclose(arrays["lens/rest"][lens], rest, atol=1e-6)
        if aset.causal:  # GPT-2's first query sees only the first token: nothing is left without it
            assert not arrays["lens/drawn"][2, 0].any()
        # the line above the figures names, for every query, rank 0 of the lens and of the weights:
        # the key each puts first (the first on ties), for every token it can speak of
        for query in range(aset.n):
            for lens in range(3):
                row = expected[lens][query]
                assert arrays["lens/rank"][lens, query, 0] == np.flatnonzero(np.isclose(row, row.max(), atol=1e-9))[0]
            assert arrays["rank/1"][1, int(aset.causal), 0, query, 0] == int(np.argmax(weights[query]))


def test_a_head_s_experiments_rotation_off_and_other_windows_change_its_every_view(tmp_path):
    """A Llama head with q and k left unrotated, and a causal head under another window (none, 1),
    each recomputed here from the plain q and k: its cube's scores, weights and mask; its name
    and model_head say which experiment; the lenses and the rotation's step stay the model's own
    only; an exported file carries the experiments too; a model that does not rotate or a window
    not offered is refused with its message."""
    from attention_core.attention import softmax
    from attention_core.rotary import rotation_view
    from app.protocol import Refused

    aset = from_run("llama", *run_checkpoint(load_checkpoint(write_llama(tmp_path / "llama", "llama")), SENTENCE))
    n, d = aset.n, aset.run.config.d_head
    assert models.experiment_offer(aset) == {"rope": True, "windows": [0] + [w for w in (1, 2, 4, 8) if w < n]}
    plain = head_entry(aset, "m", TITLES, 1, 2, "01", rotate=False)
    assert plain["name"] == "m|1|2|01|r0" and plain["model_head"]["experiment"] == "r0" and plain["model_head"]["rope"] is False
    arrays = decode_payload(plain["cube"])
    scores = rotation_view(aset.run, 1, 2)["scores_plain"]
    np.testing.assert_allclose(arrays["scores/1"][0], scores, rtol=1e-5, atol=1e-6)
    hidden = np.triu(np.ones((n, n), bool), 1)
    expected = softmax(np.where(hidden, -np.inf, scores / np.sqrt(d)))
    np.testing.assert_allclose(arrays["weights/1"][1, 1, 0], expected, atol=1e-6)
    assert not any(name.startswith(("lens/", "rope/")) for name in arrays) and "rotation" not in plain["model_head"]
    own = decode_payload(head_entry(aset, "m", TITLES, 1, 2, "01")["cube"])
    assert "lens/drawn" in own and not np.allclose(own["weights/1"][1, 1, 0], expected, atol=1e-3)
    for window, sees in ((1, np.eye(n, dtype=bool)), (2, np.tri(n, dtype=bool) & ~np.tri(n, k=-2, dtype=bool))):
        entry = head_entry(aset, "m", TITLES, 0, 1, "01", window=window)
        assert entry["name"] == f"m|0|1|01|w{window}" and entry["model_head"]["window"] == window
        weights = decode_payload(entry["cube"])["weights/1"][1, 1, 0]
        assert np.all(weights[~sees] == 0) and np.allclose(weights.sum(axis=1), 1, atol=1e-6)
        np.testing.assert_allclose(weights, aset.head_attention(0, 1, window=window).weights[0], atol=1e-6)
    # the model's own window (none) is no experiment: the same entry as without one
    assert head_entry(aset, "m", TITLES, 0, 1, "01", window=0)["name"] == "m|0|1|01"
    # 어절 view of an experiment: its weights alone, grouped, from the unrotated head
    merged = head_entry(aset, "m", TITLES, 1, 2, "10", rotate=False)
    groups = token_groups(aset, True, False)
    np.testing.assert_allclose(decode_payload(merged["cube"])["weights/1"][0], grouped_weights(expected, groups), atol=1e-6)
    bank = {entry["name"] for entry in model_entry(aset, "m", TITLES, bank=True)["bank"]}
    assert {"m|1|2|01|r0", "m|1|2|10|r0", "m|0|1|01|w1", "m|0|1|10|w1", f"m|{aset.layers - 1}|{aset.heads - 1}|01|w2", "m|1|2|01|r0w1"} <= bank
    view = AttentionView(**models.model_params([("m", aset, TITLES)]))
    made = view._session.head("m", 1, 2, False, True, rope=False, window=2)
    assert made.entries[0]["name"] == "m|1|2|01|r0w2"
    with pytest.raises(Refused) as refused:
        view._session.head("m", 1, 2, False, True, window=3)
    assert refused.value.code == "experiment_window" and refused.value.values["choices"] == "0, 1, 2, 4"
    bert = from_run("bert", *run_checkpoint(load_checkpoint(write_bert(tmp_path / "bert")), SENTENCE))
    assert models.experiment_offer(bert) == {"rope": False, "windows": []}  # BERT: no rotation, and no mask to window
    with pytest.raises(Refused) as refused:
        AttentionView(**models.model_params([("b", bert, TITLES)]))._session.head("b", 0, 0, False, True, rope=False)
    assert refused.value.code == "experiment_rope"
    assert text("err_experiment_window", "en", value=3, choices="0, 1, 2, 4") == \
        "Window 3 is not offered for this model's heads; choose one of: 0, 1, 2, 4."


@pytest.mark.parametrize("code", ["00", "10", "11"])
def test_merged_or_hidden_views_carry_the_grouped_weights_and_what_hidden_tokens_take(bert, code):
    entry = head_entry(bert, "m", TITLES, 0, 1, code)
    assert not entry["model_head"]["steps"] and entry["cube"]["weights_only"]
    groups = token_groups(bert, code[0] == "1", code[1] == "1")
    arrays = decode_payload(entry["cube"])
    expected = grouped_weights(bert.layer_weights(0)[1], groups)
    # weights alone exist at the model's own switches only: no scale or causal axis to index
    assert payload_axes(entry["cube"])["weights/1"] == ["head", "query", "key"]
    np.testing.assert_allclose(arrays["weights/1"][0], expected, atol=1e-7)
    np.testing.assert_allclose(arrays["hidden/1"], 1 - expected.sum(axis=-1), atol=1e-6)
    assert entry["model_head"]["groups"] == groups
    # the query a model opens at is its last word, never a special token
    assert not bert.special[groups[entry["default_query"]][0]]


def test_a_causal_model_s_overview_travels_as_triangles_and_as_bytes_on_the_socket(folders):
    gpt = from_run("gpt2", *run_checkpoint(load_checkpoint(folders["gpt2"]), SENTENCE))
    entry = model_entry(gpt, "g", TITLES)
    pixels, _, _ = digest(gpt)
    m = entry["overview"]["cells"]
    assert entry["overview"]["triangle"]
    packed = zlib.decompress(base64.b64decode(entry["overview"]["data"]))
    assert len(packed) == gpt.layers * gpt.heads * m * (m + 1) // 2
    rows, cols = np.tril_indices(m)
    np.testing.assert_array_equal(np.frombuffer(packed, dtype=np.uint8), pixels[..., rows, cols].ravel())
    # the served page's reply carries the same packed bytes, raw (a binary frame), and nothing else changes
    answer = {"id": "1", "type": "entry", "ok": True, "entries": [entry], "view": None}
    wired = models.on_the_wire(answer)
    assert zlib.decompress(wired["entries"][0]["overview"]["data"]) == packed
    assert {**wired["entries"][0], "overview": entry["overview"]} == entry and entry["overview"]["data"].isascii()
    assert models.on_the_wire({"id": "2", "type": "next", "ok": False, "error": {}})["ok"] is False


def test_one_entry_serves_two_views_that_show_the_same_tokens(folders):
    gpt = from_run("gpt2", *run_checkpoint(load_checkpoint(folders["gpt2"]), SENTENCE))
    assert not any(gpt.special)
    assert canonical_views(gpt) == {"00": "00", "01": "00", "10": "10", "11": "10"}
    entry = head_entry(gpt, "g", TITLES, 0, 0, "01")
    assert entry["name"] == "g|0|0|00" and entry["model_head"]["steps"]
    assert entry["model_head"]["own"]["causal"]


def test_the_model_entry_carries_the_overview_summaries_and_in_a_file_every_head(bert, monkeypatch):
    entry = model_entry(bert, "m", TITLES, bank=True)
    pixels, _, _ = digest(bert)
    cells = entry["overview"]["cells"]
    assert not entry["overview"]["triangle"]  # BERT's heads see the keys after their query
    shipped = np.frombuffer(zlib.decompress(base64.b64decode(entry["overview"]["data"])), dtype=np.uint8)
    np.testing.assert_array_equal(shipped.reshape(2, 2, cells, cells), pixels)
    assert len(entry["bank"]) == 2 * 2 * 4 and entry["in_file"]
    assert {e["name"] for e in entry["bank"]} == {f"m|{l}|{h}|{c}" for l in range(2) for h in range(2) for c in models.VIEWS}
    # a file's budget takes whole tiers: every head's first view, then every head's every step, …
    first = sum(len(json.dumps(e)) for e in entry["bank"] if e["name"].endswith("|10"))
    steps = sum(len(json.dumps(e)) for e in entry["bank"] if e["name"].endswith("|01"))
    monkeypatch.setattr(models, "EXPORT_BUDGET", first + steps)
    assert {e["name"][-2:] for e in model_entry(bert, "m", TITLES, bank=True)["bank"]} == {"10", "01"}
    assert all("lens/ablation_percent" in decode_payload(e["cube"]) for e in entry["bank"] if e["name"].endswith("|01"))
    # a tier that does not fit runs no head's ablation (a forward pass each: minutes at a large model's size)
    import dataclasses

    import attention_core.lenses

    ran = []
    monkeypatch.setattr(attention_core.lenses, "removed_run", lambda run, layer, head: ran.append((layer, head)) or run)
    monkeypatch.setattr(models, "EXPORT_BUDGET", first + steps // 2)
    assert {e["name"][-2:] for e in model_entry(dataclasses.replace(bert), "m", TITLES, bank=True)["bank"]} == {"10"}
    assert ran == []
    monkeypatch.setattr(models, "EXPORT_BUDGET", first + steps)
    assert len(model_entry(dataclasses.replace(bert), "m", TITLES, bank=True)["bank"]) == 8 and len(ran) == 4
    # a sentence longer than STEPS_MAX: its heads travel as their weights alone
    monkeypatch.setattr(models, "STEPS_MAX", bert.n - 1)
    assert head_entry(bert, "m", TITLES, 0, 0, "01")["cube"]["weights_only"]


def test_the_view_sends_a_head_and_refuses_a_bad_request_keeping_the_last(folders):
    view = AttentionExplorer.from_model(folders["bert"], SENTENCE).view
    answer = ask(view, {"type": "head", "model": "model-1", "layer": 1, "head": 0, "merge": False, "special": True})
    assert answer["ok"] and [e["name"] for e in answer["entries"]] == ["model-1|1|0|01"] and answer["view"] is None
    for bad, code in (({"layer": 2}, "head_range"), ({"head": -1}, "head_range"), ({"layer": "1"}, "bad_request"),
                      ({"merge": 1}, "bad_request"), ({"model": "nope"}, "head"), ({"layer": True}, "bad_request")):
        message = {"type": "head", "model": "model-1", "layer": 1, "head": 0, "merge": False, "special": True, **bad}
        assert ask(view, message)["error"]["code"] == code, bad
    assert ask(view, {"type": "head", "model": "model-1", "layer": 2, "head": 0, "merge": False,
                      "special": True})["error"]["values"] == {"layers": "2", "heads": "2"}
    # from a notebook: the head goes on show (the page asks for its entry), a bad one changes nothing
    assert view.open_head("model-1", 0, 1, True, False) and (view.layer, view.head, view.merge) == (0, 1, True)
    assert not view.open_head("model-1", 5, 1, True, False) and view.refused["code"] == "head_range"
    assert (view.layer, view.head) == (0, 1)


def test_a_served_head_comes_without_its_ablation_which_the_ablation_request_runs(folders, bert):
    """The head's entry a page asks for has its lenses but not the ablation (a forward pass); the
    ablation request runs it: for each query, 100 ‖h′ − h‖ / ‖h‖ with the head's output zero, the
    whole model run again here. An exported file's heads carry it in their cube."""
    from attention_core.transformer import forward

    view = AttentionExplorer.from_model(folders["bert"], SENTENCE).view
    entry = ask(view, {"type": "head", "model": "model-1", "layer": 1, "head": 0, "merge": False, "special": True})["entries"][0]
    arrays = decode_payload(entry["cube"])
    assert "lens/moved" in arrays and "lens/ablation_percent" not in arrays
    answer = ask(view, {"type": "ablation", "model": "model-1", "layer": 1, "head": 0})
    assert answer["ok"] and answer["view"] is None
    made = answer["entries"][0]
    assert made["kind"] == "ablation" and made["model_head"] == {"model": "model-1", "layer": 1, "head": 0}
    run = bert.run
    # the whole model run again in the pass's own dtype (float32, as a checkpoint is shown)
    removed = forward(run.config, run.weights, run.ids, drop=(1, 0), dtype=run.hidden.dtype).hidden[-1]
    expected = 100 * np.linalg.norm(removed - run.hidden[-1], axis=-1) / np.linalg.norm(run.hidden[-1], axis=-1)
    np.testing.assert_allclose(made["percent"], expected, rtol=1e-4)
    assert len(made["percent"]) == len(entry["cube"]["tokens"]) and min(made["percent"]) > 0
    banked = decode_payload(head_entry(bert, "m", TITLES, 1, 0, "01")["cube"])
    np.testing.assert_allclose(banked["lens/ablation_percent"], expected, rtol=1e-6)
    for bad, code in (({"layer": 2}, "head_range"), ({"model": "nope"}, "head"), ({"head": "0"}, "bad_request")):
        assert ask(view, {"type": "ablation", "model": "model-1", "layer": 1, "head": 0, **bad})["error"]["code"] == code, bad
    rng = np.random.default_rng(3)
    imported = AttentionExplorer.from_attentions(["가", "나"], rng.dirichlet(np.ones(2), size=(1, 1, 2))).view
    assert ask(imported, {"type": "ablation", "model": "imported", "layer": 0, "head": 0})["error"]["code"] == "ablation"


def test_from_attentions_opens_imported_weights_with_or_without_q_and_k():
    rng = np.random.default_rng(5)
    tokens = ["[CLS]", "나는", "어", "##제", "[SEP]"]
    q, k, v = (rng.normal(size=(2, 2, 5, 3)) for _ in range(3))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(3)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    plain = AttentionExplorer.from_attentions(tokens, tuple(w[None] for w in weights)).view
    assert plain.models[0]["steps"] is False and plain.preset == "imported"
    assert plain.models[0]["kind"] == "imported"
    head = {"type": "head", "model": "imported", "layer": 1, "head": 1, "merge": False, "special": True}
    assert ask(plain, head)["entries"][0]["cube"]["weights_only"]
    full = AttentionExplorer.from_attentions(tokens, weights, q=q, k=k, v=v).view
    assert ask(full, head)["entries"][0]["model_head"]["steps"]


def test_export_and_import_write_a_file_and_name_a_bad_folder_or_file(folders, tmp_path):
    np.savez(tmp_path / "a.npz", tokens=np.array(["가", "나"]), attentions=np.array([[[[1.0, 0.0], [0.5, 0.5]]]]))
    np.savez(tmp_path / "b.npz", tokens=np.array(["가"]), attentions=np.ones((1, 1, 2, 2)))
    # five command lines as a user types them, each its own process, run side by side
    done, imported, bad_export, bad_import, bad_serve, compared, bad_compare = run_together(
        cli_command("export", tmp_path / "m.html", "--model", folders["gpt2"], "--sentence", SENTENCE, "--practice", "0"),
        cli_command("import", tmp_path / "a.npz"),
        cli_command("export", tmp_path / "x.html", "--model", tmp_path / "nowhere"),
        cli_command("import", tmp_path / "b.npz"),
        cli_command("serve", "--model", tmp_path / "nowhere", "--port", "1"),
        cli_command("export", tmp_path / "c.html", "--model", folders["gpt2"], "--compare", folders["gpt2"], "--practice", "0"),
        cli_command("serve", "--model", folders["gpt2"], "--compare", folders["bert"], "--port", "1"))
    assert done.returncode == 0 and "wrote" in done.stdout
    banked = page_state((tmp_path / "m.html").read_text(encoding="utf-8"))["models"][0]["bank"]
    assert "model-1|1|1|10" in {entry["name"] for entry in banked}
    assert imported.returncode == 0 and (tmp_path / "a.html").stat().st_size > 10_000
    assert bad_export.returncode == 2 and "nowhere: no such directory" in bad_export.stderr
    assert bad_import.returncode == 2 and "b.npz: attentions are 2×2 per head but there are 1 tokens" in bad_import.stderr
    assert bad_serve.returncode == 2 and "attention-viz serve: error:" in bad_serve.stderr
    assert compared.returncode == 0, compared.stderr
    compared_entry = page_state((tmp_path / "c.html").read_text(encoding="utf-8"))["models"][0]
    assert compared_entry["compared"] == [{"name": "gpt2", "folder": "gpt2"}]
    assert bad_compare.returncode == 2 and "only checkpoints with the same tokenizer can be compared" in bad_compare.stderr
    assert "no such directory" in bad_serve.stderr


def test_a_view_without_models_offers_the_trained_model_or_none():
    assert [m["name"] for m in AttentionView().models][-1] == "trained-2000"
    view = AttentionView(trained=False)
    assert view.models == []
    assert not view.open_head("model-1", 0, 0, True, False) and view.refused["code"] == "head"


def test_a_typed_sentence_goes_through_the_model_on_show_and_a_bad_one_keeps_the_last(folders):
    view = AttentionExplorer.from_model(folders["gpt2"], SENTENCE).view
    assert view.models[0]["typable"]
    assert view.apply_sentence("고양이가 생선을 먹었다")
    assert view.preset == "model-own" and view.models[-1]["text"] == "고양이가 생선을 먹었다"
    assert view.models[-1]["link"] == "text" and view.models[-1]["kind"] == "model"
    assert [m["name"] for m in view.models] == ["model-1", "model-own"] and view.causal  # GPT-2's own mask
    fresh = from_run("gpt2", *run_checkpoint(load_checkpoint(folders["gpt2"]), "고양이가 생선을 먹었다"))
    head = ask(view, {"type": "head", "model": "model-own", "layer": 1, "head": 0, "merge": False, "special": True})
    np.testing.assert_allclose(decode_payload(head["entries"][0]["cube"])["weights/1"][1, 1, 0],
                               fresh.head_attention(1, 0).weights[0], atol=1e-7)
    models = view.models
    # refused in the page's own words (err_<code>), never a library's English
    for bad, code in (("   ", "empty_sentence"), (" ".join([SENTENCE] * 20), "too_many_tokens"), ("가" * 3000, "too_long")):
        assert not view.apply_sentence(bad)
        assert view.refused["code"] == code, view.refused
        for lang in ("ko", "en"):
            said = text(f"err_{code}", lang, **view.refused["values"])
            assert "{" not in said and ("64" in said or code != "too_many_tokens") and ("2000" in said or code != "too_long")
        assert view.preset == "model-own" and view.models is models
        answer = ask(view, {"type": "sentence", "text": bad, "query": None, "model": "model-own"})
        assert answer["error"]["code"] == code and view.models is models
    # a toy preset on show: a typed sentence is the toy sentence, as before
    view.source = {"kind": "preset", "name": "meet-friend"}
    assert view.apply_sentence("나는 밥을 먹었다") and view.preset == "custom"


def test_sessions_of_one_server_share_the_overviews_and_each_head_made_once(folders):
    from app.server import model_app

    page = model_app(model=folders["bert"], sentences=[SENTENCE])
    first, second = page(), page()
    assert first.models is not second.models and first.models[0] is second.models[0]  # made once, not per session
    head = {"type": "head", "model": "model-1", "layer": 1, "head": 0, "merge": False, "special": True}
    assert ask(first, head)["entries"][0] is ask(second, head)["entries"][0]
    # a student's own sentence is theirs: its heads are made for that session
    own = ask(first, {"type": "sentence", "text": "고양이가 생선을 먹었다", "query": None, "model": "model-1"})
    assert [e["name"] for e in own["entries"]] == ["model-own"] and own["view"]["source"] == {"kind": "model", "name": "model-own"}
    assert ask(first, {**head, "model": "model-own"})["entries"][0]["name"] == "model-own|1|0|01"
    assert ask(second, {**head, "model": "model-own"})["error"]["code"] == "head"
    assert [m["name"] for m in first.models] == ["model-1"]  # the reply went to the page; the catalog is as it was


def test_a_trained_model_sentence_is_only_of_its_words_and_no_longer_than_it_takes():
    view = AttentionView()
    view.source = {"kind": "trained", "name": "trained-2000"}
    for text, code, values in (("나는 [MASK] 카페에서 커피를 마시겠다", "unknown_words", {"words": "[MASK]"}),
                               ("나는 어제 오늘 내일 카페에서 커피를 마셨다", "too_many_words", {"most": "6"})):
        assert not view.apply_sentence(text)
        assert view.refused == {"code": code, "values": values} and view.preset == "trained-2000"


def test_asking_for_the_same_head_again_sends_it_again():
    view = AttentionView()
    head = {"type": "head", "model": "trained-2000", "layer": 1, "head": 1, "merge": True, "special": True}
    assert [ask(view, {**head, "id": n})["entries"][0]["name"] for n in (1, 2)] == ["trained-2000|1|1|01"] * 2


def test_a_typed_sentence_s_entry_changes_its_version():
    view = AttentionView()
    view.source = {"kind": "trained", "name": "trained-2000"}
    assert view.apply_sentence("나는 내일 카페에서 커피를 마시겠다")
    first = {m["name"]: m["version"] for m in view.models}
    assert view.apply_sentence("할머니께서 어제 집에서 밥을 드셨다")
    second = {m["name"]: m["version"] for m in view.models}
    assert first.keys() == second.keys() and first["trained-own-2000"] != second["trained-own-2000"]
    assert first["trained-2000"] == second["trained-2000"] and view.models[-1]["typed"]


def test_two_folders_compared_carry_a1_minus_a2_per_head_and_other_tokenizers_or_shapes_are_refused(tmp_path):
    """serve/export --compare: each head's A1 − A2 against the second folder (two Llama checkpoints
    of one tokenizer, other weights), the key that changed the most per query, in the merged view
    too; a checkpoint of another shape or another tokenizer is refused with a message saying so."""
    from attention_core.transformer import ModelError

    first, second = write_llama(tmp_path / "a", "llama"), write_llama(tmp_path / "b", "llama", seed=9)
    sets, _ = models.page_sets(first, sentences=[SENTENCE], compare=second)
    (_, aset, _), = sets
    other = from_run("b", *run_checkpoint(load_checkpoint(second), SENTENCE))
    entry = model_entry(aset, "m", TITLES)
    assert entry["compared"] == [{"name": "b", "folder": "b"}]
    for code in ("01", "10"):
        groups = token_groups(aset, code[0] == "1", code[1] == "1")
        arrays = decode_payload(head_entry(aset, "m", TITLES, 1, 3, code)["cube"])
        change = grouped_weights(aset.layer_weights(1)[3], groups) - grouped_weights(other.layer_weights(1)[3], groups)
        np.testing.assert_allclose(arrays["diff/weights"][0], change, atol=1e-6)
        np.testing.assert_array_equal(arrays["diff/top"][0], np.argmax(np.abs(change), axis=1))
    assert "diff/weights" not in decode_payload(head_entry(aset, "m", TITLES, 1, 3, "01", rotate=False)["cube"])  # an experiment: no comparison
    with pytest.raises(ModelError, match="only checkpoints of one shape can be compared"):
        models.page_sets(first, sentences=[SENTENCE], compare=write_llama(tmp_path / "c", "llama", heads=2, kv_heads=1))
    with pytest.raises(ModelError, match="only checkpoints with the same tokenizer can be compared"):
        models.page_sets(write_gpt2(tmp_path / "gpt2"), sentences=[SENTENCE], compare=write_bert(tmp_path / "bert"))
    with pytest.raises(ModelError, match="--compare needs --model"):
        models.page_sets(None, compare=second)
    # a sentence typed in the page goes through both: its heads are compared too (the link's compare= holds)
    view = AttentionExplorer.from_model(first, SENTENCE, compare=second).view
    typed = "고양이가 생선을 먹었다"
    made = ask(view, {"type": "sentence", "text": typed, "query": None, "model": "model-1"})
    assert made["ok"] and made["entries"][0]["compared"] == [{"name": "b", "folder": "b"}]
    head = ask(view, {"type": "head", "model": made["entries"][0]["name"], "layer": 1, "head": 3, "merge": False, "special": True})
    mine, theirs = (from_run(name, *run_checkpoint(load_checkpoint(folder), typed)) for name, folder in (("a", first), ("b", second)))
    np.testing.assert_allclose(decode_payload(head["entries"][0]["cube"])["diff/weights"][0],
                               mine.layer_weights(1)[3] - theirs.layer_weights(1)[3], atol=1e-6)


def test_the_next_request_says_the_models_next_tokens_and_lens_as_the_core_does(folders):
    """A causal model's next tokens after the sentence (top k at a temperature) and the logit lens
    there, as attention_core.prediction computes them; a BERT and requests out of range refused."""
    from attention_core.prediction import logit_lens, next_tokens

    view = AttentionExplorer.from_model(folders["gpt2"], SENTENCE).view
    answer = ask(view, {"type": "next", "model": "model-1", "top_k": 3, "temperature": 0.8})
    assert answer["ok"], answer
    entry = answer["entries"][0]
    checkpoint = load_checkpoint(folders["gpt2"])
    encoded, run = run_checkpoint(checkpoint, SENTENCE)
    made = next_tokens(run, 3, 0.8)
    assert entry["kind"] == "next" and entry["position"] == run.n - 1 and entry["temperature"] == 0.8
    assert [t["id"] for t in entry["top"]] == made.ids.tolist()
    assert [t["probability"] for t in entry["top"]] == pytest.approx(made.probabilities.tolist(), abs=1e-9)
    assert all(t["token"] for t in entry["top"])
    ids, chances = logit_lens(run, positions=[-1], top_k=3)
    assert [[t["id"] for t in layer] for layer in entry["lens"]] == ids[:, 0].tolist()
    assert len(entry["lens"]) == checkpoint.config.layers + 1
    refused = ask(view, {"type": "next", "model": "model-1", "top_k": 0, "temperature": 1})
    assert (refused["ok"], refused["error"]["code"]) == (False, "bad_top_k")
    refused = ask(view, {"type": "next", "model": "model-1", "top_k": 3, "temperature": 50})
    assert refused["error"]["code"] == "bad_temperature"
    assert ask(view, {"type": "next", "model": "model-1", "top_k": 3, "temperature": "hot"})["error"] == {
        "code": "bad_request", "values": {"field": "temperature"}}
    bert_view = AttentionExplorer.from_model(folders["bert"], SENTENCE).view
    refused = ask(bert_view, {"type": "next", "model": "model-1", "top_k": 3, "temperature": 1})
    assert refused["error"]["code"] == "no_next_token" and refused["error"]["values"] == {"architecture": "bert"}


def test_the_lens_request_draws_each_layer_s_guess_at_the_last_positions_as_the_core_does(folders, monkeypatch):
    """The logit lens as a layers × positions grid: each cell the core's top k at that layer and
    position (attention_core.prediction.logit_lens), the columns the sentence's last positions."""
    from attention_core.prediction import logit_lens

    view = AttentionExplorer.from_model(folders["gpt2"], SENTENCE).view
    checkpoint = load_checkpoint(folders["gpt2"])
    encoded, run = run_checkpoint(checkpoint, SENTENCE)
    monkeypatch.setattr(models, "LENS_POSITIONS", 3)
    answer = ask(view, {"type": "lens", "model": "model-1", "top_k": 9})
    assert answer["ok"], answer
    entry = answer["entries"][0]
    assert entry["kind"] == "lens" and entry["top_k"] == models.LENS_TOP  # a cell carries at most 5
    assert entry["positions"] == [run.n - 3, run.n - 2, run.n - 1]
    from attention_core.prediction import token_text
    assert entry["tokens"] == [token_text(checkpoint.tokenizer, int(run.ids[p]))[0] for p in entry["positions"]]
    ids, chances = logit_lens(run, positions=entry["positions"], top_k=models.LENS_TOP)
    assert len(entry["cells"]) == checkpoint.config.layers + 1
    assert [[[t["id"] for t in cell] for cell in row] for row in entry["cells"]] == ids.tolist()
    np.testing.assert_allclose([[[t["probability"] for t in cell] for cell in row] for row in entry["cells"]], chances, atol=1e-12)
    # the grid's last column is the next request's lens
    said = ask(view, {"type": "next", "model": "model-1", "top_k": 5, "temperature": 1})["entries"][0]
    last = [row[-1] for row in entry["cells"]]
    assert [[t["id"] for t in cell] for cell in last] == [[t["id"] for t in cell] for cell in said["lens"]]
    np.testing.assert_allclose([[t["probability"] for t in cell] for cell in last],
                               [[t["probability"] for t in cell] for cell in said["lens"]], atol=1e-6)  # float32, other row counts
    assert ask(view, {"type": "lens", "model": "model-1", "top_k": 0})["error"]["code"] == "bad_top_k"
    bert_view = AttentionExplorer.from_model(folders["bert"], SENTENCE).view
    assert ask(bert_view, {"type": "lens", "model": "model-1", "top_k": 3})["error"]["code"] == "no_next_token"


def test_a_head_removed_runs_the_model_again_once_for_its_ablation_and_its_next_token(folders, monkeypatch):
    """The ablation's change per query and the next token without the head come from one run
    without the head (attention_core.lenses.removed_run), the same numbers as each made alone."""
    import attention_core.lenses
    from attention_core.lenses import ablation_change
    from attention_core.prediction import without_head

    gpt = from_run("gpt2", *run_checkpoint(load_checkpoint(folders["gpt2"]), SENTENCE))
    made = []
    real = attention_core.lenses.removed_run
    monkeypatch.setattr(attention_core.lenses, "removed_run", lambda *args: made.append(args[1:]) or real(*args))
    entry = models.ablation_entry(gpt, "g", 1, 0)
    assert made == [(1, 0)]
    np.testing.assert_allclose(entry["percent"], 100 * ablation_change(gpt.run, 1, 0), rtol=1e-12)
    alone = without_head(gpt.run, 1, 0, top_k=3)
    assert {key: entry["next"][key] for key in ("top", "top_after", "changed")} == {key: alone[key] for key in ("top", "top_after", "changed")}
    assert entry["next"]["after"] == pytest.approx(alone["after"], abs=1e-12)
    runs = len(made)  # (with the test's own two runs above)
    models.ablation_entry(gpt, "g", 1, 0)
    assert len(made) == runs  # asked again: kept, not run again
