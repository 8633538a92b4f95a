"""Errors in what a student typed, with a code the UI translates and the values to fill in."""
from __future__ import annotations


class InputError(ValueError):
    """A ValueError whose `code` names the problem (e.g. 'not_number') and `values` fill the message."""

    def __init__(self, code: str, message: str, **values):
        super().__init__(message)
        self.code = code
        self.values = values
