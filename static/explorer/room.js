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

import { h, s, texts } from "./dom.js";
import { entryOf } from "./source.js";
import { createPollCard } from "./room_poll.js";

// the view a room carries: the explorer's params a student follows (app/rooms.py VIEW_FIELDS)
const FOLLOWED = ["source", "query", "scale", "causal", "heads", "head_view", "step", "layer", "head", "merge", "special",
  "lens", "rope", "window", "compare"];
const LECTURER = "ae-room-lecturer";  // localStorage: {code, secret} of the room this browser lectures
const ACTIVE = "ae-room-active";  // sessionStorage: this tab lectures that room (a reload takes it up at once)
const FOLDED = "ae-room-folded";  // sessionStorage: the code of the room this tab folded (a reload keeps it folded)
const STUDENTS = "ae-room-students";  // localStorage: room code → the identity the server gave this browser
// a lost socket is opened again after this long, doubling to the most
const RETRY_MS = 1000, RETRY_MAX_MS = 10_000;
// the lecturer's changes go out at most this often (a held arrow key sends the last)
const DRIVE_MS = 80;
// the close button asks again: a second press within this long closes the room
const CONFIRM_MS = 5000;
// the room messages that carry the room's state, in the order the room made them (seq)
const STATE_MESSAGES = new Set(["view", "poll", "revealed", "presence", "closed"]);
// the refusals the page has words for (err_room_<code>); any other is "could not read that message"
const ROOM_ERRORS = new Set(["err_room_no_room", "err_room_not_lecturer", "err_room_room_full", "err_room_full",
  "err_room_bad_view", "err_room_slow_down", "err_room_need_redis", "err_room_unreachable", "err_room_needs_server",
  "err_room_bad_link", "err_room_poll_presets", "err_room_poll_one_head", "err_room_no_view", "err_room_no_poll",
  "err_room_bad_answer", "err_room_bad_question", "err_room_bad_numbers", "err_room_poll_no_more_heads",
  "err_room_poll_tie", "err_room_unavailable", "err_room_poll_model_switches", "err_room_poll_model_kind",
  "err_room_wrong_length", "err_room_need_key", "err_room_bad_key", "err_room_closed", "err_room_bad_message",
  "err_room_unknown_source"]);

// The room code a link asks to join (?room=ABC234), or null.
export function roomOfLink(search) {
  const code = new URLSearchParams(search).get("room");
  return code ? code.trim().toUpperCase().slice(0, 16) : null;
}

// The view to send from the page's state: the followed params, and the language (the rules need it).
export function roomView(state) {
  const view = {lang: state.lang};
  for (const name of FOLLOWED) view[name] = state[name];
  return view;
}

