"""A Hugging Face checkpoint directory, as `save_pretrained` writes it: config.json,
model.safetensors (or shards listed in model.safetensors.index.json) and tokenizer.json, read with
the `safetensors` package (bfloat16 tensors widened to float32 here: NumPy has no bfloat16) and
the `tokenizers` package (no network, no torch), and a sentence run through it.

Its tensor names are mapped to the core's (attention_core.transformer's docstring) once, when it is
loaded, by one table per family: Hugging Face's name, its shape in the file and how it is laid out
there (nn.Linear stores a map transposed, (d_out, d_in); GPT-2's Conv1D as used, (d_in, d_out), with
Q, K and V side by side in one tensor). The same table maps back for saving (checkpoint_tensors).
"""
from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .transformer import LLAMA_FAMILY, ModelConfig, ModelError, ModelRun, forward, model_config
from .word_tokenizer import WordTokenizer

FILES = ("config.json", "model.safetensors", "tokenizer.json")
#: a sharded checkpoint's list of which file holds each tensor (in place of model.safetensors)
INDEX = "model.safetensors.index.json"


@dataclass(frozen=True)
class Name:
    """One core weight in a checkpoint: `core` is the file's tensor `theirs` of shape `shape`, as it
    is (layout "same"), transposed ("transposed"), or the i-th third of its last axis (i = 0, 1, 2)."""

    core: str
    theirs: str
    shape: tuple
    layout: str | int = "same"
    optional: bool = False


def _bert_names(config: ModelConfig, prefix: str) -> list[Name]:
    d, f = config.d_model, config.d_ff
    names = [Name("embed.token", f"{prefix}embeddings.word_embeddings.weight", (config.vocab_size, d)),
             Name("embed.position", f"{prefix}embeddings.position_embeddings.weight", (config.max_positions, d)),
             Name("embed.segment", f"{prefix}embeddings.token_type_embeddings.weight", (config.type_vocab_size, d)),
             *_norm_names("embed.norm", f"{prefix}embeddings.LayerNorm", d)]
    for layer in range(config.layers):
        at, theirs = f"layers.{layer}.", f"{prefix}encoder.layer.{layer}."
        for name, path, d_in, d_out in (("q", "attention.self.query", d, d), ("k", "attention.self.key", d, d),
                                        ("v", "attention.self.value", d, d), ("o", "attention.output.dense", d, d),
                                        ("up", "intermediate.dense", d, f), ("down", "output.dense", f, d)):
            names += [Name(f"{at}w_{name}", f"{theirs}{path}.weight", (d_out, d_in), "transposed"),
                      Name(f"{at}b_{name}", f"{theirs}{path}.bias", (d_out,))]
        names += [*_norm_names(at + "norm_attention", f"{theirs}attention.output.LayerNorm", d),
                  *_norm_names(at + "norm_ff", f"{theirs}output.LayerNorm", d)]
    # BertForMaskedLM's output bias (its decoder is the word embeddings), outside the "bert." prefix
    return names + [Name("mlm.bias", "cls.predictions.bias", (config.vocab_size,), optional=True)]


def _gpt2_names(config: ModelConfig, prefix: str) -> list[Name]:
    d, f = config.d_model, config.d_ff
    names = [Name("embed.token", f"{prefix}wte.weight", (config.vocab_size, d)),
             Name("embed.position", f"{prefix}wpe.weight", (config.max_positions, d))]
    for layer in range(config.layers):
        at, theirs = f"layers.{layer}.", f"{prefix}h.{layer}."
        for third, name in enumerate("qkv"):
            names += [Name(f"{at}w_{name}", f"{theirs}attn.c_attn.weight", (d, 3 * d), third),
                      Name(f"{at}b_{name}", f"{theirs}attn.c_attn.bias", (3 * d,), third)]
        for name, path, d_in, d_out in (("o", "attn.c_proj", d, d), ("up", "mlp.c_fc", d, f), ("down", "mlp.c_proj", f, d)):
            names += [Name(f"{at}w_{name}", f"{theirs}{path}.weight", (d_in, d_out)),
                      Name(f"{at}b_{name}", f"{theirs}{path}.bias", (d_out,))]
        names += [*_norm_names(at + "norm_attention", f"{theirs}ln_1", d), *_norm_names(at + "norm_ff", f"{theirs}ln_2", d)]
    return names + _norm_names("final_norm", f"{prefix}ln_f", d)


