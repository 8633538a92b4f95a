"""Why divide by √d_k (000 line 55; 003 "2. Scaling"): with q and k of unit-variance numbers, q·k
is a sum of d products, so its spread grows like √d and softmax piles its weight on one key;
divided by √d the spread stays near 1 at every d. Measured here on random vectors drawn once with
a fixed seed, so the page shows numbers, not a story.
"""
from __future__ import annotations

import numpy as np

from .attention import softmax

#: The dimensions the page's slider offers.
DIMENSIONS = (2, 4, 8, 16, 32, 64, 128, 256, 512)
#: Keys per query: softmax over this many scores.
KEYS = 10
#: Random queries averaged for each d (each with its own KEYS keys).
SAMPLES = 500
SEED = 20261129
#: The book's example (003): scores without scaling, and d_k = 64 (its scaled scores are the
#: scores divided by 8).
BOOK_SCORES = (2.0, 4.0, 20.0, 3.0)
BOOK_D = 64


def scale_table(dimensions=DIMENSIONS, keys: int = KEYS, samples: int = SAMPLES, seed: int = SEED) -> dict:
    """For each d, from `samples` queries q (d,) and keys k (keys, d) of independent N(0, 1)
    numbers (one generator, seeded):

      spread_raw / spread_scaled   the standard deviation of q·k, and of q·k / √d
      top_raw / top_scaled         the mean, over queries, of the largest softmax weight over
                                   the keys, without and with ÷√d

    Returns {"dimensions": [...], "keys": keys, "samples": samples, and each name: a list per d},
    plus "book": the book's example, its weights without and with ÷√(BOOK_D).
    """
    rng = np.random.default_rng(seed)
    table = {name: [] for name in ("spread_raw", "spread_scaled", "top_raw", "top_scaled")}
    for d in dimensions:
        q = rng.standard_normal((samples, 1, d))
        k = rng.standard_normal((samples, keys, d))
        scores = (q * k).sum(axis=-1)                         # (samples, keys)
        scaled = scores / np.sqrt(d)
        table["spread_raw"].append(float(scores.std()))
        table["spread_scaled"].append(float(scaled.std()))
        table["top_raw"].append(float(softmax(scores).max(axis=-1).mean()))
        table["top_scaled"].append(float(softmax(scaled).max(axis=-1).mean()))
    book = np.array(BOOK_SCORES)
    return {"dimensions": list(dimensions), "keys": keys, "samples": samples, **table,
            "book": {"d": BOOK_D, "scores": list(BOOK_SCORES), "scaled": (book / np.sqrt(BOOK_D)).tolist(),
                     "weights_raw": softmax(book).tolist(), "weights_scaled": softmax(book / np.sqrt(BOOK_D)).tolist()}}
