"""Benchmark 14: one lecturer and S students in one room, over the app's /room websocket.

Each student and the lecturer is a real websocket connection (Tornado's client), all of them on
one asyncio loop in this process. For each number of students, in a fresh room:

  joining   all S students connect and join at once: until each is joined and the lecturer's
            count reaches S;
  follow    R drives (one every --drive-every seconds, the query moving between 0 and 4): from
            the lecturer's send to each student's `view` (p50, p95 over every drive and student)
            and to the LAST student's (p95 over drives);
  answers   the lecturer asks (top_key); every student answers, spread over --answer-spread
            seconds as a hall does: from the k-th answer's send until the lecturer's count
            reaches k (p50, p95);
  reveal    from the lecturer's reveal to each student's `revealed` (p50, p95, last);
  server    CPU seconds per student per minute of the run, and its RSS growth from before the
            room opened to the room full (per room and per student);
  client    this process's own CPU over the run, to see whether the client was the limit.

    .venv/bin/python bench/room.py [--students 100 300] [--drives 20] [--url URL [--server-pids PID ...]]

The client reads only the messages and fields it waits for (app/room_socket.py) and ignores the
rest, so new fields and new message types do not break it.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import secrets
import sys
import time
from bisect import bisect_left
from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tornado.websocket import websocket_connect  # noqa: E402

from bench.common import Server, median, percentile  # noqa: E402

#: the lecturer's view (tests/app/test_rooms.py's VIEW with one head: a question needs one head)
VIEW = {"source": {"kind": "preset", "name": "meet-friend"}, "query": 4, "scale": True, "causal": False, "heads": 1,
        "head_view": -1, "step": -1, "layer": 0, "head": 0, "merge": True, "special": False, "lens": "weight",
        "rope": True, "window": -1, "compare": "", "lang": "ko"}
#: meet-friend's tokens: a view's query, and a question's choices before the poll says how many
TOKENS = 5
#: how long any one phase may wait for its messages before it reports what is missing
PHASE_TIMEOUT = 60.0


def room_url(url: str) -> str:
    """ws(s)://host:port/…/room for the served page's http(s) URL."""
    parts = urlsplit(urljoin(url if url.endswith("/") else url + "/", "room"))
    return urlunsplit(("wss" if parts.scheme == "https" else "ws", parts.netloc, parts.path, "", ""))


