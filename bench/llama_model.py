"""Benchmark 13: the Llama family at Qwen2.5-0.5B's size (24 layers, 14 query heads sharing 2
key/value heads of 64, d_model 896, d_ff 4864, vocabulary 151,936, tied embeddings, q/k/v biases:
model_type "qwen2"), random weights this script writes as a bfloat16 folder (no download).

Prints: load_checkpoint's time and the process's peak memory beside the weights' float32 size (the
target: near it, no float64 copy of the whole model); the forward pass in NumPy on n random token
ids (median of --repeats) and the peak memory while it runs; for a Korean sentence of about n
tokens, the layers × heads overview (heads.digest) and one head's steps (head_attention: what a
click costs in Python); and, where torch and transformers are installed, the same forward in
transformers (eager attention, float32, output_attentions=True) and the ratio.

The folder is written by a child process (tests/tiny_models.py's write_llama holds the model's
float64 normals while it writes), so that its memory is not counted here. Peak memory is the
kernel's high-water mark of this process (VmHWM), reset before each step (/proc/self/clear_refs).

    nice -n 19 .venv/bin/python bench/llama_model.py [--lengths 32 128 512] [--repeats 3] [--folder PATH]
"""
from __future__ import annotations

import argparse
import gc
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the checkpoint writer the tests use (tiny_models.py)

from attention_core.checkpoint import FILES, load_checkpoint, run_checkpoint  # noqa: E402
from attention_core.heads import digest, from_run  # noqa: E402
from attention_core.transformer import forward  # noqa: E402
from bench.common import median  # noqa: E402
from tiny_models import CORPUS, write_llama  # noqa: E402

#: Qwen2.5-0.5B's config.json sizes (write_llama's arguments, and the fields it does not take)
QWEN = {"layers": 24, "heads": 14, "kv_heads": 2, "d": 896, "d_ff": 4864}
FIELDS = {"vocab_size": 151936, "rope_theta": 1000000.0}
MAX_POSITIONS = 1024


def status(field: str) -> int:
    """A memory figure of this process from /proc/self/status (VmRSS, VmHWM), in bytes."""
    with open("/proc/self/status") as stream:
        for line in stream:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def reset_peak() -> bool:
    """Start the high-water mark (VmHWM) again from the current RSS; False where the kernel refuses."""
    try:
        with open("/proc/self/clear_refs", "w") as stream:
            stream.write("5")
        return True
    except OSError:
        return False


def gib(size: float) -> str:
    return f"{size / 2 ** 30:5.2f} GiB"


def timed(function, repeat: int):
    """The median seconds of `repeat` calls, and the last call's result (the earlier ones dropped first)."""
    times, result = [], None
    for _ in range(repeat):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return median(times), result


def write_folder(folder: Path) -> None:
    """The child's work: the checkpoint, written beside `folder` and renamed into place when whole."""
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    start = time.perf_counter()
    write_llama(partial, "qwen2", **QWEN, dtype="BF16", max_positions=MAX_POSITIONS, **FIELDS)
    partial.rename(folder)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"  written in {time.perf_counter() - start:.1f} s by a child process (its peak memory {gib(peak)})", flush=True)


