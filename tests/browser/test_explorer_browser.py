"""The explorer in a real Chromium: what a student clicks, checked against attention_core. What the page
does alone runs in the exported file (in_file, a third of a served page's time to open); the served page
keeps what involves its server: its link writing, its sessions kept apart, and the screenshots."""
import itertools
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from attention_core import PRESETS
from explorer_page import ExplorerPage, assert_table_matches, core_weights, painted, settled_url

pytestmark = pytest.mark.browser

MEET = PRESETS["meet-friend"]


def test_each_token_button_shows_the_cores_weights(in_file):
    in_file.open(preset="meet-friend")
    for heads, scale, causal in itertools.product([1, 4], [True, False], [False, True]):
        in_file.set_heads(heads)
        in_file.set_checkbox("scale-toggle", scale)
        in_file.set_checkbox("causal-toggle", causal)
        for i, token in enumerate(MEET.tokens):
            in_file.token_button(token).click()
            in_file.expect_query(token)
            keys, shown = in_file.weights()
            assert keys == list(MEET.tokens)
            assert_table_matches(shown, core_weights(MEET, heads, scale, causal, i))


def test_token_buttons_have_the_token_as_accessible_name_and_mark_the_selection(in_file):
    in_file.open(preset="meet-friend")
    in_file.token_button("어제").click()
    expect(in_file.token_button("어제")).to_have_attribute("aria-pressed", "true")
    expect(in_file.token_button("만났다")).to_have_attribute("aria-pressed", "false")


def test_tapping_a_token_in_the_figure_selects_it(in_file):
    in_file.open(preset="meet-friend")
    in_file.page.locator("[data-testid=figure-token-1]").click()
    in_file.expect_query("어제")
    assert in_file.selected_token() == "어제"


def test_clicking_a_heatmap_row_selects_that_query_and_moves_the_outline(in_file):
    in_file.open(preset="meet-friend", heads="2")
    in_file.page.locator("[data-testid=heatmap] rect.ae-heat-cell[data-row='1']").first.click()
    in_file.expect_query("어제")
    outline = in_file.page.locator("[data-testid=heatmap] rect.ae-heat-row").first
    first_row = in_file.page.locator("[data-testid=heatmap] rect.ae-heat-cell[data-row='1']").first
    assert float(outline.get_attribute("y")) == float(first_row.get_attribute("y")) - 2
    in_file.token_button("친구를").click()
    third = in_file.page.locator("[data-testid=heatmap] rect.ae-heat-cell[data-row='3']").first
    expect(outline).to_have_attribute("y", str(int(float(third.get_attribute("y")) - 2)))


def test_arrow_keys_move_the_query(in_file):
    in_file.open(preset="meet-friend", query="2")
    in_file.expect_query("학교에서")
    in_file.page.keyboard.press("ArrowRight")
    in_file.expect_query("친구를")
    in_file.page.keyboard.press("ArrowLeft")
    in_file.page.keyboard.press("ArrowLeft")
    in_file.expect_query("어제")
    in_file.page.keyboard.press("End")
    in_file.expect_query("만났다")
    in_file.page.keyboard.press("ArrowRight")  # stays on the last token
    in_file.expect_query("만났다")


def test_url_parameters_open_exactly_that_view(in_file):
    in_file.open(preset="meet-friend", query="4", scale="0", causal="1", heads="4", lang="en")
    in_file.expect_query("만났다")
    expect(in_file.page.locator("[data-testid=scale-toggle]")).not_to_be_checked()
    expect(in_file.page.locator("[data-testid=causal-toggle]")).to_be_checked()
    expect(in_file.page.locator("[data-testid=heads-4]")).to_have_attribute("aria-pressed", "true")
    expect(in_file.page.locator("h1")).to_have_text("Attention Explorer")
    _, shown = in_file.weights()
    assert_table_matches(shown, core_weights(MEET, 4, False, True, 4))


