"""The small model trained here, in the browser: offered beside the presets in the exported file
and the served app, its weights the core's at every saved step, the step slider, the measured
claim for a head, and a typed sentence with a word it does not know."""
from __future__ import annotations

import re
from urllib.parse import urlencode

import numpy as np
import pytest
from playwright.sync_api import expect

from app.strings import text
from app.trained_model import training_entries, TRAINED_SENTENCE, claims, metrics, trained_steps
from attention_core.grammar import role_of
from attention_core.checkpoint import run_checkpoint
from attention_core.heads import from_run
from explorer_page import ExplorerPage, assert_table_matches, settled_url

pytestmark = pytest.mark.browser


def core(step_index: int, text: str = TRAINED_SENTENCE):
    step, checkpoint = trained_steps()[step_index]
    return step, from_run("trained", *run_checkpoint(checkpoint, text))


def shown_weights(explorer: ExplorerPage, layer: int, head: int, labels, row):
    # a head asked of Python: the last view's numbers stay (dimmed) until its own are drawn
    expect(explorer.page.locator("[data-testid=explorer]")).to_have_attribute("data-status", "ready")
    table = explorer.weights_table
    expect(table).to_have_attribute("data-layer", str(layer))
    expect(table).to_have_attribute("data-model-head", str(head))
    expect(table.locator("tbody tr")).to_have_count(len(labels))
    keys, columns = explorer.weights()
    assert keys == list(labels)
    assert_table_matches(columns, np.asarray(row)[None])


def test_exported_file_offers_the_trained_model_and_its_steps(page, exported, console_errors):
    page.goto(exported.as_uri() + "?" + urlencode({"preset": "trained-2000", "layer": 1, "head": 1}))
    explorer = ExplorerPage(page, exported.as_uri())
    step, aset = core(-1)
    predicate = aset.n - 2  # [CLS] five words [SEP]: the predicate, where the model opens
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 만났다")
    shown_weights(explorer, 1, 1, aset.pieces, aset.layer_weights(1)[1][predicate])
    # the measured claim for this head, and none where the measurement does not support one
    claim = page.locator("[data-testid=head-claim]")
    found = next(c for c in claims(step) if (c["layer"], c["head"]) == (1, 1))
    expect(claim).to_have_attribute("data-role", found["role"])
    # the held-out average, and beside it what this sentence's predicate gives the word of that role
    word = next(piece for piece in aset.pieces if role_of(piece) == found["role"])
    here = aset.layer_weights(1)[1][predicate][aset.pieces.index(word)]
    expect(claim).to_have_text(text("head_claim", "ko", layer=2, head=2, role=text(f"role_{found['role']}", "ko"),
                                    share=f"{found['share']:.2f}", count=metrics()["held_out"], word=word, here=f"{here:.3f}"))
    unclaimed = next((layer, head) for layer in range(2) for head in range(4)
                     if not any((c["layer"], c["head"]) == (layer, head) for c in claims(step)))
    page.locator(f"[data-testid=overview-{unclaimed[0]}-{unclaimed[1]}]").click()
    expect(claim).to_have_attribute("data-role", "")
    # the slider: back to step 200, the same head and query, that step's weights
    page.locator("[data-testid=overview-1-1]").click()
    slider = page.locator("[data-testid=training-step]")
    slider.fill("2")
    early, early_set = core(2)
    expect(page.locator("[data-testid=training-step-value]")).to_have_text(f"{early} / {step}")
    shown_weights(explorer, 1, 1, early_set.pieces, early_set.layer_weights(1)[1][predicate])
    accuracy = metrics()["by_step"][str(early)]["accuracy"]
    expect(page.locator("[data-testid=training-accuracy]")).to_contain_text(f"{100 * accuracy['word']:.1f}%")
    # the file carries every step at the last training step only (its size budget), and says so
    status = page.locator("[data-testid=model-status]")
    expect(status).to_have_text(text("steps_last_training_step", "ko", last=step))
    expect(page.locator("[data-testid=show-steps]")).to_be_hidden()
    slider.fill("4")
    expect(status).to_have_text(text("model_own", "ko", layer=2, head=2))  # layer 1, head 1 counted from 1
    assert console_errors == []


