"""Benchmark 14: one lecturer and S students in one room, over the app's /room websocket.

Each student and the lecturer is a real websocket connection (Tornado's client) that follows the
rooms' protocol as the page does (app/room_socket.py's docstring is the contract; static/explorer/
room.js the page): a student joins without an identity and keeps the one the server signs in its
`joined`; a state message after a gap in `seq` makes it ask for the state (sync), and so does
`status ok` after `status reconnecting`; an answer the store did not take (sent while Redis was out
of reach) is sent again once the state is back, as the page does; after its state (`lecturing`)
the lecturer's page sends its view again. The lecturer is on this process's loop; the students
too, or in --client-procs worker processes (every time is CLOCK_MONOTONIC, which the processes
share). For each number of students, in a fresh room:

  joining   all S students connect and join at once: until each is joined and the lecturer's
            count reaches S;
  follow    R drives (one every --drive-every seconds, the query moving between 0 and 4): from
            the lecturer's send to each student's `view` with that query (p50, p95 over every
            drive and student) and to the LAST student's (p95 over drives);
  answers   the lecturer asks (top_key); every student answers once, at a moment drawn uniformly
            in --answer-spread seconds: from the k-th answer's send until the lecturer's count
            (the largest it was told: `answers`, or `lecturing` after a sync) reaches k (p50, p95);
            the lecturer's final count (and the store's, asked by a sync) against the answers sent;
  reveal    from the lecturer's reveal to each student's `revealed` (p50, p95, last); each
            student's own answer in it against the choice it sent; the histogram's sum;
  refused   every `error` message, every socket the server closed, every connection that failed,
            by kind (the aim: none);
  server    CPU seconds per student per minute of the run, and its RSS growth from before the
            room opened to the room full (per room and per student); nginx's and Redis's CPU too
            when the server is serve-class.sh;
  client    the client processes' own CPU over the run and how late their loops woke up, to see
            whether the client was the limit.

--redis-fault pause|restart|kill puts a Redis fault --fault-at seconds into the answers phase (or the
follow phase: --fault-phase follow): pause stops Redis (SIGSTOP) for --fault-seconds; restart shuts
it down (it writes its append-only file) and starts it again with the same command line; kill
SIGKILLs it and starts it again. The figures then say what was delayed and whether anything was
lost (bench/class_server.py).

    .venv/bin/python bench/room.py [--students 100 300] [--drives 20] [--answer-spread 1]
        [--url URL [--server-pids PID ...] [--redis-port PORT] | --serve-class PROCS]
        [--client-procs N] [--redis-fault pause|restart|kill [--fault-at 3] [--fault-seconds 3]]

--serve-class PROCS starts deploy/serve-class.sh (PROCS app processes, Redis, nginx) on free
loopback ports and measures through its nginx, then stops it (SIGTERM) and reports its logs'
errors; without --url or --serve-class the script starts one explorer process of its own. The
client reads only the messages and fields it needs and ignores the rest.
"""
from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import multiprocessing
import os
import random
import resource
import sys
import time
from bisect import bisect_left
from collections import defaultdict
from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tornado.websocket import websocket_connect  # noqa: E402

from app.view_params import room_defaults  # noqa: E402
from bench.common import Server, median, percentile  # noqa: E402

#: the lecturer's view (tests/app/test_rooms.py's VIEW with one head: a question needs one head)
VIEW = {**room_defaults(), "source": {"kind": "preset", "name": "meet-friend"}, "query": 4, "heads": 1, "lang": "ko"}
#: meet-friend's tokens: a view's query, and a question's choices before the poll says how many
TOKENS = 5
#: how long any one phase may wait for its messages before it reports what is missing
PHASE_TIMEOUT = 60.0
#: the refusals after which a page drops its pending answer (static/explorer/room.js onError)
DROPS_ANSWER = ("bad_answer", "bad_numbers", "wrong_length", "no_poll")
#: the state messages, which carry seq (app/room_socket.py)
STATE_MESSAGES = ("view", "poll", "revealed", "presence", "closed")


def room_url(url: str) -> str:
    """ws(s)://host:port/…/room for the served page's http(s) URL."""
    parts = urlsplit(urljoin(url if url.endswith("/") else url + "/", "room"))
    return urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc, parts.path, "", ""))


class Events:
    """How many pages reached each event (joined, a drive's view, a question, its answer's
    acknowledgement, its reveal), and waiting until every page still standing has."""

    def __init__(self):
        self.reached: dict[tuple, int] = defaultdict(int)
        self.changed = asyncio.Event()
        self.watching: tuple | None = None
        self.target = lambda: 0

    def hit(self, key: tuple, n: int = 1) -> None:
        self.reached[key] += n
        if key == self.watching and self.reached[key] >= self.target():
            self.changed.set()

    def poke(self) -> None:  # a page fell (the target shrank)
        self.changed.set()

    async def wait(self, key: tuple, target, timeout: float) -> bool:
        self.watching, self.target = key, target
        deadline = time.perf_counter() + timeout
        try:
            while self.reached[key] < target():
                self.changed.clear()
                left = deadline - time.perf_counter()
                if left <= 0:
                    return False
                try:
                    await asyncio.wait_for(self.changed.wait(), left)
                except asyncio.TimeoutError:
                    return self.reached[key] >= target()
            return True
        finally:
            self.watching = None


def sequenced(last, seq) -> str:
    """static/explorer/room.js's sequenced: "next", "stale" (seen) or "gap" (one was missed)."""
    if not isinstance(seq, int) or last is None:
        return "next"
    if seq <= last:
        return "stale"
    return "next" if seq == last + 1 else "gap"


