"""The rooms' websocket (/room): small JSON messages between the pages of a room and its rules
(app.rooms), not Bokeh document changes. The hub holds one process's rooms and the connections in
each; the handler only carries text in and out of it.

A page sends (every field checked, every message rate-limited per connection):
  {"type": "open"}                                 a lecturer opens a room → opened {code, secret}
  {"type": "lecture", "code", "secret"}            … or takes it up again (a reload) → lecturing {code, count, view, poll, answers}
  {"type": "qr", "code", "secret", "link"}         the students' link as a QR code → qr {size, rows}
  {"type": "drive", "code", "secret", "view"}      the lecturer's view → view {view} to every student
  {"type": "join", "code", "student"?}             a student → joined {code, view, poll, answer}; the lecturers get count {count}
  {"type": "ask", "code", "secret", "kind", "change"?}
                                                   a question on the current view (app.questions: top_key,
                                                   what_if with change scale|causal, output) → poll {poll} to everyone
  {"type": "answer", "code", "number", "choice"|"text"}
                                                   a student's answer (a choice; an output's typed numbers) →
                                                   answered {number, answer}; lecturers: answers {number, count}
  {"type": "reveal", "code", "secret"}             → revealed {poll: with its histogram, truth and detail} to
                                                   everyone, each student's with its own answer (and verdict)
and gets {"type": "error", "code", "values"} for anything refused (err_room_<code> in the page's words).
"""
from __future__ import annotations

import json
import logging
import re
import secrets
from dataclasses import dataclass, field

import segno

from .questions import answer_value, make_question
from .rooms import CODE_ALPHABET, CODE_LENGTH, RateLimit, RoomError, Rooms

log = logging.getLogger(__name__)

#: the longest message a page may send (a view is about 300 bytes)
MAX_MESSAGE_BYTES = 8192
#: the longest students' link a QR code is made of
MAX_LINK_CHARS = 400
#: a page's anonymous student token: random hex it makes once per tab
STUDENT_TOKEN = re.compile(r"[0-9a-f]{16,32}")


@dataclass(eq=False)
class Connection:
    """One page's socket: how to send it a message (a dict), its rate limit, and what it is in
    which room (a lecturer, or a student with the anonymous id the hub gave it)."""

    send: object
    limit: RateLimit = field(default_factory=RateLimit)
    code: str | None = None
    lecturing: bool = False
    student: str | None = None


def _code(value) -> str:
    """A room code as typed (any case, spaces around), or RoomError("no_room")."""
    code = value.strip().upper() if isinstance(value, str) else ""
    if len(code) != CODE_LENGTH or set(code) - set(CODE_ALPHABET):
        raise RoomError("no_room")
    return code


def qr_rows(link: str) -> list[str]:
    """The link as a QR code (segno, error correction M: a projector's glare can take some), one
    string of 0 and 1 per row of modules, without the quiet zone (the page draws it)."""
    return ["".join("1" if module else "0" for module in row) for row in segno.make(link, error="m", boost_error=False).matrix]


class LocalBus:
    """A room's messages to its pages, in one process: delivered at once (app.redis_rooms.RedisBus
    carries them to every process). deliver(code, to, message) is the hub's."""

    def __init__(self):
        self.deliver = None

    def publish(self, code: str, to: str, message: dict) -> None:
        self.deliver(code, to, message)

    def listen(self) -> None:
        """Nothing to listen to: every message is published here."""