class Waiter:
    """Counts arrivals up to a target; `done` is set when it is reached."""

    def __init__(self, target: int):
        self.target, self.count, self.done = target, 0, asyncio.Event()
        if target <= 0:
            self.done.set()

    def arrived(self, n: int = 1) -> None:
        self.count += n
        if self.count >= self.target:
            self.done.set()

    async def wait(self, timeout: float = PHASE_TIMEOUT) -> bool:
        try:
            await asyncio.wait_for(self.done.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False


class Page:
    """One page's socket: what it received (times on time.perf_counter) that this benchmark waits for."""

    def __init__(self, room: "Room", name: str):
        self.room, self.name = room, name
        self.socket = None
        self.token = secrets.token_hex(8)
        self.joined_at = None
        self.views: list[tuple[float, int | None]] = []  # (arrival, its query)
        self.poll_at = self.poll_number = self.choices = None
        self.answered_at = None
        self.revealed_at = None
        # the lecturer's side
        self.opened = None
        self.counts: list[tuple[float, int]] = []
        self.answers: list[tuple[float, int]] = []  # (arrival, count) for the open question

    async def connect(self, url: str) -> None:
        # offered like a browser (the server decides whether to compress)
        self.socket = await websocket_connect(url, on_message_callback=self.on_message, compression_options={})
        self.socket.protocol.set_nodelay(True)  # as a browser's socket: no Nagle delay on what the page sends

    def send(self, **message) -> float:
        sent = time.perf_counter()
        self.socket.write_message(json.dumps(message))
        return sent

    def on_message(self, raw) -> None:
        if raw is None:  # closed
            if not self.room.closing:
                self.room.errors.append(f"{self.name}: closed by the server")
            return
        now = time.perf_counter()
        try:
            message = json.loads(raw)
            kind = message.get("type")
        except (ValueError, AttributeError):
            self.room.errors.append(f"{self.name}: not a JSON object")
            return
        room = self.room
        if kind == "joined":
            if self.joined_at is None:
                self.joined_at = now
                room.joined.arrived()
        elif kind == "view":
            view = message.get("view")
            self.views.append((now, view.get("query") if isinstance(view, dict) else None))
            if room.viewed is not None:
                room.viewed.arrived()
        elif kind == "poll":
            poll = message.get("poll") or {}
            self.poll_at, self.poll_number, self.choices = now, poll.get("number"), poll.get("choices")
            if room.polled is not None:
                room.polled.arrived()
        elif kind == "answered":
            if self.answered_at is None:
                self.answered_at = now
                room.answered.arrived()
        elif kind == "revealed":
            self.revealed_at = now
            if room.revealed is not None:
                room.revealed.arrived()
        elif kind == "opened":
            self.opened = message
            room.opening.arrived()
        elif kind == "count":
            self.counts.append((now, message.get("count")))
            if message.get("count") == room.students and room.full_at is None:
                room.full_at = now
                room.counted.arrived()
        elif kind == "answers":
            if message.get("number") == room.number:
                self.answers.append((now, message.get("count")))
                if (message.get("count") or 0) >= room.expected:
                    room.counted_answers.arrived()
        elif kind == "error":
            room.errors.append(f"{self.name}: error {message.get('code')}")
        # any other type (a new kind of message) is not this benchmark's: ignored


class Room:
    """One room's run: a lecturer, `students` students, the phases in order."""

    def __init__(self, url: str, students: int, drives: int, drive_every: float, answer_spread: float, seed: int):
        self.url, self.students, self.drives = url, students, drives
        self.drive_every, self.answer_spread = drive_every, answer_spread
        self.random = random.Random(seed)
        self.errors: list[str] = []
        self.closing = False
        self.opening, self.joined, self.counted = Waiter(1), Waiter(students), Waiter(1)
        self.viewed = self.polled = self.answered = self.counted_answers = self.revealed = None
        self.full_at = None
        self.number = None
        self.expected = students  # the students in the room after joining (fewer if some failed)
        self.lecturer = Page(self, "lecturer")
        self.pages = [Page(self, f"student {i}") for i in range(students)]
        self.everyone = [self.lecturer, *self.pages]  # closed at the end, joined or not

    def say(self, **message) -> float:
        return self.lecturer.send(**message)

    def lecturer_says(self, message_type: str, **message) -> float:
        opened = self.lecturer.opened
        return self.say(type=message_type, code=opened["code"], secret=opened["secret"], **message)

    async def open(self) -> None:
        await self.lecturer.connect(self.url)
        self.say(type="open")
        if not await self.opening.wait():
            raise RuntimeError(f"the room did not open: {self.errors[:3]}")
        # the lecturer's first view, before anyone joins (a student's `joined` then carries it)
        self.lecturer_says("drive", view={**VIEW, "query": 0})

    async def join(self) -> dict:
        code = self.lecturer.opened["code"]
        began = time.perf_counter()

        async def student(page: Page):
            try:
                await page.connect(self.url)
            except Exception as error:  # a student who could not connect is a figure, not a crash
                self.errors.append(f"{page.name}: connect {error!r}"[:200])
                return
            page.send(type="join", code=code, student=page.token)

        await asyncio.gather(*(student(page) for page in self.pages))
        connected_at = time.perf_counter()
        all_joined = await self.joined.wait()
        counted = await self.counted.wait(5 if not all_joined else PHASE_TIMEOUT)
        times = [page.joined_at - began for page in self.pages if page.joined_at is not None]
        self.pages = [page for page in self.pages if page.joined_at is not None]  # the later phases wait for these
        self.expected = len(self.pages)
        return {"all": max(times) if all_joined and times else float("nan"), "p50": median(times),
                "p95": percentile(times, 95), "connected": connected_at - began,
                "count": (self.full_at - began) if counted else float("nan"), "missing": self.students - len(times)}

    async def follow(self, server: Server | None = None) -> dict:
        latencies, lasts, missing, wrong = [], [], 0, 0
        drives = []  # per drive: (first student, last student, server CPU seconds from send to the last)
        for drive in range(self.drives):
            query = (drive + 1) % TOKENS  # moves every drive: 1, 2, 3, 4, 0, 1, …
            self.viewed = Waiter(self.expected)
            before = [len(page.views) for page in self.pages]
            cpu_before = server.cpu_seconds() if server else None
            sent = self.lecturer_says("drive", view={**VIEW, "query": query})
            await self.viewed.wait()
            cpu = server.cpu_seconds() - cpu_before if server else float("nan")
            arrivals = []
            for page, seen in zip(self.pages, before):
                if len(page.views) <= seen:
                    missing += 1
                    continue
                at, got = page.views[seen]
                wrong += got != query
                arrivals.append(at - sent)
            latencies += arrivals
            if len(arrivals) == self.expected:
                lasts.append(max(arrivals))
            if arrivals:
                drives.append((min(arrivals), max(arrivals), cpu))
            await asyncio.sleep(max(0.0, sent + self.drive_every - time.perf_counter()))
        self.viewed = None
        return {"p50": median(latencies), "p95": percentile(latencies, 95), "last_p95": percentile(lasts, 95),
                "last_max": max(lasts) if lasts else float("nan"), "missing": missing, "wrong": wrong, "drives": drives}

    async def answer(self) -> dict:
        self.polled = Waiter(self.expected + 1)  # the lecturer gets the question too
        asked = self.lecturer_says("ask", kind="top_key")
        if not await self.polled.wait():
            return {"missing": self.expected + 1 - self.polled.count}
        self.number = self.lecturer.poll_number
        poll_reached = percentile([page.poll_at - asked for page in self.pages], 95)
        self.answered, self.counted_answers = Waiter(self.expected), Waiter(1)
        code = self.lecturer.opened["code"]
        order: list[float] = []  # send times, in the order sent
        sent_at: dict[Page, float] = {}
        loop = asyncio.get_running_loop()

        def send(page: Page):
            choice = self.random.randrange(page.choices or TOKENS)
            sent_at[page] = at = page.send(type="answer", code=code, number=page.poll_number, choice=choice)
            order.append(at)

        for page in self.pages:
            loop.call_later(self.random.uniform(0, self.answer_spread), send, page)
        answered = await self.answered.wait(self.answer_spread + PHASE_TIMEOUT)
        counted = await self.counted_answers.wait(5 if not answered else PHASE_TIMEOUT)
        arrivals = [at for at, _ in self.lecturer.answers]
        counts = [count for _, count in self.lecturer.answers]
        in_count = []
        for k, at in enumerate(order, start=1):
            seen = bisect_left(counts, k)  # counts only grow: the first message that includes the k-th
            if seen < len(counts):
                in_count.append(arrivals[seen] - at)
        own = [page.answered_at - sent_at[page] for page in self.pages if page.answered_at is not None and page in sent_at]
        return {"poll_p95": poll_reached, "p50": median(in_count), "p95": percentile(in_count, 95),
                "max": max(in_count) if in_count else float("nan"), "own_p50": median(own), "own_p95": percentile(own, 95),
                "spread": (order[-1] - order[0]) if order else float("nan"),
                "missing": self.expected - len(in_count), "counted": counted}

    async def reveal(self) -> dict:
        self.revealed = Waiter(self.expected + 1)
        sent = self.lecturer_says("reveal")
        await self.revealed.wait()
        times = [page.revealed_at - sent for page in self.pages if page.revealed_at is not None]
        return {"p50": median(times), "p95": percentile(times, 95), "last": max(times) if times else float("nan"),
                "missing": self.expected - len(times)}

    async def close(self) -> None:
        self.closing = True
        for page in self.everyone:
            if page.socket is not None:
                page.socket.close()
        await asyncio.sleep(1.0)


def ms(seconds: float) -> str:
    return f"{1000 * seconds:.0f} ms" if seconds == seconds else "—"


async def loop_lag(lags: list, every: float = 0.005) -> None:
    """How late this process's loop wakes up (a busy client delays every arrival it records)."""
    while True:
        expected = time.perf_counter() + every
        await asyncio.sleep(every)
        lags.append(time.perf_counter() - expected)


async def run_room(url: str, server: Server | None, students: int, args) -> dict:
    """One fresh room of `students` students; prints a line per figure and returns them."""
    room = Room(room_url(url), students, args.drives, args.drive_every, args.answer_spread, seed=students)
    lags: list[float] = []
    watch = asyncio.create_task(loop_lag(lags))
    cpu_before = server.cpu_seconds() if server else None
    rss_before = server.rss_bytes() if server else None
    client_before, wall_before = time.process_time(), time.perf_counter()
    try:
        await room.open()
        joining = await room.join()
        await asyncio.sleep(0.3)  # the last counts leave the server before its memory is read
        rss_full = server.rss_bytes() if server else None
        follow = await room.follow(server)
        answers = await room.answer()
        reveal = await room.reveal()
    finally:
        wall = time.perf_counter() - wall_before
        cpu = server.cpu_seconds() - cpu_before if server else None
        client = time.process_time() - client_before
        watch.cancel()
        await room.close()

    print(f"room of {students} students, {args.drives} drives, one every {args.drive_every:g} s ({room.url})")
    print(f"  joining  all {students} joined {joining['all']:.2f} s after they began at once (connected "
          f"{joining['connected']:.2f} s; per student p50 {joining['p50']:.2f} s, p95 {joining['p95']:.2f} s); "
          f"the lecturer's count reached {students} at {joining['count']:.2f} s"
          + (f"; {joining['missing']} not joined" if joining["missing"] else ""))
    print(f"  follow   the lecturer's view reached a student in p50 {ms(follow['p50'])}, p95 {ms(follow['p95'])} "
          f"({args.drives} drives x {students}); the last student of a drive: p95 {ms(follow['last_p95'])}, "
          f"max {ms(follow['last_max'])}"
          + (f"; {follow['missing']} views missing" if follow["missing"] else "")
          + (f"; {follow['wrong']} with another query" if follow["wrong"] else ""))
    if follow["drives"]:
        first, last, cpu_ms = max(follow["drives"], key=lambda d: d[1])
        print("           the last student of each drive (ms): " + " ".join(f"{1000 * d[1]:.0f}" for d in follow["drives"])
              + f"; the slowest drive: first student {ms(first)}, last {ms(last)}"
              + (f", server CPU {ms(cpu_ms)} meanwhile" if cpu_ms == cpu_ms else ""))
    if "p50" in answers:
        print(f"  answers  {students} answers over {answers['spread']:.2f} s: in the lecturer's count p50 {ms(answers['p50'])}, "
              f"p95 {ms(answers['p95'])}, max {ms(answers['max'])} (the student's own 'answered' p50 {ms(answers['own_p50'])}, "
              f"p95 {ms(answers['own_p95'])}; the question reached the students in p95 {ms(answers['poll_p95'])})"
              + (f"; {answers['missing']} not counted" if answers["missing"] else ""))
    else:
        print(f"  answers  the question did not reach {answers['missing']} pages")
    print(f"  reveal   reached a student in p50 {ms(reveal['p50'])}, p95 {ms(reveal['p95'])}, the last {ms(reveal['last'])}"
          + (f"; {reveal['missing']} missing" if reveal["missing"] else ""))
    figures = {"students": students, "joining": joining, "follow": follow, "answers": answers, "reveal": reveal,
               "wall": wall, "client_cpu": client, "client_lag_max": max(lags) if lags else float("nan")}
    if server is not None:
        per_minute = cpu / students / (wall / 60)
        grown = rss_full - rss_before
        figures.update(server_cpu=cpu, cpu_per_student_minute=per_minute, rss_room=grown, rss_student=grown / students)
        print(f"  server   CPU {cpu:.2f} s over the {wall:.1f} s run ({100 * cpu / wall:.0f}% of a core) = "
              f"{1000 * per_minute:.1f} ms per student per minute; RSS {grown / 2 ** 20:+.2f} MiB for the room "
              f"= {grown / students / 1024:+.1f} kB per student")
    else:
        print("  server   CPU and memory not measured (a server given by --url without --server-pids)")
    print(f"  client   this process's CPU {client:.2f} s over the {wall:.1f} s run ({100 * client / wall:.0f}% of a core); "
          f"its loop woke up late by p99 {ms(percentile(lags, 99))}, max {ms(max(lags) if lags else float('nan'))}")
    if room.errors:
        kinds: dict[str, int] = {}
        for error in room.errors:
            kinds[error.split(": ", 1)[-1]] = kinds.get(error.split(": ", 1)[-1], 0) + 1
        print(f"  errors   {len(room.errors)}: " + ", ".join(f"{k} x{n}" for k, n in sorted(kinds.items())))
    else:
        print("  errors   none")
    sys.stdout.flush()
    return figures


async def measure(url: str, server: Server | None, args) -> list[dict]:
    # a small room first: the server's imports and caches (the question's attention) warmed
    warm = argparse.Namespace(**{**vars(args), "drives": 2})
    print("warm-up:", end=" ")
    await run_room(url, server, 5, warm)
    await asyncio.sleep(1.0)
    results = []
    for students in args.students:
        results.append(await run_room(url, server, students, args))
        await asyncio.sleep(2.0)
    return results


def raise_file_limit() -> None:
    """Room for S sockets here and in the server (which inherits this process's limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[300], help="one fresh room for each")
    parser.add_argument("--drives", type=int, default=20)
    parser.add_argument("--drive-every", type=float, default=0.5,
                        help="seconds between the lecturer's drives (the socket allows 5 messages a second)")
    parser.add_argument("--answer-spread", type=float, default=1.0, help="the students' answers come over this many seconds")
    parser.add_argument("--url", help="measure an already running explorer instead of starting one")
    parser.add_argument("--server-pids", type=int, nargs="+", default=[],
                        help="with --url: the app processes whose CPU and memory to count")
    args = parser.parse_args(argv)
    raise_file_limit()
    if args.url:
        server = Server.attach(args.url, args.server_pids) if args.server_pids else None
        print(f"rooms through {args.url}" + (f": app processes {args.server_pids}" if server else ""))
        asyncio.run(measure(args.url, server, args))
        return 0
    with Server("explorer") as server:
        print(f"rooms on an explorer started here ({server.url}, pid {server.process.pid})")
        asyncio.run(measure(server.url, server, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