class Page:
    """One student's page: its socket, the protocol as the page keeps it, and what it received when
    (times on time.perf_counter)."""

    def __init__(self, name: str, events: Events):
        self.name, self.events = name, events
        self.socket = None
        self.closing = False
        self.dead = False  # closed by the server, or never connected
        self.hits: set = set()
        # the protocol's state
        self.code = self.student = self.seq = self.poll = self.pending = None
        self.reconnecting = False
        self.expecting: tuple | None = None  # (drive, query) the benchmark waits for
        # what it received
        self.joined_at = None
        self.drive_at: dict[int, float] = {}
        self.poll_at: dict[int, float] = {}
        self.answer_sent = self.answered_at = self.choice = None
        self.revealed_at = self.revealed_answer = None
        self.refusals: list[tuple[float, str]] = []
        self.statuses: list[tuple[float, str]] = []
        self.syncs = self.resends = self.gaps = 0

    def hit(self, key: tuple) -> None:
        if key not in self.hits:
            self.hits.add(key)
            self.events.hit(key)

    def fall(self, why: str) -> None:
        """Out of the room for the server's reason: a refusal, and no longer waited for."""
        if not self.dead:  # (a refused page's socket closed after: the same refusal)
            self.refusals.append((time.perf_counter(), why))
            self.dead = True
            for key in self.hits:
                self.events.reached[key] -= 1
            self.events.poke()

    async def connect(self, url: str) -> None:
        # offered like a browser (the server decides whether to compress)
        self.socket = await websocket_connect(url, on_message_callback=self.on_message, compression_options={})
        self.socket.protocol.set_nodelay(True)  # as a browser's socket: no Nagle delay on what the page sends

    def send(self, **message) -> float:
        sent = time.perf_counter()
        if self.socket is not None and not self.dead:
            self.socket.write_message(json.dumps(message))
        return sent

    def on_message(self, raw) -> None:
        if raw is None:  # closed
            if not self.closing:
                code, reason = getattr(self.socket, "close_code", None), getattr(self.socket, "close_reason", None)
                self.fall(f"socket closed by the server ({code} {reason or ''})".replace(" )", ")"))
            return
        now = time.perf_counter()
        try:
            message = json.loads(raw)
            kind = message.get("type")
        except (ValueError, AttributeError):
            self.refusals.append((now, "not a JSON object"))
            return
        if kind == "error":
            code = message.get("code")
            if self.joined_at is None and self.name != "lecturer":
                self.fall(f"error {code} (to its join)")  # refused entry: not waited for
                return
            self.refusals.append((now, f"error {code}"))
            if self.pending is not None and code in DROPS_ANSWER:
                self.pending = None
        elif kind == "status":
            state = message.get("state")
            self.statuses.append((now, state))
            was, self.reconnecting = self.reconnecting, state == "reconnecting"
            if was and not self.reconnecting:
                self.syncs += 1
                self.send(type="sync")  # the store is back: the room's state again
        elif kind in STATE_MESSAGES:
            order = sequenced(self.seq, message.get("seq"))
            if order == "stale":
                return
            if order == "gap":
                self.gaps += 1
                self.syncs += 1
                self.send(type="sync")  # missed one: the whole state comes back
            if isinstance(message.get("seq"), int):
                self.seq = message["seq"]
            self.on_state(now, kind, message)
        else:
            self.on_other(now, kind, message)

    def saw_view(self, now: float, view) -> None:
        if self.expecting is not None and isinstance(view, dict) and view.get("query") == self.expecting[1]:
            drive = self.expecting[0]
            if drive not in self.drive_at:
                self.drive_at[drive] = now
                self.hit(("drive", drive))

    def on_state(self, now: float, kind: str, message: dict) -> None:
        if kind == "view":
            self.saw_view(now, message.get("view"))
        elif kind == "poll":
            self.poll = message.get("poll") or {}
            self.pending = None
            number = self.poll.get("number")
            self.poll_at.setdefault(number, now)
            self.hit(("poll", number))
        elif kind == "revealed":
            self.poll = message.get("poll") or {}
            number = self.poll.get("number")
            if self.revealed_at is None:
                self.revealed_at, self.revealed_answer = now, message.get("answer")
            self.pending = None
            self.hit(("revealed", number))
        elif kind == "closed":
            self.fall(f"room closed ({message.get('reason')})")

    def on_other(self, now: float, kind: str, message: dict) -> None:
        if kind == "joined":
            self.code, self.student = message.get("code"), message.get("student")
            self.reconnecting = False
            self.adopt(message)
            if self.joined_at is None:
                self.joined_at = now
                self.hit(("joined",))
            self.saw_view(now, message.get("view"))
            poll = self.poll or {}
            if poll.get("revealed") and poll.get("number") is not None:  # a reveal missed while out of reach
                if self.revealed_at is None:
                    self.revealed_at, self.revealed_answer = now, message.get("answer")
                self.hit(("revealed", poll["number"]))
        elif kind == "answered":
            number = message.get("number")
            if self.pending is not None and self.pending.get("number") == number:
                self.pending = None
            if self.answered_at is None:
                self.answered_at = now
                self.hit(("answered", number))

    def adopt(self, message: dict) -> None:
        """The room's whole state (joined, lecturing): an answer still pending sent again."""
        if isinstance(message.get("seq"), int):
            self.seq = message["seq"]
        self.poll = message.get("poll")
        poll = self.poll or {}
        if self.pending is not None and poll and not poll.get("revealed") and self.pending.get("number") == poll.get("number") \
                and not message.get("away"):
            self.resends += 1
            self.send(**self.pending)  # sent while out of reach
        else:
            self.pending = None

    def answer(self, code: str, number: int, choice: int) -> None:
        self.choice = choice
        self.pending = {"type": "answer", "code": code, "number": number, "choice": choice}
        self.answer_sent = self.send(**self.pending)

    def record(self) -> dict:
        return {"name": self.name, "dead": self.dead, "joined_at": self.joined_at, "drive_at": self.drive_at,
                "poll_at": self.poll_at, "answer_sent": self.answer_sent, "answered_at": self.answered_at,
                "choice": self.choice, "revealed_at": self.revealed_at, "revealed_answer": self.revealed_answer,
                "refusals": self.refusals, "statuses": self.statuses, "syncs": self.syncs, "resends": self.resends,
                "gaps": self.gaps, "pending": self.pending is not None}


