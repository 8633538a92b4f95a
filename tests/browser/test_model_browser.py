"""A real model's attention in the browser: a tiny BERT in an exported file, a tiny GPT-2 and
imported weights served. The page shows the core's weights for sampled layers, heads and
queries; the overview, the token views, the experiments and the strongest keys work."""
from __future__ import annotations

import json
import re
import sys
from urllib.parse import urlencode

import numpy as np
import pytest
from playwright.sync_api import expect

from app import models
from app.strings import text
from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.heads import from_run, group_labels, grouped_weights, ranked, token_groups
from attention_core.transformer import forward
from support import free_port, run_export, running
from explorer_page import ExplorerPage, assert_table_matches, settled_url
from tiny_models import write_bert, write_gpt2

pytestmark = pytest.mark.browser

SENTENCE = "나는 어제 학교에서 친구를 만났다"


@pytest.fixture(scope="module")
def bert_file(tmp_path_factory):
    root = tmp_path_factory.mktemp("bert")
    folder = write_bert(root / "tiny-bert", layers=2, heads=2)
    out = root / "model.html"
    run_export(out, "--model", folder, "--sentence", SENTENCE, "--practice", "0")
    return out, from_run("bert", *run_checkpoint(load_checkpoint(folder), SENTENCE))


@pytest.fixture(scope="module")
def served_models(tmp_path_factory):
    """`attention-viz serve --model DIR --compare DIR --attentions FILE.npz`: a tiny GPT-2 compared
    with another of other weights, and weights alone."""
    root = tmp_path_factory.mktemp("gpt2")
    folder = write_gpt2(root / "tiny-gpt2", layers=2, heads=2)
    other = write_gpt2(root / "other-gpt2", layers=2, heads=2, seed=5)
    weights = np.random.default_rng(7).dirichlet(np.ones(4), size=(1, 3, 4))
    np.savez(root / "weights.npz", tokens=np.array(["[CLS]", "고양이가", "먹었다", "[SEP]"]), attentions=weights)
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with running([sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--model", str(folder),
                  "--sentence", SENTENCE, "--attentions", str(root / "weights.npz"), "--compare", str(other)], url):
        checkpoint = load_checkpoint(folder)
        yield url, from_run("gpt2", *run_checkpoint(checkpoint, SENTENCE), checkpoint.tokenizer), weights, folder


def open_model(page, base, **params) -> ExplorerPage:
    page.goto(base + "?" + urlencode(params))
    page.locator("[data-testid=weights-table] tbody tr").first.wait_for(timeout=20_000)
    return ExplorerPage(page, base)


def expect_weights(explorer: ExplorerPage, labels, row, **which):
    """The weights table shows these keys and this row of weights, to its three decimals; `which`
    (layer, model_head, scale, causal) waits until it shows that head at those switches."""
    for name, value in which.items():
        expect(explorer.weights_table).to_have_attribute(f"data-{name.replace('_', '-')}", str(value).lower())
    expect(explorer.weights_table.locator("tbody tr")).to_have_count(len(labels))
    keys, columns = explorer.weights()
    assert keys == list(labels)
    assert_table_matches(columns, np.asarray(row)[None])


def test_exported_file_shows_the_model_s_weights_for_sampled_layers_heads_and_queries(page, bert_file, console_errors):
    out, bert = bert_file
    base = out.as_uri()
    groups = token_groups(bert, False, True)
    for layer, head, query in [(0, 0, 1), (1, 1, 5), (0, 1, 13), (1, 0, 0)]:
        explorer = open_model(page, base, preset="model-1", layer=layer, head=head, merge=0, special=1, query=query)
        expect(explorer.weights_table.locator("caption")).to_have_text(f"Query: {bert.pieces[query]}")
        expect_weights(explorer, group_labels(bert, groups, False), bert.layer_weights(layer)[head][query])
        # every step is there: the calculation's scores are the head's q·k
        scores = bert.head_attention(layer, head).scores[0][query]
        cells = page.locator("[data-testid=calc-table] tbody tr td:nth-of-type(1)")
        expect(cells).to_have_count(bert.n)
        shown = [float(c.split("=")[-1].replace("−", "-")) for c in cells.all_inner_texts()]
        np.testing.assert_allclose(shown, scores, atol=0.0005 + 1e-9)
    # the default view: whole 어절, no special tokens, the merged weights, what [CLS] and [SEP] take
    explorer = open_model(page, base, preset="model-1", layer=1, head=0)
    merged = token_groups(bert, True, False)
    w = grouped_weights(bert.layer_weights(1)[0], merged)
    last = len(merged) - 1
    expect_weights(explorer, SENTENCE.split(), w[last])
    expect(page.locator("[data-testid=merge-rule]")).to_contain_text("합")
    expect(page.locator("[data-testid=bars-hidden]")).to_have_text(f"숨긴 특수 토큰에 준 가중치: {1 - w[last].sum():.3f}")
    expect(page.locator("[data-testid=calc-weights-only]")).to_be_visible()
    assert console_errors == []