def test_the_file_shows_what_the_model_fills_in_for_its_masked_predicate_at_every_step(page, exported, console_errors):
    """The model trained here predicts masked words, not the next one: the card hides the
    predicate as [MASK] and shows the core's top 5 for it at each training step (the slider), a
    verdict true of its first guess, and each layer's guess there."""
    from attention_core.prediction import masked_word

    page.goto(exported.as_uri() + "?" + urlencode({"preset": "trained-2000"}))
    card = page.locator("[data-testid=fill-card]")
    expect(card).to_be_visible()
    expect(page.locator("[data-testid=next-card]")).to_be_hidden()  # nothing to ask in a file
    slider = page.locator("[data-testid=training-step]")
    verdicts = []
    for index, (step, checkpoint) in enumerate(trained_steps()):
        slider.fill(str(index))
        expect(page.locator("[data-testid=training-step-value]")).to_contain_text(f"{step} /")
        _, run = run_checkpoint(checkpoint, TRAINED_SENTENCE)
        made = masked_word(run, run.n - 2, checkpoint.tokenizer.token_to_id("[MASK]"), 5)
        rows = card.locator("[data-testid=fill-token] li")
        expect(rows.nth(0)).to_have_attribute("data-token-id", str(int(made.ids[0])))
        assert [int(i) for i in rows.evaluate_all("rows => rows.map(r => r.dataset.tokenId)")] == made.ids.tolist()
        np.testing.assert_allclose([float(p) for p in rows.evaluate_all("rows => rows.map(r => r.dataset.probability)")],
                                   made.probabilities, atol=1e-8)
        word = checkpoint.tokenizer.id_to_token(made.hidden_id)
        guess = checkpoint.tokenizer.id_to_token(int(made.ids[0]))
        expect(card.locator("[data-testid=fill-intro]")).to_have_text(text("fill_intro", "ko", word=word))
        verdict = (text("fill_right", "ko", word=word, probability=f"{made.probabilities[0]:.3f}") if guess == word
                   else text("fill_wrong", "ko", word=word, guess=guess, probability=f"{made.probabilities[0]:.3f}"))
        expect(card.locator("[data-testid=fill-verdict]")).to_have_text(verdict)
        verdicts.append(guess == word)
        cells = card.locator("[data-testid=fill-lens] tbody td")
        expect(cells).to_have_count(checkpoint.config.layers + 1)
        assert [int(i) for i in cells.evaluate_all("cells => cells.map(c => c.dataset.tokenId)")] == made.lens_ids[:, 0].tolist()
    assert verdicts[0] is False and verdicts[-1] is True  # untrained it misses; trained it finds the predicate
    # a layer's cell lists its top 5 there
    card.locator(f"[data-testid=fill-cell-1-{run.n - 2}]").click()
    detail = card.locator("[data-testid=fill-detail] li")
    expect(detail).to_have_count(5)
    # what the list is the guess of: layer 1, the [MASK] counted with [CLS] as the overview's tokens are
    expect(card.locator("[data-testid=fill-detail] p")).to_have_text(text("fill_lens_cell", "ko", layer="1", position=run.n - 1))
    expect(card.locator("[data-testid=fill-lens] thead th[data-position]")).to_have_text("[MASK]" + text("lens_position", "ko", position=run.n - 1))
    assert [int(i) for i in detail.evaluate_all("rows => rows.map(r => r.dataset.tokenId)")] == made.lens_ids[1].tolist()
    assert console_errors == []


def test_served_app_runs_a_typed_sentence_through_the_trained_model_and_names_unknown_words(explorer):
    page = explorer.page
    explorer.open(preset="trained-2000")  # opens with the calculation: every step, special tokens shown
    # a masked-word model (BERT-like) says plainly that it predicts no next token, and offers no button
    next_card = page.locator("[data-testid=next-card]")
    expect(next_card.locator("[data-testid=next-intro]")).to_have_text(text("next_not_causal", "ko"))
    expect(next_card.locator("[data-testid=next-ask]")).to_be_hidden()
    page.locator("[data-testid=sentence-input]").fill("나는 내일 카페에서 콜라를 마시겠다")
    page.locator("[data-testid=sentence-apply]").click()
    expect(page.locator("[data-testid=sentence-error]")).to_contain_text("콜라를")
    expect(page.locator("[data-testid=vocabulary]")).to_contain_text("커피를")
    explorer.apply_sentence("나는 내일 카페에서 커피를 마시겠다")
    _, aset = core(-1, "나는 내일 카페에서 커피를 마시겠다")
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 마시겠다")
    # the select shows the typed sentence's entry: the trained model on it (before, this passed only
    # while Python's answer had not yet arrived)
    expect(page.locator("[data-testid=preset-select]")).to_have_value("trained-own-2000")
    expect(page.locator("[data-testid=preset-select] option[value=trained-2000]")).to_have_count(1)
    # the head on show stays, so two sentences compare on one head: the one the model opened on
    opens = training_entries(TRAINED_SENTENCE)[0][-1]["opens"]
    layer, head = opens["layer"], opens["head"]
    shown_weights(explorer, layer, head, aset.pieces, aset.layer_weights(layer)[head][aset.n - 2])
    assert "preset=trained-own-2000" in settled_url(page)