class Lecturer(Page):
    """The lecturer's page: opens the room, drives, asks, reveals; the counts it is told."""

    def __init__(self, events: Events):
        super().__init__("lecturer", events)
        self.opened = None
        self.view = None  # the view on the lecturer's screen (sent again after `lecturing`)
        self.count = 0
        self.count_seq = -1
        self.full_at = None
        self.students = 0  # the count the joining phase waits for
        self.number = None  # the open question's
        self.answer_counts: list[tuple[float, int]] = []  # (arrival, the largest count so far) for `number`
        self.shown = 0
        self.expected_answers = None
        self.histogram = None
        self.lecturings: list[tuple[float, int]] = []  # (arrival, answered) after a sync

    def says(self, message_type: str, **message) -> float:
        return self.send(type=message_type, code=self.opened["code"], secret=self.opened["secret"], **message)

    def drive(self, query: int) -> float:
        self.view = {**VIEW, "query": query}
        return self.says("drive", view=self.view)

    def counted(self, now: float, count) -> None:
        if self.number is None or not isinstance(count, int) or count <= self.shown:
            return
        self.shown = count
        self.answer_counts.append((now, count))
        if self.expected_answers is not None and count >= self.expected_answers:
            self.hit(("answers", self.number))

    def on_state(self, now: float, kind: str, message: dict) -> None:
        if kind == "poll":
            poll = message.get("poll") or {}
            self.poll = poll
            self.poll_at.setdefault(poll.get("number"), now)
            self.hit(("poll", poll.get("number")))
        elif kind == "revealed":
            poll = message.get("poll") or {}
            self.poll = poll
            self.histogram = poll.get("histogram")
            self.revealed_at = self.revealed_at or now
            self.hit(("revealed", poll.get("number")))
        elif kind == "closed":
            self.fall(f"room closed ({message.get('reason')})")
        # view: the lecturer's own, which its page ignores

    def on_other(self, now: float, kind: str, message: dict) -> None:
        if kind == "opened":
            self.opened = message
            self.hit(("opened",))
        elif kind == "lecturing":
            self.reconnecting = False
            self.adopt({**message, "answer": None})
            poll = message.get("poll") or {}
            if poll.get("number") == self.number:
                self.lecturings.append((now, message.get("answered")))
                self.counted(now, message.get("answered"))
            self.count = max(self.count, message.get("count") or 0)
            if self.view is not None:  # the page sends its view again (static/explorer/room.js)
                self.says("drive", view=self.view)
            self.hit(("lecturing", len(self.lecturings)))
        elif kind == "count":
            seq = message.get("seq")
            if seq is None or seq > self.count_seq:
                self.count_seq = seq if seq is not None else self.count_seq
                self.count = message.get("count")
                if self.students and self.count == self.students and self.full_at is None:
                    self.full_at = now
                    self.hit(("full",))
        elif kind == "answers":
            if message.get("number") == self.number:
                self.counted(now, message.get("count"))


class Shard:
    """Some of a room's students, on one loop (this process's or a worker's)."""

    def __init__(self):
        self.events = Events()
        self.pages: list[Page] = []
        self.lags: list[float] = []
        self._lag = None

    def _standing(self, joined: bool = True) -> int:
        return sum(1 for page in self.pages if not page.dead and (page.joined_at is not None or not joined))

    async def start(self, url: str, code: str, names: list[str], origin: float = 0.0, spread: float = 0.0,
                    seed: int = 0) -> float:
        """Connect and join every student at once (or each at a moment drawn uniformly in `spread`
        seconds from `origin`); when every connection was tried."""
        if self._lag is None:
            self._lag = asyncio.ensure_future(loop_lag(self.lags))
        self.events = Events()
        self.pages = [Page(name, self.events) for name in names]
        draw = random.Random(seed)

        async def student(page: Page):
            if spread > 0:
                await asyncio.sleep(max(0.0, origin + draw.uniform(0, spread) - time.perf_counter()))
            try:
                await page.connect(url)
            except Exception as error:  # a student who could not connect is a figure, not a crash
                page.fall(f"connect {type(error).__name__}: {error}"[:120])
                return
            page.send(type="join", code=code)  # no identity yet: the server issues it

        await asyncio.gather(*(student(page) for page in self.pages))
        return time.perf_counter()

    async def wait(self, key: list, timeout: float) -> tuple[bool, int, int]:
        """Until every student standing (joined, for any key but joined) has reached `key`."""
        key = tuple(key)
        joined = key != ("joined",)
        done = await self.events.wait(key, lambda: self._standing(joined), timeout)
        return done, self.events.reached[key], self._standing(joined)

    async def expect(self, drive: int, query: int) -> None:
        for page in self.pages:
            page.expecting = (drive, query)

    async def answer(self, code: str, number: int, plan: list) -> None:
        """plan: (page index, when to send (perf_counter), choice) for each of this shard's students."""
        loop = asyncio.get_running_loop()
        for index, at, choice in plan:
            page = self.pages[index]
            if not page.dead and page.joined_at is not None:
                loop.call_later(max(0.0, at - time.perf_counter()), page.answer, code, number, choice)

    async def records(self) -> list[dict]:
        return [page.record() for page in self.pages]

    async def usage(self) -> tuple[float, list]:
        lags, self.lags[:] = list(self.lags), []
        return time.process_time(), lags

    async def close(self) -> None:
        for page in self.pages:
            page.closing = True
            if page.socket is not None:
                page.socket.close()
        await asyncio.sleep(0.5)
        self.pages = []


class LocalShard:
    """A Shard on this process's loop, called as a worker's would be."""

    def __init__(self):
        self.shard = Shard()
        self.remote = False

    async def call(self, method: str, *args):
        return await getattr(self.shard, method)(*args)

    def stop(self) -> None:
        pass


def worker(conn) -> None:
    """A worker process's loop: a Shard, its methods called over `conn` (RemoteShard)."""
    raise_file_limit()
    asyncio.run(_work(conn))


