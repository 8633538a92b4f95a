"""Order lost without position (000 line 71): the same three words in two orders, with the
particles dropped (as in speech: "고양이 생선 먹었다" / "생선 고양이 먹었다"), so that only the order
says who ate what. Without position vectors attention cannot tell the two apart: each word gets
the same weight in either order (the verb still looks at the food most, wherever it stands), so
reordering the words only reorders the output rows. With them, the verb's head finds the first
word (the subject's place) and its output differs.

The embedding space has four named components: 0 animal, 1 food, 2 action, 3 "first place", which
only the position vectors fill (a learned table: 1 at the first place, 0.5 at the second, 0 after).
W_Q gives the verb a query mostly for "first place" and a little for food, and the animal one for
food; W_K gives each word its "first place" and food components as its key; W_V is the identity
(outputs live in the embedding space). Without positions the verb's look is not uniform (the food
draws it), but it is the same in both orders: that, not the numbers, is what the lost order costs.
"""

from __future__ import annotations

import numpy as np

from .layer import attention_layer

WORD = "먹었다"
COMPONENTS = ("animal", "food", "action", "first")
EMBEDDINGS = {"고양이": (1.0, 0.0, 0.0, 0.0), "생선": (0.0, 1.0, 0.0, 0.0), "먹었다": (0.0, 0.0, 1.0, 0.0)}
SENTENCES = (("고양이", "생선", "먹었다"), ("생선", "고양이", "먹었다"))
POSITIONS = np.array([[0, 0, 0, 1.0], [0, 0, 0, 0.5], [0, 0, 0, 0]])
W_Q = np.array([[0, 2], [0, 0], [2, 0.5], [0, 0]], dtype=float)
W_K = np.array([[0, 0], [0, 2], [0, 0], [2, 0]], dtype=float)
W_V = np.eye(4)


def sentence_layer(tokens, position: bool):
    """The attention layer of one ordering (one head, ÷√d_k, no mask), with or without positions."""
    embeddings = np.array([EMBEDDINGS[token] for token in tokens])
    return attention_layer(embeddings, W_Q, W_K, W_V, positions=POSITIONS[:len(tokens)], use_position=position)


def order_table() -> dict:
    """JSON-ready figures for the page: the two orderings, and with position "off" and "on":
    per ordering the inputs X (n, 4), the verb's weights (n,) and every token's output (n, 4);
    and per token, the largest difference between its outputs in the two orderings."""
    table = {"word": WORD, "components": list(COMPONENTS), "sentences": [list(s) for s in SENTENCES],
             "positions": POSITIONS.tolist()}
    for name, position in (("off", False), ("on", True)):
        layers = [sentence_layer(tokens, position) for tokens in SENTENCES]
        outputs = [{token: layer.output[i] for i, token in enumerate(tokens)} for layer, tokens in zip(layers, SENTENCES)]
        table[name] = {
            "x": [layer.x.tolist() for layer in layers],
            "weights": [layer.attention.weights[0, tokens.index(WORD)].tolist() for layer, tokens in zip(layers, SENTENCES)],
            "outputs": [layer.output.tolist() for layer in layers],
            "difference": {token: float(np.max(np.abs(outputs[0][token] - outputs[1][token]))) for token in SENTENCES[0]},
        }
    return table
