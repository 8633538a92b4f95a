"""`attention-viz next --model DIR --text TEXT [--top-k K] [--temperature T] [--lens] [--json]`: what
a causal checkpoint says next (attention_core.prediction), on the command line.

Text: the model, the sentence's tokens, then the top k next tokens with their probabilities, and
with --lens each layer's top k at the last position (the logit lens: where in the layers the guess
formed). --json: {model, tokens, ids, temperature, top: [{token, id, probability, partial (a piece
of a character's bytes, named ⟨as the vocabulary names it⟩)}], and with --lens
lens: [{layer, top: [...]}]}, layer 0 the embeddings, the last the model's output.
Anything it cannot do is one line on stderr and exit status 2: no folder, a BERT-like model, empty
text, a top-k or temperature out of range, a text longer than the model's context.
"""
from __future__ import annotations

import json
import sys

from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.prediction import checked_request, logit_lens, next_tokens, predicts_next, token_text
from attention_core.transformer import ModelError


def _top(tokenizer, ids, probabilities) -> list[dict]:
    made = []
    for i, p in zip(ids, probabilities):
        text, partial = token_text(tokenizer, i)
        made.append({"token": text, "id": int(i), "probability": round(float(p), 6), **({"partial": True} if partial else {})})
    return made


def prediction(folder: str, text: str, top_k: int = 10, temperature: float = 1.0, lens: bool = False) -> dict:
    """What `next` prints, as the JSON says it; ModelError (PredictionError among them) names what is wrong."""
    checkpoint = load_checkpoint(folder)
    if not text.strip():
        raise ModelError("the text is empty: give the words the model goes on from")
    encoded, run = run_checkpoint(checkpoint, text)
    if not predicts_next(run):  # said before anything else is asked of it
        next_tokens(run, 1)
    checked_request(run, top_k, temperature)
    made = next_tokens(run, top_k, temperature)
    said = {"model": checkpoint.name, "architecture": run.config.architecture, "tokens": list(encoded.pieces),
            "ids": [int(i) for i in encoded.ids], "temperature": temperature,
            "top": _top(checkpoint.tokenizer, made.ids, made.probabilities)}
    if lens:
        ids, probabilities = logit_lens(run, positions=[-1], top_k=top_k)
        said["lens"] = [{"layer": layer, "top": _top(checkpoint.tokenizer, ids[layer, 0], probabilities[layer, 0])}
                        for layer in range(ids.shape[0])]
    return said


def _line(top: list[dict]) -> str:
    return "  ".join(f"{entry['token']!r} {entry['probability']:.3f}" for entry in top)


def main(args) -> int:
    try:
        said = prediction(args.model, args.text, args.top_k, args.temperature, args.lens)
    except ModelError as error:
        print(f"attention-viz next: error: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(said, ensure_ascii=False))
        return 0
    print(f"{said['model']} ({said['architecture']}): {len(said['tokens'])} tokens: {' '.join(said['tokens'])}")
    print(f"next token (temperature {said['temperature']:g}):")
    for rank, entry in enumerate(said["top"], start=1):
        print(f"  {rank:2d}. {entry['token']!r:16} id {entry['id']:<7d} {entry['probability']:.4f}")
    if "lens" in said:
        print("the logit lens at the last token (each layer's hidden state through the final norm and the output head):")
    for layer in said.get("lens", []):
        name = "embeddings" if layer["layer"] == 0 else f"layer {layer['layer']}"
        print(f"  {name:>10}: {_line(layer['top'])}")
    return 0