async def _work(conn) -> None:
    loop = asyncio.get_running_loop()
    shard, done, tasks = Shard(), asyncio.Event(), set()

    async def run(call_id, method, args):
        try:
            reply = (call_id, True, await getattr(shard, method)(*args))
        except Exception as error:  # the main process says what failed
            reply = (call_id, False, f"{type(error).__name__}: {error}")
        conn.send(reply)

    def readable():
        while conn.poll():
            try:
                call_id, method, args = conn.recv()
            except EOFError:
                done.set()
                loop.remove_reader(conn.fileno())
                return
            if method == "stop":
                done.set()
                continue
            task = loop.create_task(run(call_id, method, args))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    loop.add_reader(conn.fileno(), readable)
    await done.wait()


class RemoteShard:
    """A Shard in a worker process (multiprocessing, spawned), its methods awaited from this loop."""

    def __init__(self, context):
        self.conn, child = context.Pipe()
        self.process = context.Process(target=worker, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.ids = itertools.count()
        self.waiting: dict[int, asyncio.Future] = {}
        self.attached = None
        self.remote = True

    def _readable(self) -> None:
        while self.conn.poll():
            try:
                call_id, ok, value = self.conn.recv()
            except EOFError:
                asyncio.get_running_loop().remove_reader(self.conn.fileno())
                for future in self.waiting.values():
                    future.set_exception(RuntimeError("a client worker died"))
                self.waiting.clear()
                return
            future = self.waiting.pop(call_id)
            if ok:
                future.set_result(value)
            else:
                future.set_exception(RuntimeError(value))

    async def call(self, method: str, *args):
        loop = asyncio.get_running_loop()
        if self.attached is not loop:
            loop.add_reader(self.conn.fileno(), self._readable)
            self.attached = loop
        call_id = next(self.ids)
        future = loop.create_future()
        self.waiting[call_id] = future
        self.conn.send((call_id, method, args))
        return await future

    def stop(self) -> None:
        try:
            self.conn.send((None, "stop", ()))
        except OSError:
            pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.terminate()


class Room:
    """One room's run: a lecturer, `students` students over the shards, the phases in order."""

    def __init__(self, url: str, students: int, args, shards: list):
        self.url, self.students, self.args, self.shards = url, students, args, shards
        self.random = random.Random(students)
        self.events = Events()
        self.lecturer = Lecturer(self.events)
        self.lecturer.students = students
        self.expected = students  # the students in the room after joining (fewer if some failed)
        self.sent: dict[int, float] = {}  # drive → the lecturer's send
        self.drive_cpu: dict[int, float] = {}
        self.fault = None
        self.fault_origin = None

    async def all_shards(self, method: str, *args) -> list:
        return await asyncio.gather(*(shard.call(method, *args) for shard in self.shards))

    async def wait_students(self, key: tuple, timeout: float = PHASE_TIMEOUT) -> tuple[bool, int, int]:
        found = await self.all_shards("wait", list(key), timeout)
        return all(done for done, _, _ in found), sum(r for _, r, _ in found), sum(s for _, _, s in found)

    async def open(self) -> None:
        await self.lecturer.connect(self.url)
        self.lecturer.send(type="open")
        if not await self.events.wait(("opened",), lambda: 1, PHASE_TIMEOUT):
            raise RuntimeError(f"the room did not open: {self.lecturer.refusals[:3]}")
        # the lecturer's first view, before anyone joins (a student's `joined` then carries it)
        self.lecturer.drive(0)

    async def join(self) -> dict:
        code = self.lecturer.opened["code"]
        began = time.perf_counter()
        names = [[f"student {i}" for i in range(j, self.students, len(self.shards))] for j in range(len(self.shards))]
        spread = self.args.join_spread
        connected = await asyncio.gather(*(shard.call("start", self.url, code, part, began + 0.05, spread, j)
                                           for j, (shard, part) in enumerate(zip(self.shards, names))))
        all_joined, joined, _ = await self.wait_students(("joined",), PHASE_TIMEOUT + spread)
        self.expected = joined
        counted = await self.events.wait(("full",), lambda: 1, 5 if not all_joined else PHASE_TIMEOUT)
        return {"began": began, "connected": max(connected) - began, "counted": counted,
                "count": (self.lecturer.full_at - began) if counted else float("nan")}

    async def follow(self, server) -> None:
        for drive in range(self.args.drives):
            query = (drive + 1) % TOKENS  # moves every drive: 1, 2, 3, 4, 0, 1, …
            await self.all_shards("expect", drive, query)
            cpu_before = server.cpu_seconds() if server else None
            self.sent[drive] = sent = self.lecturer.drive(query)
            await self.wait_students(("drive", drive))
            self.drive_cpu[drive] = server.cpu_seconds() - cpu_before if server else float("nan")
            await asyncio.sleep(max(0.0, sent + self.args.drive_every - time.perf_counter()))

    async def answer(self) -> dict:
        lecturer = self.lecturer
        asked = lecturer.says("ask", kind="top_key")
        # the lecturer's own poll carries the number the students wait for
        deadline = time.perf_counter() + PHASE_TIMEOUT
        while not (lecturer.poll and lecturer.poll.get("number")) and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
        if not (lecturer.poll and lecturer.poll.get("number")):
            return {"asked": asked, "error": "the question did not reach the lecturer: "
                    + ", ".join(what for _, what in lecturer.refusals[-3:])}
        number = lecturer.number = lecturer.poll["number"]
        choices = lecturer.poll.get("choices") or TOKENS
        polled, _, _ = await self.wait_students(("poll", number))
        lecturer.expected_answers = self.expected
        origin = time.perf_counter() + 0.2  # every worker has the plan before the first answer is due
        plans = [[] for _ in self.shards]
        for i in range(self.students):
            plans[i % len(self.shards)].append((i // len(self.shards), origin + self.random.uniform(0, self.args.answer_spread),
                                                self.random.randrange(choices)))
        code = lecturer.opened["code"]
        if self.fault is not None and self.args.fault_phase == "answers":
            self.fault_origin = origin
            fault = asyncio.ensure_future(self.fault.run(origin + self.args.fault_at))
        else:
            fault = None
        await asyncio.gather(*(shard.call("answer", code, number, plan) for shard, plan in zip(self.shards, plans)))
        await asyncio.sleep(max(0.0, origin + self.args.answer_spread - time.perf_counter()))
        acknowledged = (await self.wait_students(("answered", number), PHASE_TIMEOUT))[0]
        counted = await self.events.wait(("answers", number), lambda: 1, 5 if not acknowledged else PHASE_TIMEOUT)
        if fault is not None:
            await fault
        shown = lecturer.shown
        # the store's own count: what the lecturer's page gets after a sync (a reload)
        before = len(lecturer.lecturings)
        lecturer.send(type="sync")
        synced = await self.events.wait(("lecturing", before + 1), lambda: 1, 10)
        store = lecturer.lecturings[-1][1] if synced else None
        return {"asked": asked, "origin": origin, "number": number, "polled": polled, "acknowledged": acknowledged,
                "counted": counted, "shown": shown, "store": store}

    async def reveal(self, number) -> dict:
        sent = self.lecturer.says("reveal")
        done = (await self.wait_students(("revealed", number)))[0]
        await self.events.wait(("revealed", number), lambda: 1, 5)
        return {"sent": sent, "done": done}

    async def close(self) -> None:
        self.lecturer.closing = True
        if self.lecturer.socket is not None:
            self.lecturer.socket.close()
        await self.all_shards("close")


class Profiler:
    """py-spy recording the app processes, one phase at a time: DIR/<students>-<phase>-<pid>.txt in
    py-spy's raw format (one line per stack, its samples last: flamegraph.pl's input)."""

    def __init__(self, folder: str | None, pids: list[int], seconds: float | None = None):
        self.folder, self.pids, self.running, self.seconds = (Path(folder) if folder else None), pids, [], seconds
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)

    async def phase(self, tag: str | None) -> None:
        """The recording of the phase before stopped; `tag`'s started (None: none)."""
        if not self.folder:
            return
        for process in self.running:
            if process.returncode is None:
                process.send_signal(2)  # SIGINT: py-spy writes what it recorded
        for process in self.running:
            await process.wait()
        self.running = []
        if tag is None:
            return
        spy = str(Path(sys.executable).with_name("py-spy"))
        for pid in self.pids:
            self.running.append(await asyncio.create_subprocess_exec(
                spy, "record", "--pid", str(pid), "--rate", "100", "--format", "raw",
                *(("--duration", str(max(1, round(self.seconds)))) if self.seconds else ()), "--output",
                str(self.folder / f"{tag}-{pid}.txt"), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL))
        await asyncio.sleep(1.0)  # attached before the phase begins


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms" if seconds == seconds else "—"


