"""tests/golden/answers.json is what a fresh generation from its seed makes, on any machine: the
same file under one BLAS thread and under two (a summation order that changes with the thread
count must not flip a digit a student typed: golden_answers.steady)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent.parent

GENERATE = """
import json, sys
import golden_answers
golden = json.loads(golden_answers.GOLDEN.read_text(encoding="ascii"))
fresh = {**golden_answers.generate(golden["seed"]), "entries": golden["entries"]}
sys.exit(0 if golden_answers.dumps(fresh) == golden_answers.GOLDEN.read_text(encoding="ascii") else 3)
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_the_committed_file_is_a_fresh_generation_from_its_seed_under_any_thread_count(threads):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(TESTS.parent)]),
           **{name: str(threads) for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}}
    done = subprocess.run([sys.executable, "-c", GENERATE], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, (
        "tests/golden/answers.json is stale: run python -m tests.golden_answers and review the difference\n" + done.stderr[-2000:])