def _llama_names(config: ModelConfig, prefix: str) -> list[Name]:
    """Llama, Qwen2 and Mistral (LlamaForCausalLM and the like): nn.Linear maps without biases but
    Qwen2's q, k, v (and Llama's with attention_bias / mlp_bias), RMSNorms with a weight only.
    lm_head (the output head, where the embeddings are not tied) as `unembed`, for the next token."""
    d, f, d_head = config.d_model, config.d_ff, config.d_head
    wide, narrow = config.heads * d_head, config.key_heads * d_head
    names = [Name("embed.token", f"{prefix}embed_tokens.weight", (config.vocab_size, d))]
    for layer in range(config.layers):
        at, theirs = f"layers.{layer}.", f"{prefix}layers.{layer}."
        for name, path, d_in, d_out, bias in (
                ("q", "self_attn.q_proj", d, wide, config.qkv_bias), ("k", "self_attn.k_proj", d, narrow, config.qkv_bias),
                ("v", "self_attn.v_proj", d, narrow, config.qkv_bias), ("o", "self_attn.o_proj", wide, d, config.o_bias),
                ("gate", "mlp.gate_proj", d, f, config.mlp_bias), ("up", "mlp.up_proj", d, f, config.mlp_bias),
                ("down", "mlp.down_proj", f, d, config.mlp_bias)):
            names.append(Name(f"{at}w_{name}", f"{theirs}{path}.weight", (d_out, d_in), "transposed"))
            if bias:
                names.append(Name(f"{at}b_{name}", f"{theirs}{path}.bias", (d_out,)))
        names += [Name(f"{at}norm_attention.gamma", f"{theirs}input_layernorm.weight", (d,)),
                  Name(f"{at}norm_ff.gamma", f"{theirs}post_attention_layernorm.weight", (d,))]
    return names + [Name("final_norm.gamma", f"{prefix}norm.weight", (d,)),
                    Name("unembed", "lm_head.weight", (config.vocab_size, d), optional=True)]


def _norm_names(core: str, theirs: str, d: int) -> list[Name]:
    return [Name(f"{core}.gamma", f"{theirs}.weight", (d,)), Name(f"{core}.beta", f"{theirs}.bias", (d,))]


#: each family: the prefixes its tensor names may carry (a model with a head, a bare one), the tensor
#: that tells which, and its table of names
FAMILY_NAMES = {"bert": (("bert.", ""), "embeddings.word_embeddings.weight", _bert_names),
                "gpt2": (("transformer.", ""), "wte.weight", _gpt2_names),
                **{family: (("model.", ""), "embed_tokens.weight", _llama_names) for family in LLAMA_FAMILY}}


def _prefix(tensors: dict, prefixes: tuple[str, ...], first: str, where: str) -> str:
    for prefix in prefixes:
        if prefix + first in tensors:
            return prefix
    names = " or ".join(prefix + first for prefix in prefixes)
    raise ModelError(f"{where}: the tensor {names} is missing: is this the right model_type?")


def _laid_out(array: np.ndarray, layout: str | int) -> np.ndarray:
    if layout == "same":
        return array
    if layout == "transposed":
        return array.T
    width = array.shape[-1] // 3
    return array[..., layout * width:(layout + 1) * width]


def core_weights(config: ModelConfig, tensors: dict, where: str = "model.safetensors") -> dict:
    """The checkpoint's tensors (Hugging Face's names) under the core's names, views of the file's
    arrays in their own dtype. ModelError names a tensor that is missing, has the wrong shape or
    holds NaN or infinity."""
    prefixes, first, table = FAMILY_NAMES[config.architecture]
    weights, checked = {}, set()
    for name in table(config, _prefix(tensors, prefixes, first, where)):
        if name.theirs not in tensors:
            if name.optional:
                continue
            raise ModelError(f"{where}: the tensor {name.theirs} is missing")
        array = np.asarray(tensors[name.theirs])
        if name.theirs not in checked:
            if array.shape != name.shape:
                raise ModelError(f"{where}: the tensor {name.theirs} has shape {tuple(array.shape)}, "
                                 f"the config asks for {name.shape}")
            if not np.all(np.isfinite(array)):
                raise ModelError(f"{where}: the tensor {name.theirs} holds NaN or infinity")
            checked.add(name.theirs)
        weights[name.core] = _laid_out(array, name.layout)
    return weights


