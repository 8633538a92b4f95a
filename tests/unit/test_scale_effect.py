"""The sentences beside a query's weights say what its numbers show: for every preset, head count,
mask, head and query (and random sentences), the scale effect's and the heads note's words are
checked against weights computed here, as the page writes them (three decimals)."""
import numpy as np
import pytest

from attention_core import PRESETS, attention, state_cube
from attention_core.answer import three_decimals
from attention_core.cube import cube_arrays
from attention_core.scale_effect import EFFECTS, SHARPENINGS


def views():
    """(name, q, k, v, head counts) of every preset and of random sentences of 2 to 10 tokens."""
    for name, p in PRESETS.items():
        yield name, p.q, p.k, p.v, state_cube(p.tokens, p.q, p.k, p.v, p.head_choices).head_counts
    rng = np.random.default_rng(7)
    for n in range(2, 11):
        q, k, v = (rng.integers(-3, 4, (n, 8)).astype(float) for _ in range(3))
        yield f"random-{n}", q, k, v, (1, 2, 4, 8)


def shown(x) -> str:
    return three_decimals(x)


def spread(weights, visible):
    row = weights[visible]
    return shown(row.min()), shown(row.max())


@pytest.mark.parametrize("name, q, k, v, head_counts", list(views()), ids=lambda x: x if isinstance(x, str) else "")
def test_every_sentence_beside_the_weights_is_what_its_numbers_show(name, q, k, v, head_counts):
    arrays = cube_arrays(state_cube([f"t{i}" for i in range(len(q))], q, k, v, head_counts))
    d_model = q.shape[1]
    for h in head_counts:
        d_k = d_model // h
        for c, causal in enumerate((False, True)):
            on, off = (attention(q, k, v, heads=h, scale=s, causal=causal) for s in (True, False))
            for head in range(h):
                for query in range(len(q)):
                    case = (name, h, causal, head, query)
                    visible = ~np.isneginf(on.masked[head, query])
                    scores = on.scores[head, query][visible]
                    w_on, w_off = on.weights[head, query], off.weights[head, query]
                    said = EFFECTS[int(arrays[f"effect/{h}"].values[c, head, query])]
                    if said == "scale_effect_none":  # "√d_k = 1: the weights are the same"
                        assert d_k == 1 and np.allclose(w_on, w_off, atol=1e-15), case
                    elif said == "scale_effect_flat":  # "every visible score is the same: every weight equal"
                        assert np.ptp(scores) < 1e-9 and np.ptp(w_on[visible]) < 1e-12 and np.ptp(w_off[visible]) < 1e-12, case
                    elif said == "scale_effect_unseen":  # "not enough to show at three decimals"
                        assert np.ptp(scores) > 0 and spread(w_on, visible) == spread(w_off, visible), case
                    else:  # "divided, the weights spread more evenly; undivided they pile up on the largest"
                        assert spread(w_on, visible) != spread(w_off, visible), case
                        assert w_on[visible].max() < w_off[visible].max() and w_on[visible].min() > w_off[visible].min(), case
                    if h == 1:
                        assert f"sharpening/{h}" not in arrays
                        continue
                    # the heads note: this head ÷√d_k against the same scores ÷√d_model, as one head divides
                    logits = scores / np.sqrt(d_model)
                    broad = (np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()).max()
                    assert arrays[f"modelmax/{h}"].values[c, head, query] == pytest.approx(broad, abs=1e-12), case
                    note = SHARPENINGS[int(arrays[f"sharpening/{h}"].values[c, head, query])]
                    sharp = w_on[visible].max()
                    one = attention(q, k, v, heads=1, scale=True, causal=causal).weights[0, query].max()
                    lower = float(shown(sharp)) < float(shown(one))
                    if note == "heads_note_flat":  # "whatever they are divided by, the weights stay"
                        assert np.ptp(scores) < 1e-9 and shown(sharp) == shown(broad), case
                    elif lower:  # no sharpening is explained where the head's largest weight is below one head's
                        assert note == "heads_note_lower", case
                    elif note == "heads_note_lower":
                        raise AssertionError(f"{case}: the lower note where {shown(sharp)} is not below {shown(one)}")
                    elif note == "heads_note_unseen":
                        assert np.ptp(scores) > 0 and shown(sharp) == shown(broad), case
                    else:  # "divided by √d_k the largest weight is {max}; by √d_model it would be {model_max}"
                        assert sharp > broad and shown(sharp) != shown(broad), case


def test_flat_rows_are_common_and_each_sentence_is_used():
    """Where the old sentences contradicted the numbers: rows whose visible scores are all equal."""
    said = {key: 0 for key in EFFECTS}
    for name, q, k, v, head_counts in views():
        arrays = cube_arrays(state_cube([f"t{i}" for i in range(len(q))], q, k, v, head_counts))
        for h in head_counts:
            for code in arrays[f"effect/{h}"].values.ravel():
                said[EFFECTS[int(code)]] += 1
    assert said["scale_effect_flat"] > 100 and said["scale_effect"] > 100 and said["scale_effect_none"] > 0


def test_the_heads_note_never_explains_a_sharpening_where_the_head_is_flatter_than_one_head():
    """Issue 40: the note said "뾰족해진 까닭" where the head's largest weight was lower than the
    one-head view's. Counted over every view: such rows exist, and each gets the note that says so
    (its {max} below {one_max}, and {model_max} not above {max}: what ÷√d_k did is not what lowered it)."""
    lower = sharpened = 0
    for name, q, k, v, head_counts in views():
        arrays = cube_arrays(state_cube([f"t{i}" for i in range(len(q))], q, k, v, head_counts))
        for h in head_counts[1:]:
            for c, causal in enumerate((False, True)):
                on = attention(q, k, v, heads=h, scale=True, causal=causal)
                one = attention(q, k, v, heads=1, scale=True, causal=causal).weights[0].max(axis=-1)
                codes = arrays[f"sharpening/{h}"].values[c]
                for head, query in np.ndindex(codes.shape):
                    note = SHARPENINGS[int(codes[head, query])]
                    top, model_max = on.weights[head, query].max(), arrays[f"modelmax/{h}"].values[c, head, query]
                    if note == "heads_note_lower":
                        lower += 1
                        assert float(shown(top)) < float(shown(one[query])) and model_max <= top + 1e-12
                    elif note == "heads_note":
                        sharpened += 1
                        assert float(shown(top)) >= float(shown(one[query]))
    assert lower > 20 and sharpened > 20, (lower, sharpened)
