"""Rooms shared by several app processes through Redis (`serve --rooms redis://HOST:PORT/DB`): the
rules of app.rooms (RoomStore) with the state in Redis's data types, and a room's messages to its
pages published on a channel every process listens to (RedisBus). Every call goes through redis-py's
asyncio client with short timeouts, so a Redis that hangs never blocks the event loop: the call
fails (StoreUnavailable) and the page is told the room is reconnecting.

Keys (a room's expire after its idle time, renewed by its lecturer and its students' joins):
  ae:room:<code>             a hash: secrets (JSON list of hashed secrets, hex), back (the return
                             code, hashed), view (JSON), seq (state messages), counted (count
                             messages), asked (questions asked), open (the open question's number,
                             0 when none), poll (JSON of app.rooms.Poll without its counts),
                             lecturers (the lecturer's pages), away (1 once the students were told)
  ae:room:<code>:students    a set of the students' ids
  ae:room:<code>:pages       a hash: student → their pages in the room (on any process)
  ae:room:<code>:q:<n>:answers   a hash per question: student → their answer (JSON)
  ae:room:<code>:q:<n>:chosen    student → the choice it counts as
  ae:room:<code>:q:<n>:counts    choice → how many students chose it (kept as answers come)
  ae:room:<code>:q:<n>:eligible  a set: the students who could answer it
  ae:room:<code>:q:<n>:times     student → seconds from the question to their first answer
  ae:room:<code>:q:<n>:poll      the question as asked (JSON of app.rooms.Poll without its counts)
  ae:report:<code>           a closed room's report (app/report.py): its records and its lecturer's
                             secrets (hashed), for serve --report-days (default 30)
  ae:assigns:<code>          a set: the room's assigned links (app/assignments.py), by id
  ae:assign:<id>             an assigned link: its room, deadline, questions (JSON), kept until its
                             deadline and the report's days after
  ae:assign:<id>:answers     "<number>|<student>" → their answer (JSON), one each
  ae:assign:<id>:names       student → the name or number they gave (where the lecturer asked)
  ae:rooms                   a sorted set: code → when the room last heard from its class
  ae:orphans                 a sorted set: code → since when no lecturer's page is in it
  ae:closed:<code>           "closed" for a day after the room closed
  ae:procs                   a sorted set: process → its last heartbeat
  ae:proc:<process>          a hash: "<code> <student>" → that student's pages on the process
                             ("<code> " for the lecturer's), taken back when the process dies
  ae:key                     the key student identities are signed with (app.room_socket)
Channel ae:bus:<code>: {"to": students | lecturers | everyone, "message": …}.
The scripts touch keys they compute: a single Redis (or a primary with replicas, Sentinel), not a
Redis Cluster.
"""
from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import os
import secrets
import time

from .rooms import (CLOSED_KEEP_SECONDS, IDLE_SECONDS, REPORT_DAYS, MAX_ROOMS, MAX_SECRETS, MAX_STUDENTS, ORPHAN_SECONDS,
                    RETURN_LENGTH, SECRET_BYTES, Opened, Poll, RoomError, StoreUnavailable, Sweep, answer_shown,
                    checked_view, chosen, matches, new_code, return_code_of, secret_hash)

PREFIX = "ae:"
#: how long one Redis call may take before the page is told the room is reconnecting
TIMEOUT_SECONDS = 1.0
#: how long a call may wait for one of the process's connections: a hall joining at once is load,
#: not Redis gone (a hung Redis still fails each call at TIMEOUT_SECONDS)
POOL_WAIT_SECONDS = 8.0
#: a process renews its heartbeat this often; one silent for DEAD_SECONDS is dead and its pages
#: leave the counts
HEARTBEAT_SECONDS = 5.0
DEAD_SECONDS = 20.0
log = logging.getLogger(__name__)


def connect(url: str):
    """A blocking client for `url` (redis://HOST:PORT/DB, rediss://, unix://), checked with a PING:
    ValueError saying what is wrong, for the command line to show (the server's own calls go
    through async_client)."""
    import redis

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"--rooms takes a Redis URL such as redis://127.0.0.1:6379/0, not {url!r}")
    try:
        client = redis.Redis.from_url(url, decode_responses=True, socket_connect_timeout=5, socket_timeout=5)
        client.ping()
    except (redis.RedisError, ValueError) as error:
        raise ValueError(f"Redis at {url} does not answer: {error}") from None
    return client


