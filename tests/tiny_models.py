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


def sentencepiece_tokenizer(vocab_size: int = 200) -> Tokenizer:
    """A tokenizer as Llama 2's and Mistral's tokenizer.json have it: SentencePiece-style BPE whose
    pieces mark a word's start with ▁ (Metaspace), falling back to byte pieces (<0xEB>) for a character it has
    not learned, and <s> before the sentence. Trained on the corpus, then rebuilt with the 256 byte
    pieces in its vocabulary (the trainer does not make them)."""
    trained = Tokenizer(models.BPE())
    trained.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always", split=True)
    trained.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<unk>", "<s>", "</s>"], show_progress=False))
    state = json.loads(trained.to_str())
    vocab = state["model"]["vocab"]
    for byte in range(256):
        vocab.setdefault(f"<0x{byte:02X}>", len(vocab))
    state["model"]["byte_fallback"] = True
    state["model"]["unk_token"] = "<unk>"
    state["post_processor"] = {"type": "TemplateProcessing", "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}},
                                                                        {"Sequence": {"id": "A", "type_id": 0}}],
                               "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
                               "special_tokens": {"<s>": {"id": "<s>", "ids": [vocab["<s>"]], "tokens": ["<s>"]}}}
    state["decoder"] = {"type": "Sequence", "decoders": [{"type": "Replace", "pattern": {"String": "▁"}, "content": " "},
                                                         {"type": "ByteFallback"}, {"type": "Fuse"},
                                                         {"type": "Strip", "content": " ", "start": 1, "stop": 0}]}
    return Tokenizer.from_str(json.dumps(state))


#: each Llama-family model_type: its config fields as save_pretrained writes them (sizes filled in
#: by write_llama), and the tokenizer its checkpoints ship
LLAMA_FAMILIES = {
    "llama": ({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "attention_bias": False, "mlp_bias": False,
               "rope_scaling": None, "tie_word_embeddings": False, "pretraining_tp": 1}, sentencepiece_tokenizer),
    "qwen2": ({"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "use_sliding_window": False,
               "sliding_window": 32768, "max_window_layers": 21, "tie_word_embeddings": True, "rope_scaling": None},
              gpt2_tokenizer),
    "mistral": ({"architectures": ["MistralForCausalLM"], "model_type": "mistral", "tie_word_embeddings": False},
                sentencepiece_tokenizer),
}


