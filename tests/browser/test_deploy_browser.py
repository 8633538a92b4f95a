"""The class's server recipe (deploy/serve-class.sh, docs/deploy.md): Redis append-only, app
processes sharing it, nginx in front on a port that is not 80, as a lecturer's IT runs it; a real
browser opens a room through it, over HTTP and over HTTPS/WSS, and a page from another origin is
refused at the room socket's handshake."""
from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from support import ROOT, free_port

pytestmark = pytest.mark.browser

ROOM_CODE = re.compile(r"^[2-9A-HJKMNP-Z]{6}$")
READY_SECONDS = 120


def tools_missing() -> str | None:
    """Why the recipe cannot run here, or None. `make test` installs nginx (nginx-deps) and
    redis-server (redis-deps); the script would install them itself, as root."""
    for name, path in (("nginx", "/usr/sbin/nginx"), ("redis-server", "/usr/bin/redis-server")):
        if not (shutil.which(name) or os.path.exists(path)):
            return f"{name} is not installed here (make test installs it: scripts/ensure-{name.split('-')[0]}.sh)"
    return None


def free_ports(count: int) -> int:
    """The first of `count` consecutive free loopback ports."""
    for _ in range(50):
        first = free_port()
        if first + count - 1 > 65535:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
    raise RuntimeError(f"no {count} consecutive free ports")


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class ClassServer:
    url: str
    port: int
    redis_port: int
    app_ports: list[int]
    data: Path
    process: subprocess.Popen
    lines: queue.Queue
    log: Path

    def stop(self) -> None:
        """Ctrl-C, as the lecturer's IT stops it: exit status 0, nothing left listening, and
        nothing printed but the one `ready` line."""
        self.process.send_signal(signal.SIGINT)
        try:
            status = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        assert status == 0, self.log.read_text()
        more = []
        while (line := self.lines.get(timeout=5)) is not None:
            more.append(line)
        assert more == [], more
        left = [port for port in (self.port, self.redis_port, *self.app_ports) if listening(port)]
        assert left == [], f"still listening after the script stopped: {left}"


def start_class_server(folder: Path, *extra: str, procs: int) -> ClassServer:
    """`bash deploy/serve-class.sh` run from `folder` (not the checkout: it runs from anywhere) with
    its data in folder/data (given relative to there), on free ports, until it prints `ready URL`."""
    reason = tools_missing()
    if reason:
        pytest.skip(reason)
    port, redis_port, app_base = free_port(), free_port(), free_ports(procs)
    assert port != 80
    log = folder / "serve-class.stderr"
    command = ["bash", str(ROOT / "deploy" / "serve-class.sh"), "--port", str(port), "--address", "127.0.0.1",
               "--procs", str(procs), "--data", "data", "--redis-port", str(redis_port),
               "--app-port-base", str(app_base), *extra]
    # a lecturer key in the environment of whoever runs the tests would reach the app processes
    env = {name: value for name, value in os.environ.items() if name != "AE_LECTURER_KEY"}
    with open(log, "w") as stderr:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
    lines: queue.Queue = queue.Queue()

    def read():
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        try:
            line = lines.get(timeout=READY_SECONDS)
        except queue.Empty:
            raise AssertionError(f"no `ready` line in {READY_SECONDS} s:\n{log.read_text()}") from None
        assert line is not None, f"serve-class.sh exited with {process.wait()}:\n{log.read_text()}"
        assert line.startswith("ready "), line
    except BaseException:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        raise
    return ClassServer(line.removeprefix("ready "), port, redis_port, list(range(app_base, app_base + procs)),
                       folder / "data", process, lines, log)


@pytest.fixture(scope="module")
def served_class(tmp_path_factory):
    """The class's server on a port that is not 80, two app processes behind nginx."""
    server = start_class_server(tmp_path_factory.mktemp("class"), procs=2)
    yield server
    server.stop()


