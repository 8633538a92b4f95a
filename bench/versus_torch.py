"""Our forward pass beside PyTorch's, in alternating processes (`bench/model.py --versus-torch PYTHON`).

PYTHON is a separate environment with torch and transformers (never a dependency of the project):
for example `python3 -m venv /tmp/torchenv && /tmp/torchenv/bin/pip install torch==2.13.0
transformers safetensors`. Two checkpoint folders of random weights are written (or taken with
--bert / --qwen): BERT-base's size (12 × 12 heads, d 768) and Qwen2.5-0.5B's (24 layers, 14 query
heads on 2 key/value heads, d 896, vocabulary 151,936, bfloat16 on disk). For each, --rounds
times, a process of ours and then one of PyTorch's each load the folder and run the forward on the
same random ids at each length (2 threads, float32, eager attention, every layer's attention
weights returned; one warm-up pass first): so both see the machine in the same state, and a noisy
moment costs one round of both. Printed: each length's median seconds and the ratio of medians;
how far our attention weights (as the page shows them: recomputed in float64 from the float32
pass's q, k, v) are from transformers', over the first and last layers; each process's memory
after loading (peak) beside the float32 weights' size.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
THREADS = "2"


# The workers run in either environment (PyTorch's has none of the project's imports loaded, so
# that its memory is its own): what they share is here, not imported from bench.llama_model.
def ids_of(n: int, vocab: int) -> list[int]:
    """The same random ids for both engines (past the special ids, seeded by n)."""
    return [int(i) for i in np.random.default_rng(n).integers(5, vocab, n)]


def peak_bytes() -> int:
    with open("/proc/self/status") as stream:
        for line in stream:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def worker(engine: str, folder: Path, lengths: list[int], repeats: int, out: Path) -> None:
    """One process's measurements, written to `out` as JSON (and the first and last layers'
    attention weights at each length beside it, .npz)."""
    config = json.loads((folder / "config.json").read_text())
    vocab, layers = config["vocab_size"], config["num_hidden_layers"]
    start = time.perf_counter()
    if engine == "torch":
        import torch
        from transformers import AutoModel

        torch.set_num_threads(int(THREADS))
        extra = {"add_pooling_layer": False} if config["model_type"] == "bert" else {}
        model = AutoModel.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager", **extra).eval()
        weights_bytes = sum(p.numel() * 4 for p in model.parameters())

        def run(ids):
            with torch.no_grad():
                made = model(torch.tensor([ids]), output_attentions=True)
            return [made.attentions[0][0].numpy(), made.attentions[-1][0].numpy()]
    else:
        sys.path.insert(0, str(ROOT))
        from attention_core.checkpoint import load_checkpoint
        from attention_core.transformer import forward

        checkpoint = load_checkpoint(folder)
        # each stored number once as float32 (a transposed view or a third of c_attn is the same memory)
        weights_bytes = sum(size * 4 for _, size in {(w.ctypes.data, w.size) for w in checkpoint.weights.values()})

        def run(ids, shown=False):
            made = forward(checkpoint.config, checkpoint.weights, ids, dtype=np.float32)
            return [made.attention(0).weights, made.attention(layers - 1).weights] if shown else None
    loaded, peak = time.perf_counter() - start, peak_bytes()
    seconds, kept = {}, {}
    for n in lengths:
        ids = ids_of(n, vocab)
        run(ids)  # warm-up
        times = []
        for _ in range(repeats):
            begin = time.perf_counter()
            run(ids)
            times.append(time.perf_counter() - begin)
        seconds[n] = sorted(times)[len(times) // 2]
        shown = run(ids, shown=True) if engine == "ours" else run(ids)
        kept[f"first_{n}"], kept[f"last_{n}"] = shown
    np.savez(out.with_suffix(".npz"), **kept)
    out.write_text(json.dumps({"load": loaded, "peak": peak, "weights": weights_bytes, "seconds": seconds}))


def measure(python: str, engine: str, folder: Path, lengths, repeats: int, scratch: Path) -> dict:
    out = scratch / f"{engine}.json"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": THREADS, "OMP_NUM_THREADS": THREADS, "MKL_NUM_THREADS": THREADS,
           "PYTHONPATH": str(ROOT)}
    subprocess.run([python, str(Path(__file__).resolve()), "--worker", engine, "--folder", str(folder),
                    "--lengths", *map(str, lengths), "--repeats", str(repeats), "--out", str(out)], check=True, env=env)
    made = json.loads(out.read_text())
    made["attention"] = dict(np.load(out.with_suffix(".npz")))
    return made


def compare(name: str, folder: Path, torch_python: str, lengths, rounds: int, repeats: int) -> None:
    ours, theirs = {n: [] for n in lengths}, {n: [] for n in lengths}
    agreement, memory = 0.0, {}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(rounds):
            for engine, python, into in (("ours", sys.executable, ours), ("torch", torch_python, theirs)):
                made = measure(python, engine, folder, lengths, repeats, Path(scratch))
                for n in lengths:
                    into[n].append(made["seconds"][str(n)])
                memory[engine] = (made["peak"], made["weights"], made["load"])
                if engine == "ours":
                    shown = made["attention"]
                else:
                    agreement = max(agreement, *(float(np.abs(shown[key] - made["attention"][key]).max()) for key in shown))
    print(f"\n{name}: forward pass, float32, 2 threads, attentions returned; median of {rounds} alternating rounds "
          f"(each the median of {repeats} passes)")
    print("    n   ours (s)   PyTorch (s)   ratio   (each round: ours / PyTorch)")
    for n in lengths:
        a, b = float(np.median(ours[n])), float(np.median(theirs[n]))
        rounds_said = ", ".join(f"{x:.3f}/{y:.3f}" for x, y in zip(ours[n], theirs[n]))
        print(f"  {n:4d}   {a:8.3f}   {b:11.3f}   {a / b:5.2f}×  ({rounds_said})")
    print(f"  attention weights, first and last layer, every length: ours (as shown) − transformers' ≤ {agreement:.1e}")
    for engine, (peak, weights, load) in memory.items():
        print(f"  {engine:5s}: peak memory after loading {peak / 2 ** 30:.2f} GiB = {peak / weights:.2f}× the float32 "
              f"weights ({weights / 2 ** 30:.2f} GiB); loaded in {load:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versus-torch", dest="torch_python", metavar="PYTHON")
    parser.add_argument("--bert", type=Path, help="a BERT-base-sized folder to take (else one is written)")
    parser.add_argument("--qwen", type=Path, help="a Qwen2.5-0.5B-sized folder to take, or to write there")
    parser.add_argument("--lengths", type=int, nargs="+", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=["bert", "qwen"])
    parser.add_argument("--worker", choices=["ours", "torch"], help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.folder, args.lengths, args.repeats, args.out)
        return 0
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "tests"))
    with tempfile.TemporaryDirectory() as tmp:
        if args.only != "qwen":
            from tiny_models import write_bert

            bert = args.bert or write_bert(Path(tmp) / "bert-base-random", layers=12, heads=12, d=768, d_ff=3072,
                                           max_positions=512, std=0.02)
            compare("BERT-base size", bert, args.torch_python, args.lengths or [32, 128, 512], args.rounds, args.repeats)
        if args.only != "bert":
            from bench.llama_model import folder_ready

            qwen = args.qwen or Path(tmp) / "qwen-0.5b-random"
            if not folder_ready(qwen):  # written by a child (the writer's float64 normals are not ours to count)
                subprocess.run([sys.executable, str(ROOT / "bench" / "llama_model.py"), "--write-only", str(qwen)], check=True)
            compare("Qwen2.5-0.5B size", qwen, args.torch_python, args.lengths or [31, 128, 512], args.rounds, args.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
