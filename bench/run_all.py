"""Run the benchmarks one after another (they share the machine, so never at once).

    .venv/bin/python bench/run_all.py        # or: make bench
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = [
    ["bench/session_open.py", "--students", "100", "300"],
    ["bench/session_open.py", "--students", "300", "--num-procs", "2"],
    ["bench/memory_after.py", "--students", "300"],
    ["bench/first_load.py", "--loads", "3"],
    ["bench/interaction.py", "--clicks", "200"],
    ["bench/click_cost.py", "--clicks", "60"],
    ["bench/payload.py"],
    ["bench/export_size.py"],
    ["bench/languages.py"],
    ["bench/model.py", "--clicks", "20"],
    ["bench/trained.py"],
    ["bench/room.py", "--students", "100", "300"],
    ["bench/lesson.py"],
    ["bench/room_report.py"],
]

if __name__ == "__main__":
    failed = 0
    for run in RUNS:
        print(f"\n$ python {' '.join(run)}", flush=True)
        failed |= subprocess.call([sys.executable, *run], cwd=ROOT)
    sys.exit(failed)
