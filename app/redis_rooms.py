"""Rooms shared by several app processes through Redis (`serve --rooms redis://HOST:PORT/DB`): the
same rules as app.rooms.Rooms, the state in Redis's data types, and a room's messages to its pages
published on a channel every process listens to (RedisBus), so that a lecturer on one process and
students on another are one room.

Keys (all expire after the room's idle time, renewed by any message about the room):
  ae:room:<code>           a hash: secret (the lecturer's secret, hashed, hex), view (JSON),
                           poll (JSON of app.rooms.Poll without its answers), number (questions asked)
  ae:room:<code>:students  a set of the students' anonymous ids
  ae:room:<code>:tabs      a hash: student → their pages in the room (on any process)
  ae:room:<code>:answers:<number>
                           a hash per question: student → their answer (JSON)
  ae:rooms                 a sorted set: code → when the room last heard from anyone (for the
                           number of rooms open)
Channel ae:bus:<code>: {"to": students | lecturers | everyone, "message": …}.
"""
from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
import time

from .rooms import (IDLE_SECONDS, MAX_ROOMS, MAX_STUDENTS, SECRET_BYTES, Poll, RoomError, checked_view, new_code,
                    secret_hash)

PREFIX = "ae:"
log = logging.getLogger(__name__)


def connect(url: str):
    """A Redis client for `url` (redis://HOST:PORT/DB, rediss://, unix://), checked with a PING:
    ValueError saying what is wrong, for the command line to show."""
    import redis

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--rooms takes a Redis URL such as redis://127.0.0.1:6379/0, not {url!r}")
    try:
        client = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=5, health_check_interval=30)
        client.ping()
    except (redis.RedisError, ValueError) as error:
        raise ValueError(f"Redis at {url} does not answer: {error}") from None
    return client


class RedisRooms:
    """app.rooms.Rooms's rules with the state in Redis. client: a redis-py client (decode_responses);
    clock: wall-clock seconds (shared by every process)."""

    def __init__(self, client, clock=time.time, max_rooms: int = MAX_ROOMS, max_students: int = MAX_STUDENTS,
                 idle_seconds: float = IDLE_SECONDS):
        self.redis, self.clock = client, clock
        self.max_rooms, self.max_students, self.idle_seconds = max_rooms, max_students, idle_seconds

    def _keys(self, code: str) -> tuple[str, str, str]:
        """The room's keys that live as long as it: its hash, its students, their pages."""
        at = f"{PREFIX}room:{code}"
        return at, at + ":students", at + ":tabs"

    def _answers(self, code: str, number: int) -> str:
        """The hash of question `number`'s answers: one per question, so that an answer judged while
        the lecturer asks the next question lands in its own question's."""
        return f"{self._keys(code)[0]}:answers:{number}"

    def __len__(self) -> int:
        self._expire()
        return self.redis.zcard(PREFIX + "rooms")

    def _expire(self) -> None:
        """Close every room idle for longer than the idle time (Redis's own expiry is the backstop)."""
        stale = self.redis.zrangebyscore(PREFIX + "rooms", "-inf", f"({self.clock() - self.idle_seconds}")
        if stale:
            self.redis.delete(*(key for code in stale for key in self._keys(code)))
            self.redis.zrem(PREFIX + "rooms", *stale)

    def _touch(self, code: str) -> None:
        """Any message about a room keeps it open for the idle time again."""
        ttl = int(self.idle_seconds) + 1
        with self.redis.pipeline(transaction=False) as pipe:
            for key in self._keys(code):
                pipe.expire(key, ttl)
            pipe.zadd(PREFIX + "rooms", {code: self.clock()})
            pipe.execute()

    def open(self) -> tuple[str, str]:
        self._expire()
        if self.redis.zcard(PREFIX + "rooms") >= self.max_rooms:
            raise RoomError("full", rooms=self.max_rooms)
        secret = secrets.token_urlsafe(SECRET_BYTES)
        while True:
            code = new_code()
            if self.redis.hsetnx(self._keys(code)[0], "secret", secret_hash(secret).hex()):
                break
        self.redis.hset(self._keys(code)[0], mapping={"number": 0})
        self._touch(code)
        return code, secret

    def _room(self, code) -> dict:
        """The room's hash (RoomError("no_room") when there is none), its idle time renewed."""
        self._expire()
        found = self.redis.hgetall(self._keys(code)[0]) if isinstance(code, str) else {}
        if not found:
            raise RoomError("no_room")
        self._touch(code)
        return found

    def lecturer(self, code, secret) -> dict:
        room = self._room(code)
        if not (isinstance(secret, str) and hmac.compare_digest(secret_hash(secret).hex(), room["secret"])):
            raise RoomError("not_lecturer")
        return room

    def drive(self, code, secret, view) -> dict:
        self.lecturer(code, secret)
        view = checked_view(view)
        self.redis.hset(self._keys(code)[0], "view", json.dumps(view, ensure_ascii=False))
        return view

    def view(self, code) -> dict | None:
        found = self._room(code).get("view")
        return json.loads(found) if found else None

    def join(self, code, student: str, tab: bool = True) -> dict | None:
        room = self._room(code)
        _, students, tabs = self._keys(code)
        if not self.redis.sismember(students, student) and self.redis.scard(students) >= self.max_students:
            raise RoomError("room_full", students=self.max_students)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.sadd(students, student)
            if tab:  # one more page of theirs, on whichever process
                pipe.hincrby(tabs, student, 1)
            for key in (students, tabs):
                pipe.expire(key, int(self.idle_seconds) + 1)
            pipe.execute()
        return json.loads(room["view"]) if room.get("view") else None

    #: one page of a student's left: the student leaves with their last (atomic: another process's
    #: page of theirs may join meanwhile)
    LEAVE = """local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]); redis.call('SREM', KEYS[2], ARGV[1]) end
return left"""

    def leave(self, code, student: str) -> None:
        _, students, tabs = self._keys(code)
        self.redis.eval(self.LEAVE, 2, tabs, students, student)

    def count(self, code) -> int:
        self._room(code)
        return self.redis.scard(self._keys(code)[1])

    def counted(self, code) -> tuple[int, int]:
        self._room(code)
        at, students, _ = self._keys(code)
        with self.redis.pipeline(transaction=True) as pipe:  # the count and its number, together
            pipe.scard(students)
            pipe.hincrby(at, "counted", 1)
            count, seq = pipe.execute()
        return count, seq

    def _poll(self, room: dict, code: str) -> Poll | None:
        if not room.get("poll"):
            return None
        poll = Poll(**json.loads(room["poll"]))
        stored = self.redis.hgetall(self._answers(code, poll.number))
        poll.answers = {student: json.loads(answer) for student, answer in stored.items()}
        return poll

    def _save(self, code: str, poll: Poll) -> None:
        self.redis.hset(self._keys(code)[0], "poll", json.dumps(poll.kept(), ensure_ascii=False))

    def ask(self, code, secret, make) -> Poll:
        room = self.lecturer(code, secret)
        if not room.get("view"):
            raise RoomError("no_view")
        view = json.loads(room["view"])
        question = make(view)
        number = self.redis.hincrby(self._keys(code)[0], "number", 1)
        poll = Poll.asked(number, view, question)
        self._save(code, poll)
        return poll

    def answer(self, code, student: str, number, value, judge) -> Poll:
        room = self._room(code)
        poll = self._poll(room, code)
        if poll is None or number != poll.number or poll.revealed or not self.redis.sismember(self._keys(code)[1], student):
            raise RoomError("no_poll")
        kept = judge(poll, value)
        answers = self._answers(code, poll.number)
        # the answers as they stand once this one is in (another process's may have come meanwhile)
        with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(answers, student, json.dumps(kept, ensure_ascii=False))
            pipe.expire(answers, int(self.idle_seconds) + 1)
            pipe.hgetall(answers)
            stored = pipe.execute()[-1]
        poll.answers = {other: json.loads(answer) for other, answer in stored.items()}
        return poll

    def reveal(self, code, secret) -> Poll:
        room = self.lecturer(code, secret)
        poll = self._poll(room, code)
        if poll is None:
            raise RoomError("no_poll")
        poll.revealed = True
        self._save(code, poll)
        return poll

    def poll(self, code) -> Poll | None:
        return self._poll(self._room(code), code)