def checkpoint_tensors(config: ModelConfig, weights: dict) -> dict:
    """The inverse of core_weights, for saving: the core's weights under the names (with the first
    prefix: a model with its head) and layout of the family's checkpoints. ValueError for a weight
    the family's table does not name."""
    prefixes, _, table = FAMILY_NAMES[config.architecture]
    tensors, thirds, named = {}, {}, set()
    for name in table(config, prefixes[0]):
        named.add(name.core)
        if name.optional and name.core not in weights:
            continue
        value = weights[name.core]
        if isinstance(name.layout, int):
            thirds.setdefault(name.theirs, [None] * 3)[name.layout] = value
        else:
            tensors[name.theirs] = value.T if name.layout == "transposed" else value
    tensors.update({theirs: np.concatenate(parts, axis=-1) for theirs, parts in thirds.items()})
    if set(weights) - named:
        raise ValueError(f"no checkpoint name for {sorted(set(weights) - named)}")
    return tensors


@dataclass(frozen=True)
class Checkpoint:
    """A loaded checkpoint: its config, its weights under the core's names (views of the file's
    float arrays, core_weights) and its tokenizer."""

    directory: Path
    config: ModelConfig
    weights: dict
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


#: how each safetensors dtype is read from the file (BF16, which NumPy lacks, as 16-bit words)
_STORED = {"F32": "<f4", "F16": "<f2", "F64": "<f8", "BF16": "<u2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
           "I8": "i1", "U8": "u1", "BOOL": "?"}


def _safetensors_header(path: Path) -> tuple[int, dict]:
    """(the header's length, {tensor name: its entry}) of a .safetensors file, checked as the format
    says: a JSON object after its 8-byte length; each tensor a dtype, a shape and data offsets that
    hold its numbers exactly and, one after another, fill the data to its end. ValueError where not."""
    total = path.stat().st_size
    with open(path, "rb") as stream:
        start = stream.read(8)
        if len(start) != 8:
            raise ValueError("shorter than its 8-byte header length")
        size = struct.unpack("<Q", start)[0]
        if size > total - 8:
            raise ValueError(f"its header says {size:,} bytes, more than the file holds")
        header = json.loads(stream.read(size).decode("utf-8"))  # ValueError for what is not JSON
    if not isinstance(header, dict):
        raise ValueError("its header is not a JSON object")
    entries = {name: entry for name, entry in header.items() if name != "__metadata__"}
    ends, data = 0, total - 8 - size
    for name, entry in sorted(entries.items(), key=lambda item: _offsets(item)[0]):
        begin, end = _offsets((name, entry))
        shape = entry.get("shape")
        if not (isinstance(shape, list) and all(isinstance(n, int) and n >= 0 for n in shape)) or not isinstance(entry.get("dtype"), str):
            raise ValueError(f"the tensor {name}: no dtype and shape")
        width = np.dtype(_STORED[entry["dtype"]]).itemsize if entry["dtype"] in _STORED else None
        if begin != ends or (width is not None and end - begin != width * int(np.prod(shape))):
            raise ValueError(f"the tensor {name}: its data offsets [{begin}, {end}) do not hold its {shape} numbers in turn")
        ends = end
    if ends != data:
        raise ValueError(f"its tensors fill {ends:,} of its {data:,} bytes of data")
    return size, entries


def _offsets(item) -> tuple[int, int]:
    name, entry = item
    offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(n, int) for n in offsets) and 0 <= offsets[0] <= offsets[1]):
        raise ValueError(f"the tensor {name}: no data offsets")
    return offsets[0], offsets[1]