async def loop_lag(lags: list, every: float = 0.005) -> None:
    """How late this process's loop wakes up (a busy client delays every arrival it records)."""
    while True:
        expected = time.perf_counter() + every
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - expected)


def refusal_kinds(records: list[dict]) -> dict[str, int]:
    kinds: dict[str, int] = defaultdict(int)
    for record in records:
        for _, what in record["refusals"]:
            kinds[what] += 1
    return dict(sorted(kinds.items()))


def figures_of(room: Room, records: list[dict], joining: dict, answers: dict, reveal: dict) -> dict:
    """Every figure of a room from the students' records and the lecturer's."""
    lecturer, S = room.lecturer, room.students
    began = joining["began"]
    joined = [r["joined_at"] - began for r in records if r["joined_at"] is not None]
    standing = [r for r in records if r["joined_at"] is not None and not r["dead"]]
    out = {"students": S, "joining": {"all": max(joined) if len(joined) == S else float("nan"), "p50": median(joined),
                                      "p95": percentile(joined, 95), "connected": joining["connected"], "count": joining["count"],
                                      "missing": S - len(joined)}}
    # follow
    latencies, lasts, drives, missing = [], [], [], 0
    for drive, sent in room.sent.items():
        arrivals = [r["drive_at"][drive] - sent for r in standing if drive in r["drive_at"]]
        missing += len(standing) - len(arrivals)
        latencies += arrivals
        if arrivals and len(arrivals) == len(standing):
            lasts.append(max(arrivals))
        if arrivals:
            drives.append((min(arrivals), max(arrivals), room.drive_cpu.get(drive, float("nan"))))
    out["follow"] = {"p50": median(latencies), "p95": percentile(latencies, 95), "last_p95": percentile(lasts, 95),
                     "last_max": max(lasts) if lasts else float("nan"), "missing": missing, "drives": drives}
    # answers
    if "number" in answers:
        number = answers["number"]
        order = sorted(r["answer_sent"] for r in records if r["answer_sent"] is not None)
        times = [at for at, _ in lecturer.answer_counts]
        counts = [count for _, count in lecturer.answer_counts]
        in_count, uncounted = [], 0
        for k, at in enumerate(order, start=1):
            seen = bisect_left(counts, k)  # the shown count only grows: the first that includes the k-th
            if seen < len(counts):
                in_count.append(max(0.0, times[seen] - at))
            else:
                uncounted += 1
        own = [r["answered_at"] - r["answer_sent"] for r in records if r["answered_at"] and r["answer_sent"]]
        polled = [r["poll_at"][number] - answers["asked"] for r in standing if number in r["poll_at"]]
        window = None
        if room.fault is not None and room.fault.began is not None and room.args.fault_phase == "answers":
            end = room.fault.back or room.fault.began + 60
            window = [(at, d) for at, d in zip(order, in_count) if room.fault.began <= at <= end]
        out["answers"] = {"sent": len(order), "spread": (order[-1] - order[0]) if order else float("nan"),
                          "p50": median(in_count), "p95": percentile(in_count, 95), "max": max(in_count, default=float("nan")),
                          "uncounted": uncounted, "shown": answers["shown"], "store": answers["store"],
                          "own_p50": median(own), "own_p95": percentile(own, 95), "acknowledged": len(own),
                          "poll_p95": percentile(polled, 95), "still_pending": sum(r["pending"] for r in records),
                          "resends": sum(r["resends"] for r in records),
                          "during_fault": {"n": len(window), "p50": median([d for _, d in window]),
                                           "p95": percentile([d for _, d in window], 95),
                                           "max": max((d for _, d in window), default=float("nan"))} if window is not None else None}
        # reveal
        times = [r["revealed_at"] - reveal["sent"] for r in standing if r["revealed_at"] is not None]
        answered = [r for r in records if r["choice"] is not None]
        wrong = sum(1 for r in answered if r["revealed_at"] is not None and r["revealed_answer"] != r["choice"])
        histogram = lecturer.histogram or []
        out["reveal"] = {"p50": median(times), "p95": percentile(times, 95), "last": max(times, default=float("nan")),
                         "missing": len(standing) - len(times), "own_wrong": wrong, "histogram_sum": sum(histogram),
                         "histogram": histogram}
    else:
        out["answers"] = {"error": answers.get("error")}
        out["reveal"] = None
    out["refusals"] = refusal_kinds(records + [lecturer.record()])
    out["statuses"] = {"pages told reconnecting": sum(1 for r in records if any(s == "reconnecting" for _, s in r["statuses"])),
                       "syncs": sum(r["syncs"] for r in records) + lecturer.syncs, "gaps": sum(r["gaps"] for r in records) + lecturer.gaps}
    return out


