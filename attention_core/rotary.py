"""What the rotation (RoPE) does to one head of a Llama-family model, as the page shows it: each
pair of q's and k's dimensions turned by an angle that grows with the token's position, the
scores with the rotation left out (an experiment), and a demonstration, computed, that moving
every token by the same number of places leaves the scores as they are: after the rotation,
q_i · k_j depends on i − j, not on i and j.
"""
from __future__ import annotations

import numpy as np

from .transformer import ModelRun, rotary_angles, rotate_pairs

#: how many places the demonstration moves every token
SHIFT = 100


def rotation_view(run: ModelRun, layer: int, head: int, shift: int = SHIFT) -> dict:
    """For head `head` of layer `layer` (n tokens, d = d_head):

    angles        (n, d/2)  the angle, in radians, pair i (dimensions i and i + d/2) of the token
                            at position p turns by: p × θ^(−2i/d)
    q_plain, k_plain (n, d) q and k as the maps made them, before the rotation
    scores_plain  (n, n)    q · k with the rotation left out (the experiment "rotation off")
    shift, shift_difference the largest change of any score q_i · k_j when every position is
                            moved by `shift` (zero but for rounding: the rotation keeps only i − j)
    """
    config = run.config
    q_plain, k_plain, _ = run.head_qkv(layer, head, rotate=False)
    positions = np.arange(run.n)
    angles = rotary_angles(positions, config.d_head, config.rope_theta)
    moved = rotary_angles(positions + shift, config.d_head, config.rope_theta)
    scores = rotate_pairs(q_plain, angles) @ rotate_pairs(k_plain, angles).T  # as ModelRun.head_qkv rotates them
    moved_scores = rotate_pairs(q_plain, moved) @ rotate_pairs(k_plain, moved).T
    return {"angles": angles, "q_plain": q_plain, "k_plain": k_plain, "scores_plain": q_plain @ k_plain.T, "shift": shift,
            "shift_difference": float(np.max(np.abs(moved_scores - scores)))}
