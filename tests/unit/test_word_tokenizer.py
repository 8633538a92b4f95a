"""The built-in model's files are read without the tokenizers and safetensors packages (their
native libraries cost a served page ~6 MB of resident memory: bench/README.md, issue 38), and read
as those packages read them: the same tokens, ids, offsets and special tokens; the same arrays; the
same refusals of a broken file."""
import json
import struct
from pathlib import Path

import numpy as np
import pytest
from safetensors import SafetensorError, safe_open
from safetensors.numpy import save_file
from tokenizers import Tokenizer

import attention_core
from attention_core.checkpoint import read_tokenizer, safetensors_arrays
from attention_core.word_tokenizer import WordTokenizer

SENTENCES = ["나는 어제 학교에서 친구를 만났다", "  나는\t모르는말   만났다 ", "[MASK] 나는 [SEP]", "a\x1cb c",
             "x\u3000y\u200bz\u00a0w", "고양이가\n생선을\r\n먹었다", "먹었다", "ㅋㅋ 😀 만났다"]


def trained_tokenizer_path():
    """The tokenizer.json of the model trained here (attention_core/data/tiny-korean), its last step."""
    return sorted((Path(attention_core.__file__).parent / "data" / "tiny-korean").glob("step-*"))[-1] / "tokenizer.json"


def test_the_trained_models_tokenizer_is_read_without_the_package_and_cuts_as_it_does():
    path = trained_tokenizer_path()
    ours, theirs = read_tokenizer(path), Tokenizer.from_file(str(path))
    assert isinstance(ours, WordTokenizer)
    for text in SENTENCES:
        a, b = theirs.encode(text), ours.encode(text)
        assert (a.ids, a.tokens, [tuple(o) for o in a.offsets], a.special_tokens_mask) == \
            (b.ids, b.tokens, b.offsets, b.special_tokens_mask), text
    vocab = theirs.get_vocab()
    assert ours.get_vocab() == vocab
    for token, index in list(vocab.items()) + [("없는말", None)]:
        assert ours.token_to_id(token) == theirs.token_to_id(token)
    for ids in ([2, 5, 3], [0], [len(vocab) - 1, 1], [len(vocab) + 5]):
        assert ours.decode(ids) == theirs.decode(ids)
        assert ours.id_to_token(ids[0]) == theirs.id_to_token(ids[0])


def test_any_other_tokenizer_json_goes_to_the_tokenizers_package(tmp_path):
    data = json.loads(trained_tokenizer_path().read_text(encoding="utf-8"))
    data["normalizer"] = {"type": "Lowercase"}  # not what WordTokenizer reads
    (tmp_path / "tokenizer.json").write_text(json.dumps(data), encoding="utf-8")
    assert isinstance(read_tokenizer(tmp_path / "tokenizer.json"), Tokenizer)


def test_safetensors_files_read_as_the_package_reads_them(tmp_path):
    rng = np.random.default_rng(3)
    path = tmp_path / "model.safetensors"
    tensors = {"a.weight": rng.normal(size=(3, 4)).astype(np.float32), "b.bias": rng.normal(size=5).astype(np.float64),
               "c.half": rng.normal(size=(2, 2)).astype(np.float16), "ids": np.arange(6, dtype=np.int64).reshape(2, 3)}
    save_file(tensors, str(path), metadata={"format": "np"})
    arrays = safetensors_arrays(path)
    with safe_open(str(path), framework="np") as opened:
        for name in opened.keys():
            expected = opened.get_tensor(name)
            assert arrays[name].shape == expected.shape
            assert np.array_equal(arrays[name], expected.astype(np.float32) if expected.dtype == np.float16 else expected)


@pytest.mark.parametrize("damage", ["truncated", "header too long", "not json", "overlap", "short data", "extra data"])
def test_a_broken_safetensors_file_is_refused_as_the_package_refuses_it(tmp_path, damage):
    path = tmp_path / "model.safetensors"
    save_file({"a": np.ones((2, 2), dtype=np.float32), "b": np.zeros(3, dtype=np.float32)}, str(path))
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8:8 + size])
    if damage == "truncated":
        raw = raw[:-4]
    elif damage == "header too long":
        raw = struct.pack("<Q", len(raw)) + raw[8:]
    elif damage == "not json":
        raw = raw[:8] + b"x" + raw[9:]
    else:
        if damage == "overlap":
            header["b"]["data_offsets"] = [0, 12]
        elif damage == "short data":
            header["b"]["data_offsets"] = [16, 24]
        text = json.dumps(header).encode()
        raw = struct.pack("<Q", len(text)) + text + raw[8 + size:] + (b"\0" * 4 if damage == "extra data" else b"")
    path.write_bytes(raw)
    with pytest.raises((SafetensorError, ValueError, OSError)):
        with safe_open(str(path), framework="np") as opened:
            [opened.get_tensor(name) for name in opened.keys()]
    with pytest.raises((ValueError, OSError, TypeError)):
        safetensors_arrays(path)