def test_overview_click_token_views_experiments_and_strongest_keys(page, bert_file, console_errors):
    out, bert = bert_file
    explorer = open_model(page, out.as_uri(), preset="model-1", lang="en")
    expect(page.locator("[data-testid=model-overview] button")).to_have_count(4)
    page.locator("[data-testid=overview-1-1]").click()
    expect(page.locator("[data-testid=overview-1-1]")).to_have_attribute("aria-pressed", "true")
    expect(page).to_have_url(re.compile(r"layer=1&head=1"))  # written once the head's numbers are there
    expect(page.locator("[data-testid=head-summary] tr[data-summary=entropy] td")).to_have_text(
        f"{np.mean([-sum(x * np.log2(x) for x in row) for row in bert.layer_weights(1)[1]]):.3f}")
    # to the model's own tokens: the query stays on the same word (its first piece)
    page.locator("[data-testid=show-steps]").click()
    expect(page.locator("[data-testid=special-toggle]")).to_be_checked()
    expect(page.locator("[data-testid=merge-toggle]")).not_to_be_checked()
    last_word_first_piece = token_groups(bert, True, False)[-1][0]
    expect(explorer.weights_table.locator("caption")).to_have_text(f"Query: {bert.pieces[last_word_first_piece]}")
    expect(page).to_have_url(re.compile(r"merge=0&special=1"))
    status = page.locator("[data-testid=model-status]")
    expect(status).to_have_attribute("data-experiment", "false")
    # √d off: an experiment on this head, labelled, with the core's numbers for it
    explorer.set_checkbox("scale-toggle", False)
    expect(status).to_have_attribute("data-experiment", "true")
    expect(status).to_contain_text("Experiment")
    what_if = bert.head_attention(1, 1, scale=False).weights[0][last_word_first_piece]
    expect_weights(explorer, bert.pieces, what_if, scale=False)
    # the three strongest keys, and what the other keys carry
    page.locator("[data-testid=top-k]").fill("3")
    page.locator("[data-testid=top-k]").press("Enter")
    rank, rest = ranked(what_if)
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key]")).to_have_count(3)
    keys = sorted(int(k) for k in page.locator("[data-testid=bars] .ae-bar-row[data-key]").evaluate_all(
        "rows => rows.map(r => r.dataset.key)"))
    assert keys == sorted(int(j) for j in rank[:3])
    expect(page.locator("[data-testid=bars-rest]")).to_have_text(f"The other {bert.n - 3} keys carry {rest[2]:.3f}")
    expect(page.locator("[data-testid=lines-rest]")).to_have_text(f"The other {bert.n - 3} keys carry {rest[2]:.3f}")
    # a count typed that is no count: named with its range, and the last good one kept
    page.locator("[data-testid=top-k]").fill("-3")
    page.locator("[data-testid=top-k]").press("Enter")
    expect(page.locator("[data-testid=notices]")).to_contain_text("top_k=-3 must be a whole number from 1 up; keeping 3.")
    expect(page.locator("[data-testid=top-k]")).to_have_value("3")
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key]")).to_have_count(3)
    assert console_errors == []