def open_room(browser, url: str, **context_args) -> tuple:
    """A lecturer's page at `url` that opens a room: (its context, page, the room's code, the URLs
    of the websockets it opened)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720}, **context_args)
    page = context.new_page()
    errors, sockets = [], []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"uncaught: {error}"))
    page.goto(url + "?preset=meet-friend")
    page.locator("[data-testid=calc-table]").wait_for(timeout=30_000)
    page.locator("[data-testid=room-open]").click()
    code = page.locator("[data-testid=room-code]")
    expect(code).to_have_text(ROOM_CODE)
    expect(page.locator("[data-testid=room-error]")).to_be_hidden()
    assert errors == []
    return context, page, code.inner_text(), sockets


def test_a_browser_on_a_port_that_is_not_80_opens_a_room_through_nginx_and_a_phone_joins_it(browser, served_class):
    assert served_class.url == f"http://127.0.0.1:{served_class.port}/"
    lecturer_context, lecturer, room, _ = open_room(browser, served_class.url)
    # a phone opens the students' link: whichever process nginx sends it to, the room is in Redis
    link = lecturer.locator("[data-testid=room-link]")
    expect(link).to_have_attribute("href", f"{served_class.url}?room={room}")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    student = phone.new_page()
    student.goto(link.get_attribute("href"))
    expect(student.locator("[data-testid=room-status]")).to_have_attribute("data-state", "following")
    expect(lecturer.locator("[data-testid=room-count]")).to_have_text("1")
    phone.close()
    lecturer_context.close()


def in_a_thread(coroutine):
    """Run `coroutine` to its end in a thread of its own (Playwright's loop owns this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(timeout=30)


def handshake(url: str, origin: str) -> int:
    """The HTTP status of a websocket handshake at `url` sent with `origin`: 101 when accepted."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    async def attempt():
        try:
            connection = await websocket_connect(HTTPRequest(url, headers={"Origin": origin}, request_timeout=20))
        except HTTPClientError as error:
            return error.code
        connection.close()
        return 101

    return in_a_thread(attempt())


def first_reply(url: str, origin: str, message: dict) -> dict:
    """The room socket's first answer to `message`, sent from a page at `origin`."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    async def exchange():
        connection = await websocket_connect(HTTPRequest(url, headers={"Origin": origin}, request_timeout=20))
        try:
            await connection.write_message(json.dumps(message))
            reply = await asyncio.wait_for(connection.read_message(), 20)
        finally:
            connection.close()
        return json.loads(reply)

    return in_a_thread(exchange())


def test_a_page_from_another_origin_is_refused_at_the_room_socket_and_the_pages_own_is_accepted(served_class):
    socket_url = served_class.url.replace("http://", "ws://") + "room"
    own = served_class.url.rstrip("/")
    assert handshake(socket_url, "http://evil.example") == 403
    assert handshake(socket_url, own) == 101
    # the page's own origin through nginx, whatever process answers: try it a few times
    assert {handshake(socket_url, own) for _ in range(4)} == {101}
    # and Bokeh's socket, which checks the origin against serve's --allow-websocket-origin list
    assert handshake(served_class.url.replace("http://", "ws://") + "ws", "http://evil.example") == 403


def test_redis_keeps_the_rooms_in_an_append_only_file_in_the_data_folder(served_class):
    redis_cli = shutil.which("redis-cli") or "/usr/bin/redis-cli"
    answer = subprocess.run([redis_cli, "-p", str(served_class.redis_port), "CONFIG", "GET", "appendonly"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert answer == ["appendonly", "yes"]
    fsync = subprocess.run([redis_cli, "-p", str(served_class.redis_port), "CONFIG", "GET", "appendfsync"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert fsync == ["appendfsync", "everysec"]
    files = [path.name for path in served_class.data.rglob("appendonly*") if path.is_file()]
    assert files, sorted(path.name for path in served_class.data.rglob("*"))
    assert (served_class.data / "logs" / "nginx.conf").read_text().count("proxy_set_header Host $http_host;") == 1


def test_over_https_a_browser_opens_a_room_over_wss(browser, tmp_path):
    """A room's secret sent in clear could be replayed: with a certificate, nginx serves HTTPS and the
    room socket is WSS (an https page may open no ws://). The certificate is made here, self-signed."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    server = start_class_server(tmp_path, "--tls-cert", "cert.pem", "--tls-key", "key.pem", procs=1)
    try:
        assert server.url == f"https://127.0.0.1:{server.port}/"
        context, _, _, sockets = open_room(browser, server.url, ignore_https_errors=True)
        assert f"wss://127.0.0.1:{server.port}/room" in sockets, sockets
        context.close()
    finally:
        server.stop()


def test_the_lecturer_key_reaches_every_app_process(tmp_path):
    """--lecturer-key: every process asks for it before a room opens (asked of each process
    directly, at its own port, so that none is left to nginx's choice)."""
    server = start_class_server(tmp_path, "--lecturer-key", "chalk-and-talk-42", procs=2)
    try:
        for port in server.app_ports:
            url, origin = f"ws://127.0.0.1:{port}/room", f"http://127.0.0.1:{port}"
            assert first_reply(url, origin, {"type": "open"})["type"] == "error"
            assert first_reply(url, origin, {"type": "open", "key": "guessed"})["type"] == "error"
            opened = first_reply(url, origin, {"type": "open", "key": "chalk-and-talk-42"})
            assert opened["type"] == "opened" and ROOM_CODE.match(opened["code"]), opened
    finally:
        server.stop()


def pid_of_app(port: int) -> int:
    """The app process serving `port` (`attention-viz serve --port PORT`), found in /proc."""
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"serve" in argv and b"--port" in argv and argv[argv.index(b"--port") + 1:][:1] == [str(port).encode()]:
            return int(entry.name)
    raise LookupError(f"no app process on port {port}")


def test_when_an_app_process_dies_the_script_says_which_stops_the_rest_and_fails(tmp_path):
    server = start_class_server(tmp_path, procs=1)
    try:
        os.kill(pid_of_app(server.app_ports[0]), signal.SIGKILL)
        status = server.process.wait(timeout=60)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    assert status != 0
    assert f"error: the app process on port {server.app_ports[0]} (pid" in server.log.read_text()
    left = [port for port in (server.port, server.redis_port) if listening(port)]
    assert left == [], f"still listening after the script stopped: {left}"
