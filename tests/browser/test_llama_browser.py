"""The Llama family in the browser: a Mistral checkpoint stored as bfloat16, with grouped-query
attention and a sliding window shorter than the sentence, exported to a file; a Qwen2 checkpoint
(one key/value head, q/k/v biases, byte-level tokens) served. The page shows the plain-loop
reference's weights (tests/llama_reference.py) for sampled layers, heads and queries, and the
calculation's scores are the rotated q · k."""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from playwright.sync_api import expect

from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.heads import digest, from_run
from attention_core.rotary import rotation_view
from attention_core.transformer import forward
from llama_reference import reference_forward
from support import free_port, run_export, running
from test_model_browser import SENTENCE, expect_weights, open_model
from tiny_models import as_bfloat16, llama_tensors, write_llama

pytestmark = pytest.mark.browser


def reference(folder, encoded):
    """The reference's weights [layer][head][query][key] for the folder's checkpoint (bfloat16)."""
    config = json.loads((folder / "config.json").read_text())
    tensors = {name: as_bfloat16(value) for name, value in llama_tensors(config, np.random.default_rng(3)).items()}
    return np.array(reference_forward(config, tensors, list(encoded.ids))[1])


def test_an_exported_mistral_file_shows_the_references_weights_and_its_window(page, tmp_path, console_errors):
    folder = write_llama(tmp_path / "tiny-mistral", "mistral", window=3)
    out = tmp_path / "mistral.html"
    run_export(out, "--model", folder, "--sentence", SENTENCE, "--practice", "0")
    encoded, run = run_checkpoint(load_checkpoint(folder), SENTENCE)
    model, expected = from_run("mistral", encoded, run), reference(folder, encoded)
    n = model.n
    assert n > 4
    for layer, head, query in [(0, 0, n - 1), (1, 3, n - 2), (1, 1, 2)]:
        explorer = open_model(page, out.as_uri(), preset="model-1", layer=layer, head=head, merge=0, special=1, query=query)
        expect_weights(explorer, model.pieces, expected[layer, head, query], layer=layer, model_head=head)
        # keys three tokens back or more are outside the window: no weight at all
        assert all(expected[layer, head, query, key] == 0 for key in range(max(0, query - 2)))
        # the calculation's scores are q · k after the rotation, as the model computes them
        scores = model.head_attention(layer, head).scores[0][query]
        cells = page.locator("[data-testid=calc-table] tbody tr td:nth-of-type(1)")
        expect(cells).to_have_count(n)
        shown = [float(c.split("=")[-1].replace("−", "-")) for c in cells.all_inner_texts()]
        np.testing.assert_allclose(shown, scores, atol=0.0005 + 1e-9)
    expect_overview_pixels(page, model)  # from the file's base64
    # what the model card says of its shape: two query heads per key/value head, a window of three
    shape = page.locator("[data-testid=model-shape]")
    expect(shape).to_contain_text("Query head 2개가 Key/Value head 하나를 함께 써요")
    expect(shape).to_contain_text("가장 가까운 3개 토큰만")
    # the head on show (layer 2, head 2, the last opened) names the heads it shares k and v with
    expect(page.locator("[data-testid=head-kv-group]")).to_have_text(
        "이 head와 같은 Key/Value head (KV 1)를 쓰는 head: H1, H2. k와 v가 같고 q만 달라요.")
    assert [np.array_equal(model.run.head_qkv(1, 0)[i], model.run.head_qkv(1, 1)[i]) for i in range(3)] == [False, True, True]
    # the overview's brackets: each over the heads that share its key/value head
    for kv, heads in enumerate(model.kv_groups):
        group = page.locator(f"[data-testid=kv-group-{kv}]")
        expect(group).to_have_attribute("data-heads", " ".join(map(str, heads)))
        box, first, last = (locator.bounding_box() for locator in
                            (group, page.locator(f"[data-testid=overview-0-{heads[0]}]"), page.locator(f"[data-testid=overview-0-{heads[-1]}]")))
        assert box["x"] <= first["x"] + 1 and box["x"] + box["width"] >= last["x"] + last["width"] - 1, (box, first, last)
    expect_sinks(page, model)  # none: the window keeps most queries from the first token
    # the rollout reaches past the window through the layer below: those keys are drawn, not masked
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=0, merge=0, special=1, query=n - 1, top_k=n, lens="rollout")
    rolled = model.rollouts[1][n - 1]
    assert rolled[n - 5] > 0.001  # four places back: outside this layer's window, inside the layer below's
    np.testing.assert_allclose([drawn_bars(page)[j] for j in range(n)], rolled, atol=0.0005)
    expect(page.locator("[data-testid=bars] .ae-bar-row.ae-masked")).to_have_count(0)
    expect(page.locator("[data-testid=heatmap] rect.ae-heat-cell[fill='#f3f3f3']")).to_have_count(n * (n - 1) // 2)  # the future only
    # the window removed (an experiment): every earlier key, and the note says so; with the mask off too, the window hides nothing
    explorer = open_model(page, out.as_uri(), preset="model-1", layer=1, head=0, merge=0, special=1, query=n - 1, window=0)
    status = page.locator("[data-testid=model-status]")
    expect(status).to_contain_text("이 head에서 sliding window를 없앴어요 (Query마다 앞의 모든 Key를 봐요). 모델 자신의 창: 3.")
    expect_weights(explorer, model.pieces, model.head_attention(1, 0, window=0).weights[0][n - 1], layer=1, model_head=0)
    assert (model.head_attention(1, 0, window=0).weights[0][n - 1][:n - 3] > 0).all()
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=0, merge=0, special=1, query=n - 1, window=1, causal=0)
    expect(status).to_contain_text("마스크를 끄면 창은 아무것도 가리지 않아요.")
    expect_weights(explorer, model.pieces, model.head_attention(1, 0, causal=False).weights[0][n - 1], layer=1, model_head=0)
    # a Llama checkpoint (no window, bfloat16) whose random heads do park weight on <s>
    folder = write_llama(tmp_path / "tiny-llama", "llama")
    out = tmp_path / "llama.html"
    run_export(out, "--model", folder, "--sentence", SENTENCE, "--practice", "0")
    open_model(page, out.as_uri(), preset="model-1")
    # merged into 어절 (the default) the words read as typed: 나는, not the piece ▁나는
    expect(page.locator("[data-testid=token-buttons] button")).to_have_text(SENTENCE.split())
    llama = from_run("llama", *run_checkpoint(load_checkpoint(folder), SENTENCE))
    # its random heads give <s> half their weight or more only when the forced first row (which
    # sees <s> alone) is counted: five heads did so; over the queries that had a choice, none is a sink
    forced_in = sum(int(llama.layer_weights(layer)[head][:, 0].mean() >= 0.5)
                    for layer in range(llama.layers) for head in range(llama.heads))
    assert forced_in == 5 and expect_sinks(page, llama) == 0
    # the rotation's step for one query: each pair's angle, q before and after, scores with and without
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=2, merge=0, special=1, query=4)
    view = rotation_view(llama.run, 1, 2)
    q = llama.run.head_qkv(1, 2)[0][4]
    half = len(q) // 2
    rows = page.locator("[data-testid=rope-pairs] tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.children, (cell) => cell.innerText))")
    assert [row[0] for row in rows] == [f"{i + 1}, {i + 1 + half}" for i in range(half)]
    numbers = lambda text: [float(x.replace("−", "-")) for x in text.strip("()").split(",")]  # noqa: E731
    np.testing.assert_allclose([float(row[1]) for row in rows], view["angles"][4], atol=0.0005)
    np.testing.assert_allclose([numbers(row[2]) for row in rows], np.stack([view["q_plain"][4][:half], view["q_plain"][4][half:]], 1), atol=0.0005)
    np.testing.assert_allclose([numbers(row[3]) for row in rows], np.stack([q[:half], q[half:]], 1), atol=0.0005)
    scores = page.locator("[data-testid=rope-scores] tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => Number(cell.innerText.replace('−', '-'))))")
    np.testing.assert_allclose(scores, np.stack([llama.head_attention(1, 2).scores[0][4], view["scores_plain"][4]], 1), atol=0.0005)
    assert view["shift_difference"] < 1e-12
    expect(page.locator("[data-testid=rope-shift]")).to_contain_text(
        f"100개 위치만큼 뒤로 옮겨 다시 돌려도 스코어는 그대로예요 (가장 큰 차이 {view['shift_difference']:.1e}")
    # what the weights do not tell, for query 4 of head 4 in layer 2 (its largest weight and what
    # moves the most are different keys): every column against the lenses' definitions
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=3, merge=0, special=1, query=4)
    weights = llama.head_attention(1, 3).weights[0]
    v, w_o = llama.run.head_qkv(1, 3)[2], llama.run.head_w_o(1, 3)
    norms = np.linalg.norm(v @ w_o, axis=1)
    rest = weights[4].copy()
    rest[0] = 0
    expected = np.stack([weights[4], weights[4] * norms, norms, rest / rest.sum(), llama.rollouts[1][4]], 1)
    lens = page.locator("[data-testid=lens-table] tbody tr").evaluate_all(
        "(rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => Number(cell.innerText.replace('−', '-'))))")
    np.testing.assert_allclose(lens, expected, atol=0.0005)
    moved = page.locator("[data-testid=lens-moved]")
    expect(moved).to_have_attribute("data-differs", "true")
    expect(moved).to_contain_text(f"가중치가 가장 큰 Key: {llama.pieces[weights[4].argmax()]}")
    expect(moved).to_contain_text(f"출력을 가장 많이 움직이는 Key (α‖v W_O‖): {llama.pieces[(weights[4] * norms).argmax()]}. 둘이 달라요")
    # the head removed and the model run again: the change of query 4's last hidden state
    last = llama.run.hidden[-1]
    removed = forward(llama.run.config, llama.run.weights, llama.run.ids, drop=(1, 3)).hidden[-1]
    change = np.linalg.norm(removed[4] - last[4]) / np.linalg.norm(last[4])
    expect(page.locator("[data-testid=lens-ablation]")).to_contain_text(f"마지막 정규화 뒤의 출력이 {100 * change:.1f}% 바뀌어요")
    expect_lenses_drawn(page, out.as_uri(), llama, weights, weights * norms)
    expect_experiments(page, out.as_uri(), llama)
    assert console_errors == []