def print_room(room: Room, f: dict, args, extra: dict) -> None:
    S, j, fo, an, rv = room.students, f["joining"], f["follow"], f["answers"], f["reveal"]
    print(f"room of {S} students, {args.drives} drives, one every {args.drive_every:g} s ({room.url}; "
          f"students in {len(room.shards)} client process(es){'' if room.shards[0].remote else ', this one'})")
    how = "at once" if not args.join_spread else f"over {args.join_spread:g} s"
    print(f"  joining  all {S} joined {j['all']:.2f} s after they began {how} (connected {j['connected']:.2f} s; "
          f"per student p50 {j['p50']:.2f} s, p95 {j['p95']:.2f} s); the lecturer's count reached {S} at {j['count']:.2f} s"
          + (f"; {j['missing']} not joined" if j["missing"] else ""))
    print(f"  follow   the lecturer's view reached a student in p50 {ms(fo['p50'])}, p95 {ms(fo['p95'])} "
          f"({len(fo['drives'])} drives x {room.expected}); the last student of a drive: p95 {ms(fo['last_p95'])}, "
          f"max {ms(fo['last_max'])}" + (f"; {fo['missing']} views missing" if fo["missing"] else ""))
    if fo["drives"]:
        first, last, cpu_ms = max(fo["drives"], key=lambda d: d[1])
        print("           the last student of each drive (ms): " + " ".join(f"{1000 * d[1]:.0f}" for d in fo["drives"])
              + f"; the slowest drive: first student {ms(first)}, last {ms(last)}"
              + (f", server CPU {ms(cpu_ms)} meanwhile" if cpu_ms == cpu_ms else ""))
    if "p50" in an:
        print(f"  answers  {an['sent']} answers over {an['spread']:.2f} s: in the lecturer's count p50 {ms(an['p50'])}, "
              f"p95 {ms(an['p95'])}, max {ms(an['max'])} (the student's own 'answered' p50 {ms(an['own_p50'])}, "
              f"p95 {ms(an['own_p95'])}; the question reached the students in p95 {ms(an['poll_p95'])})"
              + (f"; {an['uncounted']} never in the count" if an["uncounted"] else ""))
        print(f"           the lecturer's final count {an['shown']} of {an['sent']} sent (the store's, after a sync: "
              f"{an['store']}); {an['acknowledged']} acknowledged to their student"
              + (f"; {an['resends']} sent again after Redis came back" if an["resends"] else "")
              + (f"; {an['still_pending']} still pending" if an["still_pending"] else ""))
        if an["during_fault"] is not None:
            df = an["during_fault"]
            print(f"           the {df['n']} answers sent while Redis was out: in the count p50 {ms(df['p50'])}, "
                  f"p95 {ms(df['p95'])}, max {ms(df['max'])}")
    else:
        print(f"  answers  {an.get('error')}")
    if rv is not None:
        print(f"  reveal   reached a student in p50 {ms(rv['p50'])}, p95 {ms(rv['p95'])}, the last {ms(rv['last'])}"
              + (f"; {rv['missing']} missing" if rv["missing"] else "")
              + f"; its histogram counts {rv['histogram_sum']} answers"
              + (f"; {rv['own_wrong']} students shown another answer than theirs" if rv["own_wrong"] else
                 "; every student shown its own answer"))
    if room.fault is not None:
        origin = room.fault_origin if room.fault_origin is not None else extra.get("follow_began", 0.0)
        print(f"  fault    {room.fault.describe(origin)}")
        st = f["statuses"]
        print(f"           {st['pages told reconnecting']} student pages told `reconnecting`; {st['syncs']} syncs; "
              f"{st['gaps']} gaps in seq")
    if "server_cpu" in extra:
        print(f"  server   CPU {extra['server_cpu']:.2f} s over the {extra['wall']:.1f} s run "
              f"({100 * extra['server_cpu'] / extra['wall']:.0f}% of a core) = {1000 * extra['cpu_per_student_minute']:.1f} ms "
              f"per student per minute; RSS {extra['rss_room'] / 2 ** 20:+.2f} MiB for the room = "
              f"{extra['rss_student'] / 1024:+.1f} kB per student"
              + "".join(f"; {name} CPU {cpu:.2f} s" for name, cpu in extra.get("others", {}).items()))
    else:
        print("  server   CPU and memory not measured (a server given by --url without --server-pids)")
    print(f"  client   CPU {extra['client_cpu']:.2f} s over the {extra['wall']:.1f} s run "
          f"({100 * extra['client_cpu'] / extra['wall']:.0f}% of a core"
          + (f"; per process {', '.join(f'{c:.1f}' for c in extra['client_cpus'])} s" if len(extra["client_cpus"]) > 1 else "")
          + f"); its loops woke up late by p99 {ms(extra['lag_p99'])}, max {ms(extra['lag_max'])}")
    ours = extra["client_cpu"] + extra.get("server_cpu", 0.0) + sum(extra.get("others", {}).values())
    print(f"  machine  its {os.cpu_count()} cores busy {extra['busy']:.1f} s of {os.cpu_count() * extra['wall']:.1f} "
          f"({100 * extra['busy'] / (os.cpu_count() * extra['wall']):.0f}%), {max(0.0, extra['busy'] - ours):.1f} s of it "
          f"not this benchmark's (the client, the app, nginx, Redis); load average {extra['load'][0]:.1f} → {extra['load'][1]:.1f}")
    if f["refusals"]:
        print(f"  refused  {sum(f['refusals'].values())}: " + ", ".join(f"{k} x{n}" for k, n in f["refusals"].items()))
    else:
        print("  refused  none")
    aims = []
    for label, value in (("view p95", fo["p95"]), ("answer in count p95", an.get("p95", float("nan"))),
                         ("reveal p95", rv["p95"] if rv else float("nan"))):
        aims.append(f"{label} {ms(value)} " + ("met" if value == value and value <= args.target_ms / 1000 else "MISSED"))
    complete = "p50" in an and an["shown"] == an["sent"] == S and not an["uncounted"]
    aims.append("all answers counted" if complete else "answers MISSING from the count")
    aims.append("none refused" if not f["refusals"] else "REFUSALS")
    print(f"  aim      ≤ {args.target_ms:g} ms: " + "; ".join(aims))
    sys.stdout.flush()


