"""Pages of a room without a browser: fake connections to one or more hubs (app.room_socket), each
keeping what it was sent, and the stores (memory or Redis) the hubs' rules run on."""
from __future__ import annotations

import asyncio
import json

from app.view_params import room_defaults

#: a lecturer's view: meet-friend's last token, two heads, every other param at its default
VIEW = {**room_defaults(), "source": {"kind": "preset", "name": "meet-friend"}, "query": 4, "heads": 2, "lang": "ko"}


def run(coroutine):
    """A test's body on a loop of its own."""
    return asyncio.run(coroutine)


async def new_store(kind: str, redis_url: str | None = None, **limits):
    """An empty store: one process's memory (app.rooms.Rooms) or Redis (app.redis_rooms.RedisRooms,
    its database emptied)."""
    from app.rooms import Rooms

    if kind == "memory":
        return Rooms(**limits)
    from app.redis_rooms import RedisRooms, async_client

    client = async_client(redis_url)
    await client.flushdb()
    return RedisRooms(client, **limits)


def counted(received) -> int | None:
    """The count a lecturer's page shows: of the count messages it got, the one made last (seq)."""
    counts = [message for message in received if message["type"] == "count"]
    return max(counts, key=lambda message: message["seq"])["count"] if counts else None


class Pages:
    """Named pages on hubs: pages.say("a", type="join", code=…) sends a message as page "a" and
    waits until everything it caused reached every page; pages.sent["a"] is what "a" got."""

    def __init__(self, *hubs):
        from app.room_socket import Connection

        self.hubs, self.sent, self.conns, self._connection = hubs, {}, {}, Connection

    def page(self, name: str, hub: int = 0, address: str = "10.0.0.1"):
        if name not in self.conns:
            self.sent[name] = []
            self.conns[name] = (self._connection(send=self.sent[name].append, address=address), self.hubs[hub])
        return self.conns[name][0]

    async def settle(self) -> None:
        for _ in range(2):
            for hub in self.hubs:
                await hub.settle()

    async def raw(self, name: str, text: str, hub: int = 0) -> dict:
        conn = self.page(name, hub)
        await self.conns[name][1].receive(conn, text)
        await self.settle()
        return self.sent[name][-1] if self.sent[name] else None

    async def say(self, name: str, hub: int = 0, **message) -> dict:
        """The last message the page got after saying this."""
        return await self.raw(name, json.dumps(message), hub)

    async def close(self, name: str) -> None:
        conn, hub = self.conns.pop(name)
        await hub.closed(conn)
        await self.settle()

    def last(self, name: str, kind: str) -> dict | None:
        """The last message of that type the page got."""
        return next((message for message in reversed(self.sent[name]) if message["type"] == kind), None)

    async def open_room(self, name: str = "lecturer", **message) -> tuple[str, str]:
        opened = await self.say(name, type="open", **message)
        assert opened["type"] == "opened", opened
        return opened["code"], opened["secret"]


class SocketPage:
    """A page's room socket to a running server (/room over a real websocket): what it was sent,
    and a wait for the message a test expects. address: sent as X-Real-IP, which the server takes
    from a client on this machine (the proxy's header), so that a test plays several addresses."""

    def __init__(self, connection):
        self.connection, self.received = connection, []

    @classmethod
    async def open(cls, base_url: str, address: str | None = None) -> "SocketPage":
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = base_url.replace("http://", "ws://").rstrip("/") + "/room"
        origin = base_url.rstrip("/")
        headers = {"Origin": origin, **({"X-Real-IP": address} if address else {})}
        return cls(await websocket_connect(HTTPRequest(url, headers=headers, connect_timeout=10)))

    async def say(self, **message) -> None:
        await self.connection.write_message(json.dumps(message))

    async def until(self, wanted, timeout: float = 10.0, since: int = 0) -> dict:
        """The first message (received from the since-th on, or coming) for which wanted(message) holds."""
        for message in self.received[since:]:
            if wanted(message):
                return message
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                raise TimeoutError(f"not received in {timeout} s; got {self.received[-5:]}")
            text = await asyncio.wait_for(self.connection.read_message(), left)
            if text is None:
                raise ConnectionError("the server closed the socket")
            message = json.loads(text)
            self.received.append(message)
            if wanted(message):
                return message

    async def closed_by_server(self, timeout: float) -> bool:
        """Whether the server closes this socket within `timeout` seconds."""
        try:
            while True:
                text = await asyncio.wait_for(self.connection.read_message(), timeout)
                if text is None:
                    return True
        except asyncio.TimeoutError:
            return False

    def close(self) -> None:
        self.connection.close()
