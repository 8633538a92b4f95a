// A room (app/room_socket.py): a lecturer opens one on the served app and gets a code, a link and
// its QR code (the server's, from segno) with the count of students in it; a student who opens the
// link, or types the code, follows the lecturer's view until they choose to explore on their own,
// and rejoins at the lecturer's current view. Small JSON over the app's /room websocket.
//
// What outlives a closed tab is what the server gave: the lecturer's secret (this browser's
// localStorage: reopening the app offers the room back) and each student's identity. Every state a
// page can be in is shown (room-status data-state): following, exploring, lecturer-away, closed,
// reconnecting; a lecturer's page: lecturing or reconnecting. State messages carry a sequence
// number: a page that sees a gap asks for the room's state (sync).
//
// This module holds the room's shared state and what every page does with the room's messages;
// the lecturer's side (room_lecturer.js), the student's (room_student.js), the socket
// (room_connection.js) and a question's card (room_poll.js) are their own modules.

import { h, texts } from "./dom.js";
import { createPollCard } from "./room_poll.js";
import { createRoomConnection } from "./room_connection.js";
import { createLecturerSide } from "./room_lecturer.js";
import { createStudentSide } from "./room_student.js";
import { ACTIVE, LECTURER, ROOM_ERRORS, STATE_MESSAGES, roomOfLink, roomServed, sequenced, stored, validLecturer } from "./room_shared.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

// `buttons`: {openButton, joinOpen, button}, the buttons room_lazy.js showed before this module
// was here and their box, which the room takes over.
export function createRoom(ctx, buttons) {
  const {actions, state} = ctx;
  const kept = validLecturer(stored("localStorage", LECTURER));
  const lecturer = kept && stored("sessionStorage", ACTIVE) === kept.code ? kept : null;  // this tab's room: taken up at once
  // the room's state, shared by its sides: who this page is in it, what it last heard, the question
  const room = {
    served: roomServed(state),
    lecturer,
    resumable: kept && !lecturer ? kept : null,  // another tab's, or a closed one's: offered back
    joining: typeof window !== "undefined" ? roomOfLink(window.location.search) : null,
    following: true, lastView: null, current: null,
    seq: null, away: false, closed: false, reconnecting: false, returnCode: null, askKey: false,
    poll: null, mine: null, pending: null, answerCount: 0, answerStudents: 0, countSeq: -1,
  };
  const connection = createRoomConnection({
    wanted: () => !!room.lecturer || !!room.joining || room.served,
    hello: () => [...(room.lecturer ? [{type: "lecture", code: room.lecturer.code, secret: room.lecturer.secret}] : []),
      ...student.hello()],
    receive, staying: () => (!!room.lecturer || !!room.joining) && !room.closed,
    lost: () => { room.reconnecting = true; settle(); },
    unreachable: () => showError("err_room_unreachable"),
  });
  const send = connection.send;
  const error = h("p", {class: "ae-effect ae-warn", "data-testid": "room-error", role: "status", hidden: true});
  const card = createPollCard(ctx, {answer: (value) => {
    if (!room.poll || room.poll.revealed || room.lecturer || room.away || room.closed) return;
    room.pending = {type: "answer", code: room.joining, number: room.poll.number, ...value};
    send(room.pending);
  }});
  // what the sides and the message functions below use; the sides join it once made
  const parts = {card, send, draw, settle, showError, close: () => connection.close(),
    adopt: (message) => adopt(room, parts, message)};
  const lecturerSide = parts.lecturerSide = createLecturerSide(ctx, room, parts, buttons.openButton);
  const student = parts.student = createStudentSide(ctx, room, parts, buttons.joinOpen);
  const status = h("p", {class: "ae-room-status", "data-testid": "room-status", role: "status", hidden: true});
  const drawLabels = texts([...lecturerSide.labels, ...student.labels]);

  // The line that says where the page stands in its room (room-status data-state).
  function statusOf() {
    if (room.lecturer) return room.reconnecting ? "reconnecting" : "lecturing";
    if (room.closed) return "closed";
    if (room.reconnecting) return "reconnecting";
    if (room.away) return "lecturer-away";
    return room.following ? "following" : "exploring";
  }
  function draw() {
    const t = room.current ? room.current.t : null;
    const inRoom = !!room.lecturer || !!room.joining;
    lecturerSide.drawSide(t, inRoom);
    student.drawSide(inRoom);
    // one element answers to [data-testid=room]: the lecturer's panel or the student's line
    const roomEl = room.lecturer ? lecturerSide.panel : room.joining ? student.statusBox : null;
    for (const el of [lecturerSide.panel, student.statusBox]) {
      if (el === roomEl) { el.setAttribute("data-testid", "room"); el.dataset.role = room.lecturer ? "lecturer" : "student"; }
      else el.removeAttribute("data-testid");
    }
    if (room.lecturer) lecturerSide.holdStatus(status);
    else if (room.joining) student.holdStatus(status);
    status.hidden = !inRoom;
    if (!t || !inRoom) return;
    const where = statusOf();
    status.dataset.state = where;
    status.textContent = t(`room_status_${where.replace("-", "_")}`, {code: room.lecturer ? room.lecturer.code : room.joining});
  }

  function showError(key, values = {}) {
    if (!room.current) return;
    // the room's refusals by their code (err_room_<code>), a typed answer's in the checker's words
    const known = !key.startsWith("err_room_") || ROOM_ERRORS.has(key);
    error.textContent = known ? room.current.t(key, values) : room.current.t("err_room_bad_message");
    error.hidden = false;
  }

  function receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "error") { onError(room, parts, message); settle(); return; }
    if (message.type !== "status") error.hidden = true;
    const handler = lecturerSide.handlers[message.type] || student.handlers[message.type];
    if (handler) handler(message);
    else if (message.type === "status") {
      const was = room.reconnecting;
      room.reconnecting = message.state === "reconnecting";
      if (was && !room.reconnecting) reconnected(room, parts);
    } else if (STATE_MESSAGES.has(message.type)) {
      if (room.lecturer && message.type === "view") return;  // the lecturer's own
      onStateMessage(room, parts, message);
    }
    settle();
  }

  // The page's part of the room's state: while a question is open, what would give it away is
  // hidden (snapshot.js polling) on the students' pages and on the lecturer's, which the class sees
  // on the projector; not while the lecturer is away (the students explore) or once the room closed.
  function settle() {
    const hiding = (!!room.lecturer || (!!room.joining && !room.closed && !room.away)) && !!room.poll && !room.poll.revealed;
    if (hiding !== !!ctx.local.polling) actions.setLocal({polling: hiding});
    draw();
    if (room.current) card.draw(room.current, {poll: room.poll, mine: room.mine, lecturer: room.lecturer, away: room.away});
  }

  if (room.joining && !/^https?:$/.test(window.location.protocol)) {
    setTimeout(() => { showError("err_room_needs_server"); draw(); });  // an exported file: no server to hold a room
  } else if (room.lecturer || room.joining) {
    connection.connect();
  }
  return {
    el: [student.bar, student.joinForm, error, card.el],
    panel: lecturerSide.panel,  // the lecturer's panel, in the header's row (layout.js): folded on a projector, it shares the title's line
    reportView: lecturerSide.reportView,  // the room's report laid out to print (layout.js: after the cards)
    // a lesson's stop with a question, reached by the lecturer of an open room: the class is asked
    lecturing: () => !!room.lecturer && !room.closed,
    // a student in a room (or joining one): the room's stop is theirs, not a lesson the server offers
    inClass: () => !!room.joining && !room.lecturer && !room.closed,
    ask: (kind, change) => lecturerSide.ask(kind, change),
    button: arranged(buttons.button, [...lecturerSide.buttons, student.joinOpen]),
    update(snap) {
      room.current = snap;
      drawLabels(snap);
      settle();
      if (room.lecturer) lecturerSide.drive();
    },
  };
}