def test_the_url_follows_every_change(explorer):
    explorer.open(preset="cat-fish")
    explorer.token_button("고양이가").click()
    explorer.set_checkbox("causal-toggle", True)
    explorer.set_heads(2)
    params = parse_qs(urlparse(settled_url(explorer.page)).query)
    assert params["preset"] == ["cat-fish"] and params["query"] == ["0"]
    assert params["causal"] == ["1"] and params["heads"] == ["2"] and params["scale"] == ["1"]


def test_switching_preset_shows_its_tokens_and_numbers(in_file):
    in_file.open()
    in_file.page.locator("[data-testid=preset-select]").select_option("cat-fish")
    in_file.expect_query("먹었다")
    keys, shown = in_file.weights()
    assert keys == list(PRESETS["cat-fish"].tokens)
    assert [round(x, 3) for x in shown[0]] == [0.023, 0.786, 0.191]
    expect(in_file.page.locator("[data-testid=output-vector]")).to_have_text("(0.214, 0.977)")


def test_live_region_announces_the_strongest_key(in_file):
    in_file.open(preset="meet-friend")
    in_file.token_button("만났다").click()
    expect(in_file.page.locator("[data-testid=live-region]")).to_have_text("만났다 → 친구를 0.463")
    expect(in_file.page.locator("[data-testid=live-region]")).to_have_attribute("aria-live", "polite")


def test_masked_keys_are_crossed_out_with_weight_zero(in_file):
    in_file.open(preset="meet-friend", query="1", causal="1")
    _, shown = in_file.weights()
    assert shown[0][2:] == [0.0, 0.0, 0.0]
    assert in_file.page.locator("[data-testid=bars] .ae-masked").count() == 3
    assert in_file.page.locator("[data-testid=lines-figure] .ae-ktoken.ae-masked").count() == 3


def test_one_head_at_a_time_and_its_caption(in_file):
    in_file.open(preset="meet-friend", heads="4", query="4")
    assert len(in_file.weights()[1]) == 4
    expect(in_file.page.locator("[data-testid=head-captions] li")).to_have_count(4)
    in_file.page.locator("[data-testid=head-view-1]").click()
    _, shown = in_file.weights()
    assert len(shown) == 1
    assert_table_matches(shown, core_weights(MEET, 4, True, False, 4)[1:2])
    expect(in_file.page.locator("[data-testid=head-captions]")).to_contain_text("주어를 보는 head")


def test_scaling_off_shows_what_changes(in_file):
    in_file.open(preset="why-scale", query="3", scale="0")
    effect = in_file.page.locator("[data-testid=scale-effect]")
    expect(effect).to_contain_text("1.000")
    _, shown = in_file.weights()
    assert [round(x, 3) for x in shown[0]] == [0.0, 0.0, 1.0, 0.0]


def test_language_switch_changes_the_ui_strings(in_file):
    in_file.open(preset="meet-friend")
    expect(in_file.page.locator("h1")).to_have_text("어텐션 탐색기")
    in_file.page.locator("[data-testid=lang-toggle]").click()
    expect(in_file.page.locator("h1")).to_have_text("Attention Explorer")
    assert "lang=en" in settled_url(in_file.page)


def test_two_pages_do_not_see_each_others_changes(explorer, context, served_app):
    explorer.open(preset="meet-friend", query="0")
    other = ExplorerPage(context.new_page(), served_app).open(preset="meet-friend", query="0")
    explorer.token_button("만났다").click()
    explorer.set_heads(4)
    other.token_button("어제").click()
    explorer.page.wait_for_timeout(300)
    explorer.expect_query("만났다")
    other.expect_query("어제")
    assert len(other.weights()[1]) == 1
    assert len(explorer.weights()[1]) == 4