def folder_ready(folder: Path) -> bool:
    """Whether `folder` already holds this benchmark's checkpoint (a rerun with --folder skips the writing)."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return all((folder / name).is_file() for name in FILES) and config.get("vocab_size") == FIELDS["vocab_size"] \
        and config.get("num_hidden_layers") == QWEN["layers"] and config.get("hidden_size") == QWEN["d"]


def sentence_of(tokenizer, n: int) -> str:
    """The corpus's Korean sentences, repeated and joined until the tokenizer makes about n tokens
    (the last word that keeps it at n or under)."""
    text = ""
    for word in " ".join(CORPUS).split() * 50:
        longer = (text + " " + word).strip()
        if len(tokenizer.encode(longer).ids) > n:
            break
        text = longer
    return text


def ids_of(n: int, vocab: int) -> np.ndarray:
    return np.random.default_rng(n).integers(0, vocab, n)


def load_figures(folder: Path, repeats: int):
    gc.collect()
    before = status("VmRSS")
    seconds, peaks, checkpoint = [], [], None
    for _ in range(repeats):
        checkpoint = None  # the previous load's arrays go before the next one's come
        gc.collect()
        reset_peak()
        start = time.perf_counter()
        checkpoint = load_checkpoint(folder)
        seconds.append(time.perf_counter() - start)
        peaks.append(status("VmHWM"))
    weights = checkpoint.weights
    size = sum(array.nbytes for array in weights.values())
    numbers = sum(array.size for array in weights.values())
    config = checkpoint.config
    print(f"model: {config.architecture}, {config.layers} layers × {config.heads} heads ({config.key_heads} key/value heads "
          f"of {config.d_head}), d_model {config.d_model}, d_ff {config.d_ff}, vocabulary {config.vocab_size:,} "
          f"(embed.token {tuple(weights['embed.token'].shape)}), {numbers:,} numbers")
    print(f"  dtypes after loading: {sorted({str(a.dtype) for a in weights.values()})}; "
          f"file {sum(p.stat().st_size for p in folder.glob('*.safetensors')):,} bytes")
    print(f"\nload_checkpoint (median of {repeats})               {median(seconds):7.2f} s   "
          f"({', '.join(f'{s:.2f}' for s in seconds)})")
    print(f"  weights as float32 (sum of nbytes)            {gib(size)}")
    print(f"  RSS before loading                            {gib(before)}")
    print(f"  peak RSS while loading (max of {repeats})            {gib(max(peaks))}   "
          f"= before + {(max(peaks) - before) / size:.2f}× the float32 size")
    loaded = status("VmRSS")
    print(f"  RSS after loading                             {gib(loaded)}")
    return checkpoint, loaded


def forward_figures(checkpoint, lengths, repeats: int, loaded: int):
    print(f"\nforward(config, weights, ids), random ids, NumPy float64 (median of {repeats})")
    seconds = {}
    for n in lengths:
        ids = ids_of(n, checkpoint.config.vocab_size)
        reset_peak()
        seconds[n], run = timed(lambda: forward(checkpoint.config, checkpoint.weights, ids), repeats)
        peak, now = status("VmHWM"), status("VmRSS")
        kept = run.hidden.nbytes + sum(m.nbytes for layer in run.layers for m in (layer.q, layer.k, layer.v))
        print(f"  n = {n:>4}: {seconds[n]:7.2f} s  ({seconds[n] / n * 1000:6.1f} ms a token)   peak RSS {gib(peak)} "
              f"(+{gib(peak - loaded).strip()} over the RSS after loading)   run kept {kept / 2 ** 20:6.1f} MiB", flush=True)
        del run
    return seconds


def overview_figures(checkpoint, lengths, repeats: int):
    config = checkpoint.config
    print(f"\noverview and one head, a Korean sentence of about n tokens (digest: median of {repeats})")
    for n in lengths:
        text = sentence_of(checkpoint.tokenizer, n)
        gc.collect()
        reset_peak()
        start = time.perf_counter()
        encoded, run = run_checkpoint(checkpoint, text)
        ran = time.perf_counter() - start
        aset = from_run("bench", encoded, run)
        made, (pixels, blocks, summaries) = timed(lambda: digest(aset), repeats)
        picks = [((i * 7) % config.layers, (i * 5) % config.heads) for i in range(max(5, repeats))]
        clicks = []
        for layer, head in picks:
            start = time.perf_counter()
            aset.head_attention(layer, head)
            clicks.append(time.perf_counter() - start)
        print(f"  n = {aset.n:>4} ({len(encoded.word_texts)} 어절): run_checkpoint {ran:6.2f} s; "
              f"digest of {config.layers * config.heads} heads {made:6.2f} s (pixels {pixels.shape}); "
              f"one head's steps {median(clicks) * 1000:6.1f} ms (median of {len(clicks)}); peak RSS {gib(status('VmHWM'))}",
              flush=True)
        del run, aset


def transformers_figures(folder: Path, config, lengths, repeats: int, ours: dict):
    try:
        import torch
        from transformers import AutoModelForCausalLM
    except ImportError as error:
        print(f"\ntransformers: not measured ({error.name} is not installed here)")
        return
    model = AutoModelForCausalLM.from_pretrained(folder, torch_dtype=torch.float32, attn_implementation="eager")
    model.eval()
    print(f"\ntransformers {__import__('transformers').__version__}, torch {torch.__version__} "
          f"({torch.get_num_threads()} threads): the base model (no lm_head), eager attention, float32, "
          f"output_attentions=True (median of {repeats})")
    for n in lengths:
        ids = torch.tensor(ids_of(n, config.vocab_size)[None])
        with torch.no_grad():
            seconds, _ = timed(lambda: model.model(ids, output_attentions=True), repeats)
        print(f"  n = {n:>4}: {seconds:7.2f} s; ours / transformers {ours[n] / seconds:5.1f}×", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", type=int, nargs="+", default=[32, 128, 512])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--folder", type=Path, help="write the checkpoint here, or reuse it if it is there")
    parser.add_argument("--write-only", type=Path, help=argparse.SUPPRESS)  # the child that writes the folder
    args = parser.parse_args(argv)
    if args.write_only:
        write_folder(args.write_only)
        return 0
    if max(args.lengths) > MAX_POSITIONS:
        parser.error(f"lengths go up to {MAX_POSITIONS} (the checkpoint's max_position_embeddings)")
    if not reset_peak():
        print("note: /proc/self/clear_refs refused: peak memory below is the process's whole-run high-water mark")
    with tempfile.TemporaryDirectory() as tmp:
        folder = (args.folder or Path(tmp) / "qwen2.5-0.5b-random").resolve()
        if folder_ready(folder):
            print(f"checkpoint: {folder} (reused)")
        else:
            print(f"checkpoint: writing {folder}", flush=True)
            if folder.exists():
                shutil.rmtree(folder)
            folder.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), "--write-only", str(folder)], check=True)
        checkpoint, loaded = load_figures(folder, args.repeats)
        ours = forward_figures(checkpoint, args.lengths, args.repeats, loaded)
        overview_figures(checkpoint, args.lengths, args.repeats)
        transformers_figures(folder, checkpoint.config, args.lengths, args.repeats, ours)
    return 0


if __name__ == "__main__":
    sys.exit(main())