def safetensors_arrays(path: Path) -> dict:
    """Every tensor of one .safetensors file as a NumPy array, each read from the file on its own
    (so loading holds the weights once, not the file and then the weights: bench/versus_torch.py):
    F32 and F64 as stored; F16 and BF16 widened to float32, never further (a bfloat16 is the top
    16 bits of a float32, so each 16-bit word shifted up is that float32, exactly). The header is
    read here; the safetensors package only for a dtype NumPy cannot read as stored (its native
    library costs a served page resident memory: bench/README.md). OSError, ValueError or
    TypeError for a file that is not one."""
    size, header = _safetensors_header(path)
    kinds = {name: entry["dtype"] for name, entry in header.items()}
    odd = [name for name, kind in kinds.items() if kind not in _STORED]
    if odd:
        from safetensors import SafetensorError, safe_open

        try:
            with safe_open(str(path), framework="np") as opened:
                odd = {name: opened.get_tensor(name) for name in odd}
        except SafetensorError as error:
            raise ValueError(str(error)) from None
    arrays = {}
    for name, kind in kinds.items():
        if name in odd:
            arrays[name] = odd[name]
            continue
        begin, end = header[name]["data_offsets"]
        stored = np.dtype(_STORED[kind])
        values = np.fromfile(path, dtype=stored, count=(end - begin) // stored.itemsize, offset=8 + size + begin)
        if kind == "BF16":
            values = (values.astype(np.uint32) << 16).view(np.float32)
        elif kind == "F16":
            values = values.astype(np.float32)
        arrays[name] = values.reshape(header[name]["shape"])
    return arrays


def _tensor_files(directory: Path) -> list[Path]:
    """The checkpoint's weight files: model.safetensors, or the shards its index lists."""
    if (directory / "model.safetensors").is_file() or not (directory / INDEX).is_file():
        return [directory / "model.safetensors"]
    try:
        index = json.loads((directory / INDEX).read_text(encoding="utf-8"))
        shards = sorted(set(index["weight_map"].values()))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, AttributeError) as error:
        raise ModelError(f"{directory / INDEX}: not a readable index of shards (weight_map): {error}") from None
    for shard in shards:
        if not isinstance(shard, str) or "/" in shard or "\\" in shard or not (directory / shard).is_file():
            raise ModelError(f"{directory / INDEX}: lists the shard {shard!r}, which is not in the folder")
    return [directory / shard for shard in shards]


def load_checkpoint(directory) -> Checkpoint:
    """Read a checkpoint directory. ModelError names the file (and tensor or field) that is
    missing, unreadable, of an architecture this tool does not run, or of the wrong shape."""
    directory = Path(directory)
    if not directory.is_dir():
        raise ModelError(f"{directory}: no such directory (give the folder save_pretrained wrote)")
    for name in FILES:
        if name == "model.safetensors" and (directory / INDEX).is_file():
            continue
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
    tensors, files = {}, _tensor_files(directory)
    for path in files:
        try:
            arrays = safetensors_arrays(path)
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise ModelError(f"{path}: not a readable safetensors file: {error}") from None
        for key, array in arrays.items():
            if not np.issubdtype(array.dtype, np.floating) and not key.endswith((".bias", "masked_bias", "position_ids")):
                raise ModelError(f"{path}: the tensor {key} is {array.dtype}, not floating point")
        tensors.update(arrays)
    where = str(files[0]) if len(files) == 1 else f"{directory} (the shards in {INDEX})"
    weights = core_weights(parsed, tensors, where)
    tokenizer = read_tokenizer(directory / "tokenizer.json")
    return Checkpoint(directory=directory, config=parsed, weights=weights, tokenizer=tokenizer)


def read_tokenizer(path: Path):
    """The tokenizer a tokenizer.json describes, for one sentence whole (no [PAD] tokens: there is
    no attention mask here; no words cut off): a word-level one as the model trained here has it
    by attention_core.word_tokenizer, any other by the tokenizers package. ModelError where none."""
    try:
        text = path.read_text(encoding="utf-8")
        tokenizer = WordTokenizer.from_json(json.loads(text))
        if tokenizer is None:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_str(text)
    except Exception as error:  # the tokenizers package raises its own Exception type
        raise ModelError(f"{path}: not a readable tokenizer: {error}") from None
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


def _word_spans(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def encode(tokenizer, text: str) -> Encoded:
    """The sentence as the tokenizer cuts it, each token with its 어절 (by character offsets)."""
    if not isinstance(text, str) or not text.strip():
        raise ModelError("the sentence is empty", "empty_sentence")
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
    """Tokenize `text` and run it through the checkpoint, in float32 as PyTorch runs it (the head on
    screen is recomputed in float64: transformer.forward)."""
    encoded = encode(checkpoint.tokenizer, text)
    if len(encoded.ids) > checkpoint.config.max_positions:
        raise ModelError(f"the sentence is {len(encoded.ids)} tokens; {checkpoint.name} takes at most "
                         f"{checkpoint.config.max_positions}", "too_many_tokens", count=len(encoded.ids),
                         limit=checkpoint.config.max_positions)
    return encoded, forward(checkpoint.config, checkpoint.weights, encoded.ids, dtype=np.float32)
