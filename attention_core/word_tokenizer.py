"""A word-level tokenizer.json, as attention_core.training writes the one of the model trained here,
read without the tokenizers package: its native library costs a served page about 6 MB of
resident memory (bench/README.md, issue 38), and this one cuts a sentence at its spaces. It gives
what tokenizers.Tokenizer gives for the files it accepts (ids, tokens, character offsets, the
special tokens; tests/unit/test_word_tokenizer.py compares them); any other tokenizer.json is for
the tokenizers package (attention_core.checkpoint.read_tokenizer)."""
from __future__ import annotations

import re
from dataclasses import dataclass

#: what WhitespaceSplit splits at: the characters Unicode calls White_Space (Rust's
#: char::is_whitespace), not Python's str.isspace, which also splits at U+001C-U+001F
_WORD = re.compile("[^\t-\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")


@dataclass(frozen=True)
class WordEncoding:
    """One sentence's tokens, as tokenizers.Encoding has them: offsets are (start, end) characters."""

    ids: list[int]
    tokens: list[str]
    offsets: list[tuple[int, int]]
    special_tokens_mask: list[int]


class WordTokenizer:
    """A vocabulary of whole words, an unknown word's token, and the special tokens put before and
    after a sentence."""

    def __init__(self, vocab: dict[str, int], unknown: str, before: list[str], after: list[str]):
        self._vocab, self._unknown, self._before, self._after = dict(vocab), unknown, list(before), list(after)
        self._tokens = {index: token for token, index in self._vocab.items()}

    @classmethod
    def from_json(cls, data) -> WordTokenizer | None:
        """The tokenizer a tokenizer.json's parsed `data` describes, or None where it is not exactly
        a word-level one this class reads as tokenizers does (then the tokenizers package reads it)."""
        if not isinstance(data, dict) or data.get("added_tokens") or any(data.get(key) for key in
                                                                          ("normalizer", "decoder", "truncation", "padding")):
            return None
        model, split, post = data.get("model"), data.get("pre_tokenizer"), data.get("post_processor")
        if not (isinstance(model, dict) and model.get("type") == "WordLevel" and isinstance(model.get("vocab"), dict)
                and split == {"type": "WhitespaceSplit"} and isinstance(post, dict) and post.get("type") == "TemplateProcessing"):
            return None
        vocab, unknown = model["vocab"], model.get("unk_token")
        single, specials = post.get("single"), post.get("special_tokens") or {}
        if unknown not in vocab or not isinstance(single, list):
            return None
        sequences = [i for i, part in enumerate(single) if isinstance(part, dict) and "Sequence" in part]
        if len(sequences) != 1:
            return None
        around = []
        for part in single[:sequences[0]] + single[sequences[0] + 1:]:
            name = part.get("SpecialToken", {}).get("id") if isinstance(part, dict) else None
            special = specials.get(name) if isinstance(name, str) else None
            if not (isinstance(special, dict) and special.get("tokens") == [name] and special.get("ids") == [vocab.get(name)]):
                return None
            around.append(name)
        return cls(vocab, unknown, around[:sequences[0]], around[sequences[0]:])

    def encode(self, text: str) -> WordEncoding:
        words = [(match.group(), match.span()) for match in _WORD.finditer(text)]
        tokens = [*self._before, *(word if word in self._vocab else self._unknown for word, _ in words), *self._after]
        offsets = [(0, 0)] * len(self._before) + [span for _, span in words] + [(0, 0)] * len(self._after)
        mask = [1] * len(self._before) + [0] * len(words) + [1] * len(self._after)
        return WordEncoding([self._vocab[token] for token in tokens], tokens, offsets, mask)

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    def id_to_token(self, index: int) -> str | None:
        return self._tokens.get(index)

    def decode(self, ids) -> str:
        """The tokens of `ids` with a space between (as tokenizers decodes with no decoder: [CLS]
        and [SEP] stay, the file registering no added token as special)."""
        return " ".join(token for token in map(self._tokens.get, ids) if token is not None)

    def no_padding(self) -> None:
        """Nothing to do: it never pads (tokenizers.Tokenizer's call, kept for its callers)."""

    def no_truncation(self) -> None:
        """Nothing to do: it never cuts a sentence."""
