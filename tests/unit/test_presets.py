"""Each preset's teaching claim, as the table in the core issue states it (heads=1, √d on, no mask)."""
import numpy as np
import pytest

from attention_core import PRESETS, attention, head_counts, softmax


def weights(name, heads=1, scale=True, causal=False):
    p = PRESETS[name]
    return attention(p.q, p.k, p.v, heads=heads, scale=scale, causal=causal).weights


def index(name, token):
    return PRESETS[name].tokens.index(token)


def test_cat_fish_is_the_books_exact_input():
    p = PRESETS["cat-fish"]
    assert p.tokens == ("고양이가", "생선을", "먹었다")
    np.testing.assert_array_equal(p.q, [[2, 1], [1, 2], [1, 3]])
    np.testing.assert_array_equal(p.k, [[1, 0], [0, 2], [1, 1]])
    np.testing.assert_array_equal(p.v, [[1, 0], [0, 1], [1, 1]])


def test_meet_friend_mannatda_attends_most_to_chingureul():
    w = weights("meet-friend")[0, index("meet-friend", "만났다")]
    assert np.argmax(w) == index("meet-friend", "친구를")


def test_meet_friend_eoje_splits_between_chingureul_and_itself():
    w = weights("meet-friend")[0, index("meet-friend", "어제")]
    top_two = set(np.argsort(w)[-2:])
    assert top_two == {index("meet-friend", "친구를"), index("meet-friend", "어제")}
    assert abs(w[index("meet-friend", "친구를")] - w[index("meet-friend", "어제")]) < 0.05


def test_coffee_today_masyeotda_looks_at_coffee_then_today():
    w = weights("coffee-today")[0, index("coffee-today", "마셨다")]
    assert abs(w[index("coffee-today", "커피를")] - 0.55) < 0.03
    assert abs(w[index("coffee-today", "오늘")] - 0.25) < 0.03
    order = np.argsort(w)[::-1]
    assert [PRESETS["coffee-today"].tokens[i] for i in order[:2]] == ["커피를", "오늘"]


@pytest.mark.parametrize("a, b", [("Which", "?"), ("you", "like"), ("coffee", "tea")])
def test_coffee_or_tea_has_one_head_per_relation_at_four_heads(a, b):
    w = weights("coffee-or-tea", heads=4)
    i, j = index("coffee-or-tea", a), index("coffee-or-tea", b)
    linking = [h for h in range(4) if np.argmax(w[h, i]) == j and np.argmax(w[h, j]) == i]
    assert len(linking) == 1


def test_coffee_or_tea_relations_live_in_different_heads():
    w = weights("coffee-or-tea", heads=4)
    heads = []
    for a, b in [("Which", "?"), ("you", "like"), ("coffee", "tea")]:
        i, j = index("coffee-or-tea", a), index("coffee-or-tea", b)
        heads.append(next(h for h in range(4) if np.argmax(w[h, i]) == j))
    assert len(set(heads)) == 3


def test_coffee_or_tea_tokens_are_hand_segmented():
    assert PRESETS["coffee-or-tea"].tokens == ("Which", "do", "you", "like", "better", ",", "coffee", "or", "tea", "?")


def test_why_scale_raw_and_scaled_scores_match_chapter_two():
    p = PRESETS["why-scale"]
    assert p.q.shape[1] == 64
    r = attention(p.q, p.k, p.v)
    np.testing.assert_array_equal(r.scores[0, 3], [2, 4, 20, 3])
    np.testing.assert_allclose(r.scaled[0, 3], [0.25, 0.5, 2.5, 0.375])


def test_why_scale_without_scaling_collapses_and_with_scaling_is_softer():
    hard = weights("why-scale", scale=False)[0, 3]
    soft = weights("why-scale", scale=True)[0, 3]
    np.testing.assert_allclose(np.round(hard, 3), [0, 0, 1, 0])
    assert soft.max() < 0.8 and soft.min() > 0.05


@pytest.mark.parametrize("name", ["meet-friend", "coffee-today", "coffee-or-tea"])
def test_d_model_8_presets_offer_every_head_count(name):
    p = PRESETS[name]
    assert p.q.shape[1] == 8 and p.v.shape[1] == 8
    assert head_counts(p.q.shape[1], p.v.shape[1]) == (1, 2, 4, 8)


@pytest.mark.parametrize("name", ["meet-friend", "coffee-today", "coffee-or-tea"])
def test_four_head_presets_look_at_different_things_per_head(name):
    p = PRESETS[name]
    w = attention(p.q, p.k, p.v, heads=4).weights
    # the strongest (query, key) link of each head is a different pair
    strongest = {np.unravel_index(np.argmax(w[h]), w[h].shape) for h in range(4)}
    assert len(strongest) == 4


def claims():
    for name, p in PRESETS.items():
        for heads, per_head in p.claims.items():
            for head, head_claims in enumerate(per_head):
                for claim in head_claims:
                    yield name, heads, head, claim