def async_client(url: str, max_connections: int = 64):
    """redis-py's asyncio client for `url`: each call bounded by TIMEOUT_SECONDS, at most
    `max_connections` to Redis per process (a call waits for a free one up to POOL_WAIT_SECONDS)."""
    import redis.asyncio as aioredis

    pool = aioredis.BlockingConnectionPool.from_url(
        url, decode_responses=True, max_connections=max_connections, timeout=POOL_WAIT_SECONDS,
        socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS, retry_on_timeout=False)
    return aioredis.Redis(connection_pool=pool)


def _store_call(method):
    """A store method whose Redis failures (a timeout, a lost connection) become StoreUnavailable."""
    @functools.wraps(method)
    async def call(self, *args, **kwargs):
        import redis

        try:
            return await method(self, *args, **kwargs)
        except (redis.ConnectionError, redis.TimeoutError, asyncio.TimeoutError, OSError) as error:
            raise StoreUnavailable(str(error)) from None
        except redis.ResponseError as error:
            if "LOADING" in str(error) or "BUSY" in str(error):  # a Redis restarting reads its file first
                raise StoreUnavailable(str(error)) from None
            raise
    return call


#: a student's page joins: -1 no room, -2 full, else the students in it
JOIN = """if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 and redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[3], ARGV[1], 1)
redis.call('HINCRBY', KEYS[4], ARGV[3], 1)
local open = tonumber(redis.call('HGET', KEYS[1], 'open') or '0')
if open > 0 then redis.call('SADD', KEYS[1] .. ':q:' .. open .. ':eligible', ARGV[1]) end
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
redis.call('ZADD', KEYS[5], 'XX', ARGV[5], ARGV[6])
return redis.call('SCARD', KEYS[2])"""
#: one page of a student's left: the student leaves with their last (atomic: another process's page
#: of theirs may join meanwhile)
LEAVE = """local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]); redis.call('SREM', KEYS[2], ARGV[1]) end
if redis.call('HINCRBY', KEYS[3], ARGV[2], -1) <= 0 then redis.call('HDEL', KEYS[3], ARGV[2]) end
return left"""
#: a lecturer's page in: the presence message's seq if the students were told the lecturer was away
LECTURER_IN = """if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('HINCRBY', KEYS[1], 'lecturers', 1)
redis.call('HINCRBY', KEYS[2], ARGV[1], 1)
redis.call('ZREM', KEYS[3], ARGV[2])
if redis.call('HGET', KEYS[1], 'away') == '1' then
  redis.call('HSET', KEYS[1], 'away', '0')
  return redis.call('HINCRBY', KEYS[1], 'seq', 1)
end
return 0"""
#: a lecturer's page out: how many remain; the room an orphan from then on when none
LECTURER_OUT = """if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local left = redis.call('HINCRBY', KEYS[1], 'lecturers', -1)
if left <= 0 then
  redis.call('HSET', KEYS[1], 'lecturers', '0'); left = 0
  redis.call('ZADD', KEYS[3], 'NX', ARGV[3], ARGV[2])
end
if redis.call('HINCRBY', KEYS[2], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[2], ARGV[1]) end
return left"""
#: after the grace: the presence message's seq when the lecturer is still away and untold, else 0
LECTURER_GONE = """if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'lecturers') or '0') > 0 or redis.call('HGET', KEYS[1], 'away') == '1' then return 0 end
redis.call('HSET', KEYS[1], 'away', '1')
return redis.call('HINCRBY', KEYS[1], 'seq', 1)"""
#: a student's answer: {answered, eligible}, or -1 when the question is not open or the student not in
ANSWER = """if tonumber(redis.call('HGET', KEYS[1], 'open') or '0') ~= tonumber(ARGV[2]) or tonumber(ARGV[2]) == 0 then return -1 end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then return -1 end
local base = KEYS[1] .. ':q:' .. ARGV[2]
local old = redis.call('HGET', base .. ':chosen', ARGV[1])
redis.call('HSET', base .. ':answers', ARGV[1], ARGV[3])
redis.call('HSET', base .. ':chosen', ARGV[1], ARGV[4])
if old then redis.call('HINCRBY', base .. ':counts', old, -1) end
redis.call('HINCRBY', base .. ':counts', ARGV[4], 1)
redis.call('SADD', base .. ':eligible', ARGV[1])
local at = tonumber(redis.call('HGET', KEYS[1], 'asked_at') or ARGV[6])
redis.call('HSETNX', base .. ':times', ARGV[1], tostring(tonumber(ARGV[6]) - at))
for _, suffix in ipairs({':answers', ':chosen', ':counts', ':eligible', ':times'}) do redis.call('EXPIRE', base .. suffix, ARGV[5]) end
return {redis.call('HLEN', base .. ':chosen'), redis.call('SCARD', base .. ':eligible')}"""
#: the reveal: the revealed message's seq, or -1 when that question is no longer open
REVEAL = """if tonumber(redis.call('HGET', KEYS[1], 'open') or '0') ~= tonumber(ARGV[1]) or tonumber(ARGV[1]) == 0 then return -1 end
redis.call('HSET', KEYS[1], 'open', '0', 'poll', ARGV[2])
return redis.call('HINCRBY', KEYS[1], 'seq', 1)"""
#: a room closed: the closed message's seq, or -1 when it was closed already (by another process)
CLOSE = """if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[2], ARGV[1]); redis.call('ZREM', KEYS[3], ARGV[1]); return -1
end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
local asked = tonumber(redis.call('HGET', KEYS[1], 'asked') or '0')
for n = 1, asked do
  for _, suffix in ipairs({':answers', ':chosen', ':counts', ':eligible', ':times', ':poll'}) do redis.call('DEL', KEYS[1] .. ':q:' .. n .. suffix) end
end
redis.call('DEL', KEYS[1], KEYS[1] .. ':students', KEYS[1] .. ':pages')
redis.call('ZREM', KEYS[2], ARGV[1]); redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('SET', KEYS[4], ARGV[2], 'EX', ARGV[3])
return seq"""
#: a dead process's pages leave: {codes whose counts changed..., '|', code, seq, code, seq...} for
#: the rooms whose lecturer it held last (now away)
REAP = """local held = redis.call('HGETALL', KEYS[1])
local changed, away = {}, {}
for i = 1, #held, 2 do
  local code, student = string.match(held[i], '^(%S+) (.*)$')
  local pages = tonumber(held[i + 1])
  local room = ARGV[1] .. 'room:' .. code
  if code and redis.call('EXISTS', room) == 1 then
    if student == '' then
      local left = redis.call('HINCRBY', room, 'lecturers', -pages)
      if left <= 0 then
        redis.call('HSET', room, 'lecturers', '0')
        redis.call('ZADD', ARGV[1] .. 'orphans', 'NX', ARGV[2], code)
        if redis.call('HGET', room, 'away') ~= '1' then
          redis.call('HSET', room, 'away', '1')
          table.insert(away, code); table.insert(away, redis.call('HINCRBY', room, 'seq', 1))
        end
      end
    else
      if redis.call('HINCRBY', room .. ':pages', student, -pages) <= 0 then
        redis.call('HDEL', room .. ':pages', student); redis.call('SREM', room .. ':students', student)
      end
      changed[code] = true
    end
  end
end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[3])
local out = {}
for code in pairs(changed) do table.insert(out, code) end
table.insert(out, '|')
for _, item in ipairs(away) do table.insert(out, item) end
return out"""