class RoomHub:
    """One process's connections and the rooms they are in: the rules (app.rooms.Rooms, or
    app.redis_rooms.RedisRooms shared by several processes) and the bus their messages go by."""

    def __init__(self, rooms=None, bus=None, needs_redis: bool = False, models=None):
        self.rooms = rooms if rooms is not None else Rooms()  # (rooms with none open are falsy: len 0)
        self.bus = bus if bus is not None else LocalBus()
        self.bus.deliver = self._deliver
        self.members: dict[str, set[Connection]] = {}
        #: several processes without Redis: a room would live in one of them only, so none opens
        self.needs_redis = needs_redis
        #: name → (AttentionSet, titles) of the models every page is served, which questions can be about
        self.models = models

    def receive(self, conn: Connection, raw) -> None:
        """One message from a page: acted on, or answered with the error; never raises."""
        if not conn.limit.allow():
            conn.send({"type": "error", "code": "slow_down", "values": {}})
            return
        try:
            if self.needs_redis:
                raise RoomError("need_redis")
            if not isinstance(raw, str) or len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
                raise RoomError("bad_message")
            try:
                message = json.loads(raw)
            except ValueError:
                raise RoomError("bad_message") from None
            kind = message.get("type") if isinstance(message, dict) else None
            handler = {"open": self._open, "lecture": self._lecture, "qr": self._qr, "drive": self._drive,
                       "join": self._join, "ask": self._ask, "answer": self._answer, "reveal": self._reveal}.get(
                kind if isinstance(kind, str) else "")
            if handler is None:
                raise RoomError("bad_message")
            handler(conn, message)
        except RoomError as refused:
            conn.send({"type": "error", "code": refused.code, "values": refused.values})
        except Exception:  # the store (Redis) out of reach, or a bug of ours: the page is told, the socket stays
            log.exception("rooms: a message could not be carried out")
            conn.send({"type": "error", "code": "unavailable", "values": {}})

    def closed(self, conn: Connection) -> None:
        """The page went: out of its room, and the lecturers told the new count."""
        try:
            self._leave(conn)
        except Exception:  # the store out of reach: the student stays counted until the room expires
            log.exception("rooms: a page's leaving could not be recorded")

    def _deliver(self, code: str, to: str, message: dict) -> None:
        """A room's message to this process's pages in it: `to` students, lecturers or everyone; at
        the reveal each student's page gets its own answer's verdict (Poll.answer_for)."""
        poll = None
        if message.get("type") == "revealed":
            try:
                poll = self.rooms.poll(code)
            except Exception:  # the room gone meanwhile, or the store out of reach: the reveal goes without verdicts
                log.exception("rooms: the students' own answers could not be read for a reveal")
            # each student's own answer to this question (not to one asked since)
            poll = poll if poll and poll.revealed and poll.number == message["poll"]["number"] else None
        for conn in list(self.members.get(code, ())):
            if to == "students" and conn.student is None or to == "lecturers" and not conn.lecturing:
                continue
            conn.send({**message, "answer": poll.answer_for(conn.student)} if poll and conn.student else message)

    def _enter(self, conn: Connection, code: str) -> None:
        self.bus.listen()  # a page in a room here: its room's messages from every process reach it
        if conn.code != code:
            self._leave(conn)
        conn.code = code
        self.members.setdefault(code, set()).add(conn)

    def _leave(self, conn: Connection) -> None:
        code = conn.code
        if code is None:
            return
        members = self.members.get(code, set())
        members.discard(conn)
        if not members:
            self.members.pop(code, None)
        # the store counts a student's pages: another tab of the same token (a duplicated tab, a
        # reload's new socket first), on any process, keeps them in
        if conn.student is not None:
            self.rooms.leave(code, conn.student)
            self._count(code)
        conn.code, conn.lecturing, conn.student = None, False, None

    def _count(self, code: str) -> None:
        try:
            count, seq = self.rooms.counted(code)
        except RoomError:
            return
        self.bus.publish(code, "lecturers", {"type": "count", "count": count, "seq": seq})

    def _open(self, conn: Connection, message: dict) -> None:
        code, secret = self.rooms.open()
        self._enter(conn, code)
        conn.lecturing = True
        conn.send({"type": "opened", "code": code, "secret": secret})

    def _lecture(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        self.rooms.lecturer(code, message.get("secret"))
        self._enter(conn, code)
        conn.lecturing = True
        poll = self.rooms.poll(code)
        conn.send({"type": "lecturing", "code": code, "count": self.rooms.count(code), "view": self.rooms.view(code),
                   "poll": poll.public() if poll else None, "answers": len(poll.answers) if poll else 0})

    def _qr(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        self.rooms.lecturer(code, message.get("secret"))
        link = message.get("link")
        if not (isinstance(link, str) and len(link) <= MAX_LINK_CHARS and link.startswith(("http://", "https://"))
                and f"room={code}" in link):
            raise RoomError("bad_link")
        rows = qr_rows(link)
        conn.send({"type": "qr", "link": link, "size": len(rows), "rows": rows})

    def _drive(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        view = self.rooms.drive(code, message.get("secret"), message.get("view"))
        self.bus.publish(code, "students", {"type": "view", "view": view})

    def _join(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        # the page's own anonymous token (kept in its tab: a reload keeps its answer), else one made here
        token = message.get("student")
        student = token if isinstance(token, str) and STUDENT_TOKEN.fullmatch(token) else (
            conn.student if conn.code == code and conn.student else secrets.token_hex(8))
        here = conn.code == code and conn.student == student  # this page joined already: not another tab
        view = self.rooms.join(code, student, tab=not here)
        if not here and conn.student is not None:  # this page was someone else, or elsewhere: that page leaves
            self._leave(conn)
        self._enter(conn, code)
        conn.student = student
        poll = self.rooms.poll(code)
        conn.send({"type": "joined", "code": code, "view": view, "poll": poll.public() if poll else None,
                   "answer": poll.answer_for(student) if poll else None})
        self._count(code)

    def _ask(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        kind, change = message.get("kind"), message.get("change")
        poll = self.rooms.ask(code, message.get("secret"), lambda view: make_question(view, kind, change, self.models))
        self.bus.publish(code, "everyone", {"type": "poll", "poll": poll.public()})

    def _answer(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        if conn.code != code or conn.student is None:
            raise RoomError("no_poll")
        value = message.get("text") if "text" in message else message.get("choice")
        poll = self.rooms.answer(code, conn.student, message.get("number"), value, answer_value)
        conn.send({"type": "answered", "number": poll.number, "answer": poll.answer_for(conn.student)})
        self.bus.publish(code, "lecturers", {"type": "answers", "number": poll.number, "count": len(poll.answers)})

    def _reveal(self, conn: Connection, message: dict) -> None:
        code = _code(message.get("code"))
        poll = self.rooms.reveal(code, message.get("secret"))
        self.bus.publish(code, "everyone", {"type": "revealed", "poll": poll.public()})


def room_patterns(hub: RoomHub) -> list:
    """The Tornado route of the rooms' websocket, for pn.serve's extra_patterns."""
    from tornado.websocket import WebSocketClosedError, WebSocketHandler

    class RoomSocket(WebSocketHandler):
        @property
        def max_message_size(self) -> int:  # Tornado reads no more than a page may send (its default: 10 MiB)
            return MAX_MESSAGE_BYTES

        def open(self):
            self.set_nodelay(True)  # a burst of small messages (a join, then the count) goes at once, not after an ack each
            self.conn = Connection(send=self._send)

        def _send(self, message: dict) -> None:
            try:
                self.write_message(json.dumps(message, ensure_ascii=False))
            except WebSocketClosedError:
                pass

        def on_message(self, message):
            hub.receive(self.conn, message)

        def on_close(self):
            hub.closed(self.conn)

    return [(r"/room", RoomSocket)]
