"""Attention maths in pure NumPy: every step of softmax(QKᵀ/√d_k)V, presets and the state cube."""
from .attention import AttentionResult, attention, causal_mask, softmax, split_heads
from .cube import HEAD_CHOICES, StateCube, cube_payload, decode_array, decode_payload, encode_array, head_counts, state_cube
from .presets import DEFAULT_PRESET, PRESETS, Preset
from .sentence import MAX_TOKENS, custom_preset, tokenize, toy_qkv

__all__ = [
    "AttentionResult", "attention", "causal_mask", "softmax", "split_heads",
    "HEAD_CHOICES", "StateCube", "cube_payload", "decode_array", "decode_payload", "encode_array", "head_counts", "state_cube",
    "DEFAULT_PRESET", "PRESETS", "Preset",
    "MAX_TOKENS", "custom_preset", "tokenize", "toy_qkv",
]
from .answer import AnswerCheck, check_answer, parse_vector
from .numbers import parse_matrix, parse_number

__all__ += ["AnswerCheck", "check_answer", "parse_vector", "parse_matrix", "parse_number"]
from .errors import InputError

__all__ += ["InputError"]