class RedisRooms:
    """app.rooms's rules with the state in Redis (RoomStore). client: redis-py's asyncio client
    (async_client); clock: wall-clock seconds (shared by every process)."""

    def __init__(self, client, clock=time.time, max_rooms: int = MAX_ROOMS, max_students: int = MAX_STUDENTS,
                 idle_seconds: float = IDLE_SECONDS, orphan_seconds: float = ORPHAN_SECONDS,
                 dead_seconds: float = DEAD_SECONDS, report_seconds: float = REPORT_DAYS * 24 * 60 * 60):
        self.redis, self.clock = client, clock
        self.report_seconds = report_seconds
        self.max_rooms, self.max_students = max_rooms, max_students
        self.idle_seconds, self.orphan_seconds, self.dead_seconds = idle_seconds, orphan_seconds, dead_seconds
        self._process = (None, "")
        self._key = None
        self._scripts = {name: client.register_script(text) for name, text in (
            ("join", JOIN), ("leave", LEAVE), ("lecturer_in", LECTURER_IN), ("lecturer_out", LECTURER_OUT),
            ("lecturer_gone", LECTURER_GONE), ("answer", ANSWER), ("reveal", REVEAL), ("close", CLOSE), ("reap", REAP))}

    @property
    def process(self) -> str:
        """This process, whose pages a surviving process takes out of the counts if it dies: made
        anew in each process a server forks."""
        if self._process[0] != os.getpid():
            self._process = (os.getpid(), secrets.token_hex(6))
        return self._process[1]

    def _room_key(self, code: str) -> str:
        return f"{PREFIX}room:{code}"

    def _proc_key(self, process: str | None = None) -> str:
        return f"{PREFIX}proc:{process or self.process}"

    @property
    def _ttl(self) -> int:
        return int(self.idle_seconds) + 3600

    @_store_call
    async def signing_key(self) -> bytes:
        if self._key is None:
            await self.redis.set(PREFIX + "key", secrets.token_hex(32), nx=True)
            self._key = bytes.fromhex(await self.redis.get(PREFIX + "key"))
        return self._key

    async def _touch(self, code: str) -> None:
        """The room's class heard from: open for the idle time again."""
        at = self._room_key(code)
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in (at, at + ":students", at + ":pages"):
                pipe.expire(key, self._ttl)
            pipe.zadd(PREFIX + "rooms", {code: self.clock()}, xx=True)
            await pipe.execute()

    @_store_call
    async def open(self) -> Opened:
        evicted = None
        if await self.redis.zcard(PREFIX + "rooms") >= self.max_rooms:
            orphans = await self.redis.zrange(PREFIX + "orphans", 0, -1)
            heard = await self.redis.zmscore(PREFIX + "rooms", orphans) if orphans else []
            idlest = min(zip((at or 0 for at in heard), orphans), default=None)  # the orphan its class heard from last longest ago
            if idlest is not None:
                await self._keep_report(idlest[1])
            if idlest is None or await self._scripts["close"](
                    keys=self._close_keys(idlest[1]), args=[idlest[1], "evicted", CLOSED_KEEP_SECONDS]) < 0:
                raise RoomError("full", rooms=self.max_rooms)
            evicted = idlest[1]
        secret, back = secrets.token_urlsafe(SECRET_BYTES), new_code(RETURN_LENGTH)
        while True:
            code = new_code()
            if not await self.redis.exists(f"{PREFIX}closed:{code}") and await self.redis.hsetnx(
                    self._room_key(code), "secrets", json.dumps([secret_hash(secret).hex()])):
                break
        now = self.clock()
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(code), mapping={"back": secret_hash(back).hex(), "seq": 0, "counted": 0, "asked": 0,
                                                     "open": 0, "lecturers": 0, "away": 0})
            pipe.expire(self._room_key(code), self._ttl)
            pipe.zadd(PREFIX + "rooms", {code: now})
            pipe.zadd(PREFIX + "orphans", {code: now})
            await pipe.execute()
        return Opened(code, secret, back, evicted)

    async def _hash(self, code, touch: bool = False) -> dict:
        """The room's hash: RoomError("no_room"), or ("closed") for a room closed lately."""
        found = await self.redis.hgetall(self._room_key(code)) if isinstance(code, str) else {}
        if not found:
            closed = isinstance(code, str) and await self.redis.exists(f"{PREFIX}closed:{code}")
            raise RoomError("closed" if closed else "no_room")
        if touch:
            await self._touch(code)
        return found

    @_store_call
    async def find(self, codes: list[str]) -> str:
        if codes:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.exists(self._room_key(code), f"{PREFIX}closed:{code}")
                found = await pipe.execute()
            for code, there in zip(codes, found):
                if there:
                    return code
        raise RoomError("no_room")

    async def _lecturer(self, code, secret=None, return_code=None) -> tuple[dict, str | None]:
        room = await self._hash(code, touch=True)
        if return_code is not None:
            typed = return_code_of(return_code)
            if typed is None or not matches(typed, [bytes.fromhex(room["back"])]):
                raise RoomError("not_lecturer")
            secret = secrets.token_urlsafe(SECRET_BYTES)
            known = [*json.loads(room["secrets"]), secret_hash(secret).hex()][-MAX_SECRETS:]
            await self.redis.hset(self._room_key(code), "secrets", json.dumps(known))
            return room, secret
        if not matches(secret, [bytes.fromhex(h) for h in json.loads(room["secrets"])]):
            raise RoomError("not_lecturer")
        return room, None

    @_store_call
    async def lecturer(self, code, secret=None, return_code=None) -> str | None:
        return (await self._lecturer(code, secret, return_code))[1]

    @_store_call
    async def drive(self, code, secret, view) -> tuple[dict, int]:
        await self._lecturer(code, secret)
        view = checked_view(view)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(self._room_key(code), "view", json.dumps(view, ensure_ascii=False))
            pipe.hincrby(self._room_key(code), "seq", 1)
            _, seq = await pipe.execute()
        return view, seq

    def _poll_of(self, room: dict) -> Poll | None:
        return Poll(**json.loads(room["poll"])) if room.get("poll") else None

    async def _counts(self, code: str, poll: Poll) -> Poll:
        base = f"{self._room_key(code)}:q:{poll.number}"
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(base + ":counts")
            pipe.hlen(base + ":chosen")
            pipe.scard(base + ":eligible")
            counts, poll.answered, poll.eligible = await pipe.execute()
        poll.counts = [int(counts.get(str(j), 0)) for j in range(poll.choices)]
        return poll

    @_store_call
    async def state(self, code, student=None) -> dict:
        room = await self._hash(code)
        poll = self._poll_of(room)
        if poll is not None:
            await self._counts(code, poll)
        mine = None
        if poll is not None and student:
            found = await self.redis.hget(f"{self._room_key(code)}:q:{poll.number}:answers", student)
            mine = json.loads(found) if found else None
        return {"view": json.loads(room["view"]) if room.get("view") else None, "poll": poll.public() if poll else None,
                "seq": int(room.get("seq", 0)), "away": room.get("away") == "1",
                "count": await self.redis.scard(self._room_key(code) + ":students"),
                "answered": poll.answered if poll else 0, "eligible": poll.eligible if poll else 0,
                "answer": answer_shown(mine, poll.revealed) if poll else None}

    @_store_call
    async def join(self, code, student: str) -> None:
        at = self._room_key(code)
        joined = await self._scripts["join"](keys=[at, at + ":students", at + ":pages", self._proc_key(), PREFIX + "rooms"],
                                             args=[student, self.max_students, f"{code} {student}", self._ttl, self.clock(), code])
        if joined == -1:
            await self._hash(code)  # says no_room or closed
        if joined == -2:
            raise RoomError("room_full", students=self.max_students)

    @_store_call
    async def leave(self, code, student: str) -> None:
        at = self._room_key(code)
        await self._scripts["leave"](keys=[at + ":pages", at + ":students", self._proc_key()], args=[student, f"{code} {student}"])

    @_store_call
    async def lecturer_in(self, code) -> int:
        seq = await self._scripts["lecturer_in"](keys=[self._room_key(code), self._proc_key(), PREFIX + "orphans"],
                                                 args=[f"{code} ", code])
        if seq < 0:
            await self._hash(code)
        return seq

    @_store_call
    async def lecturer_out(self, code) -> int:
        return await self._scripts["lecturer_out"](keys=[self._room_key(code), self._proc_key(), PREFIX + "orphans"],
                                                   args=[f"{code} ", code, self.clock()])

    @_store_call
    async def lecturer_gone(self, code) -> int:
        return await self._scripts["lecturer_gone"](keys=[self._room_key(code)])

    @_store_call
    async def counted(self, code) -> tuple[int, int]:
        at = self._room_key(code)
        async with self.redis.pipeline(transaction=True) as pipe:  # the count and its number, together
            pipe.scard(at + ":students")
            pipe.hincrby(at, "counted", 1)
            count, seq = await pipe.execute()
        return count, seq

    @_store_call
    async def ask(self, code, secret, make) -> tuple[Poll, int]:
        room, _ = await self._lecturer(code, secret)
        if not room.get("view"):
            raise RoomError("no_view")
        view = json.loads(room["view"])
        question = make(view)
        at = self._room_key(code)
        number = await self.redis.hincrby(at, "asked", 1)
        poll = Poll.asked(number, view, question)
        base = f"{at}:q:{number}"
        kept = json.dumps(poll.kept(), ensure_ascii=False)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(at, mapping={"poll": kept, "open": number, "asked_at": self.clock()})
            pipe.sunionstore(base + ":eligible", [at + ":students"])
            pipe.expire(base + ":eligible", self._ttl)
            pipe.set(base + ":poll", kept, ex=self._ttl)  # the question as the report keeps it
            pipe.hincrby(at, "seq", 1)
            results = await pipe.execute()
        poll.eligible = results[1]
        return poll, results[-1]

    @_store_call
    async def poll(self, code) -> Poll | None:
        poll = self._poll_of(await self._hash(code))
        return await self._counts(code, poll) if poll is not None else None

    @_store_call
    async def answer(self, code, student: str, number, kept) -> tuple[int, int]:
        if not (isinstance(number, int) and not isinstance(number, bool) and number > 0):
            raise RoomError("no_poll")
        at = self._room_key(code)
        done = await self._scripts["answer"](keys=[at, at + ":students"],
                                             args=[student, number, json.dumps(kept, ensure_ascii=False), chosen(kept), self._ttl, self.clock()])
        if done == -1:
            raise RoomError("no_poll")
        return int(done[0]), int(done[1])

    @_store_call
    async def answers_of(self, code, number: int, students: list) -> dict:
        if not students:
            return {}
        found = await self.redis.hmget(f"{self._room_key(code)}:q:{number}:answers", students)
        return {student: json.loads(kept) if kept else None for student, kept in zip(students, found)}

    @_store_call
    async def ping(self) -> None:
        await self.redis.ping()

    @_store_call
    async def reveal(self, code, secret) -> tuple[Poll, int]:
        room, _ = await self._lecturer(code, secret)
        poll = self._poll_of(room)
        if poll is None or poll.revealed:
            raise RoomError("no_poll")
        poll.revealed = True
        seq = await self._scripts["reveal"](keys=[self._room_key(code)],
                                            args=[poll.number, json.dumps(poll.kept(), ensure_ascii=False)])
        if seq < 0:
            raise RoomError("no_poll")
        return await self._counts(code, poll), seq

    def _close_keys(self, code: str) -> list[str]:
        return [self._room_key(code), PREFIX + "rooms", PREFIX + "orphans", f"{PREFIX}closed:{code}"]

    async def _records(self, code: str) -> list[dict]:
        """The report's records of every question the room asked (app/report.py), from its keys."""
        at = self._room_key(code)
        asked = int(await self.redis.hget(at, "asked") or 0)
        async with self.redis.pipeline(transaction=False) as pipe:
            for number in range(1, asked + 1):
                base = f"{at}:q:{number}"
                pipe.get(base + ":poll")
                pipe.hgetall(base + ":counts")
                pipe.hlen(base + ":chosen")
                pipe.scard(base + ":eligible")
                pipe.hvals(base + ":times")
            found = await pipe.execute()
        records = []
        for i in range(asked):
            kept, counts, answered, eligible, times = found[5 * i:5 * i + 5]
            if not kept:
                continue
            poll = Poll(**json.loads(kept))
            poll.counts = [int(counts.get(str(choice), 0)) for choice in range(poll.choices)]
            poll.answered, poll.eligible = int(answered), int(eligible)
            records.append(poll.record([float(t) for t in times]))
        return records

    async def _keep_report(self, code: str) -> None:
        """A closing room's report, kept for its lecturer (their secrets' hashes with it) for
        report_seconds."""
        at = self._room_key(code)
        secrets_json = await self.redis.hget(at, "secrets")
        if secrets_json is None:
            return
        report = {"secrets": json.loads(secrets_json), "records": await self._records(code)}
        await self.redis.set(f"{PREFIX}report:{code}", json.dumps(report, ensure_ascii=False),
                             ex=max(1, math.ceil(self.report_seconds)))

    async def _lecturers_of(self, code) -> tuple[list, list | None]:
        """(the hex hashes of the room's lecturer's secrets, its kept records or None while it is open);
        RoomError("no_report") for a room neither open nor kept."""
        if not isinstance(code, str):
            raise RoomError("no_report")
        hashes = await self.redis.hget(self._room_key(code), "secrets")
        if hashes is not None:
            return json.loads(hashes), None
        kept = await self.redis.get(f"{PREFIX}report:{code}")
        if kept is None:
            raise RoomError("no_report")
        report = json.loads(kept)
        return report["secrets"], report["records"]

    @_store_call
    async def report(self, code, secret) -> list[dict]:
        from .assignments import assignment_report
        hashes, kept = await self._lecturers_of(code)
        if not matches(secret, [bytes.fromhex(h) for h in hashes]):
            raise RoomError("not_lecturer")
        live = kept if kept is not None else await self._records(code)
        assigned = []
        for assignment_id in sorted(await self.redis.smembers(f"{PREFIX}assigns:{code}")):
            try:
                found = await self._assignment(assignment_id)
            except RoomError:
                continue  # expired
            answers, names = await self._assigned(assignment_id)
            assigned += assignment_report(found, answers, names)
        return live + assigned

    def _assign_key(self, assignment_id: str) -> str:
        return f"{PREFIX}assign:{assignment_id}"

    async def _assignment(self, assignment_id) -> dict:
        kept = await self.redis.get(self._assign_key(assignment_id)) if isinstance(assignment_id, str) else None
        if kept is None:
            raise RoomError("no_assignment")
        return json.loads(kept)

    async def _assigned(self, assignment_id: str) -> tuple[dict, dict]:
        """An assignment's answers ((number, student) → kept) and names (student → name)."""
        at = self._assign_key(assignment_id)
        answers = await self.redis.hgetall(at + ":answers")
        names = await self.redis.hgetall(at + ":names")
        made = {}
        for key, kept in answers.items():
            number, student = key.split("|", 1)
            made[(int(number), student)] = json.loads(kept)
        return made, dict(names)

    @_store_call
    async def assign(self, code, secret, deadline: float, ask_name: bool, make, now: float) -> dict:
        from .assignments import checked_deadline, new_id
        records = [record for record in await self.report(code, secret) if record["mode"] == "live"]
        made = {"id": new_id(), "code": code, "deadline": checked_deadline(deadline, now), "ask_name": bool(ask_name),
                "questions": make(records)}
        keep = max(1, math.ceil(made["deadline"] - now + self.report_seconds))
        listed = f"{PREFIX}assigns:{code}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self._assign_key(made["id"]), json.dumps(made, ensure_ascii=False), ex=keep)
            pipe.sadd(listed, made["id"])
            pipe.ttl(listed)
            *_, left = await pipe.execute()
        if left < keep:  # the room's list lasts as long as its longest-kept link
            await self.redis.expire(listed, keep)
        return {"id": made["id"], "deadline": made["deadline"]}

    @_store_call
    async def assignment(self, assignment_id) -> dict:
        return await self._assignment(assignment_id)

    @_store_call
    async def assigned_answer(self, assignment_id, student: str, number: int, kept, name: str, now: float) -> None:
        found = await self._assignment(assignment_id)
        if now > found["deadline"]:
            raise RoomError("assignment_closed")
        at = self._assign_key(assignment_id)
        if not await self.redis.hsetnx(at + ":answers", f"{number}|{student}", json.dumps(kept, ensure_ascii=False)):
            raise RoomError("answered")
        keep = max(1, math.ceil(found["deadline"] - now + self.report_seconds))
        async with self.redis.pipeline(transaction=False) as pipe:
            if name:
                pipe.hset(at + ":names", student, name)
            pipe.expire(at + ":answers", keep)
            pipe.expire(at + ":names", keep)
            await pipe.execute()

    @_store_call
    async def assigned_answers(self, assignment_id, student: str) -> dict:
        await self._assignment(assignment_id)
        answers, _ = await self._assigned(assignment_id)
        return {number: kept for (number, who), kept in answers.items() if who == student}

    @_store_call
    async def close(self, code, secret, reason: str = "closed") -> int:
        await self._lecturer(code, secret)
        await self._keep_report(code)
        seq = await self._scripts["close"](keys=self._close_keys(code), args=[code, reason, CLOSED_KEEP_SECONDS])
        if seq < 0:
            raise RoomError("closed")
        return seq

    @_store_call
    async def sweep(self) -> Sweep:
        """This process's heartbeat; the pages of processes silent for dead_seconds taken out of
        the counts; rooms idle too long, or without a lecturer too long, closed."""
        now = self.clock()
        await self.redis.zadd(PREFIX + "procs", {self.process: now})
        recounted, away, closed = set(), {}, {}
        for dead in await self.redis.zrangebyscore(PREFIX + "procs", "-inf", now - self.dead_seconds):
            out = await self._scripts["reap"](keys=[self._proc_key(dead), PREFIX + "procs"], args=[PREFIX, now, dead])
            split = out.index("|")
            recounted.update(out[:split])
            away.update({out[i]: int(out[i + 1]) for i in range(split + 1, len(out), 2)})
            log.info("rooms: process %s is gone; its pages left %d rooms", dead, split)
        stale = set(await self.redis.zrangebyscore(PREFIX + "rooms", "-inf", now - self.idle_seconds))
        stale |= set(await self.redis.zrangebyscore(PREFIX + "orphans", "-inf", now - self.orphan_seconds))
        for code in sorted(stale):
            await self._keep_report(code)
            seq = await self._scripts["close"](keys=self._close_keys(code), args=[code, "expired", CLOSED_KEEP_SECONDS])
            if seq >= 0:
                closed[code] = seq
        return Sweep(closed=closed, recounted=tuple(sorted(recounted - set(closed))), away=away)