SCREENSHOTS = [  # (name, viewport, the link's parameters)
    ("projector-1280x720", (1280, 720), {"preset": "meet-friend", "query": "4", "heads": "4"}),
    ("lecture-1280x720", (1280, 720), {"preset": "meet-friend", "query": "4", "mode": "lecture"}),
    ("lecture-4-heads-1280x720", (1280, 720), {"preset": "meet-friend", "query": "4", "heads": "4", "mode": "lecture"}),
    ("lecture-1920x1080", (1920, 1080), {"preset": "coffee-or-tea", "query": "9", "heads": "4", "mode": "lecture"}),
    ("phone-390x844", (390, 844), {"preset": "meet-friend", "query": "4"}),
    ("eight-heads-1280x720", (1280, 720), {"preset": "coffee-or-tea", "query": "6", "heads": "8", "causal": "1"}),
    ("eight-heads-390x844", (390, 844), {"preset": "coffee-or-tea", "query": "6", "heads": "8", "lang": "en"}),
]


def test_screenshots(explorer, screenshot_dir):
    """Each view in turn in the one served page: a screenshot and a full-page one, and nothing spills sideways."""
    failures = []
    for name, size, params in SCREENSHOTS:
        explorer.page.set_viewport_size({"width": size[0], "height": size[1]})
        explorer.open(**params)
        painted(explorer.page)
        explorer.page.screenshot(path=str(screenshot_dir / f"{name}.png"))
        explorer.page.screenshot(path=str(screenshot_dir / f"{name}-full.png"), full_page=True)
        # nothing spills sideways: the page is no wider than the viewport
        width = explorer.page.evaluate("document.documentElement.scrollWidth")
        if width > size[0]:
            failures.append(f"{name}: the page is {width} px wide in a {size[0]} px viewport")
    assert not failures, "\n".join(failures)


def test_the_books_softmax_example_shows_the_true_weights_and_says_the_book_rounds(in_file):
    import numpy as np
    from attention_core import softmax
    in_file.open(preset="cat-fish")
    truth = softmax(np.array([1.2, 0.3, 2.1, -0.4]))
    shown = "(" + ", ".join(f"{x:.3f}" for x in truth) + ")"
    assert shown == "(0.246, 0.100, 0.605, 0.050)"
    expect(in_file.page.locator("[data-testid=softmax-example]")).to_have_text(
        f"교재 'Transformer와 self-attention' 장의 Softmax 예: 스코어 (1.2, 0.3, 2.1, −0.4) → 가중치 {shown}. "
        "교재의 그림에는 이와 다른 값이 적혀 있어요: (0.24, 0.10, 0.58, 0.08). 위 값이 정확한 계산이에요.")


def test_captions_say_which_queries_they_hold_for_and_more_heads_explain_d_k(in_file):
    in_file.open(preset="coffee-today", heads="4", query="2")
    captions = in_file.page.locator("[data-testid=head-captions] li")
    expect(captions.nth(2)).to_have_text("head 3: 주어를 보는 head (성립하는 Query: 산)")
    expect(captions.nth(0)).to_have_text("head 1: 목적어를 보는 head (성립하는 Query: 산, 마셨다)")
    expect(in_file.page.locator("[data-testid=heads-note]")).to_contain_text("d_k = d_model / head 수 = 8 / 4 = 2")
    in_file.set_heads(1)
    expect(in_file.page.locator("[data-testid=heads-note]")).to_have_count(0)
    expect(captions.first).to_have_text("head 1: 모든 관계를 한 번에")


def test_with_the_mask_on_a_caption_names_only_the_queries_that_still_see_its_key(in_file):
    in_file.open(preset="meet-friend", heads="2", causal="1", query="4")
    captions = in_file.page.locator("[data-testid=head-captions] li")
    expect(captions.nth(0)).to_have_text("head 1: 누가·누구를 (주어·목적어) (성립하는 Query: 만났다)")
    expect(captions.nth(1)).to_have_text("head 2: 언제·어디서 (시간·장소) (마스크가 그 Key를 가려 지금은 성립하지 않음)")
    in_file.set_checkbox("causal-toggle", False)
    expect(captions.nth(0)).to_have_text("head 1: 누가·누구를 (주어·목적어) (성립하는 Query: 나는, 친구를, 만났다)")