def test_served_page_gets_the_trained_model_s_steps_when_the_student_opens_them(explorer, console_errors):
    """A served page receives the trained model's steps without their bodies (app.kinds.travelling_later);
    picking the model, then another step, asks for each whole entry and shows its weights."""
    page = explorer.page
    explorer.open()
    step, aset = core(-1)
    page.locator("[data-testid=preset-select]").select_option("trained-2000")
    page.locator("[data-testid=overview-1-1]").click()
    predicate = aset.n - 2
    shown_weights(explorer, 1, 1, aset.pieces, aset.layer_weights(1)[1][predicate])
    page.locator("[data-testid=training-step]").fill("2")
    early, early_set = core(2)
    expect(page.locator("[data-testid=training-step-value]")).to_have_text(f"{early} / {step}")
    shown_weights(explorer, 1, 1, early_set.pieces, early_set.layer_weights(1)[1][predicate])
    expect(page.locator("[data-testid=model-status]")).to_have_text(text("model_own", "ko", layer=2, head=2))
    assert f"preset=trained-{early:04d}" in settled_url(page)
    # served, every step compares: this one with the step before it and the untrained one, its list its own
    before = trained_steps()[1][0]
    options = page.locator("[data-testid=diff-with] option")
    expect(options).to_have_count(2)
    assert options.evaluate_all("(all) => all.map((o) => o.value)") == [f"trained-{before:04d}", "trained-0000"]
    expect(page.locator("[data-testid=diff-with]")).to_have_value(f"trained-{before:04d}")
    assert console_errors == []


def test_lecture_mode_keeps_the_trained_model_s_overview_lines_and_bars_on_one_projector_screen(page, exported, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 720})
    for lens in ("moved", "weight"):  # through a lens too: the figures' titles name it, its line stays in normal mode
        page.goto(exported.as_uri() + "?" + urlencode({"preset": "trained-2000", "layer": 1, "head": 1, "mode": "lecture", "lens": lens}))
        page.locator("[data-testid=weights-table] tbody tr").first.wait_for()
        for testid in ("model-overview", "training-step", "head-claim", "lines-figure", "bars"):
            box = page.locator(f"[data-testid={testid}]").bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, (lens, testid)
    bar_text = page.locator("[data-testid=bars] .ae-bar-value").first
    assert float(bar_text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 16
    page.screenshot(path=str(screenshot_dir / "trained-lecture-1280x720.png"))


def test_links_keep_the_token_view_the_keys_shown_and_a_typed_sentence(explorer):
    page = explorer.page
    explorer.open(preset="trained-2000", layer=1, head=1)
    # special tokens off: the link says so, and reopens on the same word
    page.locator("[data-testid=special-toggle]").click()
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 만났다")
    page.locator("[data-testid=top-k]").fill("3")
    page.locator("[data-testid=top-k]").press("Enter")
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key]")).to_have_count(3)
    expect(page).to_have_url(re.compile(r"special=0.*top_k=3"))
    page.goto(page.url)
    expect(page.locator("[data-testid=special-toggle]")).not_to_be_checked()
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 만났다")
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key]")).to_have_count(3)
    # a model's head is explored, not typed over: no numbers editor on it
    expect(page.locator("[data-testid=cell-q-0-0]")).to_have_count(0)
    # a sentence typed through the trained model: its link runs it again, at the same step
    explorer.apply_sentence("나는 내일 카페에서 커피를 마시겠다")
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 마시겠다")
    expect(page).to_have_url(re.compile(r"preset=trained-own-2000.*text="))
    shown = explorer.weights()
    page.goto(page.url)
    expect(explorer.weights_table.locator("caption")).to_have_text("Query: 마시겠다")
    expect(page.locator("[data-testid=notices]")).not_to_contain_text("preset")
    assert explorer.weights() == shown


def test_a_second_typed_sentence_redraws_the_overview(explorer):
    page = explorer.page
    explorer.open(preset="trained-2000")
    button = page.locator("[data-testid=overview-1-1]")
    labels = []
    for text in ("나는 내일 카페에서 커피를 마시겠다", "할머니께서 어제 집에서 밥을 드셨다"):
        explorer.apply_sentence(text)
        expect(explorer.weights_table.locator("caption")).to_have_text(f"Query: {text.split()[-1]}")
        _, aset = core(-1, text)
        entropy = np.mean([-sum(x * np.log2(x) for x in row if x > 0) for row in aset.layer_weights(1)[1]])
        expect(button).to_have_attribute("title", re.compile(f"엔트로피 {entropy:.2f} 비트"))
        labels.append(button.get_attribute("title"))
    assert labels[0] != labels[1]


