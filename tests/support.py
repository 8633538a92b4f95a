"""What the tiers share: the checkout's root, free ports, servers run as a user runs them, an export."""
import contextlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "screenshots"
EXPORTED_SENTENCE = "오늘 아침 우리는 도서관에서 책을 읽었다"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_http(url: str, process: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.stdout.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server at {url} did not answer in {timeout} s")


@contextlib.contextmanager
def running(command, ready_url: str, timeout: float = 60.0, cwd=ROOT):
    """A server subprocess, from the moment ready_url answers until the block ends."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        wait_for_http(ready_url, process, timeout=timeout)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()


@contextlib.contextmanager
def redis_server():
    """Debian's redis-server on a free loopback port, nothing saved to disk, for as long as the
    block runs: yields its URL (redis://127.0.0.1:PORT/0)."""
    import redis

    port = free_port()
    process = subprocess.Popen([shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start (exit {process.poll()})") from None
                time.sleep(0.05)
        client.close()
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def cli_command(*args) -> list[str]:
    """`attention-viz *args` as a user types it."""
    return [sys.executable, "-m", "app.cli", *map(str, args)]


def run_together(*commands, env=None) -> list[subprocess.CompletedProcess]:
    """Run commands (argument lists) side by side, as separate processes; their results in order.
    Each one is the run a user would make alone: only the waiting is shared."""
    processes = [subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for command in commands]
    results = []
    for command, process in zip(commands, processes):
        stdout, stderr = process.communicate()
        results.append(subprocess.CompletedProcess(command, process.returncode, stdout, stderr))
    return results


def run_export(out, *extra, env=None) -> str:
    """`attention-viz export OUT *extra` as a user types it; returns what it printed."""
    return subprocess.run([sys.executable, "-m", "app.cli", "export", str(out), *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True).stdout


def ask(view, message: dict) -> dict | None:
    """Send `view` a request as the page does (with an id unless the message has one, and the view's
    fields it leaves out: static/explorer/requests.js withView) and return Python's reply; None when
    it sent none. Fails if it sent more than one."""
    from app.protocol import with_view
    sent = []
    view._send_msg = sent.append
    view._handle_msg({"id": 1, **with_view(message, view.param.values())} if isinstance(message, dict) else message)
    assert len(sent) <= 1, sent
    return sent[0] if sent else None


def verdict_words(key: str, values: dict, prefix: str, lang: str = "ko") -> str:
    """A verdict's words as the page writes them (checker.js verdictText): its message, then each
    other slip its numbers also fit (values["also"]), under `prefix` ("hint_" or "practice_hint_")."""
    from app.strings import text

    also = [slip for slip in values.get("also", "").split(",") if slip]
    return " ".join([text(key, lang, **values), *(text("hint_also", lang, hint=text(f"{prefix}{slip}", lang, **values))
                                                  for slip in also)])


class RedisProcess:
    """Debian's redis-server on a free loopback port with append-only persistence in `folder`
    (appendfsync everysec, as deploy/serve-class.sh runs it), for the fault tests: pause() and
    resume() stop and continue it (SIGSTOP, SIGCONT), kill() ends it at once (SIGKILL), start()
    runs it again on the same port and folder."""

    def __init__(self, folder):
        self.folder, self.port, self.process = Path(folder), free_port(), None
        self.url = f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> "RedisProcess":
        import redis

        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--save", "", "--appendonly", "yes", "--appendfsync", "everysec"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client, deadline = redis.Redis.from_url(self.url), time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except (redis.ConnectionError, redis.BusyLoadingError):
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not start (exit {self.process.poll()})") from None
                time.sleep(0.05)
        client.close()
        return self

    def pause(self) -> None:
        self.process.send_signal(__import__("signal").SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(__import__("signal").SIGCONT)

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=15)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.resume()
            self.process.terminate()
            self.process.wait(timeout=15)


def node_fixture(name: str) -> tuple[str, str]:
    """tests/node/fixtures/<name>_fixture.py's output as committed and as it makes it now: (committed,
    made), equal while the node tests read what Python sends today (else: run the script and commit)."""
    import importlib.util

    path = ROOT / "tests" / "node" / "fixtures" / f"{name}_fixture.py"
    spec = importlib.util.spec_from_file_location(f"{name}_fixture", path)
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    return maker.OUT.read_text(encoding="utf-8"), maker.text()