def as_bfloat16(array: np.ndarray) -> np.ndarray:
    """float32 values rounded to the nearest bfloat16 (ties to even), still as float32."""
    bits = np.asarray(array, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return (rounded.astype(np.uint32) << 16).view(np.float32)


def save_bfloat16(tensors: dict[str, np.ndarray], path: Path) -> None:
    """A .safetensors file of BF16 tensors, written by hand (the safetensors package's NumPy writer
    has no bfloat16): an 8-byte header length, the JSON header, then each tensor's top 16 bits."""
    header, blobs, offset = {}, [], 0
    for name, array in tensors.items():
        words = (as_bfloat16(array).view(np.uint32) >> 16).astype("<u2").tobytes()
        header[name] = {"dtype": "BF16", "shape": list(array.shape), "data_offsets": [offset, offset + len(words)]}
        blobs.append(words)
        offset += len(words)
    text = json.dumps({"__metadata__": {"format": "pt"}, **header}).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(len(text).to_bytes(8, "little") + text + b"".join(blobs))


def llama_tensors(config: dict, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Random weights under the Llama family's tensor names, float32 (biases for Qwen2's q, k, v;
    no lm_head where the embeddings are tied)."""
    d, f, vocab = config["hidden_size"], config["intermediate_size"], config["vocab_size"]
    d_head = config.get("head_dim") or d // config["num_attention_heads"]
    wide, narrow = config["num_attention_heads"] * d_head, config["num_key_value_heads"] * d_head
    bias = config["model_type"] == "qwen2"
    tensors = {"model.embed_tokens.weight": rng.normal(0, 1.0, (vocab, d)), "model.norm.weight": rng.normal(1, 0.2, (d,))}
    for layer in range(config["num_hidden_layers"]):
        at = f"model.layers.{layer}."
        for name, d_in, d_out in (("self_attn.q_proj", d, wide), ("self_attn.k_proj", d, narrow),
                                  ("self_attn.v_proj", d, narrow), ("self_attn.o_proj", wide, d),
                                  ("mlp.gate_proj", d, f), ("mlp.up_proj", d, f), ("mlp.down_proj", f, d)):
            tensors[f"{at}{name}.weight"] = rng.normal(0, 1.2 / np.sqrt(d_in), (d_out, d_in))
            if bias and name in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"):
                tensors[f"{at}{name}.bias"] = rng.normal(0, 0.5, (d_out,))
        tensors[f"{at}input_layernorm.weight"] = rng.normal(1, 0.2, (d,))
        tensors[f"{at}post_attention_layernorm.weight"] = rng.normal(1, 0.2, (d,))
    if not config.get("tie_word_embeddings"):
        tensors["lm_head.weight"] = rng.normal(0, 1.0, (vocab, d))
    return {name: value.astype(np.float32) for name, value in tensors.items()}


def write_llama(directory: Path, family: str = "llama", *, layers: int = 2, heads: int = 4, kv_heads: int = 2,
                d: int = 16, d_ff: int = 24, dtype: str = "BF16", shards: int = 1, window: int | None = None,
                seed: int = 3, max_positions: int = 64, **fields) -> Path:
    """A tiny Llama-family checkpoint (family: llama, qwen2 or mistral) as save_pretrained writes
    it: config.json, the weights in `dtype` (BF16, F16 or F32) in one model.safetensors or in
    `shards` files with model.safetensors.index.json, and tokenizer.json. `fields` add to or
    override config.json's."""
    directory.mkdir(parents=True, exist_ok=True)
    base, make_tokenizer = LLAMA_FAMILIES[family]
    tokenizer = make_tokenizer()
    config = {**base, "hidden_size": d, "num_hidden_layers": layers, "num_attention_heads": heads,
              "num_key_value_heads": kv_heads, "intermediate_size": d_ff, "hidden_act": "silu",
              "max_position_embeddings": max_positions, "rms_norm_eps": 1e-6, "rope_theta": 10000.0,
              "vocab_size": tokenizer.get_vocab_size(), "torch_dtype": {"BF16": "bfloat16", "F16": "float16", "F32": "float32"}[dtype]}
    if family == "mistral":
        config["sliding_window"] = window
    config.update(fields)
    (directory / "config.json").write_text(json.dumps(config), encoding="utf-8")
    tensors = llama_tensors(config, np.random.default_rng(seed))
    names = list(tensors)
    parts = [names[i::shards] for i in range(shards)]
    files = ["model.safetensors"] if shards == 1 else [f"model-{i + 1:05d}-of-{shards:05d}.safetensors" for i in range(shards)]
    for file, part in zip(files, parts):
        chosen = {name: tensors[name] for name in part}
        if dtype == "BF16":
            save_bfloat16(chosen, directory / file)
        else:
            save_file({name: value.astype(np.float16 if dtype == "F16" else np.float32) for name, value in chosen.items()},
                      str(directory / file), metadata={"format": "pt"})
    if shards > 1:
        index = {"metadata": {"total_size": sum(t.nbytes for t in tensors.values())},
                 "weight_map": {name: file for file, part in zip(files, parts) for name in part}}
        (directory / "model.safetensors.index.json").write_text(json.dumps(index), encoding="utf-8")
    tokenizer.save(str(directory / "tokenizer.json"))
    return directory


def edit_config(**fields):
    """A change to a checkpoint folder: config.json with `fields` set (for the refusal tests)."""
    def change(directory):
        config = json.loads((directory / "config.json").read_text())
        config.update(fields)
        (directory / "config.json").write_text(json.dumps(config))
    return change


#: the checkpoints whose next token and logit lens scripts/record_next_token.py records from
#: transformers (tests/golden/next_token.json) and tests/unit/test_prediction.py writes again
NEXT_TOKEN_SENTENCE = "나는 어제 학교에서 친구를 만났다"
NEXT_TOKEN_CHECKPOINTS = {
    "gpt2": lambda folder: write_gpt2(folder, layers=2, heads=2, d=16),
    "llama": lambda folder: write_llama(folder, "llama", kv_heads=2, dtype="F32"),
    "qwen2": lambda folder: write_llama(folder, "qwen2", kv_heads=1, dtype="F32"),
}
