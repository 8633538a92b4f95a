"""The presets as the entries the page indexes (app.sentences)."""
import numpy as np

from attention_core import PRESETS


def test_meet_friends_w_o_is_what_the_view_says_and_its_product_is_shipped_for_every_view():
    from app.sentences import preset_entries
    from attention_core import attention, decode_payload
    meet = PRESETS["meet-friend"]
    concat = np.arange(8.0)
    out = concat @ meet.w_o
    for j in range(8):   # "each output component is the mean of two components two apart"
        assert out[j] == (concat[j] + concat[(j - 2) % 8]) / 2
    arrays = decode_payload(next(e for e in preset_entries() if e["name"] == "meet-friend")["cube"])
    for heads in meet.offered_heads():
        for s, scale in enumerate((False, True)):
            for c, causal in enumerate((False, True)):
                result = attention(meet.q, meet.k, meet.v, heads=heads, scale=scale, causal=causal)
                concat = np.concatenate([result.output[h] for h in range(heads)], axis=1)
                np.testing.assert_allclose(arrays[f"layer/out/{heads}"][s, c], concat @ meet.w_o, atol=1e-12)
