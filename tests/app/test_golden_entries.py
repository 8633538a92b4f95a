"""The cubes and rules the golden file gives the page's checker in Node (tests/node/checker.test.mjs)
are the ones the app ships: a stale cube or rule there would let the page and the core agree on
something no student sees."""
import golden_answers
from app.constants import CONSTANTS


def test_the_golden_files_cubes_are_the_apps_entries_and_its_rules_the_pages():
    golden = golden_answers.load()
    stale = "tests/golden/answers.json is stale: run python -m tests.golden_answers and review the difference"
    assert golden["entries"] == golden_answers.entries(golden), stale
    assert golden["checker"] == CONSTANTS["checker"], stale
