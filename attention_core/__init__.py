"""Attention maths in pure NumPy: every step of softmax(QKᵀ/√d_k)V, presets and the state cube."""
from .answer import AnswerCheck, check_answer, parse_vector
from .attention import AttentionResult, attention, causal_mask, softmax, split_heads
from .cube import HEAD_CHOICES, Named, StateCube, cube_payload, decode_payload, head_counts, state_cube
from .errors import InputError
from .numbers import MAX_MAGNITUDE, parse_matrix, parse_number
from .presets import DEFAULT_PRESET, PRESETS, Preset
from .sentence import MAX_TOKENS, custom_preset, tokenize, toy_qkv

__all__ = [
    "AnswerCheck", "check_answer", "parse_vector",
    "AttentionResult", "attention", "causal_mask", "softmax", "split_heads",
    "HEAD_CHOICES", "Named", "StateCube", "cube_payload", "decode_payload", "head_counts", "state_cube",
    "InputError",
    "MAX_MAGNITUDE", "parse_matrix", "parse_number",
    "DEFAULT_PRESET", "PRESETS", "Preset",
    "MAX_TOKENS", "custom_preset", "tokenize", "toy_qkv",
]