def expect_experiments(page, url, model):
    """Rotation off (rope=0) and another window, from the file: the calculation's scores are the
    unrotated q · k, every view shows the experiment's weights (computed here from the plain q and
    k), the model card says it is an experiment, the lenses and the rotation's step step aside;
    a window of 1 leaves each query only itself; the link keeps each."""
    n, query, d = model.n, 4, model.run.config.d_head
    explorer = open_model(page, url, preset="model-1", layer=1, head=2, merge=0, special=1, query=query, rope=0)
    q, k, _ = model.run.head_qkv(1, 2, rotate=False)
    scores = q @ k.T
    expected = np.exp(scores[query, :query + 1] / np.sqrt(d) - (scores[query, :query + 1] / np.sqrt(d)).max())
    expected = np.concatenate([expected / expected.sum(), np.zeros(n - query - 1)])
    expect_weights(explorer, model.pieces, expected, layer=1, model_head=2)
    cells = page.locator("[data-testid=calc-table] tbody tr td:nth-of-type(1)")
    shown = [float(c.split("=")[-1].replace("−", "-")) for c in cells.all_inner_texts()]
    np.testing.assert_allclose(shown, scores[query], atol=0.0005 + 1e-9)
    np.testing.assert_allclose([drawn_bars(page)[j] for j in range(n)], expected, atol=0.0005)
    status = page.locator("[data-testid=model-status]")
    expect(status).to_have_attribute("data-experiment", "true")
    expect(status).to_contain_text("여기서는 돌리지 않은 이 head의 스코어를 보여 줘요")
    expect(page.locator("[data-testid=rope-toggle]")).not_to_be_checked()
    expect(page.locator("[data-testid=rotation]")).to_be_hidden()
    expect(page.locator("[data-testid=lenses]")).to_be_hidden()
    # back on: the model's own, the rotation's step again; then a window of 1, chosen on the page
    page.locator("[data-testid=rope-toggle]").check()
    expect(status).to_have_attribute("data-experiment", "false")
    expect(page.locator("[data-testid=rotation]")).to_be_visible()
    page.locator("[data-testid=window-select]").select_option("1")
    expect(status).to_contain_text("크기 1: Query마다 자기 자신을 포함해 가장 가까운 Key만 봐요")
    page.wait_for_function("location.search.includes('window=1')")
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key='4'] .ae-bar-value")).to_have_text("1.000")
    bars = drawn_bars(page)
    assert bars[query] == 1 and all(bars[j] == 0 for j in range(n) if j != query)
    expect(page.locator("[data-testid=heatmap] rect.ae-heat-cell[data-row='0']")).to_have_count(n)
    # the merged 어절 view the model opens in: its weights alone, and the experiment said as such
    open_model(page, url, preset="model-1", layer=1, head=2, rope=0)
    expect(status).to_have_attribute("data-experiment", "true")
    expect(status).to_contain_text("어절")
    expect(status).to_contain_text("여기서는 돌리지 않은 이 head의 스코어를 보여 줘요")
    # a window the model does not offer: a notice, the model's own window kept
    open_model(page, url, preset="model-1", layer=1, head=2, merge=0, special=1, query=query, window=3)
    expect(page.locator("[data-testid=notices]")).to_contain_text("window=3")
    expect(status).to_have_attribute("data-experiment", "false")


