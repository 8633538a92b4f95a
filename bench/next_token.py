"""What a student waits for to see the next token, the logit lens and a head's part in the
prediction (attention_core.prediction), at Qwen2.5-0.5B's size (24 layers, d 896, vocabulary
151,936: larger than GPT-2 small in every dimension) on n random token ids, float32 as a
checkpoint is shown, 2 threads. Medians of --repeats. The lens over every position at n = 512
would be 25 × 512 products with the whole vocabulary; it is timed at the last 16 positions (the
page's grid, app.models.LENS_POSITIONS: what its "every position" button waits for) and at every
position up to n = 32.

    .venv/bin/python bench/next_token.py [--folder PATH] [--lengths 32 512] [--repeats 3]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from attention_core.checkpoint import load_checkpoint  # noqa: E402
from attention_core.prediction import logit_lens, next_tokens, without_head  # noqa: E402
from attention_core.transformer import forward  # noqa: E402
from app.models import LENS_POSITIONS  # noqa: E402
from bench.llama_model import folder_ready, ids_of, timed  # noqa: E402


def median_seconds(function, repeats: int) -> float:
    return timed(function, repeats)[0]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, help="a Qwen2.5-0.5B-sized folder to take, or to write there")
    parser.add_argument("--lengths", type=int, nargs="+", default=[32, 512])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.folder or Path(tmp) / "qwen-0.5b-random"
        if not folder_ready(folder):
            subprocess.run([sys.executable, str(ROOT / "bench" / "llama_model.py"), "--write-only", str(folder)], check=True)
        checkpoint = load_checkpoint(folder)
        config = checkpoint.config
        print(f"{folder.name}: {config.architecture}, {config.layers} layers × {config.heads} heads, d {config.d_model}, "
              f"vocabulary {config.vocab_size:,}; float32, {os.environ['OPENBLAS_NUM_THREADS']} threads, "
              f"median of {args.repeats}")
        print("    n   forward   next (top 10)   lens, the grid (last 16)   lens, every position   a head removed")
        for n in args.lengths:
            ids = ids_of(n, config.vocab_size)
            run = forward(config, checkpoint.weights, ids, dtype=np.float32)
            timing = {
                "forward": median_seconds(lambda: forward(config, checkpoint.weights, ids, dtype=np.float32), args.repeats),
                "next": median_seconds(lambda: next_tokens(run, 10), args.repeats),
                "grid": median_seconds(lambda: logit_lens(run, positions=range(max(0, n - LENS_POSITIONS), n), top_k=5), args.repeats),
                "lens_all": median_seconds(lambda: logit_lens(run, top_k=5), args.repeats) if n <= 32 else None,
                # a head of the first layer: the run again through every layer (the slowest case)
                "removed": median_seconds(lambda: without_head(run, 0, 0, top_k=5), args.repeats),
            }
            every = f"{timing['lens_all']:8.3f} s" if timing["lens_all"] is not None else "       —  "
            print(f"  {n:4d}   {timing['forward']:6.3f} s   {timing['next']:8.3f} s        {timing['grid']:8.3f} s"
                  f"            {every}         {timing['removed']:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
