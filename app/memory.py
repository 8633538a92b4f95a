"""Gives memory back to the operating system after sessions close, so a server's footprint
after a class returns near its baseline (CPython and glibc otherwise keep freed arenas)."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc

from tornado.ioloop import IOLoop


def _malloc_trim():
    """glibc's malloc_trim(0), or None where the C library has none (macOS, musl)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    return trim


class MemoryReclaimer:
    """One per server process: after sessions are destroyed, collect garbage and trim the heap once."""

    def __init__(self, delay_seconds: float = 2.0):
        self.delay_seconds = delay_seconds
        self.pending = False
        self.trim = _malloc_trim()

    def session_destroyed(self, session_context) -> None:
        if not self.pending:
            self.pending = True
            IOLoop.current().call_later(self.delay_seconds, self.reclaim)

    def reclaim(self) -> None:
        self.pending = False
        gc.collect()
        if self.trim is not None:
            self.trim(0)
