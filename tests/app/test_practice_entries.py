"""Practice problems as the entries the page opens (app.sentences.practice_entry)."""
import numpy as np

from app.sentences import practice_entry
from attention_core import decode_payload
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
    assert view.open_practice(17) and view.practice_entry["practice"]["number"] == 17
    view._handle_msg({"type": "practice", "number": 10_000})   # no such problem: nothing changes
    view._handle_msg({"type": "practice", "number": "17; drop"})
    assert view.practice_entry["practice"]["number"] == 17
    view.preset = view.practice_entry["name"]                   # as the page adopts it
    assert view.current_preset().tokens == practice_problem(17).tokens
