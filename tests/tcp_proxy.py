"""A TCP proxy on loopback that can cut every connection it carries: a dropped Wi-Fi, on demand."""
import asyncio
import socket
import threading


class DroppingProxy:
    def __init__(self, target_port: int):
        self.target_port = target_port
        self.writers: list[asyncio.StreamWriter] = []
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=10)

    async def _start(self):
        self.server = await asyncio.start_server(self._connect, "127.0.0.1", self.port)

    async def _pipe(self, reader, writer):
        try:
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    async def _connect(self, reader, writer):
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, upstream_writer]
        await asyncio.gather(self._pipe(reader, upstream_writer), self._pipe(upstream_reader, writer))

    def drop_all(self) -> None:
        """Abort every open connection, as a lost network does."""
        def abort():
            for writer in self.writers:
                writer.transport.abort()
            self.writers.clear()
        self.loop.call_soon_threadsafe(abort)

    def close(self) -> None:
        async def shutdown():
            for writer in self.writers:
                writer.transport.abort()
            self.server.close()
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(shutdown(), self.loop).result(timeout=10)
        self.loop.call_soon_threadsafe(self.loop.stop)
