"""The payloads tests/node/cube.test.mjs reads are what attention_core packs today."""
import importlib.util

from support import ROOT


def test_the_committed_node_fixture_is_what_the_core_makes_now():
    path = ROOT / "tests" / "node" / "fixtures" / "cube_fixture.py"
    spec = importlib.util.spec_from_file_location("cube_fixture", path)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    committed = maker.OUT.read_text(encoding="utf-8")
    assert committed == maker.text(), "run tests/node/fixtures/cube_fixture.py and commit cube.json"
