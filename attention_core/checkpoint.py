"""A Hugging Face checkpoint directory, as `save_pretrained` writes it: config.json,
model.safetensors and tokenizer.json, read with the `safetensors` package's NumPy loader and the
`tokenizers` package (no network, no torch), and a sentence run through it.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .transformer import ModelConfig, ModelError, ModelRun, forward, model_config

FILES = ("config.json", "model.safetensors", "tokenizer.json")


@dataclass(frozen=True)
class Checkpoint:
    """A loaded checkpoint: its config, its tensors by name (float NumPy arrays) and tokenizer."""

    directory: Path
    config: ModelConfig
    tensors: dict
    tokenizer: object  # tokenizers.Tokenizer

    @property
    def name(self) -> str:
        return self.directory.name


@dataclass(frozen=True)
class Encoded:
    """A sentence as the model's tokens, n of them.

    pieces   n strings: each token as the student reads it (the tokenizer's own string, or
             the sentence's characters it covers where that string is byte-level)
    ids      n token ids
    words    n 어절 indices (the whitespace-separated word each token lies in), -1 for a special token
    word_texts  the 어절 themselves
    special  n booleans: [CLS], [SEP], <|endoftext|> and the like
    """

    text: str
    pieces: tuple[str, ...]
    ids: tuple[int, ...]
    words: tuple[int, ...]
    word_texts: tuple[str, ...]
    special: tuple[bool, ...]


def load_checkpoint(directory) -> Checkpoint:
    """Read a checkpoint directory. ModelError names the file (and tensor or field) that is
    missing, unreadable, of an architecture this tool does not run, or of the wrong shape."""
    from safetensors import SafetensorError
    from safetensors.numpy import load_file
    from tokenizers import Tokenizer

    directory = Path(directory)
    if not directory.is_dir():
        raise ModelError(f"{directory}: no such directory (give the folder save_pretrained wrote)")
    for name in FILES:
        if not (directory / name).is_file():
            hint = " (save with safe_serialization=True; .bin files are not read)" \
                if name == "model.safetensors" and (directory / "pytorch_model.bin").exists() else ""
            raise ModelError(f"{directory / name}: the file is missing{hint}")
    try:
        config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelError(f"{directory / 'config.json'}: not readable JSON: {error}") from None
    if not isinstance(config, dict):
        raise ModelError(f"{directory / 'config.json'}: must hold a JSON object")
    parsed = model_config(config, str(directory / "config.json"))
    try:
        tensors = load_file(str(directory / "model.safetensors"))
    except (SafetensorError, OSError, ValueError, TypeError) as error:
        raise ModelError(f"{directory / 'model.safetensors'}: not a readable safetensors file: {error}") from None
    for key, array in tensors.items():
        if not np.issubdtype(array.dtype, np.floating) and not key.endswith((".bias", "masked_bias", "position_ids")):
            raise ModelError(f"{directory / 'model.safetensors'}: the tensor {key} is {array.dtype}, not floating point")
    try:
        tokenizer = Tokenizer.from_file(str(directory / "tokenizer.json"))
    except Exception as error:  # the tokenizers package raises its own Exception type
        raise ModelError(f"{directory / 'tokenizer.json'}: not a readable tokenizer: {error}") from None
    # one sentence, whole: no [PAD] tokens (there is no attention mask here), no words cut off
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return Checkpoint(directory=directory, config=parsed, tensors=tensors, tokenizer=tokenizer)


def _word_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def encode(tokenizer, text: str) -> Encoded:
    """The sentence as the tokenizer cuts it, each token with its 어절 (by character offsets)."""
    if not isinstance(text, str) or not text.strip():
        raise ModelError("the sentence is empty")
    encoding = tokenizer.encode(text)
    spans = _word_spans(text)
    offsets, specials = encoding.offsets, [bool(s) for s in encoding.special_tokens_mask]
    pieces, words = [], []
    for index, (token, (start, end), special) in enumerate(zip(encoding.tokens, offsets, specials)):
        word = -1 if special else next((w for w, (a, b) in enumerate(spans) if a < end and start < b), -1)
        covered = text[start:end].strip()
        if special or token.lstrip("#").lstrip("▁") in text:  # WordPiece's "##에서" says what it is
            piece = token
        elif not covered:  # a byte-level piece that is only the space before a word
            piece = "␣"
        else:  # a byte-level "ë¬¸" does not: show the characters, and which part of them, when bytes split one
            sharing = [i for i, o in enumerate(offsets) if tuple(o) == (start, end) and not specials[i]]
            piece = covered if len(sharing) == 1 else f"{covered}({sharing.index(index) + 1}/{len(sharing)})"
        pieces.append(piece)
        words.append(word)
    # a piece of nothing but space belongs to the word it comes before
    for index in range(len(words) - 2, -1, -1):
        if words[index] == -1 and not specials[index] and words[index + 1] != -1:
            words[index] = words[index + 1]
    return Encoded(text=text, pieces=tuple(pieces), ids=tuple(encoding.ids), words=tuple(words),
                   word_texts=tuple(text[a:b] for a, b in spans), special=tuple(specials))


def run_checkpoint(checkpoint: Checkpoint, text: str) -> tuple[Encoded, ModelRun]:
    """Tokenize `text` and run it through the checkpoint."""
    encoded = encode(checkpoint.tokenizer, text)
    if len(encoded.ids) > checkpoint.config.max_positions:
        raise ModelError(f"the sentence is {len(encoded.ids)} tokens; {checkpoint.name} takes at most "
                         f"{checkpoint.config.max_positions}")
    return encoded, forward(checkpoint.config, checkpoint.tensors, encoded.ids,
                            where=str(checkpoint.directory / "model.safetensors"))