def drawn_bars(page) -> dict[int, float]:
    """The bars' numbers by key, as the page writes them beside each bar."""
    rows = page.locator("[data-testid=bars] .ae-bar-row[data-key]").evaluate_all(
        "(rows) => rows.map((row) => [Number(row.dataset.key), row.querySelector('.ae-bar-value').innerText])")
    return {key: float(text.replace("✕", "").replace("−", "-").strip()) for key, text in rows}


def expect_lenses_drawn(page, url, model, weights, moved):
    """Layer 2 head 4, query 4, through each lens: the bars, lines and heatmap draw the lens's row
    (computed here from its definition), the weights table still the weights, and the line above
    them names the key the lens puts first beside the heaviest weight's; an experiment draws the
    weights again, and says why."""
    n, query = model.n, 4
    share = moved[query] / moved[query].sum()
    explorer = open_model(page, url, preset="model-1", layer=1, head=3, merge=0, special=1, query=query, top_k=n, lens="moved")
    expect_weights(explorer, model.pieces, weights[query], layer=1, model_head=3)  # the table: the weights, whatever the lens
    shown = page.locator("[data-testid=lens-shown]")
    expect(shown).to_have_attribute("data-top", str(int(share.argmax())))
    expect(shown).to_have_attribute("data-weight-top", str(int(weights[query].argmax())))
    assert share.argmax() != weights[query].argmax()  # this head's query is where the lens tells something
    expect(shown).to_contain_text(f"여기서 가장 큰 Key는 {model.pieces[share.argmax()]} ({share.max():.3f})")
    expect(shown).to_contain_text(f"가중치가 가장 큰 Key는 {model.pieces[weights[query].argmax()]} ({weights[query].max():.3f})")
    expect(page.locator("[data-testid=lens]")).to_have_value("moved")
    for card in ("lines", "bars", "heat"):  # each figure's title says it draws the lens, not the weights
        expect(page.locator(f".ae-card-{card} .ae-title-badge")).to_have_text("Key마다 옮기는 몫")
    bars = drawn_bars(page)
    np.testing.assert_allclose([bars[j] for j in range(n)], share, atol=0.0005)
    widths = page.locator("[data-testid=lines-figure] line[data-key]").evaluate_all(
        "(lines) => lines.map((line) => [Number(line.dataset.key), Number(line.getAttribute('stroke-width'))])")
    np.testing.assert_allclose([w for _, w in sorted(widths)], 1.5 + 12 * share[[j for j, _ in sorted(widths)]], atol=0.006)
    row = page.locator(f"[data-testid=heatmap] rect.ae-heat-cell[data-row='{query}']")
    expect(row).to_have_count(n)  # the heatmap is drawn after the figures above it
    cells = row.evaluate_all("(cells) => cells.map((cell) => Number(cell.getAttribute('fill-opacity')))")
    np.testing.assert_allclose(cells[:query + 1], 0.06 + 0.94 * share[:query + 1], atol=0.0006)  # later keys: masked, grey
    # the rollout, chosen on the page: the link follows
    page.locator("[data-testid=lens]").select_option("rollout")
    expect(shown).to_contain_text("층 2까지의 rollout")
    np.testing.assert_allclose([drawn_bars(page)[j] for j in range(n)], model.rollouts[1][query], atol=0.0005)
    page.wait_for_function("location.search.includes('lens=rollout')")
    # an experiment (√d off): the lenses are at the model's own switches, so the weights are drawn, and the line says so
    page.locator("[data-testid=scale-toggle]").click()
    expect(shown).to_have_text("렌즈는 모델 자신의 스위치에서 계산해요: 실험을 끄면 보여요. 지금은 가중치를 그렸어요.")
    expect(page.locator(".ae-title-badge")).to_have_count(0)
    unscaled = model.head_attention(1, 3, scale=False).weights[0][query]
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key='0'] .ae-bar-value")).to_have_text(f"{unscaled[0]:.3f}")
    np.testing.assert_allclose([drawn_bars(page)[j] for j in range(n)], unscaled, atol=0.0005)
    # the strongest keys of a long row are ranked through the lens: without the first token, the top 3
    explorer = open_model(page, url, preset="model-1", layer=1, head=3, merge=0, special=1, query=n - 1, top_k=3, lens="no_sink")
    rest = weights[n - 1].copy()
    rest[0] = 0
    rest /= rest.sum()
    top = sorted(np.argsort(-rest, kind="stable")[:3])
    expect(page.locator("[data-testid=bars] .ae-bar-row[data-key]")).to_have_count(3)
    bars = drawn_bars(page)
    assert sorted(bars) == top
    np.testing.assert_allclose([bars[j] for j in top], rest[top], atol=0.0005)
    expect(page.locator("[data-testid=bars-rest]")).to_contain_text(f"{np.sort(rest)[:-3].sum():.3f}")