class RedisBus:
    """A room's messages to its pages, published on Redis so that every process delivers them to its
    own pages in the room (app.room_socket.RoomHub's deliver). The listening starts with the first
    message published in this process (after a server's processes have forked), on a thread of its
    own that hands each message to the process's event loop."""

    def __init__(self, client):
        self.redis = client
        self.deliver = None
        self._listening = None
        self._lock = threading.Lock()
        self._stopped = threading.Event()

    def publish(self, code: str, to: str, message: dict) -> None:
        self.listen()
        self.redis.publish(f"{PREFIX}bus:{code}", json.dumps({"to": to, "message": message}, ensure_ascii=False))

    def listen(self) -> None:
        """Start listening (once), with this thread's event loop as where messages are delivered."""
        with self._lock:
            if self._listening is not None:
                return
            from tornado.ioloop import IOLoop

            loop, ready = IOLoop.current(), threading.Event()
            self._listening = threading.Thread(target=self._hear, args=(loop, ready), name="rooms-redis-bus", daemon=True)
            self._listening.start()
            ready.wait(5)  # subscribed: nothing published from here on is missed

    def _hear(self, loop, ready) -> None:
        """The listening thread: subscribe, hand each message to the event loop; when Redis goes
        away (a restart, the network), say so in the log and subscribe again."""
        import redis

        def heard(item):
            try:
                carried = json.loads(item["data"])
                code, to, message = item["channel"].rsplit(":", 1)[-1], carried["to"], carried["message"]
            except (ValueError, TypeError, KeyError):
                return  # not ours
            loop.add_callback(self.deliver, code, to, message)

        while not self._stopped.is_set():
            subscriber = self.redis.pubsub()
            try:
                subscriber.psubscribe(**{f"{PREFIX}bus:*": heard})
                subscriber.get_message(timeout=5)  # Redis's confirmation
                ready.set()
                while not self._stopped.is_set():
                    subscriber.get_message(timeout=1.0)  # a message goes to heard
            except redis.RedisError as error:
                log.warning("rooms: Redis's messages stopped (%s); listening again in a second", error)
                self._stopped.wait(1.0)
            finally:
                subscriber.close()

    def close(self) -> None:
        self._stopped.set()