async def run_room(url: str, server, students: int, args, shards: list, fault=None, others=None) -> dict:
    """One fresh room of `students` students; prints its figures and returns them."""
    room = Room(room_url(url), students, args, shards)
    room.fault = fault
    lags: list[float] = []
    watch = asyncio.create_task(loop_lag(lags))
    cpu_before = server.cpu_seconds() if server else None
    rss_before = server.rss_bytes() if server else None
    others_before = {name: how() for name, how in (others or {}).items()}
    usage_before = [u for u, _ in await room.all_shards("usage")] if shards[0].remote else []
    client_before, wall_before = time.process_time(), time.perf_counter()
    machine_before, load_before = machine_busy(), os.getloadavg()[0]
    extra: dict = {}
    profiler = Profiler(args.py_spy if students > 5 else None, server.pids if server and server.process is None else
                        [proc.pid for proc in server.processes()] if server else [], args.py_spy_seconds)
    try:
        await room.open()
        await profiler.phase(f"{students}-joining")
        joining = await room.join()
        await asyncio.sleep(0.3)  # the last counts leave the server before its memory is read
        rss_full = server.rss_bytes() if server else None
        await profiler.phase(f"{students}-follow")
        follow_fault = None
        if fault is not None and args.fault_phase == "follow":
            extra["follow_began"] = time.perf_counter()
            follow_fault = asyncio.ensure_future(fault.run(extra["follow_began"] + args.fault_at))
        await room.follow(server)
        if follow_fault is not None:
            await follow_fault
        await profiler.phase(f"{students}-answers")
        answers = await room.answer()
        await asyncio.sleep(1.0)  # the view the lecturer's page sent again after its sync reaches everyone first
        await profiler.phase(f"{students}-reveal")
        reveal = await room.reveal(answers.get("number")) if "number" in answers else {"sent": None}
        await profiler.phase(None)
        records = [r for part in await room.all_shards("records") for r in part]
    finally:
        await profiler.phase(None)
        wall = time.perf_counter() - wall_before
        cpu = server.cpu_seconds() - cpu_before if server else None
        client = time.process_time() - client_before
        busy, load_after = machine_busy() - machine_before, os.getloadavg()[0]
        usage_after = await room.all_shards("usage") if shards[0].remote else []
        watch.cancel()
        await room.close()
    for _, worker_lags in usage_after:
        lags += worker_lags
    client_cpus = [client] + [after - before for (after, _), before in zip(usage_after, usage_before)]
    extra.update(busy=busy, load=(load_before, load_after), wall=wall, client_cpu=sum(client_cpus), client_cpus=client_cpus, lag_p99=percentile(lags, 99),
                 lag_max=max(lags) if lags else float("nan"))
    if server is not None:
        grown = rss_full - rss_before
        extra.update(server_cpu=cpu, cpu_per_student_minute=cpu / students / (wall / 60), rss_room=grown,
                     rss_student=grown / students, others={name: how() - others_before[name] for name, how in (others or {}).items()})
    figures = figures_of(room, records, joining, answers, reveal)
    print_room(room, figures, args, extra)
    figures.update({k: v for k, v in extra.items() if k != "others"}, others=extra.get("others"))
    if fault is not None:
        origin = room.fault_origin if room.fault_origin is not None else extra.get("follow_began", 0.0)
        figures["fault"] = {"mode": fault.mode, "began": fault.began and fault.began - origin,
                            "back": fault.back and fault.back - origin}
    return figures


async def measure(url: str, server, args, shards: list, fault_for=None, others=None) -> list[dict]:
    # a small room first: the server's imports and caches (the question's attention) warmed
    warm = argparse.Namespace(**{**vars(args), "drives": 2, "answer_spread": min(1.0, args.answer_spread)})
    print("warm-up:", end=" ")
    await run_room(url, server, 5, warm, shards, others=others)
    await asyncio.sleep(1.0)
    results = []
    for students in args.students:
        fault = fault_for() if fault_for else None
        results.append(await run_room(url, server, students, args, shards, fault, others))
        await asyncio.sleep(2.0)
    return results


def raise_file_limit() -> None:
    """Room for S sockets here and in the server (which inherits this process's limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def machine_busy() -> float:
    """CPU seconds every core of the machine was busy so far (anyone's)."""
    import psutil

    times = psutil.cpu_times()
    return sum(times) - times.idle - getattr(times, "iowait", 0.0) - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)


