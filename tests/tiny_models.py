"""Tiny Hugging Face checkpoints the tests write: random weights under the exact tensor names and
config.json fields `save_pretrained` writes, and a tokenizer.json trained by the `tokenizers`
trainers on the textbook's sentences. Nothing is downloaded."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from safetensors.numpy import save_file
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

CORPUS = [
    "나는 어제 학교에서 친구를 만났다",
    "고양이가 생선을 먹었다",
    "강가의 은행에 앉았다",
    "돈을 맡기러 은행에 갔다",
    "그 동물은 길을 건너지 않았다 왜냐하면 그것은 너무 피곤했기 때문이다",
    "나는 오늘 도서관에서 책을 읽었다",
    "할머니께서 밥을 드셨다",
    "우리는 내일 친구를 만날 것이다",
] * 4


def bert_tokenizer(vocab_size: int = 120) -> Tokenizer:
    """A WordPiece tokenizer as BERT's tokenizer.json has it: [CLS] sentence [SEP]."""
    tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.NFC()
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"])
    tokenizer.train_from_iterator(CORPUS, trainer)
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    tokenizer.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)])
    tokenizer.decoder = decoders.WordPiece()
    return tokenizer


def gpt2_tokenizer(vocab_size: int = 300) -> Tokenizer:
    """A byte-level BPE tokenizer as GPT-2's tokenizer.json has it."""
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=True)
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator(CORPUS, trainer)
    return tokenizer


def bert_tensors(config: dict, rng: np.random.Generator, prefix: str = "bert.", std: float = 0.5) -> dict[str, np.ndarray]:
    d, ff, v = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    r = lambda *shape: rng.normal(0, std, shape).astype(np.float32)  # noqa: E731
    t = {f"{prefix}embeddings.word_embeddings.weight": r(v, d),
         f"{prefix}embeddings.position_embeddings.weight": r(config["max_position_embeddings"], d),
         f"{prefix}embeddings.token_type_embeddings.weight": r(config["type_vocab_size"], d),
         f"{prefix}embeddings.LayerNorm.weight": 1 + r(d) / 5, f"{prefix}embeddings.LayerNorm.bias": r(d) / 5}
    for layer in range(config["num_hidden_layers"]):
        at = f"{prefix}encoder.layer.{layer}."
        for name, shape in (("attention.self.query", (d, d)), ("attention.self.key", (d, d)),
                            ("attention.self.value", (d, d)), ("attention.output.dense", (d, d)),
                            ("intermediate.dense", (ff, d)), ("output.dense", (d, ff))):
            t[at + name + ".weight"], t[at + name + ".bias"] = r(*shape), r(shape[0]) / 5
        for name in ("attention.output.LayerNorm", "output.LayerNorm"):
            t[at + name + ".weight"], t[at + name + ".bias"] = 1 + r(d) / 5, r(d) / 5
    if prefix:  # BertForMaskedLM also carries its head, which attention does not use
        t["cls.predictions.bias"] = r(v)
    return t


def gpt2_tensors(config: dict, rng: np.random.Generator, prefix: str = "transformer.") -> dict[str, np.ndarray]:
    d, v, n = config["n_embd"], config["vocab_size"], config["n_positions"]
    r = lambda *shape: rng.normal(0, 0.5, shape).astype(np.float32)  # noqa: E731
    t = {f"{prefix}wte.weight": r(v, d), f"{prefix}wpe.weight": r(n, d),
         f"{prefix}ln_f.weight": 1 + r(d) / 5, f"{prefix}ln_f.bias": r(d) / 5}
    for layer in range(config["n_layer"]):
        at = f"{prefix}h.{layer}."
        for name, shape in (("attn.c_attn", (d, 3 * d)), ("attn.c_proj", (d, d)), ("mlp.c_fc", (d, 4 * d)),
                            ("mlp.c_proj", (4 * d, d))):
            t[at + name + ".weight"], t[at + name + ".bias"] = r(*shape), r(shape[1]) / 5
        for name in ("ln_1", "ln_2"):
            t[at + name + ".weight"], t[at + name + ".bias"] = 1 + r(d) / 5, r(d) / 5
    return t


def write_bert(directory: Path, *, layers: int = 2, heads: int = 2, d: int = 8, prefix: str = "bert.",
               seed: int = 0, max_positions: int = 64, d_ff: int | None = None, std: float = 0.5) -> Path:
    """A tiny BERT checkpoint: config.json, model.safetensors, tokenizer.json (or, with the sizes
    given, a BERT-base-sized one for bench/model.py: random weights of standard deviation std)."""
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = bert_tokenizer()
    config = {"architectures": ["BertForMaskedLM"], "model_type": "bert", "hidden_size": d,
              "num_hidden_layers": layers, "num_attention_heads": heads, "intermediate_size": d_ff or 2 * d,
              "hidden_act": "gelu", "max_position_embeddings": max_positions, "type_vocab_size": 2,
              "layer_norm_eps": 1e-12, "vocab_size": tokenizer.get_vocab_size()}
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    save_file(bert_tensors(config, np.random.default_rng(seed), prefix, std), str(directory / "model.safetensors"),
              metadata={"format": "pt"})
    tokenizer.save(str(directory / "tokenizer.json"))
    return directory


def write_gpt2(directory: Path, *, layers: int = 2, heads: int = 2, d: int = 8, prefix: str = "transformer.",
               seed: int = 1, max_positions: int = 64) -> Path:
    """A tiny GPT-2 checkpoint: config.json, model.safetensors, tokenizer.json."""
    directory.mkdir(parents=True, exist_ok=True)
    tokenizer = gpt2_tokenizer()
    config = {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": d, "n_layer": layers,
              "n_head": heads, "n_positions": max_positions, "n_inner": None, "activation_function": "gelu_new",
              "layer_norm_epsilon": 1e-5, "vocab_size": tokenizer.get_vocab_size()}
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    save_file(gpt2_tensors(config, np.random.default_rng(seed), prefix), str(directory / "model.safetensors"),
              metadata={"format": "pt"})
    tokenizer.save(str(directory / "tokenizer.json"))
    return directory
