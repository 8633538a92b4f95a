// What every part of a room's page shares (room.js wires them): the view a room carries, the
// storage keys, the timings, the messages that carry the room's state, the refusals the page has
// words for, and small pure helpers (tests/node/room.test.mjs).

import { s } from "./dom.js";

// what the first screen reads of a room (room_lazy.js), in a module of its own so that the rest stays in room.js's chunk
export { CLOSED, LECTURER, roomKept, roomOfLink, roomServed, store, stored, validLecturer } from "./room_kept.js";

export const ACTIVE = "ae-room-active";  // sessionStorage: this tab lectures that room (a reload takes it up at once)
export const FOLDED = "ae-room-folded";  // sessionStorage: the code of the room this tab folded (a reload keeps it folded)
export const STUDENTS = "ae-room-students";  // localStorage: room code → the identity the server gave this browser
// a lost socket is opened again after this long, doubling to the most
export const RETRY_MS = 1000;
export const RETRY_MAX_MS = 10_000;
// the lecturer's changes go out at most this often (a held arrow key sends the last)
export const DRIVE_MS = 80;
// the close button asks again: a second press within this long closes the room
export const CONFIRM_MS = 5000;
// the room messages that carry the room's state, in the order the room made them (seq)
export const STATE_MESSAGES = new Set(["view", "poll", "revealed", "presence", "closed"]);
// the refusals the page has words for (err_room_<code>); any other is "could not read that message"
export const ROOM_ERRORS = new Set(["err_room_no_room", "err_room_not_lecturer", "err_room_room_full", "err_room_full",
  "err_room_bad_view", "err_room_slow_down", "err_room_need_redis", "err_room_unreachable", "err_room_needs_server",
  "err_room_bad_link", "err_room_poll_presets", "err_room_poll_one_head", "err_room_no_view", "err_room_no_poll",
  "err_room_bad_answer", "err_room_bad_question", "err_room_too_many_questions", "err_room_bad_numbers", "err_room_poll_no_more_heads",
  "err_room_poll_tie", "err_room_unavailable", "err_room_poll_model_switches", "err_room_poll_model_kind",
  "err_room_wrong_length", "err_room_need_key", "err_room_bad_key", "err_room_closed", "err_room_bad_message",
  "err_room_unknown_source", "err_room_no_report", "err_room_nothing_to_assign", "err_room_bad_deadline",
  "err_room_need_name", "err_room_assignment_closed", "err_room_no_assignment", "err_room_answered", "err_room_no_lesson"]);


// The view to send from the page's state: the params a room carries (`table`: constants.view, each
// param's `room` from app/view_params.py): those a student follows, and the language (the rules need it).
export function roomView(state, table) {
  const view = {};
  for (const param of table) if (param.room) view[param.name] = state[param.name];
  return view;
}

// The changes that make a student's page show `view`: the params a student follows (the language
// stays the student's).
export function followChanges(view, state, table) {
  const changes = {};
  for (const {name} of table.filter((param) => param.room === "follow")) {
    if (JSON.stringify(view[name]) !== JSON.stringify(state[name])) changes[name] = view[name];
  }
  return changes;
}

// What a state message with sequence number `seq` means to a page that has seen `last`: "stale"
// (made before what the page shows), "next", or "gap" (one or more were missed: ask for the state).
export function sequenced(last, seq) {
  if (typeof seq !== "number" || last === null) return "next";
  if (seq <= last) return "stale";
  return seq === last + 1 ? "next" : "gap";
}


// The students' link of a room: this page's address with ?room=CODE alone.
export function studentsLink(code) {
  const url = new URL(window.location.href);
  url.search = `?room=${code}`;
  url.hash = "";
  return url.toString();
}

// The QR code's rows (the server's) as one SVG path of unit squares: a 41 × 41 code is one element, not 800.
export function qrSvg(rows, label) {
  const size = rows.length, quiet = 4, side = size + 2 * quiet;
  const svg = s("svg", {viewBox: `0 0 ${side} ${side}`, class: "ae-room-qr-svg", role: "img", "shape-rendering": "crispEdges",
    "aria-label": label});
  svg.append(s("rect", {x: 0, y: 0, width: side, height: side, fill: "#ffffff"}));
  let d = "";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x + quiet},${y + quiet}h1v1h-1z`; });
  svg.append(s("path", {d, fill: "#000000"}));
  return svg;
}
