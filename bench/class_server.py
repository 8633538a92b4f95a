"""deploy/serve-class.sh as a benchmark's server (bench/room.py --serve-class PROCS): started on free
loopback ports with a scratch --data folder, its `ready URL` awaited, its processes found (the app
processes, nginx, Redis), stopped with SIGTERM as its help says; its logs read for errors after.

A Redis fault for the rooms' benchmark (RedisFault):
  pause    SIGSTOP to the Redis process, SIGCONT `seconds` later (a Redis that hangs: the script
           does not see a stopped child, so it works on the script's own Redis);
  restart  SHUTDOWN (Redis writes its append-only file and exits), then the same command line again
           (it reads the file back);
  kill     SIGKILL, then the same command line again (what the last second's fsync had not written
           is lost: --appendfsync everysec).
serve-class.sh stops everything when one of its children exits, so restart and kill need a Redis
this module started itself, with serve-class.sh's command line (REDIS_FLAGS), given to the script
as --redis URL (the option for a Redis shared by several machines).
"""
from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "serve-class.sh"


def redis_command(port: int, data: Path) -> list[str]:
    """The command line deploy/serve-class.sh starts its Redis with (its `start redis` line):
    loopback, the append-only file in DATA synced every second, no snapshots, in the foreground."""
    server = "/usr/bin/redis-server"
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if folder and os.access(os.path.join(folder, "redis-server"), os.X_OK):
            server = os.path.join(folder, "redis-server")
            break
    return [server, "--port", str(port), "--bind", "127.0.0.1", "--protected-mode", "yes", "--dir", str(data),
            "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "no", "--logfile", ""]


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_ports(count: int) -> list[int]:
    """`count` consecutive free loopback ports (serve-class.sh's app processes take PORT, PORT+1, …)."""
    for _ in range(200):
        base = random.randrange(20000, 40000)
        if all(_free(base + i) for i in range(count)):
            return [base + i for i in range(count)]
    raise RuntimeError("no free ports")


async def redis_answers(port: int, timeout: float = 0.5) -> bool:
    """Whether the Redis on loopback `port` answers PING with PONG (not LOADING, not silence)."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    except (OSError, asyncio.TimeoutError):
        return False
    try:
        writer.write(b"PING\r\n")
        line = await asyncio.wait_for(reader.readline(), timeout)
        return line.startswith(b"+PONG")
    except (OSError, asyncio.TimeoutError):
        return False
    finally:
        writer.close()


def redis_pid(port: int) -> int:
    """The process id of the Redis on loopback `port` (INFO server's process_id)."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        sock.sendall(b"INFO server\r\n")
        data = b""
        while b"process_id:" not in data or not data.endswith(b"\r\n\r\n"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    found = re.search(rb"process_id:(\d+)", data)
    if not found:
        raise RuntimeError(f"no Redis answers on port {port}")
    return int(found.group(1))


class ClassServer:
    """deploy/serve-class.sh on loopback: `procs` app processes, nginx, and Redis (its own, or one
    started here with its command line when `own_redis`, so that it can be restarted)."""

    def __init__(self, procs: int = 2, own_redis: bool = False, data: str | None = None, extra=()):
        self.procs, self.own_redis = procs, own_redis
        self.data = Path(data) if data else Path(tempfile.mkdtemp(prefix="room-class-"))
        self.logs = self.data / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        ports = free_ports(procs + 2)
        self.port, self.redis_port, self.app_ports = ports[0], ports[1], ports[2:]
        self.redis = None  # the Redis started here (own_redis), a Popen
        self.script = None
        self.url = None
        self.extra = list(extra)
        self.restarts = 0

    # --- Redis started here

    def _start_redis(self) -> None:
        log = open(self.logs / "redis-bench.log", "ab")
        self.redis = subprocess.Popen(redis_command(self.redis_port, self.data), stdout=log, stderr=subprocess.STDOUT,
                                      stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if asyncio.run(redis_answers(self.redis_port)):
                return
            if self.redis.poll() is not None:
                raise RuntimeError(f"Redis did not start: see {self.logs / 'redis-bench.log'}")
            time.sleep(0.05)
        raise RuntimeError("Redis did not answer in 20 s")

    # --- the script

    def start(self) -> "ClassServer":
        command = ["bash", str(SCRIPT), "--port", str(self.port), "--address", "127.0.0.1", "--procs", str(self.procs),
                   "--data", str(self.data), "--app-port-base", str(self.app_ports[0]), "--redis-port", str(self.redis_port)]
        if self.own_redis:
            self._start_redis()
            command += ["--redis", f"redis://127.0.0.1:{self.redis_port}/0"]
        command += self.extra
        self.command = command
        self.errors = open(self.data / "serve-class.stderr", "wb")
        self.script = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=self.errors, stdin=subprocess.DEVNULL)
        line: list[bytes] = []
        reader = threading.Thread(target=lambda: line.append(self.script.stdout.readline()), daemon=True)
        reader.start()
        reader.join(240)
        text = line[0].decode().strip() if line else ""
        if not text.startswith("ready "):
            self.stop()
            raise RuntimeError(f"serve-class.sh did not say `ready URL` ({text!r}); see {self.data / 'serve-class.stderr'}")
        self.url = text.split(" ", 1)[1]
        return self

    def _children(self):
        try:
            return psutil.Process(self.script.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []

    def app_pids(self) -> list[int]:
        found = []
        for child in self._children():
            try:
                line = child.cmdline()
            except psutil.Error:
                continue
            if any(part.endswith("attention-viz") for part in line) and "serve" in line:
                found.append(child.pid)
        return sorted(found)

    def nginx_pids(self) -> list[int]:
        found = []
        for child in self._children():
            try:
                if child.name() == "nginx":
                    found.append(child.pid)
            except psutil.Error:
                continue
        return found

    def redis_pid(self) -> int:
        return redis_pid(self.redis_port)

    def alive(self) -> bool:
        return self.script is not None and self.script.poll() is None

    def stop(self) -> None:
        if self.script is not None and self.script.poll() is None:
            self.script.send_signal(signal.SIGTERM)
            try:
                self.script.wait(60)
            except subprocess.TimeoutExpired:
                self.script.kill()
                self.script.wait()
        if self.redis is not None:
            try:
                with socket.create_connection(("127.0.0.1", self.redis_port), timeout=3) as sock:
                    sock.sendall(b"SHUTDOWN\r\n")
                    sock.recv(100)
            except OSError:
                pass
            try:
                self.redis.wait(15)
            except subprocess.TimeoutExpired:
                self.redis.kill()
            self.redis = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def log_report(self, limit: int = 12) -> list[str]:
        """The lines of the logs that say something went wrong (tracebacks, errors, warnings),
        each distinct one once with how often, the file it is in first."""
        wrong = re.compile(r"traceback|error|exception|warn|alert|crit|emerg|refused|timed? ?out|failed|could not|stopped|lost|gone", re.I)
        seen: dict[tuple, int] = {}
        for path in sorted(self.logs.glob("*.log")):
            try:
                lines = path.read_text(errors="replace").splitlines()
            except OSError:
                continue
            for line in lines:
                if wrong.search(line):
                    key = (path.name, re.sub(r"\d", "#", line.strip())[:160])
                    seen[key] = seen.get(key, 0) + 1
        return [f"{name}: {line} (x{count})" for (name, line), count in list(seen.items())[:limit]]


class RedisFault:
    """A Redis fault at a moment (perf_counter time), its timeline recorded: when it began, when
    Redis answered PING again. mode: pause | restart | kill (see the module's docstring)."""

    def __init__(self, mode: str, port: int, seconds: float = 3.0, server: ClassServer | None = None):
        if mode in ("restart", "kill") and (server is None or server.redis is None):
            raise ValueError(f"--redis-fault {mode} needs a Redis this benchmark started (--serve-class): "
                             "serve-class.sh stops when its own Redis exits")
        self.mode, self.port, self.seconds, self.server = mode, port, seconds, server
        self.began = self.back = self.resumed = None
        self.note = ""

    async def run(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        if self.mode == "pause":
            pid = await asyncio.to_thread(redis_pid, self.port)
            self.began = time.perf_counter()
            os.kill(pid, signal.SIGSTOP)
            try:
                await asyncio.sleep(self.seconds)
            finally:
                os.kill(pid, signal.SIGCONT)
                self.resumed = time.perf_counter()
        else:
            server = self.server
            old = server.redis
            self.began = time.perf_counter()
            if self.mode == "kill":
                old.kill()
            else:
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                    writer.write(b"SHUTDOWN\r\n")
                    await writer.drain()
                    await asyncio.wait_for(reader.read(100), 10)  # the connection closes as Redis exits
                    writer.close()
                except (OSError, asyncio.TimeoutError):
                    pass
            while old.poll() is None:
                await asyncio.sleep(0.01)
            self.note = f"Redis exited with status {old.returncode}"
            if self.seconds:
                await asyncio.sleep(self.seconds)
            log = open(server.logs / "redis-bench.log", "ab")
            server.redis = subprocess.Popen(redis_command(self.port, server.data), stdout=log, stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
            log.close()
            server.restarts += 1
            self.resumed = time.perf_counter()
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline:
            if await redis_answers(self.port, 0.2):
                self.back = time.perf_counter()
                return
            await asyncio.sleep(0.02)

    def describe(self, origin: float) -> str:
        """The fault's timeline, seconds after `origin`."""
        if self.began is None:
            return f"Redis {self.mode}: did not happen"
        what = {"pause": f"paused (SIGSTOP) for {self.seconds:g} s", "restart": "shut down (SHUTDOWN) and started again",
                "kill": "killed (SIGKILL) and started again"}[self.mode]
        back = f"answered PING again at {self.back - origin:.2f} s" if self.back else "did not answer again in 60 s"
        return (f"Redis {what} at {self.began - origin:.2f} s after the phase began; {back}"
                + (f" (out for {self.back - self.began:.2f} s)" if self.back else "") + (f"; {self.note}" if self.note else ""))
