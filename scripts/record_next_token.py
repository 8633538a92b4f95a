"""Record transformers' next-token probabilities and logit lens for the tiny checkpoints the tests
write (tests/tiny_models.py: GPT-2, Llama, Qwen2), as tests/golden/next_token.json, which
tests/unit/test_prediction.py holds attention_core.prediction to.

transformers is never a dependency of the project: run this with a separate environment that has
it, from the repository's root, for example

    python3 -m venv /tmp/torchenv
    /tmp/torchenv/bin/pip install torch==2.13.0 transformers safetensors tokenizers numpy
    /tmp/torchenv/bin/python scripts/record_next_token.py

For each checkpoint: the sentence's token ids, the top 5 next tokens after the last one with their
probabilities (float32, eager attention), and the logit lens: each layer's hidden state (the
embeddings first) through the model's final norm (the last one already is) and its output head,
the top 3 at every position.
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import torch  # noqa: E402
from transformers import AutoModelForCausalLM  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

from tiny_models import NEXT_TOKEN_CHECKPOINTS, NEXT_TOKEN_SENTENCE  # noqa: E402

TOP_NEXT, TOP_LENS = 5, 3


def final_norm(model):
    """The model's final norm module (GPT-2's ln_f, the Llama family's norm)."""
    base = model.base_model
    return base.ln_f if hasattr(base, "ln_f") else base.norm


def record(folder: Path) -> dict:
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, attn_implementation="eager").eval()
    ids = Tokenizer.from_file(str(folder / "tokenizer.json")).encode(NEXT_TOKEN_SENTENCE).ids
    with torch.no_grad():
        made = model(torch.tensor([ids]), output_hidden_states=True)
        next_p = torch.softmax(made.logits[0, -1].double(), dim=-1)
        top = torch.topk(next_p, TOP_NEXT)
        lens = []
        states = made.hidden_states
        for layer, hidden in enumerate(states):
            normed = hidden if layer == len(states) - 1 else final_norm(model)(hidden)
            p = torch.softmax(model.lm_head(normed)[0].double(), dim=-1)
            best = torch.topk(p, TOP_LENS, dim=-1)
            lens.append({"ids": best.indices.tolist(), "probabilities": best.values.tolist()})
    return {"ids": ids, "next": {"ids": top.indices.tolist(), "probabilities": top.values.tolist()}, "lens": lens}


def main() -> int:
    import transformers

    made = {"how": "scripts/record_next_token.py", "transformers": transformers.__version__, "torch": torch.__version__,
            "sentence": NEXT_TOKEN_SENTENCE, "checkpoints": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name, write in NEXT_TOKEN_CHECKPOINTS.items():
            made["checkpoints"][name] = record(write(Path(tmp) / name))
    out = ROOT / "tests" / "golden" / "next_token.json"
    out.write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
