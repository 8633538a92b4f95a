"""The same word in two sentences (000 line 68, 은행): one and the same embedding for 은행에, two
different vectors after attention, each pulled toward its own context. Computed with the attention
layer (attention_core.layer); the 2-D picture is a projection computed here and said so.

The embedding space has four named components: 0 river/nature, 1 money, 2 place, 3 action.
은행에 holds a little of both senses (0.3 river, 0.3 money) and is a place; its query seeks the
sentence's content words (W_Q takes the place component, W_K the river and money ones); W_V is the
identity, so an output lives in the same space as the embeddings and can be drawn beside them.
No positions: the two 은행에 inputs are then exactly the same vector.

"After" is the word's input plus what attention mixed in, X + Attention(X): the residual
connection every Transformer layer has (003 line 244), so the word keeps its own meaning (its
place component stays) and gains its context's. In the second sentence both 돈을 and 맡기러 (to
deposit: money and action) are mixed in strongly, each more than 은행에 itself, as 000 line 68 says.
"""
from __future__ import annotations

import numpy as np

from .layer import attention_layer

WORD = "은행에"
COMPONENTS = ("river", "money", "place", "action")
EMBEDDINGS = {
    "강가의": (1.0, 0.0, 0.0, 0.0),
    "은행에": (0.3, 0.3, 1.0, 0.0),
    "앉았다": (0.0, 0.0, 0.0, 1.0),
    "돈을": (0.0, 1.0, 0.0, 0.0),
    "맡기러": (0.0, 1.0, 0.0, 1.0),
    "갔다": (0.0, 0.0, 0.0, 1.0),
}
SENTENCES = (("강가의", "은행에", "앉았다"), ("돈을", "맡기러", "은행에", "갔다"))
#: The context word each sentence pulls 은행에 toward.
CONTEXT = ("강가의", "돈을")
W_Q = np.array([[0, 0], [0, 0], [2, 2], [0, 0]], dtype=float)
W_K = np.array([[2, 0], [0, 2], [0, 0], [0, 0]], dtype=float)
W_V = np.eye(4)


def cosine(a, b) -> float:
    """cos θ between two vectors."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def projection(points: np.ndarray) -> tuple[np.ndarray, float]:
    """points (m, d) → (m, 2) on their first two principal components (centred), and the share
    of the points' variance those two components show. Signs are fixed so that each axis's
    largest coordinate is positive."""
    centred = points - points.mean(axis=0)
    _, singular, axes = np.linalg.svd(centred, full_matrices=False)
    axes = axes[:2] * np.sign(axes[:2][np.arange(2), np.argmax(np.abs(axes[:2]), axis=1)])[:, None]
    share = float((singular[:2] ** 2).sum() / (singular ** 2).sum())
    return centred @ axes.T, share


def sentence_layer(tokens):
    """The attention layer of one sentence (one head, ÷√d_k, no mask, no positions)."""
    embeddings = np.array([EMBEDDINGS[token] for token in tokens])
    return attention_layer(embeddings, W_Q, W_K, W_V)


def polysemy_table() -> dict:
    """JSON-ready figures for the page:
      sentences: per sentence its tokens, the word's index, its weights on every token (n,), its
                 input (4,) and output (4,): the input plus attention's mix (the residual)
      points:    [{label, kind, xy}] the projected inputs of every word and the word's two outputs
      share:     the variance the 2-D picture shows
      cosines:   before·after in each sentence, after·after, and each after with its context word
    """
    sentences, outputs = [], []
    for tokens in SENTENCES:
        layer = sentence_layer(tokens)
        i = tokens.index(WORD)
        after = layer.x[i] + layer.output[i]  # X + Attention(X): the residual connection
        outputs.append(after)
        sentences.append({"tokens": list(tokens), "index": i, "weights": layer.attention.weights[0, i].tolist(),
                          "input": layer.x[i].tolist(), "output": after.tolist()})
    words = list(EMBEDDINGS)
    xy, share = projection(np.array([EMBEDDINGS[w] for w in words] + outputs))
    before = np.array(EMBEDDINGS[WORD])
    labels = {}  # words with the same embedding share one point and one label
    for j, w in enumerate(words):
        labels.setdefault(EMBEDDINGS[w], (j, []))[1].append(w)
    return {
        "word": WORD, "components": list(COMPONENTS), "sentences": sentences,
        "points": [{"label": ", ".join(ws), "kind": "before" if WORD in ws else "word", "xy": xy[j].tolist()}
                   for j, ws in labels.values()]
        + [{"label": WORD, "kind": f"after{s}", "xy": xy[len(words) + s].tolist()} for s in range(2)],
        "share": share,
        "cosines": {"before_after": [cosine(before, out) for out in outputs], "after_after": cosine(*outputs),
                    "after_context": [cosine(out, EMBEDDINGS[c]) for out, c in zip(outputs, CONTEXT)],
                    "before_context": [cosine(before, EMBEDDINGS[c]) for c in CONTEXT]},
    }
