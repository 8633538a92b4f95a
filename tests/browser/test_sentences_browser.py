"""The sentences beside a query's weights, as the page shows them, are the ones the core chose for
that view's numbers (attention_core.scale_effect), with those numbers: a flat row is called flat,
a sharper head shows both largest weights. Checked in the exported file, one page, several views."""
import numpy as np
from playwright.sync_api import expect

from app.strings import text
from attention_core import PRESETS, attention, state_cube
from attention_core.answer import three_decimals
from attention_core.cube import cube_arrays
from attention_core.scale_effect import EFFECTS, SHARPENINGS

#: (preset, heads, causal, query, √d on): a flat row at 4 heads, a sharper head at 2, d_k = 1,
#: a masked row, √d off, and a head whose largest weight is below one head's (no sharpening to explain)
VIEWS = [("coffee-today", 4, False, 2, True), ("meet-friend", 2, False, 4, True), ("cat-fish", 2, False, 2, True),
         ("meet-friend", 4, True, 1, True), ("why-scale", 1, False, 3, False), ("cat-fish", 2, False, 0, True)]


def expected(name: str, heads: int, causal: bool, query: int, scale: bool) -> tuple[str, str | None]:
    """The scale effect's and the heads note's words for head 1 of the view, from the core."""
    p = PRESETS[name]
    arrays = cube_arrays(state_cube(p.tokens, p.q, p.k, p.v, p.head_choices))
    on, off = (attention(p.q, p.k, p.v, heads=heads, scale=s, causal=causal) for s in (True, False))
    visible = ~np.isneginf(on.masked[0, query])
    w_on, w_off = on.weights[0, query][visible], off.weights[0, query][visible]
    key = EFFECTS[int(arrays[f"effect/{heads}"].values[int(causal), 0, query])]
    key = "scale_effect_off" if key == "scale_effect" and not scale else key
    values = {"on": three_decimals(w_on.max()), "on_min": three_decimals(w_on.min()), "off": three_decimals(w_off.max()),
              "off_min": three_decimals(w_off.min()), "weight": three_decimals(w_on[0])}
    effect = text(key, "ko", **values)
    if heads == 1 or not scale:
        return effect, None
    d_model, d_k = p.q.shape[1], p.q.shape[1] // heads
    note = SHARPENINGS[int(arrays[f"sharpening/{heads}"].values[int(causal), 0, query])]
    one = attention(p.q, p.k, p.v, heads=1, scale=True, causal=causal).weights[0, query].max()
    return effect, text(note, "ko", count=heads, d_model=d_model, d_k=d_k, sqrt_d_k=three_decimals(np.sqrt(d_k)),
                        sqrt_d_model=three_decimals(np.sqrt(d_model)), max=three_decimals(w_on.max()),
                        model_max=three_decimals(arrays[f"modelmax/{heads}"].values[int(causal), 0, query]),
                        one_max=three_decimals(one))


def test_the_scale_effect_and_the_heads_note_say_what_the_views_numbers_show(in_file):
    said, notes = set(), set()
    for name, heads, causal, query, scale in VIEWS:
        in_file.open(preset=name, heads=str(heads), causal=str(int(causal)), query=str(query), scale=str(int(scale)))
        effect, note = expected(name, heads, causal, query, scale)
        expect(in_file.page.locator("[data-testid=scale-effect]")).to_have_text(effect)
        if note is None:
            expect(in_file.page.locator("[data-testid=heads-note]")).to_have_count(0)
        else:
            expect(in_file.page.locator("[data-testid=heads-note]")).to_have_text(note)
        said.add(effect.split(" ")[0])
        notes.add(note)
    assert any(note and "하나일 때보다 작아요" in note for note in notes)
    assert len(said) >= 4  # flat, spreads, d_k = 1 and √d off each said at least once
