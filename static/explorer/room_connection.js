// A room's websocket (/room on the served app): a message sent while it is not open waits in a
// queue and goes once it opens; a lost socket is opened again after RETRY_MS, doubling to
// RETRY_MAX_MS, for as long as the page is in a room.

import { RETRY_MAX_MS, RETRY_MS } from "./room_shared.js";

// wanted(): whether a socket should be open now (a room, or a served page that may open one);
// hello(): the messages that take the page's place again on a new socket (lecture, join);
// receive(message); staying(): whether a lost socket is to be opened again (still in a room);
// lost(): the socket is lost and will be opened again; unreachable(): the server has no rooms.
export function createRoomConnection({wanted, hello, receive, staying, lost, unreachable}) {
  let socket = null, retry = RETRY_MS;
  let reached = false;  // whether a socket ever opened: else the server has no rooms (a notebook's)
  const queue = [];
  function connect() {
    if (socket || !wanted()) return;
    const url = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/room`;
    try { socket = new WebSocket(url); } catch (err) { unreachable(); return; }
    const opened = socket;
    socket.addEventListener("open", () => {
      retry = RETRY_MS;
      reached = true;
      for (const message of hello()) socket.send(JSON.stringify(message));
      while (queue.length) socket.send(queue.shift());
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (err) { return; /* not ours */ }
      receive(message);  // a failure in the page's handling is an error, not swallowed
    });
    socket.addEventListener("close", () => {
      if (socket !== opened) return;
      socket = null;
      if (!reached) { queue.length = 0; unreachable(); return; }
      if (!staying()) return;
      lost();
      setTimeout(connect, retry);
      retry = Math.min(RETRY_MAX_MS, retry * 2);
    });
  }
  function send(message) {
    const text = JSON.stringify(message);
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
    else { queue.push(text); connect(); }
  }
  return {connect, send, close() { if (socket) socket.close(); }};
}
