"""The lab's Python side: typed W cells through AttentionView."""
import numpy as np

from support import ask


def test_changed_w_cells_make_q_k_v_from_the_same_x_and_bad_ones_are_each_marked():
    from app.explorer import AttentionView
    from attention_core import PRESETS
    from attention_core.layer import attention_layer
    view = AttentionView(preset="cat-fish")
    cat = PRESETS["cat-fish"]
    cells = {name: [[str(x) for x in row] for row in cat.layer[name]] for name in ("w_q", "w_k", "w_v")}
    cells["w_v"][2][1] = "1/2"
    assert view.apply_layer("cat-fish", cells)
    own = view.current_preset()
    x = attention_layer(**cat.layer).x
    assert view.preset == "numbers" and own.v[2, 1] == x[2] @ [0, 1, 0.5] and (own.q == cat.q).all()
    cells["w_q"][0][0], cells["w_k"][1][1] = "x", ""
    assert not view.apply_layer("cat-fish", cells)
    assert {(e["where"], e["row"], e["col"]) for e in view.refused["cells"]} == {("w_q", 0, 0), ("w_k", 1, 1)}
    assert view.preset == "numbers" and view.current_preset() is own      # nothing else changed
    assert not view.apply_layer("meet-friend", cells) and view.refused["cells"][0]["code"] == "w_base"
    answer = ask(view, {"type": "layer", "base": "cat-fish", "w_q": "no", "w_k": None, "w_v": [[1]]})
    assert {e["code"] for e in answer["error"]["cells"]} == {"w_shape"} and view.current_preset() is own
