"""The rooms' websocket (/room): small JSON messages between the pages of a room and its rules
(app.rooms), not Bokeh document changes. The hub holds one process's connections and the rooms they
are in; the store (app.rooms.Rooms in memory, app.redis_rooms.RedisRooms in Redis) holds the rooms;
the handler only carries text in and out of the hub. Every call to the store is awaited on the
event loop, never blocking it.

A page sends (every field checked, every message rate-limited per connection, at a lecturer's pace once
its secret is checked, and per address):
  {"type": "open", "key"?}                        a lecturer opens a room (the server's lecturer key, when it
                                                  has one) → opened {code, secret, return_code, seq}
  {"type": "lecture", "code", "secret"|"return_code"}
                                                  … or takes it up again (a reload, another tab, another device
                                                  with the return code) → lecturing {code, secret?, view, poll,
                                                  seq, away, count, answered, eligible}
  {"type": "qr", "code", "secret", "link"}        the students' link as a QR code → qr {size, rows}
  {"type": "drive", "code", "secret", "view"}     the lecturer's view → view {view, seq} to every page
  {"type": "join", "code", "student"?}            a student (code as typed; student: the identity this server
                                                  signed for them) → joined {code, student, view, poll, seq, away,
                                                  answer}; the lecturers get count {count, seq}
  {"type": "sync"}                                a page that missed a state message (a gap in seq) or was told
                                                  Redis is back → joined or lecturing again
  {"type": "ask", "code", "secret", "kind", "change"?}
                                                  a question on the current view (app.questions) → poll {poll,
                                                  seq, eligible} to every page
  {"type": "answer", "code", "number", "choice"|"text"}
                                                  a student's answer → answered {number, answer}; the lecturers
                                                  get answers {number, count, students}
  {"type": "reveal", "code", "secret"}            → revealed {poll: with its histogram, truth and detail; seq} to
                                                  every page, each student's with its own answer (and verdict)
  {"type": "close", "code", "secret"}             → closed {reason, seq} to every page
  {"type": "report", "code", "secret", "lang"?}   the room's report (app/report.py), open or closed (kept
                                                  for serve --report-days) → report {code, records, csv}
  {"type": "assign", "code", "secret", "deadline", "ask_name"?, "lesson"? | "questions"?}
                                                  an assigned link of the room's questions, a built-in
                                                  lesson's (its name), or the lecturer's own lesson's
                                                  ([{view, kind, change}]; app/assignments.py)
                                                  → assign {code, id, deadline}
  {"type": "assignment", "id", "student"?}        a student opens it → assignment {id, deadline, ask_name,
                                                  questions, answers (their own, judged), student}
  {"type": "assigned", "id", "student", "number", "choice"|"text", "student_name"?, "seconds"?}
                                                  their answer (seconds: how long their page showed the
                                                  question, for the report's median) → assigned {number,
                                                  poll (revealed), answer}
and gets {"type": "error", "code", "values"} for anything refused (err_room_<code> in the page's
words). The hub also says: presence {lecturer: bool, seq} (the lecturer's last page left, or came
back), closed {reason: expired | evicted} and status {state: reconnecting | ok} (the store out of
reach, and back: then the page asks for the state).
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field

import segno

from .assignments import (checked_name, judged as assignment_judged, judged_again, lesson_records, sent_records,
                          public as assignment_public, questions_of, timed)
from .lesson_check import built_in_page_lesson
from .lessons import lesson_names
from .questions import answer_value, make_question
from .report import report_csv
from .view_params import LANGUAGES
from .rooms import (CODE_ALPHABET, CODE_LENGTH, LECTURER_BURST, LECTURER_GRACE_SECONDS, LECTURER_RATE_PER_SECOND,
                    AddressLimits, Poll, RateLimit, RoomError, Rooms, StoreUnavailable, answer_shown, typed_codes)

log = logging.getLogger(__name__)

#: the longest message a page may send (a view is about 300 bytes)
MAX_MESSAGE_BYTES = 8192
#: the longest students' link a QR code is made of
MAX_LINK_CHARS = 400
#: a student's identity as the server signs it: their id, a dot, the signature of the room and the id
STUDENT_TOKEN = re.compile(r"([0-9a-f]{16})\.([0-9a-f]{32})")
#: a socket that has not joined, lectured or opened a room within this long is closed
IDLE_SOCKET_SECONDS = 10.0
#: sockets one address may hold in one process (a hall behind one campus address: thousands)
MAX_SOCKETS_PER_ADDRESS = 6000
#: per address, what one phone must not do at a hall's pace: (rate a second, burst)
ADDRESS_LIMITS = {
    "open": (1 / 60, 10),  # rooms opened: ten, then one a minute
    "identity": (50.0, 3000),  # new student identities: a hall joins at once
    "miss": (5.0, 100),  # codes tried that are no room (guessing)
    "message": (1000.0, 6000),
}
#: how often the store is swept (this process's heartbeat, dead processes, expired rooms)
SWEEP_SECONDS = 5.0
#: polls whose definition a process keeps to judge answers without asking the store
POLLS_KEPT = 256


@dataclass(eq=False)
class Connection:
    """One page's socket: how to send it a message (a dict), its network address, its rate limit,
    and what it is in which room (a lecturer, or a student with the id the server gave it)."""

    send: object
    #: how to send it text already made (a message shared by a room's pages, serialised once); None: send's
    send_text: object = None
    address: str = "local"
    limit: RateLimit = field(default_factory=RateLimit)
    code: str | None = None
    lecturing: bool = False
    student: str | None = None
    working: int = 0  # its messages being carried out (a join the store has not answered yet)


def _code(value) -> str:
    """A room code as a page keeps it (any case, spaces around), or RoomError("no_room")."""
    code = value.strip().upper() if isinstance(value, str) else ""
    if len(code) != CODE_LENGTH or set(code) - set(CODE_ALPHABET):
        raise RoomError("no_room")
    return code


def qr_rows(link: str) -> list[str]:
    """The link as a QR code (segno, error correction M: a projector's glare can take some), one
    string of 0 and 1 per row of modules, without the quiet zone (the page draws it)."""
    return ["".join("1" if module else "0" for module in row) for row in segno.make(link, error="m", boost_error=False).matrix]


def sign(key: bytes, code: str, student: str) -> str:
    """A student's identity in room `code`: their id and the server's signature of it."""
    return student + "." + hmac.new(key, f"{code}:{student}".encode(), hashlib.sha256).hexdigest()[:32]


def signed_student(key: bytes, code: str, token) -> str | None:
    """The student id of a token this server signed for room `code`, or None (forged, another
    room's, or not a token)."""
    found = STUDENT_TOKEN.fullmatch(token) if isinstance(token, str) else None
    if found is None:
        return None
    return found.group(1) if hmac.compare_digest(sign(key, code, found.group(1)), token) else None


def _parse(raw) -> dict:
    """A page's message as a dict: RoomError("bad_message") for anything else (too long, not JSON,
    nested deeper than Python reads)."""
    if not isinstance(raw, str) or len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise RoomError("bad_message")
    try:
        message = json.loads(raw)
    except (ValueError, RecursionError):
        raise RoomError("bad_message") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise RoomError("bad_message")
    return message


class LocalBus:
    """A room's messages to its pages, in one process: delivered at once (app.redis_rooms.RedisBus
    carries them to every process). deliver(code, to, message) is the hub's."""

    def __init__(self):
        self.deliver = self.down = self.up = None

    async def publish(self, code: str, to: str, message: dict) -> None:
        self.deliver(code, to, message)

    async def run(self) -> None:
        """Nothing to listen to: every message is published here."""


class RoomHub:
    """One process's connections and the rooms they are in: the store (RoomStore), the bus their
    messages go by, and the limits. lecturer_key: what opening a room asks for (None: anyone may)."""

    def __init__(self, rooms=None, bus=None, needs_redis: bool = False, models=None, lecturer_key: str | None = None,
                 clock=time.monotonic, grace_seconds: float = LECTURER_GRACE_SECONDS, sweep_seconds: float = SWEEP_SECONDS,
                 address_limits: dict | None = None):
        self.rooms = rooms if rooms is not None else Rooms()  # (rooms with none open are falsy: len 0)
        self.bus = bus if bus is not None else LocalBus()
        self.bus.deliver, self.bus.down, self.bus.up = self._deliver, self._went_down, self._came_back
        self.members: dict[str, set[Connection]] = {}
        self.sockets: dict[str, int] = {}  # address → its sockets here
        #: several processes without Redis: a room would live in one of them only, so none opens
        self.needs_redis = needs_redis
        #: name → (AttentionSet, titles) of the models every page is served, which questions can be about
        self.models = models
        self.lecturer_key = lecturer_key or None
        self.clock, self.grace_seconds, self.sweep_seconds = clock, grace_seconds, sweep_seconds
        self.limits = AddressLimits(ADDRESS_LIMITS if address_limits is None else address_limits, clock)
        self.down = False  # the store out of reach: every page here was told
        self._told: set = set()  # pages told reconnecting after a call of theirs failed
        self._probe_running = False
        self._polls: OrderedDict = OrderedDict()  # (code, number) → Poll (public fields: enough to judge)
        self._outbox: asyncio.Queue | None = None
        self._tasks: set = set()
        self._started = False

    # --- the loop's side: started once per process, after a server's processes have forked

    def start(self) -> None:
        """Start delivering, listening to the bus and sweeping the store, on the running loop."""
        if self._started:
            return
        self._started = True
        self._outbox = asyncio.Queue()
        for job in (self._deliveries(), self.bus.run(), self._sweeping()):
            self._spawn(job)

    def _spawn(self, job) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Until every message published so far is delivered to this process's pages (tests)."""
        for _ in range(3):
            await asyncio.sleep(0)
            if self._outbox is not None:
                await self._outbox.join()

    async def _sweeping(self) -> None:
        while True:
            try:
                await self.sweep()
            except StoreUnavailable:
                pass  # the bus's ping tells the pages; the next sweep goes on
            except Exception:
                log.exception("rooms: the sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def sweep(self) -> None:
        """The store's sweep, and what it found told: rooms closed, counts changed, lecturers away."""
        found = await self.rooms.sweep()
        for code, seq in found.closed.items():
            await self.bus.publish(code, "everyone", {"type": "closed", "reason": "expired", "seq": seq})
        for code in found.recounted:
            await self._count(code)
        for code, seq in found.away.items():
            await self.bus.publish(code, "everyone", {"type": "presence", "lecturer": False, "seq": seq})

    def _every_page(self):
        return [conn for members in self.members.values() for conn in members]

    @staticmethod
    def _send_all(conns, message: dict) -> None:
        """The same message to many pages: serialised once for those that take text."""
        text = None
        for conn in conns:
            if conn.send_text is None:
                conn.send(message)
                continue
            text = text or json.dumps(message, ensure_ascii=False)
            conn.send_text(text)

    def _went_down(self) -> None:
        """The store is out of reach (the bus's ping failed): every page here shows "reconnecting"
        until it is back."""
        if self.down:
            return
        self.down = True
        self._send_all(self._every_page(), {"type": "status", "state": "reconnecting"})
        self._probing()

    def _unavailable(self, conn: Connection) -> None:
        """One call of this page's failed (a timeout: Redis slow or gone): this page is told, and
        told ok once the store answers a ping; every page only if the bus finds Redis gone."""
        conn.send({"type": "status", "state": "reconnecting"})
        self._told.add(conn)
        self._probing()

    def _came_back(self) -> None:
        """The store answers again: every page here asks for its room's state (sync)."""
        if not self.down:
            return
        self.down = False
        self._polls.clear()
        told, self._told = self._told, set()
        self._send_all({*self._every_page(), *told}, {"type": "status", "state": "ok"})  # a page whose join failed is in no room yet

    def _probing(self) -> None:
        if not self._probe_running:
            self._probe_running = True
            self._spawn(self._probe())

    async def _probe(self) -> None:
        try:
            while self.down or self._told:
                await asyncio.sleep(0.5)
                try:
                    await self.rooms.ping()
                except StoreUnavailable:
                    continue
                if not getattr(self.bus, "listening", True):
                    continue  # the bus says when it hears again (up)
                if self.down:
                    self._came_back()
                told, self._told = self._told, set()
                self._send_all(told, {"type": "status", "state": "ok"})
        finally:
            self._probe_running = False

    # --- a page's messages

    def admit(self, conn: Connection) -> bool:
        """Whether one more socket from the connection's address fits (counted if so)."""
        held = self.sockets.get(conn.address, 0)
        if held >= MAX_SOCKETS_PER_ADDRESS:
            return False
        self.sockets[conn.address] = held + 1
        return True

    async def receive(self, conn: Connection, raw) -> None:
        """One message from a page: acted on, or answered with the error; never raises."""
        if not self._started:
            self.start()
        if not conn.limit.allow() or not self.limits.allow("message", conn.address):
            conn.send({"type": "error", "code": "slow_down", "values": {}})
            return
        try:
            if self.needs_redis:
                raise RoomError("need_redis")
            message = _parse(raw)
            handler = self._handlers.get(message["type"])
            if handler is None:
                raise RoomError("bad_message")
            conn.working += 1
            try:
                await handler(self, conn, message)
            finally:
                conn.working -= 1
        except RoomError as refused:
            conn.send({"type": "error", "code": refused.code, "values": refused.values})
        except StoreUnavailable:
            self._unavailable(conn)
        except Exception:  # a bug of ours: the page is told, the socket stays
            log.exception("rooms: a message could not be carried out")
            failed = RoomError("unavailable")
            conn.send({"type": "error", "code": failed.code, "values": failed.values})

    async def closed(self, conn: Connection) -> None:
        """The page went: out of its room, and the lecturers told the new count."""
        left = self.sockets.get(conn.address, 1) - 1
        if left > 0:
            self.sockets[conn.address] = left
        else:
            self.sockets.pop(conn.address, None)
        try:
            await self._leave(conn)
        except (StoreUnavailable, RoomError):
            pass  # its process's presence takes it out of the counts if the store lost this
        except Exception:
            log.exception("rooms: a page's leaving could not be recorded")

    def _deliver(self, code: str, to: str, message: dict) -> None:
        """A room's message (from the bus) for this process's pages in it: delivered in order."""
        if self._outbox is None:
            self.start()
        self._outbox.put_nowait((code, to, message))

    async def _deliveries(self) -> None:
        while True:
            code, to, message = await self._outbox.get()
            try:
                await self._deliver_now(code, to, message)
            except Exception:
                log.exception("rooms: a message could not be delivered")
            finally:
                self._outbox.task_done()

    async def _deliver_now(self, code: str, to: str, message: dict) -> None:
        """To this process's pages in the room: `to` students, lecturers or everyone; at the reveal
        each student's page gets its own answer's verdict."""
        members = [conn for conn in self.members.get(code, ()) if not (
            to == "students" and conn.student is None or to == "lecturers" and not conn.lecturing)]
        kind = message.get("type")
        if kind == "poll":
            self._keep_poll(code, message["poll"])
        own = {}
        if kind == "revealed":
            students = sorted({conn.student for conn in members if conn.student})
            try:
                own = await self.rooms.answers_of(code, message["poll"]["number"], students)
            except (StoreUnavailable, RoomError):
                own = None  # each page asks again once the store is back (sync)
        shared = members
        if kind == "revealed":  # each student's with its own answer
            shared = [conn for conn in members if not conn.student]
            for conn in members:
                if conn.student:
                    conn.send({"type": "status", "state": "reconnecting"} if own is None else
                              {**message, "answer": answer_shown(own.get(conn.student), True)})
        self._send_all(shared, message)
        if kind == "closed":
            for conn in members:
                conn.code, conn.lecturing, conn.student = None, False, None
            self.members.pop(code, None)

    def _keep_poll(self, code: str, public: dict) -> None:
        poll = Poll(kind=public["kind"], choices=public["choices"], truth=-1, change=public["change"], to=public["to"],
                    piece=public["piece"], tokens=public["tokens"], length=public.get("length"),
                    number=public["number"], view=public["view"])
        self._polls[(code, poll.number)] = poll
        while len(self._polls) > POLLS_KEPT:
            self._polls.popitem(last=False)

    def _enter(self, conn: Connection, code: str) -> None:
        conn.code = code
        self.members.setdefault(code, set()).add(conn)

    async def _leave(self, conn: Connection) -> None:
        code = conn.code
        if code is None:
            return
        members = self.members.get(code, set())
        members.discard(conn)
        if not members:
            self.members.pop(code, None)
        student, lecturing = conn.student, conn.lecturing
        conn.code, conn.lecturing, conn.student = None, False, None
        # the store counts a student's pages: another tab of theirs, on any process, keeps them in
        if student is not None:
            await self.rooms.leave(code, student)
            await self._count(code)
        if lecturing and await self.rooms.lecturer_out(code) == 0:
            self._spawn(self._lecturer_away(code))

    async def _lecturer_away(self, code: str) -> None:
        """The students told the lecturer is away, once no page of theirs came back in the grace."""
        await asyncio.sleep(self.grace_seconds)
        try:
            seq = await self.rooms.lecturer_gone(code)
        except (StoreUnavailable, RoomError):
            return  # the sweep tells them if the lecturer's process is gone
        if seq:
            await self.bus.publish(code, "everyone", {"type": "presence", "lecturer": False, "seq": seq})

    async def _count(self, code: str) -> None:
        try:
            count, seq = await self.rooms.counted(code)
        except RoomError:
            return
        await self.bus.publish(code, "lecturers", {"type": "count", "count": count, "seq": seq})

    async def _as_lecturer(self, conn: Connection, code: str) -> None:
        """This page in the room as its lecturer: the students told the lecturer is back."""
        if conn.code == code and conn.lecturing:
            return
        await self._leave(conn)
        seq = await self.rooms.lecturer_in(code)
        self._enter(conn, code)
        conn.lecturing = True
        if conn.limit.rate < LECTURER_RATE_PER_SECOND:  # the lecturer's pace, not a phone's
            conn.limit = RateLimit(rate=LECTURER_RATE_PER_SECOND, burst=LECTURER_BURST)
        if seq:
            await self.bus.publish(code, "everyone", {"type": "presence", "lecturer": True, "seq": seq})

    async def _open(self, conn: Connection, message: dict) -> None:
        if self.lecturer_key is not None:
            key = message.get("key")
            if not isinstance(key, str) or not key:
                raise RoomError("need_key")
            if not hmac.compare_digest(key.encode("utf-8")[:256], self.lecturer_key.encode("utf-8")):
                raise RoomError("bad_key")
        if not self.limits.allow("open", conn.address):
            raise RoomError("slow_down")
        opened = await self.rooms.open()
        if opened.evicted:
            await self.bus.publish(opened.evicted, "everyone", {"type": "closed", "reason": "evicted", "seq": None})
        await self._as_lecturer(conn, opened.code)
        conn.send({"type": "opened", "code": opened.code, "secret": opened.secret, "return_code": opened.return_code,
                   "seq": 0})

    async def _lecture(self, conn: Connection, message: dict) -> None:
        if "return_code" in message:  # the lecturer's other device: the code as typed
            codes = typed_codes(message.get("code"))
            if not codes:
                raise RoomError("no_room")
            code = await self.rooms.find(codes)
            secret = await self.rooms.lecturer(code, return_code=message.get("return_code"))
        else:
            code = _code(message.get("code"))
            secret = await self.rooms.lecturer(code, message.get("secret"))
        await self._as_lecturer(conn, code)
        await self._send_lecturing(conn, code, secret)

    async def _send_lecturing(self, conn: Connection, code: str, secret: str | None = None) -> None:
        state = await self.rooms.state(code)
        state.pop("answer")
        conn.send({"type": "lecturing", "code": code, **({"secret": secret} if secret else {}), **state})

    async def _qr(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        await self.rooms.lecturer(code, message.get("secret"))
        link = message.get("link")
        if not (isinstance(link, str) and len(link) <= MAX_LINK_CHARS and link.startswith(("http://", "https://"))
                and f"room={code}" in link):
            raise RoomError("bad_link")
        rows = qr_rows(link)
        conn.send({"type": "qr", "link": link, "size": len(rows), "rows": rows})

    async def _drive(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        view, seq = await self.rooms.drive(code, message.get("secret"), message.get("view"))
        await self.bus.publish(code, "everyone", {"type": "view", "view": view, "seq": seq})

    async def _join(self, conn: Connection, message: dict) -> None:
        codes = typed_codes(message.get("code"))
        try:
            if not codes:
                raise RoomError("no_room")
            code = await self.rooms.find(codes)
        except RoomError:
            if not self.limits.allow("miss", conn.address):
                raise RoomError("slow_down") from None
            raise
        key = await self.rooms.signing_key()
        student = signed_student(key, code, message.get("student"))
        if student is None and conn.code == code and conn.student:
            student = conn.student  # this page joined already
        here = conn.code == code and conn.student == student and student is not None
        if not here:
            if student is None:
                if not self.limits.allow("identity", conn.address):
                    raise RoomError("slow_down")
                student = secrets.token_hex(8)
            await self.rooms.join(code, student)
            await self._leave(conn)  # this page was someone else, or elsewhere
            self._enter(conn, code)
            conn.student = student
        await self._send_joined(conn, code)
        await self._count(code)

    async def _send_joined(self, conn: Connection, code: str) -> None:
        state = await self.rooms.state(code, conn.student)
        for name in ("count", "answered", "eligible"):  # the lecturer's
            state.pop(name)
        conn.send({"type": "joined", "code": code, "student": sign(await self.rooms.signing_key(), code, conn.student),
                   **state})

    async def _sync(self, conn: Connection, message: dict) -> None:
        if conn.code is None:
            raise RoomError("no_room")
        if conn.lecturing:
            await self._send_lecturing(conn, conn.code)
        else:
            await self._send_joined(conn, conn.code)

    async def _ask(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        kind, change = message.get("kind"), message.get("change")
        poll, seq = await self.rooms.ask(code, message.get("secret"), lambda view: make_question(view, kind, change, self.models))
        await self.bus.publish(code, "everyone", {"type": "poll", "poll": poll.public(), "seq": seq, "eligible": poll.eligible})

    async def _poll_for(self, code: str, number) -> Poll:
        poll = self._polls.get((code, number))
        if poll is None:
            poll = await self.rooms.poll(code)
            if poll is None or poll.number != number or poll.revealed:
                raise RoomError("no_poll")
            self._keep_poll(code, poll.public())
            poll = self._polls[(code, number)]
        return poll

    async def _answer(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        if conn.code != code or conn.student is None:
            raise RoomError("no_poll")
        number = message.get("number")
        poll = await self._poll_for(code, number)
        kept = answer_value(poll, message.get("text") if "text" in message else message.get("choice"))
        answered, eligible = await self.rooms.answer(code, conn.student, number, kept)
        conn.send({"type": "answered", "number": number, "answer": answer_shown(kept, False)})
        await self.bus.publish(code, "lecturers", {"type": "answers", "number": number, "count": answered, "students": eligible})

    async def _reveal(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        poll, seq = await self.rooms.reveal(code, message.get("secret"))
        await self.bus.publish(code, "everyone", {"type": "revealed", "poll": poll.public(), "seq": seq})

    async def _report(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        records = await self.rooms.report(code, message.get("secret"))
        lang = message.get("lang") if message.get("lang") in LANGUAGES else LANGUAGES[0]
        conn.send({"type": "report", "code": code, "records": records, "csv": report_csv(records, lang)})

    async def _assign(self, conn: Connection, message: dict) -> None:
        """An assigned link of the room's questions, of a built-in lesson's (lesson: its name), or of
        the lecturer's own lesson's (questions: each one's view, kind and switch, checked, its truth
        made here), open until its deadline (app/assignments.py); its answers go in the room's report."""
        code = _code(message.get("code"))
        lesson = message.get("lesson")
        if lesson is not None or message.get("questions") is not None:
            if lesson is not None and lesson not in lesson_names():
                raise RoomError("no_lesson")
            asked = lesson_records(built_in_page_lesson(lesson)) if lesson is not None else sent_records(message["questions"])
            make = lambda _: questions_of(asked, self.models)  # noqa: E731
        else:
            make = lambda records: questions_of(records, self.models)  # noqa: E731
        made = await self.rooms.assign(code, message.get("secret"), message.get("deadline"), message.get("ask_name") is True,
                                       make, time.time())
        conn.send({"type": "assign", "code": code, **made})

    async def _student_of(self, conn: Connection, assignment_id: str, token) -> str:
        """The student answering assignment `assignment_id` on this page: the identity this server
        signed for them there, or a new one."""
        key = await self.rooms.signing_key()
        student = signed_student(key, f"assign:{assignment_id}", token)
        if student is None:
            if not self.limits.allow("identity", conn.address):
                raise RoomError("slow_down")
            student = secrets.token_hex(8)
        return student

    async def _assignment(self, conn: Connection, message: dict) -> None:
        """A student opens an assigned link: its questions (without their truth) and their own
        answers so far, judged."""
        assignment_id = message.get("id")
        found = await self.rooms.assignment(assignment_id)
        shown = assignment_public(found, time.time())
        student = await self._student_of(conn, assignment_id, message.get("student"))
        mine = await self.rooms.assigned_answers(assignment_id, student)
        answers = {str(number): judged_again(found, number, kept) for number, kept in mine.items()}
        conn.send({"type": "assignment", **shown, "answers": answers,
                   "student": sign(await self.rooms.signing_key(), f"assign:{assignment_id}", student)})

    async def _assigned(self, conn: Connection, message: dict) -> None:
        """A student's answer to an assigned question: judged at once, kept once, before the deadline."""
        assignment_id = message.get("id")
        found = await self.rooms.assignment(assignment_id)
        assignment_public(found, time.time())  # after the deadline: refused, nothing kept
        key = await self.rooms.signing_key()
        student = signed_student(key, f"assign:{assignment_id}", message.get("student"))
        if student is None:
            raise RoomError("no_poll")
        name = checked_name(message.get("student_name"), found["ask_name"])
        value = message.get("text") if "text" in message else message.get("choice")
        kept, verdict = assignment_judged(found, message.get("number"), value)
        await self.rooms.assigned_answer(assignment_id, student, verdict["number"], timed(kept, message.get("seconds")),
                                         name, time.time())
        conn.send({"type": "assigned", **verdict})

    async def _close(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        seq = await self.rooms.close(code, message.get("secret"))
        await self.bus.publish(code, "everyone", {"type": "closed", "reason": "closed", "seq": seq})

    _handlers = {"open": _open, "lecture": _lecture, "qr": _qr, "drive": _drive, "join": _join, "sync": _sync,
                 "ask": _ask, "answer": _answer, "reveal": _reveal, "close": _close, "report": _report,
                 "assign": _assign, "assignment": _assignment, "assigned": _assigned}


def forwarded_address(request, trusted=("127.0.0.1", "::1")) -> str:
    """The page's network address: the proxy's X-Real-IP (or the last X-Forwarded-For) when the
    socket comes from a trusted proxy on this machine (deploy/nginx.conf.template), else the peer's."""
    peer = request.remote_ip or "?"
    if peer in trusted:
        real = request.headers.get("X-Real-IP") or request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
        if real:
            return real[:64]
    return peer


def room_patterns(hub: RoomHub) -> list:
    """The Tornado route of the rooms' websocket, for pn.serve's extra_patterns."""
    from tornado.ioloop import IOLoop
    from tornado.websocket import WebSocketClosedError, WebSocketHandler

    class RoomSocket(WebSocketHandler):
        @property
        def max_message_size(self) -> int:  # Tornado reads no more than a page may send (its default: 10 MiB)
            return MAX_MESSAGE_BYTES

        def open(self):
            self.set_nodelay(True)  # a burst of small messages (a join, then the count) goes at once, not after an ack each
            self.conn = Connection(send=self._send, send_text=self._write, address=forwarded_address(self.request))
            self.admitted = hub.admit(self.conn)
            if not self.admitted:
                self.close(1013, "too many sockets from one address")
                return
            hub.start()
            self.idle = IOLoop.current().call_later(IDLE_SOCKET_SECONDS, self._idle)

        def _idle(self):
            # in no room, and not joining one now (a hall joining at once waits for the store): its
            # place goes to someone who does
            if self.conn.code is None and not self.conn.working:
                self.close(4000, "idle")
            elif self.conn.code is None:  # looked at again once its join is answered
                self.idle = IOLoop.current().call_later(IDLE_SOCKET_SECONDS, self._idle)

        def _send(self, message: dict) -> None:
            self._write(json.dumps(message, ensure_ascii=False))

        def _write(self, text: str) -> None:
            if self.ws_connection is None or self.ws_connection.is_closing():
                return
            try:
                sent = self.write_message(text)
            except WebSocketClosedError:
                return
            sent.add_done_callback(lambda done: done.exception())  # a socket closing meanwhile is no error of ours

        async def on_message(self, message):
            await hub.receive(self.conn, message)

        def on_close(self):
            if getattr(self, "idle", None) is not None:
                IOLoop.current().remove_timeout(self.idle)
            if getattr(self, "admitted", False):
                asyncio.ensure_future(hub.closed(self.conn))

    return [(r"/room", RoomSocket)]