// `box` holding `nodes` in that order, each node already in it left where it is (a focused button
// keeps its focus).
function arranged(box, nodes) {
  nodes.forEach((node, index) => { if (box.childNodes[index] !== node) box.insertBefore(node, box.childNodes[index] || null); });
  return box;
}

// The room's whole state (joined, lecturing): what a page shows after a join, a reload, a gap.
function adopt(room, {card, send}, message) {
  room.seq = typeof message.seq === "number" ? message.seq : room.seq;
  room.away = !!message.away;
  if (!message.poll || !room.poll || message.poll.number !== room.poll.number) card.clear();  // another question now
  room.poll = message.poll;
  if (message.answer !== undefined) room.mine = message.answer;
  const {pending, poll} = room;
  if (pending && poll && !poll.revealed && pending.number === poll.number && !room.away) send(pending);  // sent while out of reach
  else room.pending = null;
}

// What a refusal changes: a key asked for, a room gone, a join refused, an answer refused.
function onError(room, {card, lecturerSide, student, showError}, message) {
  const {code: reason, values} = message;
  if (reason === "need_key" || reason === "bad_key") room.askKey = true;
  if (room.lecturer && ["not_lecturer", "no_room", "closed"].includes(reason)) lecturerSide.forget();
  if (room.joining && (reason === "no_room" || reason === "closed")) {
    // a code typed or linked that is no room; a room that closed, expired or was lost meanwhile
    if (reason === "no_room" && room.seq === null) student.refused();
    else { room.closed = true; room.poll = room.pending = null; }
  }
  if (room.pending && ["bad_answer", "bad_numbers", "wrong_length", "no_poll"].includes(reason)) {
    if (reason === "wrong_length" || reason === "bad_numbers") card.refuse(`err_room_${reason}`, values || {});
    room.pending = null;
  }
  showError(`err_room_${reason}`, values || {});
}

// A message that carries the room's state, in the order the room made them (seq).
function onStateMessage(room, {card, send, lecturerSide, student}, message) {
  const order = sequenced(room.seq, message.seq);
  if (order === "stale") return;
  if (order === "gap") send({type: "sync"});  // missed one: the whole state comes back
  if (typeof message.seq === "number") room.seq = message.seq;
  if (message.type === "view") student.follow(message.view);
  else if (message.type === "poll") {
    room.poll = message.poll;
    room.mine = room.pending = null;
    room.answerCount = 0;
    room.answerStudents = message.eligible || 0;
    card.clear();
  } else if (message.type === "revealed") {
    room.poll = message.poll;
    if (message.answer !== undefined) room.mine = message.answer;  // a student's own, with its verdict
    room.pending = null;
  } else if (message.type === "presence") {
    room.away = !message.lecturer;
    if (!room.away && room.lastView) student.follow(room.lastView);
  } else if (message.type === "closed") {
    if (room.lecturer) lecturerSide.closed(); else room.closed = true;
    room.poll = room.pending = null;
  }
}

// The store is back (status ok after reconnecting): the room's state again, or the join it refused.
function reconnected(room, {send, student}) {
  if (room.seq !== null) send({type: "sync"});
  else if (room.lecturer) send({type: "lecture", code: room.lecturer.code, secret: room.lecturer.secret});
  else if (room.joining && !room.closed) send(...student.hello());
}
