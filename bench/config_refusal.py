"""Benchmark: how long a checkpoint whose config.json asks for more than the tool runs takes to
be refused (issue 40: a million layers was refused after 83 s, as a missing tensor). A tiny
Llama folder (tests/tiny_models.py) with each size in turn set far beyond its limit
(attention_core.transformer.SIZE_LIMITS): load_checkpoint's time to the refusal, median of
--repeats, and its message. The target: under a second, from the config alone.

    .venv/bin/python bench/config_refusal.py [--repeats 5]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the checkpoint writer the tests use (tiny_models.py)

from attention_core.checkpoint import load_checkpoint  # noqa: E402
from attention_core.transformer import ModelError  # noqa: E402
from bench.common import median  # noqa: E402
from tiny_models import write_llama  # noqa: E402

ASKED = {"num_hidden_layers": 10 ** 6, "num_attention_heads": 10 ** 6, "hidden_size": 10 ** 7,
         "intermediate_size": 10 ** 8, "vocab_size": 10 ** 9, "max_position_embeddings": 10 ** 12}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp()) / "tiny-llama"
    write_llama(folder)
    original = json.loads((folder / "config.json").read_text())
    print(f"refusing a config that asks for too much (median of {args.repeats})")
    for field, value in ASKED.items():
        (folder / "config.json").write_text(json.dumps({**original, field: value}))
        times, message = [], ""
        for _ in range(args.repeats):
            start = time.perf_counter()
            try:
                load_checkpoint(folder)
            except ModelError as error:
                message = str(error).rsplit("config.json: ", 1)[-1]
            times.append(time.perf_counter() - start)
        print(f"  {field} = {value:,}: {median(times) * 1000:.2f} ms  — {message or 'NOT REFUSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