@pytest.mark.parametrize("where", ["served", "exported"])
def test_preset_trained_opens_the_trained_model_at_its_last_step(page, served_app, exported, where, console_errors):
    """?preset=trained, as a lecturer would write it: the trained model at its last training step,
    with no notice, and the link then names that step."""
    base = served_app if where == "served" else exported.as_uri()
    page.goto(base + "?preset=trained")
    expect(page.locator("[data-testid=preset-select]")).to_have_value("trained-2000", timeout=20_000)
    expect(page.locator("[data-testid=overview-1-1]")).to_be_visible()
    expect(page.locator("[data-testid=notices]")).not_to_contain_text("trained")
    page.wait_for_function("() => new URLSearchParams(location.search).get('preset') === 'trained-2000'")
    # on the head the opening sentence bears out best (layer 2, head 1, counted from 1): its claim, and
    # the predicate's weight on 나는 beside it
    table = page.locator("[data-testid=weights-table]")
    expect(table).to_have_attribute("data-layer", "1")
    expect(table).to_have_attribute("data-model-head", "0")
    expect(page.locator("[data-testid=head-claim]")).to_contain_text("주어")
    page.wait_for_function("() => new URLSearchParams(location.search).get('layer') === '1'")
    assert console_errors == []


def test_the_difference_of_two_training_steps_shows_what_each_weight_gained_or_lost(page, exported, console_errors):
    """The exported file's trained model at its last step, layer 2 head 2, its own tokens: the
    difference card's grid is A_2000 − A_1000 (recomputed here from the two checkpoints), orange
    where a weight grew and blue where it shrank; the sentence names, for the selected query, the
    key whose weight changed the most, its change and its weight now; the link's compare= picks
    the untrained step instead, and the page writes it back."""
    last, now = core(-1)
    before_step, before = core(-2)
    first_step, first = core(0)
    query = now.n - 2  # the predicate
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(exported.as_uri() + "?" + urlencode({"preset": f"trained-{last:04d}", "layer": 1, "head": 1, "merge": 0,
                                                   "special": 1, "query": query}))
    card = page.locator("[data-testid=diff]")
    expect(card).to_be_visible()
    expect(page.locator("[data-testid=diff-with]")).to_have_value(f"trained-{before_step:04d}")
    change = now.layer_weights(1)[1] - before.layer_weights(1)[1]
    cells = page.locator("[data-testid=diff-heatmap] rect.ae-diff-cell")
    expect(cells).to_have_count(now.n * now.n)
    drawn = cells.evaluate_all("(cells) => cells.map((c) => [Number(c.dataset.row), Number(c.dataset.key), c.getAttribute('fill'),"
                               " Number(c.getAttribute('fill-opacity'))])")
    for i, j, fill, opacity in drawn:
        assert fill == ("#c85a00" if change[i, j] >= 0 else "#1f63b5"), (i, j, change[i, j], fill)
        assert opacity == pytest.approx(0.04 + 0.7 * min(1, abs(change[i, j])), abs=0.0006)
    key = int(np.argmax(np.abs(change[query])))
    expect(page.locator("[data-testid=diff-summary]")).to_have_attribute("data-key", str(key))
    sign = "+" if change[query, key] > 0 else "−"
    expect(page.locator("[data-testid=diff-summary]")).to_have_text(
        f"Query {now.pieces[query]}: 비교 대상(학습 단계 {before_step})에서 가장 크게 바뀐 Key는 {now.pieces[key]} · "
        f"변화 {sign}{abs(change[query, key]):.3f}, 여기 가중치 {now.layer_weights(1)[1][query, key]:.3f}.")
    # what removing this head costs the task, on the held-out sentences (metrics.json, measured again in tests/app/test_training.py)
    found = metrics()["by_step"][str(last)]["ablation"]
    without = np.array(found["without"])
    rank = int((without > without[1, 1]).sum()) + 1
    assert rank == 3
    expect(page.locator("[data-testid=lens-ablation-held-out]")).to_have_text(text(
        "lens_ablation_held_out", "ko", count=metrics()["held_out"], loss=f"{found['loss']:.3f}", without=f"{without[1, 1]:.3f}",
        rank=rank, heads=without.size))
    # the untrained step instead, from the select: the link follows
    page.locator("[data-testid=diff-with]").select_option(f"trained-{first_step:04d}")
    change = now.layer_weights(1)[1] - first.layer_weights(1)[1]
    key = int(np.argmax(np.abs(change[query])))
    expect(page.locator("[data-testid=diff-summary]")).to_contain_text(f"학습 단계 {first_step}")
    expect(page.locator("[data-testid=diff-summary]")).to_have_attribute("data-key", str(key))
    page.wait_for_function(f"location.search.includes('compare=trained-{first_step:04d}')")
    # an earlier step in the file carries no comparison (the file's budget): the card steps aside
    page.locator("[data-testid=training-step]").fill("2")
    expect(card).to_be_hidden()
    assert console_errors == []