def test_served_model_sends_each_head_on_demand_and_imported_weights_say_only_weights(page, served_models, console_errors):
    base, gpt, weights, _ = served_models
    explorer = open_model(page, base, preset="model-1", layer=1, head=1, merge=0, query=4)
    expect_weights(explorer, gpt.pieces, gpt.layer_weights(1)[1][4])
    # the head removed and the model run again: asked of Python only when the student presses the button
    ablation, run = page.locator("[data-testid=lens-ablation]"), page.locator("[data-testid=lens-ablation-run]")
    expect(ablation).to_have_attribute("data-state", "ask")
    expect(ablation).to_contain_text("얼마나 바뀔까요?")
    removed = forward(gpt.run.config, gpt.run.weights, gpt.run.ids, drop=(1, 1), dtype=gpt.run.hidden.dtype).hidden[-1]
    change = 100 * np.linalg.norm(removed - gpt.run.hidden[-1], axis=-1) / np.linalg.norm(gpt.run.hidden[-1], axis=-1)
    run.click()
    expect(ablation).to_have_attribute("data-state", "measured")
    expect(ablation).to_contain_text(f"마지막 정규화 뒤의 출력이 {change[4]:.1f}% 바뀌어요")
    expect(run).to_be_hidden()
    # and what it does to the model's next token after the last one (a causal model's)
    said = gpt.next_change(1, 1)
    expect(page.locator("[data-testid=lens-next]")).to_have_text(text(
        "lens_next_changed" if said["changed"] else "lens_next_same", "ko", token=said["top_token"],
        before=f"{said['before']:.3f}", after=f"{said['after']:.3f}", other=said["top_after_token"]))
    expect(page.locator("[data-testid=lens-next]")).to_have_attribute("data-changed", str(said["changed"]).lower())
    explorer.click_token(2)  # another query: its own change, from the same reply
    expect(ablation).to_contain_text(f"마지막 정규화 뒤의 출력이 {change[2]:.1f}% 바뀌어요")
    explorer.click_token(4)
    status = page.locator("[data-testid=model-status]")
    expect(status).to_contain_text("미래 가리기 켬")  # GPT-2 masks the future: its own switch
    # the mask off is an experiment on a causal model
    explorer.set_checkbox("causal-toggle", False)
    expect(status).to_have_attribute("data-experiment", "true")
    expect_weights(explorer, gpt.pieces, gpt.head_attention(1, 1, causal=False).weights[0][4], causal=False)
    page.locator("[data-testid=overview-0-1]").click()
    expect_weights(explorer, gpt.pieces, gpt.head_attention(0, 1, causal=False).weights[0][4], layer=0, model_head=1)
    # weights from elsewhere: the table shows them; the steps say only the weights are known
    explorer = open_model(page, base, preset="imported-2", head=2, merge=0, special=1, query=1)
    expect_weights(explorer, ["[CLS]", "고양이가", "먹었다", "[SEP]"], weights[0, 2, 1])
    expect(page.locator("[data-testid=calc-weights-only]")).to_contain_text("가중치만")
    expect(page.locator("[data-testid=scale-toggle]")).to_be_disabled()
    # a layer the model does not have: a notice, and the page keeps working
    open_model(page, base, preset="model-1", layer=9)
    expect(page.locator("[data-testid=notices]")).to_contain_text("layer=9")
    assert console_errors == []


def test_the_overview_fits_a_phone(browser, bert_file, screenshot_dir):
    out, _ = bert_file
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    open_model(page, out.as_uri(), preset="model-1")
    widest = page.evaluate("""() => Math.max(...[...document.querySelectorAll('.ae-card-model *')]
        .map(e => e.getBoundingClientRect().right))""")
    assert widest <= 390
    box = page.locator("[data-testid=overview-0-0]").bounding_box()
    assert box["width"] >= 28  # big enough to tap
    page.screenshot(path=str(screenshot_dir / "model-phone.png"))
    context.close()


