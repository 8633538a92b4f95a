"""A room: a lecturer's view that students' pages follow. Its rules, the interface every store of
rooms implements (RoomStore), and one process's store in memory (Rooms); app.redis_rooms keeps the
same rules in Redis for several processes, and app.room_socket carries pages' messages to them.

Only the lecturer's secret (or the return code shown once, which brings a second device in) drives
a room; the server issues every student's identity (app.room_socket signs it); every message is
checked here (types, ranges, sizes) and rate-limited. A room's state messages carry a sequence
number (seq) so that a page which misses one asks for the state. Answers are counted as they come,
one count per student and question, never recounted. Nothing here is shown as HTML: the view is a
dict of numbers, booleans and short names.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import statistics
import time
from dataclasses import dataclass, field, fields
from typing import Protocol


from .constants import MAX_MODEL_CHARS
from .kinds import MODEL_KINDS, SENTENCE_KINDS
from .view_params import param_value, view_table

#: a room's code: letters and digits a student reads off a projector without confusing them (no
#: 0/O, 1/I/L), CODE_LENGTH of them: 31 ** 6 ≈ 8.9e8 codes
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: what a student may have read for a character the alphabet leaves out (a typed code is tried with
#: each), and how many readings of one typed code are tried at most (each is a guess at a code)
CONFUSABLE = {"0": "DQ", "O": "DQ", "1": "7J", "I": "J7", "L": "4"}
MAX_READINGS = 4
#: the lecturer's secret: 128 bits, never in the students' link
SECRET_BYTES = 16
#: the return code, shown once when the room opens, that lets the lecturer's other device take the
#: room back: RETURN_LENGTH characters of the code's alphabet (31 ** 10 ≈ 8.2e14)
RETURN_LENGTH = 10
#: a room with no message for this long is closed; one without a lecturer's page, after this long
IDLE_SECONDS = 3 * 60 * 60
ORPHAN_SECONDS = 30 * 60
#: the students are told the lecturer is away once no page of theirs has been in the room this long
#: (a reload's new page comes back well within it)
LECTURER_GRACE_SECONDS = 5.0
#: a closed room's code still says "closed" (not "no such room") for this long
CLOSED_KEEP_SECONDS = 24 * 60 * 60
#: how long a closed room's report is kept for its lecturer (serve --report-days)
REPORT_DAYS = 30
#: rooms one store keeps, and students one room takes
MAX_ROOMS = 200
MAX_STUDENTS = 5000
#: lecturer secrets a room accepts at once (each device brought in by the return code adds one)
MAX_SECRETS = 8
#: per connection: this many messages a second on average, this many at once
RATE_PER_SECOND = 5.0
RATE_BURST = 20
#: a lecturer's connection (its secret checked): a lecturer clicking through a lesson sends the view
#: on every change, then a question, a reveal, the report; a phone's pace would drop some
LECTURER_RATE_PER_SECOND = 50.0
LECTURER_BURST = 200

#: the lecturer's view a room carries, each field's kind and range (app/explorer.py's params)
MAX_NAME_CHARS = 80
MAX_INDEX = 4096
#: the longest title or note of a lesson's stop a room carries
MAX_NOTE_CHARS = 2000


class RoomError(Exception):
    """A room message refused: a UI string code (err_room_<code>) and its values."""

    def __init__(self, code: str, **values):
        super().__init__(code)
        self.code = code
        self.values = {key: str(value) for key, value in values.items()}


class StoreUnavailable(Exception):
    """The store (Redis) did not answer in time: the page is told the room is reconnecting."""


def _source(value) -> dict:
    if not (isinstance(value, dict) and set(value) == {"kind", "name"} and value["kind"] in (*SENTENCE_KINDS, *MODEL_KINDS)
            and isinstance(value["name"], str) and 0 < len(value["name"]) <= MAX_NAME_CHARS):
        raise RoomError("bad_view", field="source")
    return {"kind": value["kind"], "name": value["name"]}


def _field_check(row: dict):
    """The check of one view param a room carries (app/view_params.py view_table's row): a function
    returning the value to keep, or None for a value of another kind or out of its range."""
    kind = row["kind"]
    if kind == "source":
        return _source
    if kind == "text":
        return lambda v: v if isinstance(v, str) and len(v) <= MAX_NAME_CHARS else None
    if kind in ("bool", "choice", "int"):  # as the param declares it (an index without a bound: below MAX_INDEX)
        bounded = {**row, "high": MAX_INDEX - 1} if kind == "int" and row["high"] is None else row
        return lambda v: param_value(bounded, v)
    raise ValueError(f"a room cannot carry view param {row['name']!r} of kind {kind!r}")


#: each field of a view: a check that returns the value to keep or None; each param a room carries
#: is checked as app/view_params.py declares it
VIEW_FIELDS = {
    **{row["name"]: _field_check(row) for row in view_table() if row.get("room")},
    # a sentence the lecturer typed, which each student's page runs again
    "text": lambda v: v if isinstance(v, str) and len(v) <= MAX_MODEL_CHARS else None,
    # the lesson's stop on show, as the class reads it: {title, note} in each language (shown as text)
    "note": lambda v: v if _is_note(v) else None,
}
#: the fields a view may leave out
OPTIONAL_FIELDS = ("text", "note")


def _is_note(value) -> bool:
    """A lesson stop's words a room carries: {title, note, title_en, note_en}, strings, not too long."""
    return (isinstance(value, dict) and set(value) <= {"title", "note", "title_en", "note_en"}
            and all(isinstance(text, str) and len(text) <= MAX_NOTE_CHARS for text in value.values()))


def checked_view(view) -> dict:
    """The view a lecturer sends, every field checked (VIEW_FIELDS): RoomError("bad_view", field)
    naming the first field that is unknown or out of range; no field may be missing but those of
    OPTIONAL_FIELDS (a typed sentence, a lesson's note)."""
    if not isinstance(view, dict):
        raise RoomError("bad_view", field="view")
    unknown = sorted(set(view) - set(VIEW_FIELDS))
    if unknown:
        raise RoomError("bad_view", field=str(unknown[0])[:MAX_NAME_CHARS])
    checked = {}
    for name, check in VIEW_FIELDS.items():
        if name not in view:
            if name in OPTIONAL_FIELDS:
                continue
            raise RoomError("bad_view", field=name)
        value = check(view[name])
        if value is None:
            raise RoomError("bad_view", field=name)
        checked[name] = value
    return checked


def _as_typed(value: str) -> str:
    """A code as a person types it, read: spaces and dashes dropped, upper case."""
    return "".join(value.split()).replace("-", "").upper()


def typed_codes(value) -> list[str]:
    """The room codes a typed code may mean: any case, spaces and dashes dropped, and each character
    the alphabet leaves out (0, O, 1, I, L) read as those it is confused with; [] for text that
    cannot be a code. The first is the code as typed when it is one."""
    if not isinstance(value, str) or len(value) > 4 * CODE_LENGTH:
        return []
    typed = _as_typed(value)
    if len(typed) != CODE_LENGTH:
        return []
    codes = [""]
    for char in typed:
        options = char if char in CODE_ALPHABET else CONFUSABLE.get(char, "")
        codes = [code + option for code in codes for option in options]
    return codes[:MAX_READINGS]


@dataclass
class RateLimit:
    """A token bucket: `rate` messages a second on average, `burst` at once."""

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


class AddressLimits:
    """A token bucket per network address and action, for what one phone must not do at a hall's
    pace: a hall of 2,000 behind one campus address joins at once and never meets them. limits:
    action → (rate a second, burst). The buckets of addresses not heard from lately are dropped."""

    def __init__(self, limits: dict, clock=time.monotonic, keep: int = 10_000):
        self.limits, self.clock, self.keep = limits, clock, keep
        self._buckets: dict[tuple, RateLimit] = {}

    def allow(self, action: str, address: str) -> bool:
        if action not in self.limits:
            return True
        bucket = self._buckets.get((action, address))
        if bucket is None:
            if len(self._buckets) >= self.keep:  # full ones refill; the oldest half goes
                for key in list(self._buckets)[: self.keep // 2]:
                    del self._buckets[key]
            rate, burst = self.limits[action]
            bucket = self._buckets[(action, address)] = RateLimit(rate, burst, self.clock)
        return bucket.allow()


@dataclass
class Question:
    """A question to the class as app.questions makes it. kind; choices: how many (the histogram's rows); truth: the right choice; detail: numbers the
    reveal shows (what_if: the heaviest key and its weight before and after; output: the true
    output vector), given to the students only once revealed; change: what_if's switch, and to: its
    value asked about (the other setting, or the head count), part of the question, with piece: the
    head compared after it (with more heads, the first piece of the head shown); tokens: the
    sentence's, the choices' words whatever sentence a page shows; length: how many numbers an
    output question's answer has (the head's d_k)."""

    kind: str
    choices: int
    truth: int
    detail: dict = field(default_factory=dict)
    change: str = ""
    to: bool | int | None = None
    piece: int | None = None
    tokens: list = field(default_factory=list)
    length: int | None = None


@dataclass(kw_only=True)
class Poll(Question):
    """A question asked in a room: its number there, the view it asks about, whether it is revealed,
    and its counts as they stand: students per choice (counts), students who answered, and students
    who could (in the room when it was asked or since); the truth, the counts and the detail are
    kept from the students until the reveal."""

    number: int
    view: dict
    revealed: bool = False
    counts: list = field(default_factory=list)
    answered: int = 0
    eligible: int = 0

    @classmethod
    def asked(cls, number: int, view: dict, question: Question) -> "Poll":
        """Question `number` of a room, made by app.questions.make_question about `view`."""
        return cls(**{f.name: getattr(question, f.name) for f in fields(Question)}, number=number, view=dict(view),
                   counts=[0] * question.choices)

    def kept(self) -> dict:
        """What a store keeps of a poll besides its counts."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("counts", "answered", "eligible")}

    def record(self, seconds: list, mode: str = "live") -> dict:
        """What a room's report keeps of this question (app/report.py): the question, its view, its
        counts, and the median of `seconds` (from the question to each student's first answer)."""
        return {"number": self.number, "kind": self.kind, "change": self.change, "to": self.to, "piece": self.piece,
                "view": dict(self.view), "tokens": list(self.tokens), "truth": self.truth, "counts": list(self.counts),
                "length": self.length,
                "answered": self.answered, "eligible": self.eligible,
                "median_seconds": round(statistics.median(seconds), 1) if seconds else None, "mode": mode}

    def public(self) -> dict:
        """What every page may see: the truth, the counts and the detail only once revealed."""
        shown = {"number": self.number, "kind": self.kind, "view": self.view, "choices": self.choices,
                 "change": self.change, "to": self.to, "piece": self.piece, "tokens": self.tokens,
                 "length": self.length, "revealed": self.revealed}
        return {**shown, "truth": self.truth, "histogram": list(self.counts), "detail": self.detail} if self.revealed else shown


def chosen(kept) -> int:
    """The choice a kept answer counts as: itself, or a judged answer's outcome."""
    return kept["outcome"] if isinstance(kept, dict) else kept


def answer_shown(kept, revealed: bool):
    """What a student's own page may see of its answer: the choice; or its typed text, and once
    revealed the checker's verdict on it; None before it answered."""
    if not isinstance(kept, dict) or revealed:
        return kept
    return {"text": kept["text"]}


@dataclass(frozen=True)
class Opened:
    """A new room: its code (the students' link), its secret (the lecturer's page only), its return
    code (shown once, for the lecturer's other device), and the room closed to make space (or None)."""

    code: str
    secret: str
    return_code: str
    evicted: str | None = None


@dataclass(frozen=True)
class Sweep:
    """What a store's sweep found: rooms closed (code → seq of the closed message), rooms whose
    counts changed (their pages were on a process that died), rooms whose lecturer was away
    (code → seq of the presence message)."""

    closed: dict = field(default_factory=dict)
    recounted: tuple = ()
    away: dict = field(default_factory=dict)


class RoomStore(Protocol):
    """Where rooms live: one process's memory (Rooms) or Redis (app.redis_rooms.RedisRooms). Every
    method is a coroutine that never blocks the event loop; a store out of reach raises
    StoreUnavailable; a refusal raises RoomError. seq: the room's state sequence, carried by the
    state messages (view, poll, revealed, presence, closed)."""

    async def open(self) -> Opened: ...
    async def find(self, codes: list[str]) -> str: ...
    async def lecturer(self, code: str, secret=None, return_code=None) -> str | None: ...
    async def drive(self, code: str, secret, view) -> tuple[dict, int]: ...
    async def state(self, code: str, student: str | None = None) -> dict: ...
    async def join(self, code: str, student: str) -> None: ...
    async def leave(self, code: str, student: str) -> None: ...
    async def lecturer_in(self, code: str) -> int: ...
    async def lecturer_out(self, code: str) -> int: ...
    async def lecturer_gone(self, code: str) -> int: ...
    async def counted(self, code: str) -> tuple[int, int]: ...
    async def ask(self, code: str, secret, make) -> tuple[Poll, int]: ...
    async def poll(self, code: str) -> Poll | None: ...
    async def answer(self, code: str, student: str, number, kept) -> tuple[int, int]: ...
    async def answers_of(self, code: str, number: int, students: list) -> dict: ...
    async def ping(self) -> None: ...
    async def reveal(self, code: str, secret) -> tuple[Poll, int]: ...
    async def close(self, code: str, secret, reason: str = "closed") -> int: ...
    async def report(self, code: str, secret) -> list[dict]: ...
    async def assign(self, code: str, secret, deadline: float, ask_name: bool, make, now: float) -> dict: ...
    async def assignment(self, assignment_id: str) -> dict: ...
    async def assigned_answer(self, assignment_id: str, student: str, number: int, kept, name: str, now: float) -> None: ...
    async def assigned_answers(self, assignment_id: str, student: str) -> dict: ...
    async def sweep(self) -> Sweep: ...
    async def signing_key(self) -> bytes: ...


def secret_hash(secret: str) -> bytes:
    """What a room keeps of its lecturer's secret (SHA-256): never the secret itself."""
    return hashlib.sha256(secret.encode("utf-8")).digest()


def new_code(length: int = CODE_LENGTH) -> str:
    """A random room code (or return code): `length` characters of CODE_ALPHABET."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def return_code_of(value) -> str | None:
    """A typed return code without spaces and dashes, upper case; None for text that is not one."""
    if not isinstance(value, str) or len(value) > 3 * RETURN_LENGTH:
        return None
    typed = _as_typed(value)
    return typed if len(typed) == RETURN_LENGTH and not set(typed) - set(CODE_ALPHABET) else None


def matches(secret, hashes) -> bool:
    """Whether `secret` is one of the room's secrets (compared in constant time)."""
    if not isinstance(secret, str) or len(secret) > 200:
        return False
    mine = secret_hash(secret)
    return any(hmac.compare_digest(mine, known) for known in hashes)


@dataclass
class Room:
    """One room in memory: what RedisRooms keeps in a room's keys."""

    code: str
    secrets: list
    return_hash: bytes
    active: float
    view: dict | None = None
    seq: int = 0
    counted: int = 0
    students: set = field(default_factory=set)
    pages: dict = field(default_factory=dict)  # student → their pages in the room
    lecturers: int = 0  # the lecturer's pages in the room
    away: bool = False  # the students were told the lecturer is away
    orphan: float | None = None  # since when no lecturer's page is in the room
    asked: int = 0
    poll: Poll | None = None
    answers: dict = field(default_factory=dict)  # (number, student) → kept answer
    eligible: set = field(default_factory=set)  # students who could answer the open question
    asked_at: float = 0.0  # when the open question was asked
    times: dict = field(default_factory=dict)  # student → seconds from the question to their first answer
    history: list = field(default_factory=list)  # the report's records of the questions before it


class Rooms:
    """The rooms of one process (RoomStore). clock: seconds (monotonic); the limits as above."""

    def __init__(self, clock=time.monotonic, max_rooms: int = MAX_ROOMS, max_students: int = MAX_STUDENTS,
                 idle_seconds: float = IDLE_SECONDS, orphan_seconds: float = ORPHAN_SECONDS,
                 report_seconds: float = REPORT_DAYS * 24 * 60 * 60):
        self._rooms: dict[str, Room] = {}
        self._closed: dict[str, float] = {}
        self._reports: dict[str, tuple[list, list, float]] = {}  # code → (its secrets' hashes, records, when closed)
        self._assignments: dict[str, dict] = {}  # id → an assignment (app/assignments.py) with its answers and names
        self.report_seconds = report_seconds
        self._key = secrets.token_bytes(32)
        self.clock, self.max_rooms, self.max_students = clock, max_rooms, max_students
        self.idle_seconds, self.orphan_seconds = idle_seconds, orphan_seconds

    def __len__(self) -> int:
        return len(self._rooms)

    async def signing_key(self) -> bytes:
        return self._key

    def _end(self, code: str) -> int:
        room = self._rooms.pop(code)
        self._closed[code] = self.clock()
        self._reports[code] = (list(room.secrets), self._records(room), self.clock())
        return room.seq + 1

    def _records(self, room: Room) -> list[dict]:
        """The report's records of every question the room asked (app.report), the open one as its
        counts stand."""
        poll = self._counted_poll(room)
        return room.history + ([poll.record(list(room.times.values()))] if poll is not None else [])

    def _lecturers_of(self, code) -> list:
        """The hashes of the secrets of a room's lecturer: an open room's, or a closed one's kept
        with its report; RoomError("no_report") for neither."""
        if code in self._rooms:
            return self._rooms[code].secrets
        kept = self._reports.get(code) if isinstance(code, str) else None
        if kept is None:
            raise RoomError("no_report")
        return kept[0]

    async def report(self, code, secret) -> list[dict]:
        """The room's report records, for its lecturer: while it is open, and for report_seconds
        after it closed, with its assigned links' answers (app/assignments.py). RoomError
        ("not_lecturer") for another secret, ("no_report") when there is none."""
        from .assignments import assignment_report  # (it builds on this module)
        if not matches(secret, self._lecturers_of(code)):
            raise RoomError("not_lecturer")
        live = self._records(self._rooms[code]) if code in self._rooms else self._reports[code][1]
        assigned = [record for kept in self._assignments.values() if kept["code"] == code
                    for record in assignment_report(kept, kept["answers"], kept["names"])]
        return live + assigned

    async def assign(self, code, secret, deadline: float, ask_name: bool, make, now: float) -> dict:
        """A link for the students who missed the room's questions (make(records) → the questions:
        app.assignments.questions_of), open until `deadline`. {id, deadline}."""
        from .assignments import checked_deadline, new_id
        records = [record for record in await self.report(code, secret) if record["mode"] == "live"]
        made = {"id": new_id(), "code": code, "deadline": checked_deadline(deadline, now), "ask_name": bool(ask_name),
                "questions": make(records), "answers": {}, "names": {}}
        self._assignments[made["id"]] = made
        return {"id": made["id"], "deadline": made["deadline"]}

    async def assignment(self, assignment_id) -> dict:
        """An assignment by its link's id: RoomError("no_assignment") for none."""
        found = self._assignments.get(assignment_id) if isinstance(assignment_id, str) else None
        if found is None:
            raise RoomError("no_assignment")
        return found

    async def assigned_answer(self, assignment_id, student: str, number: int, kept, name: str, now: float) -> None:
        """A student's answer to an assignment's question: one each, before the deadline."""
        found = await self.assignment(assignment_id)
        if now > found["deadline"]:
            raise RoomError("assignment_closed")
        if (number, student) in found["answers"]:
            raise RoomError("answered")
        found["answers"][(number, student)] = kept
        if name:
            found["names"][student] = name

    async def assigned_answers(self, assignment_id, student: str) -> dict:
        """A student's own answers to an assignment: number → kept."""
        found = await self.assignment(assignment_id)
        return {number: kept for (number, who), kept in found["answers"].items() if who == student}

    def _stale(self) -> list[str]:
        now = self.clock()
        return [code for code, room in self._rooms.items() if now - room.active > self.idle_seconds
                or (room.orphan is not None and now - room.orphan > self.orphan_seconds)]

    async def sweep(self) -> Sweep:
        now = self.clock()
        for code in [code for code, at in self._closed.items() if now - at > CLOSED_KEEP_SECONDS]:
            del self._closed[code]
        for code in [code for code, (_, _, at) in self._reports.items() if now - at > self.report_seconds]:
            del self._reports[code]
        wall = time.time()  # deadlines are wall-clock time
        for assignment_id in [i for i, kept in self._assignments.items() if wall - kept["deadline"] > self.report_seconds]:
            del self._assignments[assignment_id]
        return Sweep(closed={code: self._end(code) for code in self._stale()})

    async def open(self) -> Opened:
        evicted = None
        if len(self._rooms) >= self.max_rooms:
            orphans = [room for room in self._rooms.values() if room.orphan is not None]
            if not orphans:
                raise RoomError("full", rooms=self.max_rooms)
            evicted = min(orphans, key=lambda room: room.active).code
            self._end(evicted)
        code = new_code()
        while code in self._rooms or code in self._closed:
            code = new_code()
        secret, back = secrets.token_urlsafe(SECRET_BYTES), new_code(RETURN_LENGTH)
        self._rooms[code] = Room(code, [secret_hash(secret)], secret_hash(back), active=self.clock(), orphan=self.clock())
        return Opened(code, secret, back, evicted)

    def _room(self, code, touch: bool = True) -> Room:
        room = self._rooms.get(code) if isinstance(code, str) else None
        if room is None:
            raise RoomError("closed" if code in self._closed else "no_room")
        if touch:
            room.active = self.clock()
        return room

    async def find(self, codes: list[str]) -> str:
        """The room a typed code means (typed_codes): RoomError("no_room"), or ("closed")."""
        for code in codes:
            if code in self._rooms or code in self._closed:
                return code
        raise RoomError("no_room")

    async def lecturer(self, code, secret=None, return_code=None) -> str | None:
        """Whether `secret` (or the return code) is the room's lecturer's: RoomError("no_room"),
        ("closed") or ("not_lecturer"). With the return code, a new secret for that device."""
        room = self._room(code)
        if return_code is not None:
            typed = return_code_of(return_code)
            if typed is None or not hmac.compare_digest(secret_hash(typed), room.return_hash):
                raise RoomError("not_lecturer")
            secret = secrets.token_urlsafe(SECRET_BYTES)
            room.secrets = [*room.secrets, secret_hash(secret)][-MAX_SECRETS:]
            return secret
        if not matches(secret, room.secrets):
            raise RoomError("not_lecturer")
        return None

    async def drive(self, code, secret, view) -> tuple[dict, int]:
        """The lecturer's new view (checked_view), which every student following it then shows."""
        await self.lecturer(code, secret)
        room = self._room(code)
        room.view = checked_view(view)
        room.seq += 1
        return room.view, room.seq

    async def state(self, code, student=None) -> dict:
        """What a page is brought to: the view, the question (public), the seq, whether the
        lecturer is away, how many are in and answered; a student's own answer."""
        room = self._room(code, touch=False)
        poll = self._counted_poll(room)
        mine = room.answers.get((poll.number, student)) if poll and student else None
        return {"view": room.view, "poll": poll.public() if poll else None, "seq": room.seq, "away": room.away,
                "count": len(room.students), "answered": poll.answered if poll else 0,
                "eligible": poll.eligible if poll else 0,
                "answer": answer_shown(mine, poll.revealed) if poll else None}

    async def join(self, code, student: str) -> None:
        """One more page of a student's in the room (a student with two tabs is one student until
        both have left). RoomError("no_room"), ("closed") or ("room_full", students)."""
        room = self._room(code)
        if student not in room.students and len(room.students) >= self.max_students:
            raise RoomError("room_full", students=self.max_students)
        room.students.add(student)
        room.pages[student] = room.pages.get(student, 0) + 1
        if room.poll is not None and not room.poll.revealed:
            room.eligible.add(student)

    async def leave(self, code, student: str) -> None:
        room = self._rooms.get(code)
        if room is not None and student in room.pages:
            room.pages[student] -= 1
            if room.pages[student] <= 0:
                del room.pages[student]
                room.students.discard(student)

    async def lecturer_in(self, code) -> int:
        """A lecturer's page in the room: the seq of the presence message when the students had been
        told the lecturer was away, else 0."""
        room = self._room(code)
        room.lecturers += 1
        room.orphan = None
        if room.away:
            room.away = False
            room.seq += 1
            return room.seq
        return 0

    async def lecturer_out(self, code) -> int:
        """A lecturer's page left: how many remain."""
        room = self._rooms.get(code)
        if room is None:
            return 0
        room.lecturers = max(0, room.lecturers - 1)
        if room.lecturers == 0 and room.orphan is None:
            room.orphan = self.clock()
        return room.lecturers

    async def lecturer_gone(self, code) -> int:
        """After the grace: the seq of the presence message when no lecturer's page came back and
        the students were not told yet, else 0."""
        room = self._rooms.get(code)
        if room is None or room.lecturers > 0 or room.away:
            return 0
        room.away = True
        room.seq += 1
        return room.seq

    async def counted(self, code) -> tuple[int, int]:
        """(how many students are in the room, the how-manieth count this is): counts made by
        several processes can reach a page in another order than they were made."""
        room = self._room(code, touch=False)
        room.counted += 1
        return len(room.students), room.counted

    async def ask(self, code, secret, make) -> tuple[Poll, int]:
        """A new question about the lecturer's current view: make(view) → a Question
        (app.questions.make_question) or RoomError. The room's earlier question is replaced."""
        await self.lecturer(code, secret)
        room = self._room(code)
        if room.view is None:
            raise RoomError("no_view")
        question = make(room.view)
        if room.poll is not None:  # the question before: its counts as they stand go in the report
            room.history.append(self._counted_poll(room).record(list(room.times.values())))
        room.asked += 1
        room.poll = Poll.asked(room.asked, room.view, question)
        room.asked_at, room.times = self.clock(), {}
        room.eligible = set(room.students)
        room.answers = {key: value for key, value in room.answers.items() if key[0] == room.asked}
        room.seq += 1
        return self._counted_poll(room), room.seq

    def _counted_poll(self, room: Room) -> Poll | None:
        poll = room.poll
        if poll is not None:
            poll.eligible = len(room.eligible)
        return poll

    async def poll(self, code) -> Poll | None:
        return self._counted_poll(self._room(code, touch=False))

    async def answer(self, code, student: str, number, kept) -> tuple[int, int]:
        """A student's answer (kept: a choice, or typed numbers judged) to question `number`: one
        per student, changeable until the reveal, the counts moved by one. (answered, eligible);
        RoomError("no_poll") for another or a revealed question, or a student not in the room."""
        room = self._room(code, touch=False)
        poll = room.poll
        if poll is None or number != poll.number or poll.revealed or student not in room.students:
            raise RoomError("no_poll")
        old = room.answers.get((number, student))
        if old is not None:
            poll.counts[chosen(old)] -= 1
        else:
            poll.answered += 1
        poll.counts[chosen(kept)] += 1
        room.answers[(number, student)] = kept
        room.times.setdefault(student, self.clock() - room.asked_at)
        room.eligible.add(student)
        return poll.answered, len(room.eligible)

    async def answers_of(self, code, number: int, students: list) -> dict:
        """Each student's kept answer to question `number` (None where they did not answer)."""
        room = self._room(code, touch=False)
        return {student: room.answers.get((number, student)) for student in students}

    async def ping(self) -> None:
        """Nothing to reach: memory always answers."""

    async def reveal(self, code, secret) -> tuple[Poll, int]:
        """The lecturer reveals the question's answers and truth."""
        await self.lecturer(code, secret)
        room = self._room(code)
        if room.poll is None or room.poll.revealed:
            raise RoomError("no_poll")
        room.poll.revealed = True
        room.seq += 1
        return self._counted_poll(room), room.seq

    async def close(self, code, secret, reason: str = "closed") -> int:
        """The lecturer closes the room: the seq of the closed message."""
        await self.lecturer(code, secret)
        return self._end(code)


def guesses_to_find_a_room(rooms: int, rate_per_second: float = RATE_PER_SECOND) -> dict:
    """How long an attacker holding one connection needs, on average, to hit any one of `rooms`
    open rooms by trying codes at the rate limit, each typed code read MAX_READINGS ways (typed_codes):
    {"codes", "tries", "seconds"}."""
    codes = len(CODE_ALPHABET) ** CODE_LENGTH
    tries = codes / max(1, rooms) / 2 / MAX_READINGS
    return {"codes": codes, "tries": tries, "seconds": tries / rate_per_second if rate_per_second else math.inf}
