"""The payloads tests/node/cube.test.mjs reads are what attention_core packs today."""
from support import node_fixture


def test_the_committed_node_fixture_is_what_the_core_makes_now():
    committed, made = node_fixture("cube")
    assert committed == made, "run tests/node/fixtures/cube_fixture.py and commit cube.json"
