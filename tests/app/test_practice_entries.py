"""Practice problems as the entries the page opens (app.sentences.practice_entry)."""
import numpy as np

from app.sentences import practice_entry
from attention_core import decode_payload
from support import ask
from attention_core.answer import ROUNDING
from attention_core.practice import ROWS, SLIPS, practice_problem, practice_rows


def test_the_entry_carries_each_rows_truth_and_named_slips_in_its_cube():
    entry = practice_entry(17)
    arrays = decode_payload(entry["cube"])
    rows = practice_rows(practice_problem(17))
    assert entry["practice"]["query"] == practice_problem(17).query and entry["cube"]["head_counts"] == [1]
    for name in ROWS:
        shipped = arrays[f"practice/{name}"]
        np.testing.assert_array_equal(shipped[0], rows[name].truth)
        assert entry["practice"]["slips"][name] == [slip for slip, _ in rows[name].slips]
        for (slip, path), row in zip(rows[name].slips, shipped[1:]):
            np.testing.assert_array_equal(row, path)
            assert slip in SLIPS and np.max(np.abs(path - rows[name].truth)) >= 3 * ROUNDING
        for i, (_, path) in enumerate(rows[name].slips):   # no two slips give the same numbers
            assert all(np.max(np.abs(path - other)) >= 3 * ROUNDING for _, other in rows[name].slips[:i])



def test_python_sends_a_problem_to_the_page_and_refuses_a_number_with_none():
    from app.explorer import AttentionView
    view = AttentionView()
    answer = ask(view, {"type": "practice", "number": 17})
    assert answer["ok"] and answer["entries"][0]["practice"]["number"] == 17 and answer["view"] is None
    for number in (10_000, "17; drop", None):   # no such problem: refused, nothing changes
        refused = ask(view, {"type": "practice", "number": number})
        assert not refused["ok"] and refused["error"]["code"] in ("practice", "bad_request")
    view.source = {"kind": "practice", "name": answer["entries"][0]["name"]}  # as the page adopts it
    assert view.current_preset().tokens == practice_problem(17).tokens
    # from a notebook, the problem goes on offer and on show, unsolved, in the exam's view
    notebook = AttentionView(preset="cat-fish")
    assert notebook.open_practice(17) and not notebook.open_practice(10_000)
    assert notebook.preset == answer["entries"][0]["name"] and notebook.checking and notebook.heads == 1
    assert notebook.query == practice_problem(17).query and notebook.sentences[-1]["kind"] == "practice"
