// A room's student's side (room.js wires it): joining by the link or by a typed code (and, in the
// same form, a lecturer taking a room back on another device with its return code), the
// identity the server gave this browser, following the lecturer's view, and the student's line:
// explore on my own, back to the lecture, leave.

import { h } from "./dom.js";
import { entryOf } from "./source.js";
import { STUDENTS, followChanges, roomOfLink, store, stored } from "./room_shared.js";

// `room`: the room's shared state (room.js); send(message); close(): the socket; showError(key, values); adopt(message):
// the room's whole state; settle(): the room's state on the page again; draw(): its parts again.
// joinOpen: the page's "join a room" button (room_lazy.js made it).
export function createStudentSide(ctx, room, {send, close, showError, adopt, settle, draw}, joinOpen) {
  const {actions, state} = ctx;

  // --- joining: by a typed code; a lecturer's return code on another device
  joinOpen.addEventListener("click", () => {
    const open = joinForm.hidden;
    joinForm.hidden = !open;
    joinOpen.setAttribute("aria-expanded", String(open));
    if (open) joinCode.focus();
  });
  const joinCodeLabel = h("label", {for: "ae-room-join-code"});
  const joinCode = h("input", {id: "ae-room-join-code", type: "text", class: "ae-input", "data-testid": "room-join-code",
    autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "24",
    on: {keydown: (event) => { if (event.key === "Enter") joinByCode(); }}});
  const joinButton = h("button", {type: "button", class: "ae-chip", "data-testid": "room-join", on: {click: () => joinByCode()}});
  const returnLabel = h("label", {for: "ae-room-return-input"});
  const returnInput = h("input", {id: "ae-room-return-input", type: "text", class: "ae-input", "data-testid": "room-return-input",
    autocomplete: "off", autocapitalize: "characters", spellcheck: "false", maxlength: "30"});
  const takeBackButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-take-back",
    on: {click: () => takeBack()}});
  const takeBackSummary = h("summary");
  const joinForm = h("section", {class: "ae-card ae-room-join", "data-testid": "room-join-form", hidden: true},
    h("div", {class: "ae-room-join-row"}, joinCodeLabel, joinCode, joinButton),
    h("details", {class: "ae-room-take-back"}, takeBackSummary, h("div", {class: "ae-room-join-row"}, returnLabel, returnInput,
      takeBackButton)));

  // --- the student's line
  const detach = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-detach",
    on: {click: () => { room.following = false; draw(); }}});
  const rejoin = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-rejoin",
    on: {click: () => { room.following = true; if (room.lastView) follow(room.lastView); draw(); }}});
  const leave = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-leave", on: {click: () => leaveRoom()}});
  const statusBox = h("div", {class: "ae-room-bar-status"});
  // the lecturer's lesson: the stop's title and note, as the class reads them (set as text)
  const noteTitle = h("strong"), noteText = h("span");
  const note = h("p", {class: "ae-room-note", "data-testid": "room-note", hidden: true}, noteTitle, " ", noteText);
  const bar = h("div", {class: "ae-room-bar", hidden: true}, statusBox, detach, rejoin, leave, note);

  function takeBack() {
    const typed = joinCode.value.trim();
    if (!typed || !returnInput.value.trim()) { showError("err_room_no_room"); return; }
    send({type: "lecture", code: typed, return_code: returnInput.value});
  }
  function joinByCode() {
    const typed = joinCode.value.trim();
    if (!typed) { showError("err_room_no_room"); return; }
    room.joining = typed;  // the server reads it (case, spaces, confusable letters) and says the room's code
    room.closed = false;
    room.seq = null;
    send({type: "join", code: typed, student: identity(typed)});
    draw();
  }
  function leaveRoom() {
    room.joining = null;
    room.closed = room.away = false;
    room.poll = room.mine = room.pending = null;
    const url = new URL(window.location.href);
    url.searchParams.delete("room");
    window.history.replaceState(null, "", url.toString());
    close();
    settle();
  }
  // A code that is no room: the form again, with what was typed, to mend it.
  function refused() {
    room.joining = null;
    joinForm.hidden = !room.served;
    joinOpen.setAttribute("aria-expanded", String(room.served));
  }

  // The identity the server gave this browser in a room (undefined before the first join there).
  function identity(roomCode) {
    const known = stored("localStorage", STUDENTS, {});
    return typeof known[String(roomCode).toUpperCase()] === "string" ? known[String(roomCode).toUpperCase()] : undefined;
  }
  function keepIdentity(roomCode, token) {
    const known = stored("localStorage", STUDENTS, {});
    const codes = Object.keys(known).filter((c) => c !== roomCode).slice(-19);  // the last twenty rooms
    store("localStorage", STUDENTS, Object.fromEntries([...codes.map((c) => [c, known[c]]), [roomCode, token]]));
  }

  // A lecturer's view on a sentence or model this page does not have (one the lecturer typed): the
  // page keeps its last good view and says so once per such source, never asking the server for it.
  let missingSaid = "";
  function follow(view) {
    room.lastView = view;
    if (!room.following || !view || room.lecturer || room.away || room.closed) return;
    const {cubes, catalog, constants} = ctx;
    if (!entryOf(view.source, {cubes, models: catalog.models, kinds: constants.kinds})) {
      const said = JSON.stringify(view.source);
      if (said !== missingSaid) showError("err_room_unknown_source");
      missingSaid = said;
      return;
    }
    missingSaid = "";
    drawNote(view.note || null);
    const changes = followChanges(view, state, constants.view);
    if (Object.keys(changes).length) actions.set(changes);
  }

  const handlers = {
    joined(message) {
      room.joining = message.code;
      keepIdentity(message.code, message.student);
      if (roomOfLink(window.location.search) !== message.code) {  // a typed code: the link the page now stands for
        const url = new URL(window.location.href);
        url.searchParams.set("room", message.code);
        window.history.replaceState(null, "", url.toString());
      }
      room.closed = room.reconnecting = false;
      adopt(message);
      follow(message.view);
    },
    answered(message) {
      if (room.poll && message.number === room.poll.number) room.mine = message.answer;
      if (room.pending && room.pending.number === message.number) room.pending = null;
    },
  };

  let said = null;  // the stop's words last shown
  function drawNote(words) {
    said = words;
    note.hidden = !words;
    if (!words) return;
    const english = state.lang !== ctx.constants.languages[0];
    noteTitle.textContent = (english && words.title_en) || words.title;
    noteText.textContent = (english && words.note_en) || words.note;
  }
  // Its parts shown or hidden for the room's state.
  function drawSide(inRoom) {
    joinOpen.hidden = !room.served || inRoom;
    if (inRoom) joinForm.hidden = true;
    bar.hidden = !room.joining;
    drawNote(room.joining ? said : null);  // in the student's language, which they may switch
    const live = !!room.joining && !room.closed;
    detach.hidden = !live || room.away || !room.following;
    rejoin.hidden = !live || room.away || room.following;
    leave.hidden = !room.joining;
  }

  return {
    joinOpen, joinForm, bar, statusBox,
    // the status line leads the student's line
    holdStatus(status) { if (status.parentNode !== statusBox) statusBox.prepend(status); },
    labels: [[detach, "room_detach"], [rejoin, "room_rejoin"], [leave, "room_leave"], [joinOpen, "room_join_open"],
      [joinCodeLabel, "room_join_code"], [joinButton, "room_join"], [returnLabel, "room_return_input"],
      [takeBackButton, "room_take_back"], [takeBackSummary, "room_take_back_summary"]],
    handlers, drawSide, follow, refused,
    hello: () => (room.joining && !room.closed ? [{type: "join", code: room.joining, student: identity(room.joining)}] : []),
  };
}
