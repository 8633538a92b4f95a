"""The state cube: every view at once, and its browser payload decodes to the core's numbers."""
import json

import numpy as np
import pytest

from attention_core import PRESETS, Named, attention, causal_mask, cube_payload, decode_payload, head_counts, state_cube
from attention_core.cube import DTYPES, cube_arrays, pack_arrays, payload_axes, stack_arrays


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
    # its numbers about half, its layout (names, shapes, axes) the rest; ~0.5 kB says what ÷√d does to each row
    assert len(json.dumps(payload)) < 11_000


def test_state_cube_rejects_token_count_mismatch():
    p = PRESETS["cat-fish"]
    with pytest.raises(ValueError, match="3 rows"):
        state_cube(("a", "b"), p.q, p.k, p.v)


def test_every_array_names_its_axes_as_the_documented_layout_says():
    p = PRESETS["cat-fish"]
    layout = cube_payload(state_cube(p.tokens, p.q, p.k, p.v))["layout"]
    assert layout["weights/2"]["axes"] == ["scale", "causal", "head", "query", "key"]
    assert layout["output/1"]["axes"] == ["scale", "causal", "head", "query", "dim"]
    assert not any(name.startswith(("skipped/", "sumnorm/")) for name in layout)  # the page runs the slips' ways
    assert layout["scores/2"]["axes"] == ["head", "query", "key"] and layout["mask"]["axes"] == ["query", "key"]
    assert layout["q"]["axes"] == layout["v"]["axes"] == ["token", "dim"]
    assert all(len(spec["axes"]) == len(spec["shape"]) for spec in layout.values())


def test_integers_travel_as_the_narrowest_exact_integer_type_and_the_rest_as_floats():
    arrays = {"small": Named([[1, -2], [3, 4]], ("a", "b")), "byte": Named([0, 255], ("a",)),
              "wide": Named([300, -1], ("a",)), "real": Named([0.5, 1], ("a",)), "gap": Named([np.nan, 1], ("a",))}
    payload = pack_arrays(arrays)
    assert {name: spec["dtype"] for name, spec in payload["layout"].items()} == {
        "small": "i1", "byte": "u1", "wide": "i2", "real": "f8", "gap": "f8"}
    decoded = decode_payload(payload)
    for name, named in arrays.items():
        np.testing.assert_array_equal(decoded[name], named.values)
    # each array starts at a multiple of its item size: the browser reads it in place
    assert all(spec["offset"] % np.dtype(DTYPES[spec["dtype"]]).itemsize == 0 for spec in payload["layout"].values())


def test_stacked_payloads_share_one_layout_and_select_gives_each_its_own_numbers():
    presets = [PRESETS["cat-fish"], PRESETS["cat-fish"]]
    second_v = presets[1].v * 2
    cubes = [state_cube(p.tokens, p.q, p.k, v) for p, v in zip(presets, (presets[0].v, second_v))]
    many = [cube_arrays(cube) for cube in cubes]
    many[1]["extra"] = Named([1.0, 2.0, 3.0], ("dim",))
    many[0]["extra"] = Named([9.0], ("dim",))  # shorter: padded with NaN
    packed = pack_arrays(stack_arrays(many, "problem"))
    assert packed["layout"]["weights/1"]["axes"][0] == "problem"
    for index, cube in enumerate(cubes):
        decoded = decode_payload({**packed, "select": {"problem": index}})
        np.testing.assert_array_equal(decoded["output/1"][1, 0], cube.result(1, True, False).output)
    np.testing.assert_array_equal(decode_payload({**packed, "select": {"problem": 0}})["extra"], [9.0, np.nan, np.nan])
    assert payload_axes({**packed, "select": {"problem": 0}})["extra"] == ["dim"]


def test_an_array_needs_one_distinct_name_per_axis():
    with pytest.raises(ValueError, match="axes"):
        Named(np.zeros((2, 2)), ("query",))
    with pytest.raises(ValueError, match="axes"):
        Named(np.zeros((2, 2)), ("query", "query"))
