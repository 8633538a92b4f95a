"""A room: a lecturer's view that students' pages follow, kept in one process's memory (its rules;
app.room_socket carries them, app.redis_rooms keeps them in Redis for several processes). Only the lecturer's secret drives a
room; students are anonymous ids the server makes; every message is checked here (types, ranges,
sizes) and rate-limited per connection; rooms expire when idle and hold a bounded number of
students. Nothing here is shown as HTML: the view is a dict of numbers, booleans and short names.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from dataclasses import dataclass, field, fields

from attention_core import HEAD_CHOICES
from attention_core.lenses import DRAWN
from attention_core.words import LANGUAGES

from .constants import MAX_MODEL_CHARS, STEPS
from .kinds import MODEL_KINDS, SENTENCE_KINDS

#: a room's code: letters and digits a student reads off a projector without confusing them (no
#: 0/O, 1/I/L), CODE_LENGTH of them: 31 ** 6 ≈ 8.9e8 codes
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: the lecturer's secret: 128 bits, never in the students' link
SECRET_BYTES = 16
#: a room with no message for this long is closed
IDLE_SECONDS = 3 * 60 * 60
#: rooms one process keeps, and students one room takes
MAX_ROOMS = 200
MAX_STUDENTS = 1000
#: per connection: this many messages a second on average, this many at once
RATE_PER_SECOND = 5.0
RATE_BURST = 20

#: the lecturer's view a room carries, each field's kind and range (app/explorer.py's params)
MAX_NAME_CHARS = 80
MAX_INDEX = 4096


class RoomError(Exception):
    """A room message refused: a UI string code (err_room_<code>) and its values."""

    def __init__(self, code: str, **values):
        super().__init__(code)
        self.code = code
        self.values = {key: str(value) for key, value in values.items()}


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _source(value) -> dict:
    if not (isinstance(value, dict) and set(value) == {"kind", "name"} and value["kind"] in (*SENTENCE_KINDS, *MODEL_KINDS)
            and isinstance(value["name"], str) and 0 < len(value["name"]) <= MAX_NAME_CHARS):
        raise RoomError("bad_view", field="source")
    return {"kind": value["kind"], "name": value["name"]}


#: each field of a view: a check that returns the value to keep or raises RoomError
VIEW_FIELDS = {
    "source": _source,
    "query": lambda v: v if _is_int(v) and 0 <= v < MAX_INDEX else None,
    "scale": lambda v: v if isinstance(v, bool) else None,
    "causal": lambda v: v if isinstance(v, bool) else None,
    "heads": lambda v: v if _is_int(v) and v in HEAD_CHOICES else None,
    "head_view": lambda v: v if _is_int(v) and -1 <= v < max(HEAD_CHOICES) else None,
    "step": lambda v: v if _is_int(v) and -1 <= v < STEPS else None,
    "layer": lambda v: v if _is_int(v) and 0 <= v < MAX_INDEX else None,
    "head": lambda v: v if _is_int(v) and 0 <= v < MAX_INDEX else None,
    "merge": lambda v: v if isinstance(v, bool) else None,
    "special": lambda v: v if isinstance(v, bool) else None,
    "lens": lambda v: v if v in DRAWN else None,
    "rope": lambda v: v if isinstance(v, bool) else None,
    "window": lambda v: v if _is_int(v) and -1 <= v < MAX_INDEX else None,
    "compare": lambda v: v if isinstance(v, str) and len(v) <= MAX_NAME_CHARS else None,
    "lang": lambda v: v if v in LANGUAGES else None,
    # a sentence the lecturer typed, which each student's page runs again
    "text": lambda v: v if isinstance(v, str) and len(v) <= MAX_MODEL_CHARS else None,
}


def checked_view(view) -> dict:
    """The view a lecturer sends, every field checked (VIEW_FIELDS): RoomError("bad_view", field)
    naming the first field that is unknown or out of range; no field may be missing but `text`."""
    if not isinstance(view, dict):
        raise RoomError("bad_view", field="view")
    unknown = sorted(set(view) - set(VIEW_FIELDS))
    if unknown:
        raise RoomError("bad_view", field=str(unknown[0])[:MAX_NAME_CHARS])
    checked = {}
    for name, check in VIEW_FIELDS.items():
        if name not in view:
            if name == "text":
                continue
            raise RoomError("bad_view", field=name)
        value = check(view[name])
        if value is None:
            raise RoomError("bad_view", field=name)
        checked[name] = value
    return checked


@dataclass
class RateLimit:
    """A token bucket per connection: `rate` messages a second on average, `burst` at once."""

    rate: float = RATE_PER_SECOND
    burst: int = RATE_BURST
    clock: object = time.monotonic
    tokens: float = field(default=-1.0)
    last: float = field(default=0.0)

    def allow(self) -> bool:
        """Whether one more message may pass now (it is counted if so)."""
        now = self.clock()
        if self.tokens < 0:
            self.tokens, self.last = float(self.burst), now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


@dataclass
class Question:
    """A question to the class as app.questions makes it. kind; choices: how many (the histogram's rows); truth: the right choice; detail: numbers the
    reveal shows (what_if: the heaviest key and its weight before and after; output: the true
    output vector), given to the students only once revealed; change: what_if's switch, and to: its
    value asked about (the other setting, or the head count), part of the question, with piece: the
    head compared after it (with more heads, the first piece of the head shown); tokens: the
    sentence's, the choices' words whatever sentence a page shows."""

    kind: str
    choices: int
    truth: int
    detail: dict = field(default_factory=dict)
    change: str = ""
    to: bool | int | None = None
    piece: int | None = None
    tokens: list = field(default_factory=list)


@dataclass(kw_only=True)
class Poll(Question):
    """A question asked in a room: its number there, the view it asks about, each student's one
    answer (a choice index, or for typed numbers the checker's judgement of them), and whether it
    is revealed; the truth and the detail are kept from the students until then."""

    number: int
    view: dict
    answers: dict = field(default_factory=dict)
    revealed: bool = False

    @classmethod
    def asked(cls, number: int, view: dict, question: Question) -> "Poll":
        """Question `number` of a room, made by app.questions.make_question about `view`."""
        return cls(**{f.name: getattr(question, f.name) for f in fields(Question)}, number=number, view=dict(view))

    def kept(self) -> dict:
        """What a store keeps of a poll besides its answers."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "answers"}

    def public(self) -> dict:
        """What every page may see: the truth, the counts and the detail only once revealed."""
        shown = {"number": self.number, "kind": self.kind, "view": self.view, "choices": self.choices,
                 "change": self.change, "to": self.to, "piece": self.piece, "tokens": self.tokens,
                 "revealed": self.revealed}
        return {**shown, "truth": self.truth, "histogram": self.histogram(), "detail": self.detail} if self.revealed else shown

    def chosen(self, answer) -> int:
        """The choice an answer counts as: itself, or a judged answer's outcome."""
        return answer["outcome"] if isinstance(answer, dict) else answer

    def histogram(self) -> list[int]:
        counts = [0] * self.choices
        for answer in self.answers.values():
            chosen = self.chosen(answer)
            if isinstance(chosen, int) and 0 <= chosen < self.choices:  # (a stored answer is always one)
                counts[chosen] += 1
        return counts

    def answer_for(self, student: str):
        """What a student's own page may see of its answer: the choice; or its typed text, and once
        revealed the checker's verdict on it; None before it answered."""
        answer = self.answers.get(student)
        if not isinstance(answer, dict) or self.revealed:
            return answer
        return {"text": answer["text"]}


@dataclass
class Room:
    """One room: its code, the hash of its lecturer's secret, the lecturer's current view (None
    until the first), its students' ids, its question (None until one is asked), and when it last
    heard from anyone."""

    code: str
    secret_hash: bytes
    view: dict | None = None
    students: set = field(default_factory=set)
    active: float = 0.0
    poll: Poll | None = None
    counted: int = 0
    tabs: dict = field(default_factory=dict)  # student → their pages in the room


def secret_hash(secret: str) -> bytes:
    """What a room keeps of its lecturer's secret (SHA-256): never the secret itself."""
    return hashlib.sha256(secret.encode("utf-8")).digest()


def new_code() -> str:
    """A random room code: CODE_LENGTH characters of CODE_ALPHABET."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class Rooms:
    """The rooms of one process. clock: seconds (monotonic); the limits as above."""

    def __init__(self, clock=time.monotonic, max_rooms: int = MAX_ROOMS, max_students: int = MAX_STUDENTS,
                 idle_seconds: float = IDLE_SECONDS):
        self._rooms: dict[str, Room] = {}
        self.clock, self.max_rooms, self.max_students, self.idle_seconds = clock, max_rooms, max_students, idle_seconds

    def __len__(self) -> int:
        return len(self._rooms)

    def _expire(self) -> None:
        now = self.clock()
        for code in [code for code, room in self._rooms.items() if now - room.active > self.idle_seconds]:
            del self._rooms[code]

    def open(self) -> tuple[str, str]:
        """A new room: (its code, for the students' link; its secret, for the lecturer's page
        only). RoomError("full") when the process holds max_rooms rooms."""
        self._expire()
        if len(self._rooms) >= self.max_rooms:
            raise RoomError("full", rooms=self.max_rooms)
        code = new_code()
        while code in self._rooms:
            code = new_code()
        secret = secrets.token_urlsafe(SECRET_BYTES)
        self._rooms[code] = Room(code, secret_hash(secret), active=self.clock())
        return code, secret

    def _room(self, code) -> Room:
        self._expire()
        room = self._rooms.get(code) if isinstance(code, str) else None
        if room is None:
            raise RoomError("no_room")
        room.active = self.clock()
        return room

    def lecturer(self, code, secret) -> Room:
        """The room, if `secret` is its lecturer's: RoomError("no_room") or ("not_lecturer")."""
        room = self._room(code)
        if not (isinstance(secret, str) and hmac.compare_digest(secret_hash(secret), room.secret_hash)):
            raise RoomError("not_lecturer")
        return room

    def drive(self, code, secret, view) -> dict:
        """The lecturer's new view (checked_view), which every student following it then shows."""
        room = self.lecturer(code, secret)
        room.view = checked_view(view)
        return room.view

    def join(self, code, student: str, tab: bool = True) -> dict | None:
        """A student in the room (their page's anonymous token, or an id the server made for the
        connection): the view to follow (None before the lecturer's first). tab: one more page of
        theirs (a student with two tabs is one student until both have left).
        RoomError("no_room") or ("room_full", students)."""
        room = self._room(code)
        if student not in room.students and len(room.students) >= self.max_students:
            raise RoomError("room_full", students=self.max_students)
        room.students.add(student)
        if tab:
            room.tabs[student] = room.tabs.get(student, 0) + 1
        return room.view

    def leave(self, code, student: str) -> None:
        """One page of the student's left; the student leaves with their last."""
        room = self._rooms.get(code)
        if room is not None:
            room.tabs[student] = room.tabs.get(student, 1) - 1
            if room.tabs[student] <= 0:
                del room.tabs[student]
                room.students.discard(student)

    def view(self, code) -> dict | None:
        """The lecturer's current view (None before the first)."""
        return self._room(code).view

    def count(self, code) -> int:
        """How many students are in the room."""
        return len(self._room(code).students)

    def counted(self, code) -> tuple[int, int]:
        """(how many students are in the room, the how-manieth count this is): counts made by
        several processes can reach a page in another order than they were made."""
        room = self._room(code)
        room.counted += 1
        return len(room.students), room.counted

    def ask(self, code, secret, make) -> Poll:
        """A new question about the lecturer's current view: make(view) → a Question (app.questions.make_question)
        (or RoomError). The room's earlier question, answered or not, is replaced."""
        room = self.lecturer(code, secret)
        if room.view is None:
            raise RoomError("no_view")
        question = make(room.view)
        number = room.poll.number + 1 if room.poll else 1
        room.poll = Poll.asked(number, room.view, question)
        return room.poll

    def answer(self, code, student: str, number, value, judge) -> Poll:
        """A student's answer to question `number`: one per student, changeable until the reveal;
        judge(poll, value) → what is kept of it (app.questions.answer_value: a choice, or typed
        numbers judged), or RoomError("bad_answer"). RoomError("no_poll") for another or a
        revealed question."""
        room = self._room(code)
        poll = room.poll
        if poll is None or number != poll.number or poll.revealed or student not in room.students:
            raise RoomError("no_poll")
        poll.answers[student] = judge(poll, value)
        return poll

    def reveal(self, code, secret) -> Poll:
        """The lecturer reveals the question's answers and truth."""
        room = self.lecturer(code, secret)
        if room.poll is None:
            raise RoomError("no_poll")
        room.poll.revealed = True
        return room.poll

    def poll(self, code) -> Poll | None:
        return self._room(code).poll


def guesses_to_find_a_room(rooms: int, rate_per_second: float = RATE_PER_SECOND) -> dict:
    """How long an attacker holding one connection needs, on average, to hit any one of `rooms`
    open rooms by trying codes at the rate limit: {"codes", "tries", "seconds"}."""
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    tries = codes / max(1, rooms) / 2
    return {"codes": codes, "tries": tries, "seconds": tries / rate_per_second if rate_per_second else math.inf}
