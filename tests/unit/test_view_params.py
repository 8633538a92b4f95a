"""The view's params are declared once (app/view_params.py): the page, the link, the room and the
node tests read that declaration."""
from support import node_fixture

from app.view_params import ViewParams, room_defaults, view_table


def test_the_node_tests_read_the_declaration_python_sends_now():
    committed, made = node_fixture("view")
    assert committed == made, "run tests/node/fixtures/view_fixture.py and commit view.json"


def test_every_param_is_described_with_its_kind_default_and_range():
    table = {row["name"]: row for row in view_table()}
    assert set(table) == set(ViewParams.param) - {"name"}
    assert table["query"] == {"name": "query", "kind": "int", "low": 0, "high": None, "default": 0, "room": "follow",
                              "link": {"read": "own", "write": "always"}}
    assert table["heads"]["choices"] == [1, 2, 4, 8] and table["step"]["high"] == 5
    assert table["lang"]["room"] == "carry" and "room" not in table["mode"]  # the language goes, a student keeps theirs
    assert table["source"]["link"]["key"] == "preset"


def test_a_rooms_view_at_the_defaults_is_every_param_a_room_carries():
    assert set(room_defaults()) == {row["name"] for row in view_table() if row.get("room")}
    assert {"source", "query", "lang", "window"} <= set(room_defaults()) and "mode" not in room_defaults()
