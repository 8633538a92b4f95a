"""The state cube: every view at once, and its browser payload decodes to the core's numbers."""
import json

import numpy as np
import pytest

from attention_core import PRESETS, attention, causal_mask, cube_payload, decode_payload, head_counts, state_cube


@pytest.mark.parametrize("name, counts", [
    ("cat-fish", (1, 2)), ("meet-friend", (1, 2, 4, 8)), ("coffee-today", (1, 2, 4, 8)),
    ("coffee-or-tea", (1, 2, 4, 8)), ("why-scale", (1,))])
def test_cube_holds_every_head_count_scale_and_mask(name, counts):
    p = PRESETS[name]
    cube = state_cube(p.tokens, p.q, p.k, p.v, p.head_choices)
    assert cube.head_counts == counts and len(cube.results) == 4 * len(counts)
    for h in counts:
        for scale in (False, True):
            for causal in (False, True):
                expected = attention(p.q, p.k, p.v, heads=h, scale=scale, causal=causal)
                np.testing.assert_array_equal(cube.result(h, scale, causal).weights, expected.weights)
                np.testing.assert_array_equal(cube.result(h, scale, causal).output, expected.output)


def test_head_counts_are_the_divisors_among_1_2_4_8():
    assert head_counts(8, 8) == (1, 2, 4, 8)
    assert head_counts(2, 2) == (1, 2)
    assert head_counts(6, 6) == (1, 2)
    assert head_counts(8, 4) == (1, 2, 4)


def test_payload_decodes_to_exactly_the_cores_numbers():
    p = PRESETS["meet-friend"]
    payload = cube_payload(state_cube(p.tokens, p.q, p.k, p.v))
    arrays = decode_payload(payload)
    for h in (1, 2, 4, 8):
        for s in (0, 1):
            for c in (0, 1):
                r = attention(p.q, p.k, p.v, heads=h, scale=bool(s), causal=bool(c))
                assert np.array_equal(arrays[f"weights/{h}"][s, c], r.weights)
                assert np.array_equal(arrays[f"output/{h}"][s, c], r.output)
        assert np.array_equal(arrays[f"scaled/{h}"], attention(p.q, p.k, p.v, heads=h, scale=True).scaled)
        assert np.array_equal(arrays[f"scores/{h}"], attention(p.q, p.k, p.v, heads=h, scale=False).scaled)
    assert np.array_equal(arrays["v"], p.v) and np.array_equal(arrays["q"], p.q)
    assert np.array_equal(arrays["mask"], causal_mask(5))


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_presets_payload_is_a_few_kilobytes(name):
    p = PRESETS[name]
    payload = cube_payload(state_cube(p.tokens, p.q, p.k, p.v))
    assert len(json.dumps(payload)) < 8_000


def test_state_cube_rejects_token_count_mismatch():
    p = PRESETS["cat-fish"]
    with pytest.raises(ValueError, match="3 rows"):
        state_cube(("a", "b"), p.q, p.k, p.v)