def test_a_sentence_typed_in_the_served_page_goes_through_the_model_and_its_link_reopens_it(page, served_models,
                                                                                             console_errors):
    base, _, _, folder = served_models
    explorer = open_model(page, base, preset="model-1", merge=0, layer=1, head=0)
    expect(page.locator("[data-testid=model-type-hint]")).to_be_visible()
    explorer.apply_sentence("고양이가 생선을 먹었다")
    expect(page.locator("[data-testid=preset-select]")).to_have_value("model-own")
    typed = from_run("gpt2", *run_checkpoint(load_checkpoint(folder), "고양이가 생선을 먹었다"))
    last = typed.n - 1  # the last token of the sentence: where a new sentence opens
    expect(explorer.weights_table.locator("caption")).to_have_text(f"Query: {typed.pieces[last]}")
    expect_weights(explorer, typed.pieces, typed.layer_weights(1)[0][last], layer=1, model_head=0)
    # an experiment on it: a window of 2 (the typed sentence's own choices), kept by its link
    page.locator("[data-testid=window-select]").select_option("2")
    windowed = typed.head_attention(1, 0, window=2).weights[0][last]
    expect_weights(explorer, typed.pieces, windowed, layer=1, model_head=0, experiment="w2")
    link = settled_url(page)
    assert "preset=model-own" in link and "text=" in link and "window=2" in link
    shown = explorer.weights()
    page.goto(link)  # a new session: the sentence goes through the model again, at the link's window
    expect(page.locator("[data-testid=preset-select]")).to_have_value("model-own")
    expect(page.locator("[data-testid=window-select]")).to_have_value("2")
    expect(explorer.weights_table.locator("tbody tr")).to_have_count(len(shown[0]))
    assert explorer.weights() == shown
    # its heads are compared with the second checkpoint too (serve --compare), at the model's own window
    page.locator("[data-testid=window-select]").select_option("0")
    expect(explorer.weights_table).to_have_attribute("data-experiment", "")
    theirs = from_run("gpt2", *run_checkpoint(load_checkpoint(folder.parent / "other-gpt2"), "고양이가 생선을 먹었다"))
    change = typed.layer_weights(1)[0][last] - theirs.layer_weights(1)[0][last]
    expect(page.locator("[data-testid=diff]")).to_be_visible()
    top = int(np.argmax(np.abs(change)))
    expect(page.locator("[data-testid=diff-summary]")).to_contain_text(typed.pieces[top])
    expect(page.locator("[data-testid=diff-summary]")).to_contain_text(f"{change[top]:+.3f}".replace("-", "−"))
    # the second token: a causal head's two weights sum to one, so both keys change alike, and both are named
    explorer.click_token(1)
    second = typed.layer_weights(1)[0][1] - theirs.layer_weights(1)[0][1]
    assert f"{abs(second[0]):.3f}" == f"{abs(second[1]):.3f}"
    tied = page.locator("[data-testid=diff-summary]")
    expect(tied).to_have_attribute("data-keys", "0,1")
    for j in (0, 1):
        expect(tied).to_contain_text(f"{typed.pieces[j]} (변화 {second[j]:+.3f}".replace("-", "−"))
    shown = explorer.weights()
    # a sentence the model cannot take: a message, and the last one stays
    explorer.apply_sentence(" ".join(["나는 어제 학교에서 친구를 만났다"] * 20))
    expect(page.locator("[data-testid=sentence-error]")).to_contain_text("64")
    assert explorer.weights() == shown
    assert console_errors == []


def test_summaries_notices_and_the_sentence_s_size_are_what_the_core_says(page, bert_file, console_errors):
    out, bert = bert_file
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=0)
    w = bert.layer_weights(1)[0]
    n = bert.n
    expected = {"entropy": np.mean([-sum(x * np.log2(x) for x in row if x > 0) for row in w]),
                "first": np.mean(w[:, 0]), "self": np.mean(np.diag(w)), "previous": np.mean([w[i, i - 1] for i in range(1, n)])}
    for name, value in expected.items():
        expect(page.locator(f"[data-testid=head-summary] tr[data-summary={name}] td")).to_have_text(f"{value:.3f}")
    expect(page.locator("[data-testid=model-about]")).to_contain_text(f"모델의 토큰 {n}개")
    # links with a head, a top-k or a threshold that do not exist: each named, the page goes on
    open_model(page, out.as_uri(), preset="model-1", head=5, top_k=0, threshold="lots")
    notices = page.locator("[data-testid=notices]")
    for text in ("head=5", "1 이상의 정수만 쓸 수 있어요 (top_k=0). 지금 값: 10", "threshold=lots"):
        expect(notices).to_contain_text(text)
    assert console_errors == []


@pytest.fixture(scope="module")
def long_file(tmp_path_factory):
    """A sentence longer than the steps travel for, in a file with room for two of its four views."""
    from app import models
    from app.export import export_html

    root = tmp_path_factory.mktemp("long")
    folder = write_bert(root / "tiny-bert", max_positions=128)
    text = " ".join([SENTENCE] * 6)
    out = root / "long.html"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(models, "STEPS_MAX", 40)
        aset = from_run("bert", *run_checkpoint(load_checkpoint(folder), text))
        titles = {lang: f"tiny-bert: {text}" for lang in ("ko", "en")}
        views = sum(len(json.dumps(models.head_entry(aset, "model-1", titles, layer, head, code)))
                    for layer in range(2) for head in range(2) for code in ("10", "01"))
        patch.setattr(models, "EXPORT_BUDGET", views + 1000)  # 어절, and the model's own tokens: not the other two
        export_html(out, model=folder, sentences=[text], practice=0)
    return out, aset


