"""`attention-viz next` (app/next_token.py): the top tokens and the lens as the core computes them,
in words and as JSON, and one line with exit status 2 for each input it cannot take."""
import json

import pytest

from app.cli import main
from attention_core.checkpoint import load_checkpoint, run_checkpoint
from attention_core.prediction import logit_lens, next_tokens
from tiny_models import NEXT_TOKEN_CHECKPOINTS, NEXT_TOKEN_SENTENCE, write_bert


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("next")
    return {"qwen2": NEXT_TOKEN_CHECKPOINTS["qwen2"](root / "qwen2"), "bert": write_bert(root / "bert")}


def test_next_prints_the_cores_top_tokens_and_lens_as_json(folders, capsys):
    assert main(["next", "--model", str(folders["qwen2"]), "--text", NEXT_TOKEN_SENTENCE, "--top-k", "4",
                 "--temperature", "0.7", "--lens", "--json"]) == 0
    said = json.loads(capsys.readouterr().out)
    encoded, run = run_checkpoint(load_checkpoint(folders["qwen2"]), NEXT_TOKEN_SENTENCE)
    made = next_tokens(run, 4, 0.7)
    assert said["tokens"] == list(encoded.pieces) and said["ids"] == list(encoded.ids) and said["temperature"] == 0.7
    assert [t["id"] for t in said["top"]] == made.ids.tolist()
    assert [t["probability"] for t in said["top"]] == pytest.approx(made.probabilities.tolist(), abs=1e-6)
    ids, chances = logit_lens(run, positions=[-1], top_k=4)
    assert [layer["layer"] for layer in said["lens"]] == list(range(run.config.layers + 1))
    for layer, entry in enumerate(said["lens"]):
        assert [t["id"] for t in entry["top"]] == ids[layer, 0].tolist()
        assert [t["probability"] for t in entry["top"]] == pytest.approx(chances[layer, 0].tolist(), abs=1e-6)
    assert all(t["token"] for t in said["top"])  # a piece of a character's bytes is named, never blank


def test_next_in_words_names_each_token_and_its_probability(folders, capsys):
    assert main(["next", "--model", str(folders["qwen2"]), "--text", NEXT_TOKEN_SENTENCE, "--top-k", "2", "--lens"]) == 0
    lines = capsys.readouterr().out.splitlines()
    _, run = run_checkpoint(load_checkpoint(folders["qwen2"]), NEXT_TOKEN_SENTENCE)
    made = next_tokens(run, 2)
    assert lines[1] == "next token (temperature 1):"
    assert lines[2].startswith("   1. ") and f"id {made.ids[0]} " in lines[2] and lines[2].endswith(f"{made.probabilities[0]:.4f}")
    assert lines[4].startswith("the logit lens") and lines[5].strip().startswith("embeddings:")
    assert len(lines) == 5 + run.config.layers + 1


@pytest.mark.parametrize("case, words", [
    (["--model", "/no/such/folder", "--text", "x"], "no such directory"),
    (["--model", "BERT", "--text", "나는"], "does not predict the next token"),
    (["--model", "QWEN", "--text", "   "], "the text is empty"),
    (["--model", "QWEN", "--text", "나는", "--top-k", "0"], "top-k is a whole number from 1 to 100, not 0"),
    (["--model", "QWEN", "--text", "나는", "--top-k", "1000000000"], "not 1000000000"),
    (["--model", "QWEN", "--text", "나는", "--temperature", "0"], "the temperature is from 0.05 to 10"),
    (["--model", "QWEN", "--text", "나는 어제 학교에서 친구를 만났다 " * 10], "takes at most 64"),
])
def test_next_refuses_what_it_cannot_take_in_one_line(folders, capsys, case, words):
    case = [str(folders["bert"]) if part == "BERT" else str(folders["qwen2"]) if part == "QWEN" else part for part in case]
    assert main(["next", *case]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("attention-viz next: error: ") and words in lines[0]