def cpu_of(pids_of):
    """The CPU seconds so far of the processes pids_of() names (a restarted Redis: its new pid)."""
    import psutil

    seen: dict[int, float] = {}

    def read() -> float:
        for pid in pids_of():
            try:
                times = psutil.Process(pid).cpu_times()
                seen[pid] = times.user + times.system
            except (psutil.Error, OSError, RuntimeError):
                pass
        return sum(seen.values())
    return read


def code_version() -> str:
    """The code measured: git's HEAD, and the server's files changed since (their diff's hash)."""
    import hashlib
    import subprocess

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True).stdout.strip()
        diff = subprocess.run(["git", "diff", "HEAD", "--", "app/*.py", "deploy", "static/explorer"], cwd=root,
                              capture_output=True, text=True).stdout
        names = subprocess.run(["git", "diff", "HEAD", "--name-only", "--", "app/*.py", "deploy", "static/explorer"], cwd=root,
                               capture_output=True, text=True).stdout.split()
    except OSError:
        return "code: unknown (no git)"
    if not names:
        return f"code: {head}, the server's files as committed"
    return (f"code: {head} + uncommitted changes to {', '.join(names)} "
            f"(diff {hashlib.sha1(diff.encode()).hexdigest()[:8]})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[300], help="one fresh room for each")
    parser.add_argument("--drives", type=int, default=20)
    parser.add_argument("--drive-every", type=float, default=0.5,
                        help="seconds between the lecturer's drives (the socket allows 5 messages a second)")
    parser.add_argument("--answer-spread", type=float, default=1.0,
                        help="each student answers once, at a moment drawn uniformly in this many seconds")
    parser.add_argument("--join-spread", type=float, default=0.0,
                        help="the students join at once (0), or each at a moment drawn uniformly in this many seconds")
    parser.add_argument("--py-spy", metavar="DIR",
                        help="profile the app processes with py-spy, one raw (collapsed) file per room, phase and process in DIR")
    parser.add_argument("--py-spy-seconds", type=float, help="with --py-spy: record only the first this many seconds of each phase")
    parser.add_argument("--url", help="measure an already running explorer (or nginx in front of some) instead of starting one")
    parser.add_argument("--server-pids", type=int, nargs="+", default=[],
                        help="with --url: the app processes whose CPU and memory to count")
    parser.add_argument("--serve-class", type=int, metavar="PROCS",
                        help="start deploy/serve-class.sh with PROCS app processes (and Redis, nginx) and measure through it")
    parser.add_argument("--client-procs", type=int, default=1,
                        help="the students in this many client processes (1: this one, with the lecturer)")
    parser.add_argument("--redis-fault", choices=("pause", "restart", "kill"),
                        help="a Redis fault in each measured room (restart and kill need --serve-class)")
    parser.add_argument("--fault-phase", choices=("answers", "follow"), default="answers")
    parser.add_argument("--fault-at", type=float, default=3.0, help="seconds into the phase")
    parser.add_argument("--fault-seconds", type=float, default=3.0,
                        help="pause: how long Redis is stopped; restart, kill: how long it stays down before it starts again")
    parser.add_argument("--redis-port", type=int, help="with --url: the port of the Redis to pause")
    parser.add_argument("--target-ms", type=float, default=500.0, help="the aim for every p95")
    parser.add_argument("--json", help="write every room's figures here")
    args = parser.parse_args(argv)
    if args.redis_fault and args.url and not args.redis_port:
        parser.error("--redis-fault with --url needs --redis-port")
    if args.redis_fault in ("restart", "kill") and not args.serve_class:
        parser.error(f"--redis-fault {args.redis_fault} needs --serve-class (a Redis this benchmark starts)")
    raise_file_limit()
    print(code_version())

    from bench.class_server import ClassServer, RedisFault

    def run(url, server, fault_for=None, others=None):
        if args.client_procs > 1:
            context = multiprocessing.get_context("spawn")
            shards = [RemoteShard(context) for _ in range(args.client_procs)]
        else:
            shards = [LocalShard()]
        try:
            results = asyncio.run(measure(url, server, args, shards, fault_for, others))
        finally:
            for shard in shards:
                shard.stop()
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=1, default=str))
        return results

    if args.serve_class:
        with ClassServer(args.serve_class, own_redis=args.redis_fault in ("restart", "kill")) as stack:
            pids = stack.app_pids()
            server = Server.attach(stack.url, pids)
            print(f"rooms through deploy/serve-class.sh --procs {args.serve_class} ({stack.url}): app processes {pids}, "
                  f"nginx {stack.nginx_pids()}, Redis {stack.redis_pid()}"
                  + (" (started here with serve-class.sh's command line, given to it as --redis)" if stack.own_redis else "")
                  + f"; data and logs in {stack.data}")
            others = {"nginx": cpu_of(stack.nginx_pids), "Redis": cpu_of(lambda: [stack.redis_pid()])}
            fault_for = (lambda: RedisFault(args.redis_fault, stack.redis_port, args.fault_seconds, stack)) if args.redis_fault else None
            try:
                run(stack.url, server, fault_for, others)
            finally:
                alive = stack.alive()
                stack.stop()
                print(f"serve-class.sh {'was still serving (stopped with SIGTERM)' if alive else 'HAD STOPPED'}; "
                      f"its logs ({stack.logs}):")
                lines = stack.log_report()
                print("\n".join(f"  {line}" for line in lines) if lines else "  nothing that says error, warning or traceback")
        return 0
    if args.url:
        server = Server.attach(args.url, args.server_pids) if args.server_pids else None
        print(f"rooms through {args.url}" + (f": app processes {args.server_pids}" if server else ""))
        fault_for = (lambda: RedisFault(args.redis_fault, args.redis_port, args.fault_seconds)) if args.redis_fault else None
        run(args.url, server, fault_for)
        return 0
    with Server("explorer") as server:
        print(f"rooms on an explorer started here ({server.url}, pid {server.process.pid})")
        run(server.url, server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