def test_a_long_sentence_says_what_it_carries_and_what_it_does_not(page, long_file, console_errors):
    out, aset = long_file
    assert aset.n > 64
    open_model(page, out.as_uri(), preset="model-1")
    status = page.locator("[data-testid=model-status]")
    expect(status).to_have_text(f"토큰이 {aset.n}개인 긴 문장은 가중치만 보내요 (모델이 계산한 그대로). 모든 단계는 토큰 40개까지 보여 줘요.")
    expect(page.locator("[data-testid=calc-weights-only]")).to_have_text(status.inner_text())
    expect(page.locator("[data-testid=model-about]")).to_contain_text("한 변을 32개 칸으로 묶었어요")
    # the model's own tokens: their weights, and no heatmap past 64 tokens (it says so, with the count)
    page.goto(out.as_uri() + "?" + urlencode({"preset": "model-1", "merge": 0, "special": 1, "layer": 1, "head": 1,
                                               "query": 5}))
    expect(page.locator("[data-testid=heatmap-too-long]")).to_have_text(
        f"토큰이 {aset.n}개라 가중치 행렬을 그리지 않아요 (64개까지). 위의 층 × head 개요를 보세요.")
    explorer = ExplorerPage(page, out.as_uri())
    expect_weights(explorer, aset.pieces, aset.layer_weights(1)[1][5], layer=1, model_head=1)
    # a view the file has no room for says so
    page.locator("[data-testid=special-toggle]").click()
    expect(page.locator("[data-testid=model-status]")).to_have_text(
        "이 head의 이 보기는 이 파일에 없어요 (파일 크기 한도). 서버로 실행하면 모두 볼 수 있어요.")
    assert console_errors == []


def test_an_imported_npz_opens_as_one_file_with_its_weights(page, tmp_path, console_errors):
    """`attention-viz import FILE.npz`: the file shows the weights it was given, and only those."""
    import subprocess

    from support import ROOT

    tokens = ["[CLS]", "고양이가", "생선을", "먹었다", "[SEP]"]
    weights = np.random.default_rng(9).dirichlet(np.ones(5), size=(2, 2, 5))
    np.savez(tmp_path / "attention.npz", tokens=np.array(tokens), attentions=weights)
    subprocess.run([sys.executable, "-m", "app.cli", "import", str(tmp_path / "attention.npz")], cwd=ROOT, check=True,
                   capture_output=True)
    base = (tmp_path / "attention.html").as_uri()
    explorer = open_model(page, base, preset="imported-1", layer=1, head=0, merge=0, special=1, query=3)
    expect_weights(explorer, tokens, weights[1, 0, 3], layer=1, model_head=0)
    expect(page.locator("[data-testid=calc-weights-only]")).to_contain_text("가중치만")
    assert console_errors == []