def expect_overview_pixels(page, model) -> None:
    """Every head's small matrix in the overview is drawn from the core's pixels (heads.digest):
    white for 0, so each pixel's red is 255 − round(255 × pooled weight); a causal model's squares
    were sent as their lower triangles."""
    expect(page.locator("[data-testid=model-overview]")).to_have_attribute("data-painted", "true")
    drawn = page.locator("[data-testid=model-overview] canvas").evaluate_all("""(canvases) => canvases.map((canvas) => {
        const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
        return Array.from({length: data.length / 4}, (_, i) => 255 - data[4 * i]); })""")
    pixels, _, _ = digest(model)
    np.testing.assert_array_equal(np.array(drawn).reshape(pixels.shape), pixels)


def expect_sinks(page, model) -> int:
    """The sink badge on exactly the heads whose queries that could attend elsewhere give the first
    token half their weight or more on average, and at least twice what an even spread over the
    keys each sees would (worked out here from the core's weights and the model's mask), and the
    note under the overview where there are any."""
    i, j = np.indices((model.n, model.n))
    seen = ((j <= i) | (not model.causal)) & ((i - j < model.window) | (model.window == 0))
    choosing = seen[:, 0] & (seen.sum(axis=1) >= 2)
    even = (1 / seen[choosing].sum(axis=1)).mean()
    first = np.array([[model.layer_weights(layer)[head][choosing, 0].mean() for head in range(model.heads)]
                      for layer in range(model.layers)])
    sinks = (first >= 0.5) & (first >= 2 * even)
    for layer in range(model.layers):
        for head in range(model.heads):
            expect(page.locator(f"[data-testid=overview-{layer}-{head}]")).to_have_attribute(
                "data-sink", str(bool(sinks[layer, head])).lower())
    note = expect(page.locator("[data-testid=sink-note]"))
    note.to_be_visible() if sinks.any() else note.to_be_hidden()
    return int(sinks.sum())