// The changes that make a student's page show `view` (the language stays the student's).
export function followChanges(view, state) {
  const changes = {};
  for (const name of FOLLOWED) {
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

// Storage that may refuse (a private window, a sandboxed frame): a failed read is nothing kept.
function stored(storage, key, fallback = null) {
  try { return JSON.parse(window[storage].getItem(key) || "null") ?? fallback; } catch (error) { return fallback; }
}
function store(storage, key, value) {
  try {
    if (value === null) window[storage].removeItem(key); else window[storage].setItem(key, JSON.stringify(value));
  } catch (error) { /* kept for this page only */ }
}
const validLecturer = (kept) => kept && typeof kept.code === "string" && typeof kept.secret === "string" ? kept : null;

// The students' link of a room: this page's address with ?room=CODE alone.
function studentsLink(code) {
  const url = new URL(window.location.href);
  url.search = `?room=${code}`;
  url.hash = "";
  return url.toString();
}

// The QR code's rows (the server's) as one SVG path of unit squares: a 41 × 41 code is one element, not 800.
function qrSvg(rows, label) {
  const size = rows.length, quiet = 4, side = size + 2 * quiet;
  const svg = s("svg", {viewBox: `0 0 ${side} ${side}`, class: "ae-room-qr-svg", role: "img", "shape-rendering": "crispEdges",
    "aria-label": label});
  svg.append(s("rect", {x: 0, y: 0, width: side, height: side, fill: "#ffffff"}));
  let d = "";
  rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x + quiet},${y + quiet}h1v1h-1z`; });
  svg.append(s("path", {d, fill: "#000000"}));
  return svg;
}

export function createRoom(ctx) {
  const {actions, state} = ctx;
  const served = typeof window !== "undefined" && /^https?:$/.test(window.location.protocol) && !!state.lab;
  const kept = validLecturer(stored("localStorage", LECTURER));
  let lecturer = kept && stored("sessionStorage", ACTIVE) === kept.code ? kept : null;  // this tab's room: taken up at once
  let resumable = kept && !lecturer ? kept : null;  // another tab's, or a closed one's: offered back
  let joining = typeof window !== "undefined" ? roomOfLink(window.location.search) : null;
  let following = true, lastView = null, socket = null, retry = RETRY_MS, sent = "", driveTimer = null, current = null;
  let reached = false;  // whether a socket ever opened: else the server has no rooms (a notebook's)
  let seq = null, away = false, closed = false, reconnecting = false, returnCode = null, closeArmed = null, askKey = false;
  let poll = null, mine = null, pending = null, answerCount = 0, answerStudents = 0, countSeq = -1;
  const queue = [];  // messages waiting for the socket

  const card = createPollCard(ctx, {answer: (value) => {
    if (!poll || poll.revealed || lecturer || away || closed) return;
    pending = {type: "answer", code: joining, number: poll.number, ...value};
    send(pending);
  }});

  // --- a page in no room: open one (a lecturer), take one back, or join one by its code
  const keyInput = h("input", {type: "password", class: "ae-input ae-room-key", "data-testid": "room-key", autocomplete: "off",
    hidden: true, on: {keydown: (event) => { if (event.key === "Enter") openRoom(); }}});
  const openButton = h("button", {type: "button", class: "ae-chip ae-room-open", "data-testid": "room-open", hidden: true,
    on: {click: () => openRoom()}});
  const resumeButton = h("button", {type: "button", class: "ae-chip ae-room-open", "data-testid": "room-resume", hidden: true,
    on: {click: () => { if (resumable) takeUp(resumable); }}});
  const joinOpen = h("button", {type: "button", class: "ae-chip ae-room-join-open", "data-testid": "room-join-open",
    "aria-expanded": "false", hidden: true, on: {click: () => {
      const open = joinForm.hidden;
      joinForm.hidden = !open;
      joinOpen.setAttribute("aria-expanded", String(open));
      if (open) joinCode.focus();
    }}});
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

  // --- the lecturer's panel
  const title = h("h2"), codeLabel = h("span"), countLabel = h("span");
  const code = h("strong", {class: "ae-room-code", "data-testid": "room-code"});
  const link = h("a", {class: "ae-room-link", "data-testid": "room-link", target: "_blank", rel: "noopener"});
  const count = h("strong", {"data-testid": "room-count"});
  const qr = h("div", {class: "ae-room-qr", "data-testid": "room-qr"});
  // the return code opens only when the lecturer asks: the room opens on the projector, in the class's sight
  const returnSummary = h("summary"), returnText = h("span");
  const returnLine = h("details", {class: "ae-hint ae-room-return", "data-testid": "room-return-code", hidden: true},
    returnSummary, returnText);
  const ask = (kind, change) => {
    driveNow();
    send({type: "ask", code: lecturer.code, secret: lecturer.secret, kind, change});
    showAsks(false);
  };
  const askButton = (testid, kind, change) => h("button", {type: "button", class: "ae-chip", "data-testid": testid,
    on: {click: () => ask(kind, change)}});
  const askTopKey = askButton("poll-top-key", "top_key"), askScale = askButton("poll-what-if-scale", "what_if", "scale");
  const askMask = askButton("poll-what-if-causal", "what_if", "causal"), askHeads = askButton("poll-what-if-heads", "what_if", "heads");
  const askOutput = askButton("poll-output", "output");
  const revealButton = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-reveal", hidden: true,
    on: {click: () => send({type: "reveal", code: lecturer.code, secret: lecturer.secret})}});
  const closeButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-close",
    on: {click: () => closeRoom()}});
  const answers = h("p", {"data-testid": "poll-answers", hidden: true});
  // folded, the panel is one line on the projector: the questions one tap away behind askToggle
  const asks = h("span", {class: "ae-room-asks"}, askTopKey, askScale, askMask, askHeads, askOutput);
  const showAsks = (open) => {
    asks.classList.toggle("ae-open", open);
    askToggle.setAttribute("aria-expanded", String(open));
  };
  const askToggle = h("button", {type: "button", class: "ae-chip ae-small ae-room-ask-toggle", "aria-expanded": "false",
    "data-testid": "room-ask-toggle", on: {click: () => showAsks(askToggle.getAttribute("aria-expanded") !== "true")}});
  const lecturerPoll = h("div", {class: "ae-room-poll"}, asks, answers, revealButton);
  // once the class is in, the QR code folds away: the code and the count stay on the screen
  const setFolded = (folded) => {
    fold.setAttribute("aria-expanded", String(!folded));
    panel.classList.toggle("ae-room-folded", folded);
  };
  const fold = h("button", {type: "button", class: "ae-chip ae-small", "aria-expanded": "true", "data-testid": "room-fold",
    on: {click: () => {
      const folded = fold.getAttribute("aria-expanded") === "true";
      setFolded(folded);
      store("sessionStorage", FOLDED, folded && lecturer ? lecturer.code : null);
      draw();
    }}});
  const status = h("p", {class: "ae-room-status", "data-testid": "room-status", role: "status", hidden: true});
  const panelHead = h("div", {class: "ae-card-head"}, title, askToggle, fold, closeButton);
  const panel = h("section", {class: "ae-card ae-room", hidden: true}, panelHead,
    h("div", {class: "ae-room-body"}, qr, h("div", {class: "ae-room-facts"},
      h("p", {}, codeLabel, " ", code), h("p", {class: "ae-room-link-line"}, link), h("p", {}, countLabel, " ", count),
      returnLine)),
    lecturerPoll);
  if (lecturer && stored("sessionStorage", FOLDED) === lecturer.code) setFolded(true);  // a reload mid-class

  // --- a student's line
  const detach = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-detach",
    on: {click: () => { following = false; draw(); }}});
  const rejoin = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-rejoin",
    on: {click: () => { following = true; if (lastView) follow(lastView); draw(); }}});
  const leave = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-leave", on: {click: () => leaveRoom()}});
  const bar = h("div", {class: "ae-room-bar", hidden: true}, detach, rejoin, leave);
  const error = h("p", {class: "ae-effect ae-warn", "data-testid": "room-error", role: "status", hidden: true});
  const drawLabels = texts([[openButton, "room_open"], [title, "room_title"], [codeLabel, "room_code"],
    [countLabel, "room_count"], [detach, "room_detach"], [rejoin, "room_rejoin"], [leave, "room_leave"],
    [askTopKey, "poll_ask_top_key"], [askScale, "poll_ask_what_if_scale"], [askMask, "poll_ask_what_if_causal"],
    [askHeads, "poll_ask_what_if_heads"], [askOutput, "poll_ask_output"], [revealButton, "poll_reveal"],
    [askToggle, "room_ask_toggle"], [returnSummary, "room_return_summary"],
    [joinOpen, "room_join_open"], [joinCodeLabel, "room_join_code"], [joinButton, "room_join"],
    [returnLabel, "room_return_input"], [takeBackButton, "room_take_back"], [takeBackSummary, "room_take_back_summary"]]);

  function openRoom() {
    if (lecturer) return;
    const key = keyInput.value;
    send(askKey ? {type: "open", key} : {type: "open"});
  }

  function takeUp(room) {
    lecturer = {code: room.code, secret: room.secret};
    resumable = null;
    store("sessionStorage", ACTIVE, lecturer.code);
    send({type: "lecture", code: lecturer.code, secret: lecturer.secret});
    draw();
  }

  function takeBack() {
    const typed = joinCode.value.trim();
    if (!typed || !returnInput.value.trim()) { showError("err_room_no_room"); return; }
    send({type: "lecture", code: typed, return_code: returnInput.value});
  }

  function joinByCode() {
    const typed = joinCode.value.trim();
    if (!typed) { showError("err_room_no_room"); return; }
    joining = typed;  // the server reads it (case, spaces, confusable letters) and says the room's code
    closed = false;
    seq = null;
    send({type: "join", code: typed, student: identity(typed)});
    draw();
  }

  function leaveRoom() {
    joining = null;
    closed = away = false;
    poll = mine = pending = null;
    const url = new URL(window.location.href);
    url.searchParams.delete("room");
    window.history.replaceState(null, "", url.toString());
    if (socket) socket.close();
    settle();
  }

  function closeRoom() {
    if (!lecturer) return;
    if (closeArmed === null) {  // the first press asks again
      closeArmed = setTimeout(() => { closeArmed = null; draw(); }, CONFIRM_MS);
      draw();
      return;
    }
    clearTimeout(closeArmed);
    closeArmed = null;
    send({type: "close", code: lecturer.code, secret: lecturer.secret});
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

  // The line that says where the page stands in its room (room-status data-state).
  function statusOf() {
    if (lecturer) return reconnecting ? "reconnecting" : "lecturing";
    if (closed) return "closed";
    if (reconnecting) return "reconnecting";
    if (away) return "lecturer-away";
    return following ? "following" : "exploring";
  }

  function draw() {
    const t = current ? current.t : null;
    const inRoom = !!lecturer || !!joining;
    openButton.hidden = !served || inRoom || !!resumable;
    keyInput.hidden = openButton.hidden || !askKey;
    resumeButton.hidden = !served || inRoom || !resumable;
    joinOpen.hidden = !served || inRoom;
    if (inRoom) joinForm.hidden = true;
    panel.hidden = !lecturer;
    bar.hidden = !joining;
    // one element answers to [data-testid=room]: the lecturer's panel or the student's line
    const roomEl = lecturer ? panel : joining ? statusBox : null;
    for (const el of [panel, statusBox]) {
      if (el === roomEl) { el.setAttribute("data-testid", "room"); el.dataset.role = lecturer ? "lecturer" : "student"; }
      else el.removeAttribute("data-testid");
    }
    if (lecturer && status.parentNode !== panelHead) panelHead.insertBefore(status, fold);
    if (!lecturer && joining && status.parentNode !== statusBox) statusBox.prepend(status);
    status.hidden = !inRoom;
    if (!t) return;
    fold.textContent = fold.getAttribute("aria-expanded") === "true" ? t("room_fold") : t("room_unfold");
    closeButton.textContent = closeArmed === null ? t("room_close") : t("room_close_confirm");
    closeButton.dataset.armed = String(closeArmed !== null);
    keyInput.setAttribute("aria-label", t("room_key"));
    keyInput.placeholder = t("room_key");
    if (resumable) resumeButton.textContent = t("room_resume", {code: resumable.code});
    returnLine.hidden = !returnCode;
    if (returnCode) returnText.textContent = t("room_return_code", {code: returnCode});
    if (inRoom) {
      const where = statusOf();
      status.dataset.state = where;
      status.textContent = t(`room_status_${where.replace("-", "_")}`, {code: lecturer ? lecturer.code : joining});
    }
    const live = !!joining && !closed;
    detach.hidden = !live || away || !following;
    rejoin.hidden = !live || away || following;
    leave.hidden = !joining;
    answers.hidden = !lecturer || !poll;
    revealButton.hidden = !lecturer || !poll || poll.revealed;
    if (lecturer && poll) answers.textContent = t("poll_answers", {count: answerCount, students: answerStudents});
  }
  const statusBox = h("div", {class: "ae-room-bar-status"});
  bar.prepend(statusBox);

  function showError(key, values = {}) {
    if (!current) return;
    // the room's refusals by their code (err_room_<code>), a typed answer's in the checker's words
    const known = !key.startsWith("err_room_") || ROOM_ERRORS.has(key);
    error.textContent = known ? current.t(key, values) : current.t("err_room_bad_message");
    error.hidden = false;
  }

  // A lecturer's view on a sentence or model this page does not have (one the lecturer typed): the
  // page keeps its last good view and says so once per such source, never asking the server for it.
  let missingSaid = "";
  function follow(view) {
    lastView = view;
    if (!following || !view || lecturer || away || closed) return;
    const {cubes, catalog, constants} = ctx;
    if (!entryOf(view.source, {cubes, models: catalog.models, kinds: constants.kinds})) {
      const said = JSON.stringify(view.source);
      if (said !== missingSaid) showError("err_room_unknown_source");
      missingSaid = said;
      return;
    }
    missingSaid = "";
    const changes = followChanges(view, state);
    if (Object.keys(changes).length) actions.set(changes);
  }

  // The room's whole state (joined, lecturing): what a page shows after a join, a reload, a gap.
  function adopt(message) {
    seq = typeof message.seq === "number" ? message.seq : seq;
    away = !!message.away;
    if (!message.poll || !poll || message.poll.number !== poll.number) card.clear();  // another question now
    poll = message.poll;
    if (message.answer !== undefined) mine = message.answer;
    if (pending && poll && !poll.revealed && pending.number === poll.number && !away) send(pending);  // sent while out of reach
    else pending = null;
  }

  function forget() {  // the lecturer's room is gone: nothing of it is kept
    lecturer = resumable = null;
    returnCode = null;
    store("localStorage", LECTURER, null);
    store("sessionStorage", ACTIVE, null);
  }

  function onError(message) {
    const {code: reason, values} = message;
    if (reason === "need_key" || reason === "bad_key") askKey = true;
    if (lecturer && ["not_lecturer", "no_room", "closed"].includes(reason)) forget();
    if (joining && (reason === "no_room" || reason === "closed")) {
      // a code typed or linked that is no room; a room that closed, expired or was lost meanwhile
      if (reason === "no_room" && seq === null) {  // the form again, with what was typed, to mend it
        joining = null;
        joinForm.hidden = !served;
        joinOpen.setAttribute("aria-expanded", String(served));
      } else { closed = true; poll = pending = null; }
    }
    if (pending && ["bad_answer", "bad_numbers", "wrong_length", "no_poll"].includes(reason)) {
      if (reason === "wrong_length" || reason === "bad_numbers") card.refuse(`err_room_${reason}`, values || {});
      pending = null;
    }
    showError(`err_room_${reason}`, values || {});
  }

  function onStateMessage(message) {
    const order = sequenced(seq, message.seq);
    if (order === "stale") return;
    if (order === "gap") send({type: "sync"});  // missed one: the whole state comes back
    if (typeof message.seq === "number") seq = message.seq;
    if (message.type === "view") follow(message.view);
    else if (message.type === "poll") {
      poll = message.poll;
      mine = pending = null;
      answerCount = 0;
      answerStudents = message.eligible || 0;
      card.clear();
    } else if (message.type === "revealed") {
      poll = message.poll;
      if (message.answer !== undefined) mine = message.answer;  // a student's own, with its verdict
      pending = null;
    } else if (message.type === "presence") {
      away = !message.lecturer;
      if (!away && lastView) follow(lastView);
    } else if (message.type === "closed") {
      if (lecturer) forget(); else closed = true;
      poll = pending = null;
    }
  }

  function receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "error") { onError(message); settle(); return; }
    if (message.type !== "status") error.hidden = true;
    if (message.type === "opened" || message.type === "lecturing") {
      lecturer = {code: message.code, secret: message.secret || lecturer.secret};
      resumable = null;
      askKey = false;
      returnCode = message.type === "opened" ? message.return_code : returnCode;  // shown once, when the room opens
      store("localStorage", LECTURER, lecturer);
      store("sessionStorage", ACTIVE, lecturer.code);
      const url = studentsLink(lecturer.code);
      code.textContent = lecturer.code;
      link.textContent = url;
      link.href = url;
      count.textContent = String(message.count || 0);
      countSeq = -1;
      adopt({...message, answer: null});
      answerCount = message.answered || 0;
      answerStudents = message.eligible || 0;
      reconnecting = false;
      send({type: "qr", code: lecturer.code, secret: lecturer.secret, link: url});
      sent = "";
      drive();
    } else if (message.type === "joined") {
      joining = message.code;
      keepIdentity(message.code, message.student);
      if (roomOfLink(window.location.search) !== message.code) {  // a typed code: the link the page now stands for
        const url = new URL(window.location.href);
        url.searchParams.set("room", message.code);
        window.history.replaceState(null, "", url.toString());
      }
      closed = reconnecting = false;
      adopt(message);
      follow(message.view);
    } else if (message.type === "qr") {
      qr.replaceChildren(qrSvg(message.rows, current ? current.t("room_qr") : "QR"));
      qr.dataset.size = String(message.rows.length);
    } else if (message.type === "count") {
      // from several processes, an earlier count can arrive later: the store numbers them
      if (message.seq === undefined || message.seq > countSeq) {
        countSeq = message.seq === undefined ? countSeq : message.seq;
        count.textContent = String(message.count);
      }
    } else if (message.type === "answered") {
      if (poll && message.number === poll.number) mine = message.answer;
      if (pending && pending.number === message.number) pending = null;
    } else if (message.type === "answers") {
      // answers only grow; from several processes a count made earlier can arrive later: keep the largest
      if (poll && message.number === poll.number) {
        answerCount = Math.max(answerCount, message.count);
        answerStudents = Math.max(answerStudents, message.students || 0);
      }
    } else if (message.type === "status") {
      const was = reconnecting;
      reconnecting = message.state === "reconnecting";
      if (was && !reconnecting) {  // the store is back: the room's state again, or the join it refused
        if (seq !== null) send({type: "sync"});
        else if (lecturer) send({type: "lecture", code: lecturer.code, secret: lecturer.secret});
        else if (joining && !closed) send({type: "join", code: joining, student: identity(joining)});
      }
    } else if (STATE_MESSAGES.has(message.type)) {
      if (lecturer && message.type === "view") return;  // the lecturer's own
      onStateMessage(message);
    }
    settle();
  }

  // The page's part of the room's state: while a question is open, what would give it away is
  // hidden (snapshot.js polling) on the students' pages and on the lecturer's, which the class sees
  // on the projector; not while the lecturer is away (the students explore) or once the room closed.
  function settle() {
    const hiding = (!!lecturer || (!!joining && !closed && !away)) && !!poll && !poll.revealed;
    if (hiding !== !!ctx.local.polling) actions.setLocal({polling: hiding});
    draw();
    if (current) card.draw(current, {poll, mine, lecturer, away});
  }

  function connect() {
    if (socket || (!lecturer && !joining && !served)) return;
    const url = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/room`;
    try { socket = new WebSocket(url); } catch (err) { showError("err_room_unreachable"); return; }
    const opened = socket;
    socket.addEventListener("open", () => {
      retry = RETRY_MS;
      reached = true;
      if (lecturer) socket.send(JSON.stringify({type: "lecture", code: lecturer.code, secret: lecturer.secret}));
      if (joining && !closed) socket.send(JSON.stringify({type: "join", code: joining, student: identity(joining)}));
      while (queue.length) socket.send(queue.shift());
    });
    socket.addEventListener("message", (event) => {
      try { receive(JSON.parse(event.data)); } catch (err) { /* not ours */ }
    });
    socket.addEventListener("close", () => {
      if (socket !== opened) return;
      socket = null;
      if (!reached) { queue.length = 0; showError("err_room_unreachable"); return; }
      if ((!lecturer && !joining) || closed) return;
      reconnecting = true;
      settle();
      setTimeout(connect, retry);
      retry = Math.min(RETRY_MAX_MS, retry * 2);
    });
  }
  function send(message) {
    const text = JSON.stringify(message);
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(text);
    else { queue.push(text); connect(); }
  }

  // the lecturer's view, sent when it changes (at most every DRIVE_MS), and at once before a
  // question, which is about the view on the lecturer's screen
  function driveNow() {
    if (driveTimer !== null) clearTimeout(driveTimer);
    driveTimer = null;
    if (!lecturer || !state.source) return;
    const view = roomView(state), text = JSON.stringify(view);
    if (text === sent) return;
    sent = text;
    send({type: "drive", code: lecturer.code, secret: lecturer.secret, view});
  }
  function drive() {
    if (!lecturer || driveTimer !== null || !state.source) return;
    driveTimer = setTimeout(driveNow, DRIVE_MS);
  }

  if (joining && !/^https?:$/.test(window.location.protocol)) {
    setTimeout(() => { showError("err_room_needs_server"); draw(); });  // an exported file: no server to hold a room
  } else if (lecturer || joining) {
    connect();
  }
  const buttons = h("span", {class: "ae-room-buttons"}, resumeButton, keyInput, openButton, joinOpen);
  return {
    el: [bar, joinForm, error, card.el],
    panel,  // the lecturer's panel, in the header's row (explorer.js): folded on a projector, it shares the title's line
    button: buttons,
    update(snap) {
      current = snap;
      drawLabels(snap);
      settle();
      if (lecturer) drive();
    },
  };
}