def test_a_600_token_import_gets_a_compact_token_picker_and_keeps_its_figure_on_the_first_screen(page, tmp_path,
                                                                                                console_errors):
    """Past 64 tokens the token buttons give way to a list (type a token's first letters) with one
    token back or on: 600 buttons put the figure 26,403 px down the page."""
    import subprocess

    from support import ROOT

    tokens = [f"w{i}" for i in range(600)]
    weights = np.random.default_rng(3).dirichlet(np.ones(600), size=(1, 2, 600)).astype(np.float32)
    np.savez(tmp_path / "long.npz", tokens=np.array(tokens), attentions=weights)
    subprocess.run([sys.executable, "-m", "app.cli", "import", str(tmp_path / "long.npz")], cwd=ROOT, check=True,
                   capture_output=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    explorer = open_model(page, (tmp_path / "long.html").as_uri(), preset="imported-1")
    expect(page.locator("[data-testid=token-picker]")).to_be_visible()
    expect(page.locator("[data-testid=token-buttons] button")).to_have_count(0)
    expect(page.locator("[data-testid=token-list] option")).to_have_count(600)
    assert page.locator("[data-testid=lines-figure]").bounding_box()["y"] < 720  # the figure starts on the first screen
    expect(page.locator("[data-testid=model-overview] button").first).to_be_visible()
    page.locator("[data-testid=token-list]").select_option("299")
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: w299")
    page.locator("[data-testid=token-next]").click()
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: w300")
    expect(page.locator("[data-testid=token-list]")).to_have_value("300")
    page.locator("[data-testid=token-back]").click()
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: w299")
    assert console_errors == []


def test_a_room_asks_which_key_a_served_model_s_head_weights_most(browser, served_models):
    """The lecturer shows a head of the served GPT-2 and asks which key it weights most: the phone
    offers the model's tokens, and the reveal's truth is the key the weights table puts first."""
    from test_classroom_browser import PHONE
    from test_room_browser import lecturer_opens_a_room, open_page as open_explorer

    base, gpt, _, _ = served_models
    query = 3
    row = gpt.layer_weights(1)[0][query]
    context, lecturer, room = lecturer_opens_a_room(browser, base + f"?preset=model-1&layer=1&head=0&merge=0&special=1&query={query}")
    phone_context = browser.new_context(**PHONE)
    phone = open_explorer(phone_context, f"{base}?room={room}")
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("1")
    expect(phone.locator("[data-testid=weights-table]")).to_have_attribute("data-layer", "1")
    lecturer.locator("[data-testid=poll-top-key]").click()
    expect(phone.locator("[data-testid=poll-question]")).to_have_text(f"Query {gpt.pieces[query]}: 어느 Key가 가장 큰 가중치를 받을까요?")
    expect(phone.locator("[data-testid=poll] [data-testid^=poll-choice-]")).to_have_count(len(gpt.pieces))
    phone.locator(f"[data-testid=poll-choice-{int(row.argmax())}]").click()
    expect(lecturer.locator("[data-testid=poll-answers]")).to_have_text("답한 학생: 1 / 1")
    lecturer.locator("[data-testid=poll-reveal]").click()
    expect(phone.locator("[data-testid=poll-histogram] li[data-truth=true]")).to_have_attribute("data-choice", str(int(row.argmax())))
    expect(phone.locator("[data-testid=poll-result]")).to_have_attribute("data-status", "correct")
    expect_weights(ExplorerPage(lecturer, base), gpt.pieces, row, layer=1, model_head=0)  # the table the truth was read from
    phone_context.close()
    context.close()


def test_a_causal_models_next_tokens_and_lens_come_from_the_core_and_a_token_writes_on(page, served_models, console_errors):
    """The next-token card of a served GPT-2: the top k at a temperature and each layer's guess at
    the last token, as attention_core.prediction says; a temperature out of range is refused in the
    page's words; a whole token's button writes it onto the sentence and runs the model again."""
    from attention_core.prediction import logit_lens, next_tokens

    base, gpt, _, _ = served_models
    asked = []  # the next requests the page sends
    page.on("websocket", lambda socket: socket.on("framesent", lambda frame: asked.append(1)
                                                   if isinstance(frame, str) and '"next"' in frame else None))
    open_model(page, base, preset="model-1", layer=1, head=1, merge=0, query=4)
    card = page.locator("[data-testid=next-card]")
    expect(card).to_be_visible()
    expect(card.locator("[data-testid=next-intro]")).to_have_text(text("next_intro", "ko"))
    card.locator("[data-testid=next-ask]").click()
    rows = card.locator("[data-testid=next-token] li")
    expect(rows).to_have_count(5)
    made = next_tokens(gpt.run, 5, 1.0)
    assert [int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.tokenId)")] == made.ids.tolist()
    shown = [float(p) for p in rows.evaluate_all("rows => rows.map(r => r.dataset.probability)")]
    assert np.allclose(shown, made.probabilities, atol=1e-9)
    expect(rows.nth(0)).to_contain_text(f"{gpt.token_text(int(made.ids[0]))} {made.probabilities[0]:.3f}")
    ids, chances = logit_lens(gpt.run, positions=[-1], top_k=1)
    lens = card.locator("[data-testid=logit-lens] tbody tr")
    expect(lens).to_have_count(gpt.layers + 1)
    assert [int(i) for i in lens.locator("td").evaluate_all("cells => cells.map(c => c.dataset.tokenId)")] == ids[:, 0, 0].tolist()
    # every position (the last 16 of a longer sentence, said so): a layers × positions grid of
    # each cell's top token, as the core says
    card.locator("[data-testid=lens-all]").click()
    positions = list(range(max(0, gpt.run.n - models.LENS_POSITIONS), gpt.run.n))
    assert gpt.run.n > models.LENS_POSITIONS  # byte-level pieces of a Korean sentence
    expect(card.locator("[data-testid=logit-lens] thead th[data-position]")).to_have_count(len(positions))
    expect(card.locator("[data-testid=lens-note]")).to_have_text(text("next_lens_last", "ko", position=positions[0] + 1))
    ids, chances = logit_lens(gpt.run, positions=positions, top_k=5)
    grid = lens.evaluate_all("rows => rows.map(r => [...r.querySelectorAll('td')].map(c => [+c.dataset.tokenId, +c.dataset.probability]))")
    assert np.array(grid)[..., 0].tolist() == ids[:, :, 0].tolist()
    np.testing.assert_allclose(np.array(grid)[..., 1], chances[:, :, 0], atol=1e-6)
    expect(lens.nth(1).locator("td").nth(2)).to_contain_text(f"{chances[1, 2, 0]:.2f}")
    # a cell clicked: its top 5 there, and what it is the guess of
    cell = card.locator(f"[data-testid=lens-cell-1-{positions[2]}]")
    cell.click()
    expect(cell).to_have_attribute("aria-pressed", "true")
    detail = card.locator("[data-testid=lens-detail] li")
    expect(detail).to_have_count(5)
    assert [int(i) for i in detail.evaluate_all("rows => rows.map(r => r.dataset.tokenId)")] == ids[1, 2].tolist()
    expect(card.locator("[data-testid=lens-detail] p")).to_have_text(text("next_lens_cell", "ko", layer="1", position=positions[2] + 1,
                                                                          token=gpt.token_piece(int(gpt.run.ids[positions[2]]))[0]))
    # a cooler temperature: the same order, the top one likelier
    card.locator("[data-testid=next-temperature]").fill("0.5")
    card.locator("[data-testid=next-temperature]").press("Enter")
    cooler = next_tokens(gpt.run, 5, 0.5)
    expect(rows.nth(0)).to_have_attribute("data-probability", str(cooler.probabilities[0]))
    # back to 1, a question asked before: shown again without asking Python
    before = len(asked)
    card.locator("[data-testid=next-temperature]").fill("1")
    card.locator("[data-testid=next-temperature]").press("Enter")
    expect(rows.nth(0)).to_have_attribute("data-probability", str(made.probabilities[0]))
    assert len(asked) == before and before >= 2
    card.locator("[data-testid=next-temperature]").fill("0.5")
    card.locator("[data-testid=next-temperature]").press("Enter")
    expect(rows.nth(0)).to_have_attribute("data-probability", str(cooler.probabilities[0]))
    card.locator("[data-testid=next-temperature]").fill("50")
    card.locator("[data-testid=next-temperature]").press("Enter")
    expect(card.locator("[data-testid=next-error]")).to_have_text(
        text("err_bad_temperature", "ko", low=0.05, high=10.0, value=50))
    expect(rows.nth(0)).to_have_attribute("data-probability", str(cooler.probabilities[0]))  # the last good list stays
    # a whole token (not a piece of a character's bytes) writes itself onto the sentence
    whole = next(i for i, token_id in enumerate(cooler.ids) if not gpt.token_piece(int(token_id))[1])
    for i in range(5):
        expect(card.locator(f"[data-testid=next-append-{i}]")).to_have_count(0 if gpt.token_piece(int(cooler.ids[i]))[1] else 1)
    token = gpt.token_text(int(cooler.ids[whole]))
    card.locator(f"[data-testid=next-append-{whole}]").click()
    expect(page).to_have_url(re.compile(r"text="), timeout=20_000)
    assert (" ".join(gpt.word_texts) + token) in page.evaluate("decodeURIComponent(location.search.replace(/\\+/g, ' '))")
    expect(rows).to_have_count(0)  # the list was the last sentence's
    open_model(page, base, preset="imported-2", head=2, merge=0, special=1, query=1)
    expect(card).to_be_hidden()  # weights computed elsewhere: no model here to ask
    assert console_errors == []
