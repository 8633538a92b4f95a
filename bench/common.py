"""Shared pieces of the benchmarks: start a server, watch its CPU and memory, print figures."""
from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """A server subprocess on loopback, with its CPU time and memory summed over its worker processes."""

    def __init__(self, kind: str, num_procs: int = 1, unused_session_lifetime: int | None = None, port=None, extra=()):
        self.kind = kind
        self.port = port or free_port()
        if kind == "explorer":
            command = [PYTHON, "-m", "app.cli", "serve", "--port", str(self.port)]
        elif kind in ("bare", "callback"):
            command = [PYTHON, "bench/servers.py", kind, "--port", str(self.port)]
        else:
            raise ValueError(kind)
        command += ["--num-procs", str(num_procs), *map(str, extra)]
        if unused_session_lifetime:
            command += ["--unused-session-lifetime", str(unused_session_lifetime)]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, "PYTHONPATH": str(ROOT)})
        self.url = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url, timeout=5):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            self.stop()
            raise RuntimeError(f"{kind} server did not start")
        time.sleep(1.0)

    @classmethod
    def attach(cls, url: str, pids) -> "Server":
        """A server started elsewhere, known by its URL and process ids (not stopped by us)."""
        server = cls.__new__(cls)
        server.kind, server.url, server.process, server.pids = "attached", url, None, list(pids)
        return server

    def processes(self):
        if self.process is None:
            return [psutil.Process(pid) for pid in self.pids]
        root = psutil.Process(self.process.pid)
        return [root, *root.children(recursive=True)]

    @staticmethod
    def cpu_of(pid: int) -> float:
        times = psutil.Process(pid).cpu_times()
        return times.user + times.system

    def cpu_seconds(self) -> float:
        total = 0.0
        for proc in self.processes():
            try:
                times = proc.cpu_times()
                total += times.user + times.system
            except psutil.NoSuchProcess:
                pass
        return total

    def rss_bytes(self) -> int:
        total = 0
        for proc in self.processes():
            try:
                total += proc.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total

    def stop(self):
        if self.process is None:
            return
        for proc in reversed(self.processes()):
            try:
                proc.terminate()
            except psutil.NoSuchProcess:
                pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def percentile(values, q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def median(values) -> float:
    return statistics.median(values) if values else float("nan")


from app.figure import CHROMIUM, CHROMIUM_ARGS  # noqa: E402,F401  (one definition of how Chromium is launched here)
