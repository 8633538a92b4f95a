"""Benchmark 6: what the small Korean model learned, measured again from the committed
checkpoints (attention_core/data/tiny-korean) on the 1,152 held-out sentences, through the
app's own loader and forward pass. Prints Markdown tables: per saved step, the accuracy of the
masked predicate (word, verb, tense, honorific) and the head that gives each role the most
weight from the predicate; then every head at every step.

    .venv/bin/python bench/trained.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from attention_core.trained import MEASURED, measure_all  # noqa: E402

TRAINED = ROOT / "attention_core" / "data" / "tiny-korean"


def main() -> int:
    start = time.perf_counter()
    metrics = measure_all(TRAINED)
    print(f"held-out sentences: {metrics['held_out']}; measured in {time.perf_counter() - start:.1f} s\n")
    print("| step | word | verb | tense | honorific | " + " | ".join(f"predicate → {role}: best head" for role in MEASURED) + " |")
    print("|---|---|---|---|---|" + "---|" * len(MEASURED))
    for step in metrics["steps"]:
        found = metrics["by_step"][str(step)]
        accuracy = " | ".join(f"{100 * found['accuracy'][name]:.1f}%" for name in ("word", "verb", "tense", "honorific"))
        best = []
        for role in MEASURED:
            table = found["heads"][role]
            layer, head = max(((l, h) for l in range(len(table)) for h in range(len(table[0]))), key=lambda p: table[p[0]][p[1]])
            best.append(f"L{layer} H{head}: {table[layer][head]:.2f}")
        print(f"| {step} | {accuracy} | " + " | ".join(best) + " |")
    print("\nEvery head: mean weight from the predicate to the object / time word / subject")
    print("\n| step | " + " | ".join(f"L{l} H{h}" for l in range(2) for h in range(4)) + " |")
    print("|---|" + "---|" * 8)
    for step in metrics["steps"]:
        heads = metrics["by_step"][str(step)]["heads"]
        cells = [" / ".join(f"{heads[role][l][h]:.2f}" for role in MEASURED) for l in range(2) for h in range(4)]
        print(f"| {step} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