def test_a_served_qwen2_model_sends_each_head_with_the_references_weights(page, tmp_path, console_errors):
    folder = write_llama(tmp_path / "tiny-qwen", "qwen2", kv_heads=1)
    encoded, _ = run_checkpoint(load_checkpoint(folder), SENTENCE)
    expected = reference(folder, encoded)
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    with running([sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--model", str(folder),
                  "--sentence", SENTENCE], url):
        for layer, head, query in [(1, 2, len(encoded.ids) - 1), (0, 3, 5)]:
            explorer = open_model(page, url, preset="model-1", layer=layer, head=head, merge=0, special=1, query=query)
            expect_weights(explorer, encoded.pieces, expected[layer, head, query], layer=layer, model_head=head)
        # rotation off and no window are experiments Python makes when the page asks: head 4 of layer 1, query 5
        model = from_run("qwen2", encoded, run_checkpoint(load_checkpoint(folder), SENTENCE)[1])
        expect_overview_pixels(page, model)  # its packed triangles came as a binary frame
        page.locator("[data-testid=rope-toggle]").uncheck()
        expect(page.locator("[data-testid=model-status]")).to_contain_text("돌리지 않은 이 head의 스코어")
        expect_weights(explorer, encoded.pieces, model.head_attention(0, 3, rotate=False).weights[0][5], layer=0, model_head=3)
        expect(page.locator("[data-testid=model-status]")).to_have_attribute("data-experiment", "true")
        page.locator("[data-testid=window-select]").select_option("2")
        expect(page.locator("[data-testid=model-status]")).to_contain_text("크기 2: Query마다")  # the head Python made
        expect_weights(explorer, encoded.pieces, model.head_attention(0, 3, rotate=False, window=2).weights[0][5], layer=0, model_head=3)
        page.wait_for_function("location.search.includes('rope=0') && location.search.includes('window=2')")
    assert console_errors == []