@pytest.mark.parametrize("name, heads, head, claim", list(claims()))
def test_every_captions_claim_holds_by_a_margin(name, heads, head, claim):
    """The key a caption names gets its query's largest weight (or smallest, for 'least'), 0.1 ahead."""
    p = PRESETS[name]
    query, key = p.tokens.index(claim[0]), p.tokens.index(claim[1])
    row = attention(p.q, p.k, p.v, heads=heads).weights[head, query]
    others = np.delete(row, key)
    if claim[2:] == ("least",):
        assert row[key] <= others.min() - 0.1, (row.round(3), claim)
    else:
        assert row[key] >= others.max() + 0.1, (row.round(3), claim)


# Words that say a head looks at (or finds, or links) something: such a caption must name its claims.
POINTING = ("보는", "찾기", "→", "↔", "Looks at", "Find", "·")


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_caption_that_points_at_tokens_names_the_queries_it_holds_for(name):
    p = PRESETS[name]
    for heads, by_lang in p.captions.items():
        for head, text in enumerate(by_lang["ko"]):
            pointing = any(word in text for word in POINTING) and "√d" not in text and "Q·K" not in text
            if pointing:
                assert p.claims.get(heads) and p.claims[heads][head], (name, heads, head, text)


def test_why_scale_offers_one_head_whose_d_k_is_the_64_of_its_title():
    p = PRESETS["why-scale"]
    assert p.offered_heads() == (1,) and p.q.shape[1] == 64 and "64" in p.title_ko


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_titles_and_one_caption_per_head(name):
    p = PRESETS[name]
    assert p.title_ko and p.title_en
    for heads, by_lang in p.captions.items():
        assert len(by_lang["ko"]) == heads and len(by_lang["en"]) == heads
    assert 0 <= p.default_query < len(p.tokens)
    assert p.q.shape == p.k.shape and p.v.shape[0] == len(p.tokens)


def test_a_preset_keeps_its_own_copy_and_leaves_the_callers_arrays_writable():
    from attention_core import Preset
    q = np.ones((2, 2))
    preset = Preset(name="x", tokens=("a", "b"), q=q, k=q, v=q, title_ko="x", title_en="x")
    q[0, 0] = 5.0  # still writable
    assert preset.q[0, 0] == 1.0 and not preset.q.flags.writeable


@pytest.mark.parametrize("name", [n for n, p in PRESETS.items() if len(p.offered_heads()) > 1])
def test_a_smaller_sqrt_d_k_alone_sharpens_every_row_as_the_heads_note_says(name):
    """The note: with more heads d_k shrinks, and dividing by the smaller √d_k alone makes each
    head's largest weight larger (or equal, for a flat row) than dividing by √d_model would."""
    p = PRESETS[name]
    d_model = p.q.shape[1]
    for heads in p.offered_heads()[1:]:
        d_k = d_model // heads
        for head in range(heads):
            part = slice(head * d_k, (head + 1) * d_k)
            scores = p.q[:, part] @ p.k[:, part].T
            by_d_k = softmax(scores / np.sqrt(d_k)).max(axis=-1)
            by_d_model = softmax(scores / np.sqrt(d_model)).max(axis=-1)
            assert np.all(by_d_k >= by_d_model - 1e-12)
            assert np.allclose(by_d_k, attention(p.q, p.k, p.v, heads=heads).weights[head].max(axis=-1))


def every_view():
    for name, p in PRESETS.items():
        for heads in p.offered_heads():
            for causal in (False, True):
                yield name, heads, causal


@pytest.mark.parametrize("name, heads, causal", list(every_view()))
def test_the_scale_note_holds_for_every_row_it_can_speak_of(name, heads, causal):
    """The calculation's note: divided by √d_k the weights spread, undivided they pile up more on
    the largest key (never less); and with d_k = 1 dividing changes nothing at all."""
    p = PRESETS[name]
    on = attention(p.q, p.k, p.v, heads=heads, scale=True, causal=causal).weights
    off = attention(p.q, p.k, p.v, heads=heads, scale=False, causal=causal).weights
    if p.q.shape[1] // heads == 1:
        assert np.array_equal(on, off)
    else:
        assert np.all(off.max(axis=-1) >= on.max(axis=-1) - 1e-12)
        assert np.all(off.min(axis=-1) <= on.min(axis=-1) + 1e-12)


def test_the_concat_view_s_words_hold_for_every_head_count():
    """'Concat is already d_model wide; times W_O it stays that wide; each output component is made
    from several Concat components, and with several heads components of different heads mix.'"""
    for name, preset in PRESETS.items():
        if preset.w_o is None:
            continue
        d_model, dv_model = preset.q.shape[1], preset.v.shape[1]
        assert preset.w_o.shape == (dv_model, dv_model) and dv_model == d_model, name
        sources = [np.flatnonzero(preset.w_o[:, out]) for out in range(preset.w_o.shape[1])]
        assert all(len(rows) >= 2 for rows in sources), name
        for heads in preset.offered_heads():
            if heads > 1:
                d_v = dv_model // heads
                assert any(len({row // d_v for row in rows}) > 1 for rows in sources), (name, heads)