# The views a query click repaints in place (lines, bars, weights table, calculation, heatmap,
# token buttons): after any sequence of clicks they must be, node for node, what a page opened at
# that query draws.
CLICK_REPAINTED = ["[data-testid=lines-figure]", "[data-testid=bars]", ".ae-card-weights", "[data-testid=calculation]",
                   "[data-testid=heatmap]", "[data-testid=token-buttons]", "[data-testid=head-captions]"]


def drawn_views(page) -> dict[str, list[str]]:
    return {where: page.locator(where).evaluate_all("els => els.map((el) => el.outerHTML)") for where in CLICK_REPAINTED}


@pytest.mark.parametrize("params", [
    {"heads": "2", "causal": "1"},                  # two heads share a figure; the mask changes with the query
    {"heads": "4", "causal": "1", "scale": "0"},    # small multiples, one per head
    {"heads": "1", "causal": "1", "step": "2"},     # step by step: the mask column, no weights yet
    {"heads": "4", "causal": "0", "step": "4"},     # the last step: the output row
], ids=["2-heads-mask", "4-heads-noscale", "step-mask", "step-output"])
def test_a_query_click_draws_what_a_page_opened_at_that_query_draws(in_file, params):
    order = [3, 0, 4, 1, 2, 4]  # up and down the sentence, so the mask grows and shrinks
    fresh = {}
    for query in sorted(set(order)):
        in_file.open(preset="meet-friend", query=str(query), **params)
        expect(in_file.token_buttons().nth(query)).to_have_attribute("aria-pressed", "true")
        fresh[query] = drawn_views(in_file.page)
    in_file.open(preset="meet-friend", query="2", **params)
    for query in order:
        in_file.click_token(query)
        expect(in_file.token_buttons().nth(query)).to_have_attribute("aria-pressed", "true")
        assert drawn_views(in_file.page) == fresh[query], f"after clicking query {query}"


def test_a_sentence_drawn_through_its_one_head_lens_shows_what_each_key_adds(in_file):
    """lens=moved on a preset at one head: the bars are the share of what each key adds to the
    query's output, α_j ‖v_j‖ over the row's sum (recomputed here from the preset's v and the
    core's weights), the weights table stays the weights, the line says what is drawn; at two
    heads the lens steps aside and says why; the causal mask changes the lens's row with the weights."""
    import numpy as np

    from attention_core import attention

    preset = PRESETS["meet-friend"]
    explorer = in_file.open(preset="meet-friend", heads="1", query="4", lens="moved")
    page = in_file.page
    norms = np.linalg.norm(preset.v, axis=1)
    for causal in (False, True):
        weights = attention(preset.q, preset.k, preset.v, heads=1, scale=True, causal=causal).weights[0][4]
        share = weights * norms / (weights * norms).sum()
        expect(page.locator("[data-testid=causal-toggle]")).to_be_checked(checked=causal)
        values = page.locator("[data-testid=bars] .ae-bar-value").all_inner_texts()
        assert [float(v.replace("✕", "").strip()) for v in values] == pytest.approx(share, abs=0.0005), causal
        assert explorer.weights()[1][0] == pytest.approx(weights, abs=0.0005)
        page.locator("[data-testid=causal-toggle]").click()
    expect(page.locator("[data-testid=lens-shown]")).to_contain_text("Key마다 head의 출력에 더하는 양 α‖v‖")
    expect(page.locator(".ae-card-bars .ae-title-badge")).to_have_text("Key마다 옮기는 몫")
    expect(page.locator("[data-testid=lens] option[value=rollout]")).to_be_disabled()
    page.locator("[data-testid=heads-2]").click()
    expect(page.locator("[data-testid=lens-shown]")).to_have_text(
        "이 렌즈는 책처럼 head 하나로 계산해요: head 수를 1로 하면 보여요. 지금은 가중치를 그렸어요.")
    expect(page.locator(".ae-title-badge")).to_have_count(0)
    assert "lens=moved" in settled_url(page)
