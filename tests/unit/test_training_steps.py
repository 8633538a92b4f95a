"""`make train` writes the committed checkpoints again: its first 50 steps, run here through the
one forward pass (attention_core.transformer) and the hand-written backward pass, give the
committed step-0000 and step-0050 folders bit for bit."""
from __future__ import annotations

import numpy as np
from safetensors.numpy import load_file

from attention_core import training
from support import ROOT

TRAINED = ROOT / "attention_core" / "data" / "tiny-korean"


def test_the_first_training_steps_write_the_committed_step_files(tmp_path):
    """Every float32 number equal, but the attention's key biases: their exact gradient is 0 (softmax
    does not see a shift of a query's scores), so they hold only float64 rounding noise (about
    1e-11), which differs between machines' BLAS kernels. A change of the forward or backward
    numbers shows in the float32 files (a change at the last float64 bit shows only in that noise)."""
    steps = (0, 50)
    losses = training.train(tmp_path, steps=steps[-1], saved=steps, log=None)
    assert len(losses) == steps[-1] and losses[-1] < losses[0]
    for step in steps:
        ours, theirs = (folder / training.FOLDER.format(step) for folder in (tmp_path, TRAINED))
        for name in ("config.json", "tokenizer.json"):
            assert (ours / name).read_bytes() == (theirs / name).read_bytes(), (step, name)
        made, committed = (load_file(str(folder / "model.safetensors")) for folder in (ours, theirs))
        assert set(made) == set(committed)
        for name, value in committed.items():
            if name.endswith("attention.self.key.bias"):
                assert np.max(np.abs(made[name] - value)) < 1e-9, (step, name)
            else:
                np.testing.assert_array_equal(made[name], value, err_msg=f"step {step}: {name}")