class RedisBus:
    """A room's messages to its pages, published on Redis so that every process delivers them to its
    own pages in the room (app.room_socket.RoomHub's deliver). `run` listens, on the event loop:
    when Redis goes away (a restart, a pause, the network) it tells the hub (down), subscribes
    again, and tells the hub once it is back (up): a message published meanwhile may be lost, so
    the hub brings its pages to the current state."""

    def __init__(self, client):
        self.redis = client
        self.deliver = None
        self.down = None  # () → None: Redis is out of reach
        self.up = None  # () → None: Redis is back, subscribed again
        self.listening = True  # subscribed (or not yet tried): False from a failure until subscribed again
        self._stopped = asyncio.Event()

    @_store_call
    async def publish(self, code: str, to: str, message: dict) -> None:
        await self.redis.publish(f"{PREFIX}bus:{code}", json.dumps({"to": to, "message": message}, ensure_ascii=False))

    def _heard(self, item) -> None:
        try:
            carried = json.loads(item["data"])
            code, to, message = item["channel"].rsplit(":", 1)[-1], carried["to"], carried["message"]
        except (ValueError, TypeError, KeyError):
            return  # not ours
        self.deliver(code, to, message)

    async def run(self, ping_every: float = 1.0) -> None:
        """Listen until closed: subscribe, hand each message to deliver, ping Redis every second;
        on a failure say so, tell the hub, and subscribe again."""
        import redis

        failing = False
        while not self._stopped.is_set():
            subscriber = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await asyncio.wait_for(subscriber.psubscribe(f"{PREFIX}bus:*"), TIMEOUT_SECONDS * 2)
                await asyncio.wait_for(self.redis.ping(), TIMEOUT_SECONDS)
                self.listening = True
                if failing:
                    log.warning("rooms: Redis is back; pages brought to the rooms' state")
                    failing = False
                    self.up and self.up()
                pinged = time.monotonic()
                while not self._stopped.is_set():
                    item = await subscriber.get_message(timeout=0.5)
                    if item is not None and item.get("type") == "pmessage":
                        self._heard(item)
                    if time.monotonic() - pinged >= ping_every:
                        await asyncio.wait_for(self.redis.ping(), TIMEOUT_SECONDS)
                        pinged = time.monotonic()
            except (redis.RedisError, asyncio.TimeoutError, OSError) as error:
                self.listening = False
                if not failing:
                    log.warning("rooms: Redis's messages stopped (%s); listening again", str(error) or type(error).__name__)
                    failing = True
                    self.down and self.down()
                await asyncio.sleep(0.5)
            finally:
                try:
                    await asyncio.wait_for(subscriber.aclose(), TIMEOUT_SECONDS)
                except Exception:  # the connection is gone with Redis: nothing to close cleanly
                    pass

    def close(self) -> None:
        self._stopped.set()