def test_on_a_phone_the_rotation_and_the_lenses_keep_every_number_on_the_screen(browser, tmp_path):
    """At 390 px the rotation's and the lenses' tables stack per row (each number beside its
    column's heading), as the calculation does: nothing is reached by a sideways swipe."""
    from test_accessibility_browser import violations
    from test_classroom_browser import PHONE

    # a head of 64 numbers, as Llama's and Qwen2.5's: 32 pairs
    folder = write_llama(tmp_path / "tiny-llama", "llama", d=128, heads=2, kv_heads=1)
    out = tmp_path / "llama.html"
    run_export(out, "--model", folder, "--sentence", SENTENCE, "--practice", "0")
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=1, merge=0, special=1, query=4)
    pairs = page.locator("[data-testid=rope-pairs] tbody tr:not(.ae-rope-gap)")
    expect(pairs).to_have_count(32)
    assert all(row.is_visible() for row in pairs.all()) and not page.locator("[data-testid=rope-gap]").is_visible()
    for name in ("rotation", "lenses"):
        expect(page.locator(f"[data-testid={name}]")).to_be_visible()
        boxes = page.locator(f"[data-testid={name}] .ae-scroll").evaluate_all(
            "(boxes) => boxes.map((box) => box.scrollWidth - box.clientWidth)")
        assert boxes and max(boxes) <= 1, (name, boxes)
    cells = page.locator("[data-testid=lens-table] td").evaluate_all(
        "(cells) => cells.map((c) => [c.getBoundingClientRect().right, getComputedStyle(c, '::before').content])")
    assert all(right <= 390 for right, _ in cells) and cells[1][1] == '"옮기는 양"'
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert violations(page) == []  # axe-core, with the rotation and the lenses on the page
    context.close()
    # lecture mode on a projector: the first three pairs and the last three, the count between, one screen
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    open_model(page, out.as_uri(), preset="model-1", layer=1, head=1, merge=0, special=1, query=4, mode="lecture")
    shown = page.locator("[data-testid=rope-pairs] tbody tr:visible th").all_inner_texts()
    assert shown == ["1, 33", "2, 34", "3, 35", "30, 62", "31, 63", "32, 64"]
    expect(page.locator("[data-testid=rope-gap]")).to_have_text("… 사이의 쌍 26개는 일반 모드에서 모두 보여요")
    assert page.locator("[data-testid=rotation]").bounding_box()["height"] <= 720
    context.close()
