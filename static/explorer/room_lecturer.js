// A room's lecturer's side (room.js wires it): the buttons that open a room or take one up again,
// and the lecturer's panel: the code, the students' link and its QR code, the count, the return
// code, the questions to ask and reveal, folding and closing; and the lecturer's view, driven to
// the students as it changes.

import { h } from "./dom.js";
import { ACTIVE, CONFIRM_MS, DRIVE_MS, FOLDED, LECTURER, qrSvg, roomView, store, stored, studentsLink } from "./room_shared.js";
import { createRoomReport } from "./room_report.js";

// `room`: the room's shared state (room.js); send(message); adopt(message): the room's whole
// state; draw(): the room's parts again.
// openButton: the page's "open a room" button (room_lazy.js made it).
export function createLecturerSide(ctx, room, {send, adopt, draw}, openButton) {
  const {state} = ctx;
  let sent = "", driveTimer = null, closeArmed = null, autoFolded = false;

  // --- a page in no room: open one, or take this browser's back
  const keyInput = h("input", {type: "password", class: "ae-input ae-room-key", "data-testid": "room-key", autocomplete: "off",
    hidden: true, on: {keydown: (event) => { if (event.key === "Enter") openRoom(); }}});
  openButton.addEventListener("click", () => openRoom());
  const resumeButton = h("button", {type: "button", class: "ae-chip ae-room-open", "data-testid": "room-resume", hidden: true,
    on: {click: () => { if (room.resumable) takeUp(room.resumable); }}});

  const secret = () => ({code: room.lecturer.code, secret: room.lecturer.secret});
  // a question about the view on the lecturer's screen, sent with it (a button's, or a lesson's stop's)
  const ask = (kind, change) => { driveNow(); send({type: "ask", ...secret(), kind, change}); };
  const parts = lecturerPanel(room, ctx.constants.questions.kinds, {
    ask,
    reveal: () => send({type: "reveal", ...secret()}),
    close: () => closeRoom(),
    draw,
  });
  const {panel, code, link, count, qr} = parts;
  // the room's report and assigned links, among the header's buttons (not on the projector: lecture
  // mode leaves them out, so the figures keep the first screen)
  const report = createRoomReport(ctx, room, send);
  const afterClass = h("span", {class: "ae-room-after"}, ...report.buttons);
  const outside = h("span", {class: "ae-room-after-slot"});

  function openRoom() {
    if (room.lecturer) return;
    send(room.askKey ? {type: "open", key: keyInput.value} : {type: "open"});
  }
  function takeUp(kept) {
    room.lecturer = {code: kept.code, secret: kept.secret};
    room.resumable = null;
    store("sessionStorage", ACTIVE, room.lecturer.code);
    send({type: "lecture", ...secret()});
    draw();
  }
  function closeRoom() {
    if (!room.lecturer) return;
    if (closeArmed === null) {  // the first press asks again
      closeArmed = setTimeout(() => { closeArmed = null; draw(); }, CONFIRM_MS);
      draw();
      return;
    }
    clearTimeout(closeArmed);
    closeArmed = null;
    send({type: "close", ...secret()});
  }
  function closed() {  // the room closed: its report can still be asked for, then the room is forgotten
    report.keep(room.lecturer);
    forget();
  }
  function forget() {  // the lecturer's room is gone: nothing of it is kept
    room.lecturer = room.resumable = null;
    room.returnCode = null;
    store("localStorage", LECTURER, null);
    store("sessionStorage", ACTIVE, null);
  }

  // the lecturer's view, sent when it changes (at most every DRIVE_MS), and at once before a
  // question, which is about the view on the lecturer's screen
  function driveNow() {
    if (driveTimer !== null) clearTimeout(driveTimer);
    driveTimer = null;
    if (!room.lecturer || !state.source) return;
    const view = roomView(state, ctx.constants.view);
    if (ctx.local.lessonNote) view.note = ctx.local.lessonNote;  // a lesson's stop: its words go with it
    const text = JSON.stringify(view);
    if (text === sent) return;
    // on the projector the open room's QR code took the first screen: once the lecturer moves on
    // from the view the room opened with, it folds away (once; the fold button brings it back)
    if (sent && !autoFolded && room.current && room.current.lecture) {
      autoFolded = true;
      parts.foldAway();
    }
    sent = text;
    send({type: "drive", ...secret(), view});
  }
  function drive() {
    if (!room.lecturer || driveTimer !== null || !state.source) return;
    driveTimer = setTimeout(driveNow, DRIVE_MS);
  }

  // The room opened, or taken up again (a reload, another tab, a return code): its state.
  function lecturing(message) {
    room.lecturer = {code: message.code, secret: message.secret || room.lecturer.secret};
    room.resumable = null;
    room.askKey = false;
    room.returnCode = message.type === "opened" ? message.return_code : room.returnCode;  // shown once, when the room opens
    store("localStorage", LECTURER, room.lecturer);
    store("sessionStorage", ACTIVE, room.lecturer.code);
    const url = studentsLink(room.lecturer.code);
    code.textContent = room.lecturer.code;
    link.textContent = url;
    link.href = url;
    count.textContent = String(message.count || 0);
    room.countSeq = -1;
    adopt({...message, answer: null});
    room.answerCount = message.answered || 0;
    room.answerStudents = message.eligible || 0;
    room.reconnecting = false;
    send({type: "qr", ...secret(), link: url});
    sent = "";
    drive();
  }
  const handlers = {
    opened: lecturing,
    lecturing,
    report: (message) => report.handle(message),
    assign: (message) => report.assigned(message),
    qr(message) {
      qr.replaceChildren(qrSvg(message.rows, room.current ? room.current.t("room_qr") : "QR"));
      qr.dataset.size = String(message.rows.length);
    },
    count(message) {
      // from several processes, an earlier count can arrive later: the store numbers them
      if (message.seq === undefined || message.seq > room.countSeq) {
        room.countSeq = message.seq === undefined ? room.countSeq : message.seq;
        count.textContent = String(message.count);
      }
    },
    answers(message) {
      // answers only grow; from several processes a count made earlier can arrive later: keep the largest
      if (room.poll && message.number === room.poll.number) {
        room.answerCount = Math.max(room.answerCount, message.count);
        room.answerStudents = Math.max(room.answerStudents, message.students || 0);
      }
    },
  };

  // Its parts shown or hidden for the room's state; their words once the page has its language.
  function drawSide(t, inRoom) {
    openButton.hidden = !room.served || inRoom || !!room.resumable;
    keyInput.hidden = openButton.hidden || !room.askKey;
    resumeButton.hidden = !room.served || inRoom || !room.resumable;
    panel.hidden = !room.lecturer;
    if (afterClass.parentNode !== outside) outside.append(afterClass);
    if (!t) return;
    report.draw(t);
    parts.drawWords(t, closeArmed !== null);
    keyInput.setAttribute("aria-label", t("room_key"));
    keyInput.placeholder = t("room_key");
    if (room.resumable) resumeButton.textContent = t("room_resume", {code: room.resumable.code});
  }

  return {
    buttons: [resumeButton, keyInput, openButton, outside],
    reportView: report.view,
    panel,
    // the status line sits in the panel's head, before the fold button
    holdStatus: parts.holdStatus,
    labels: [[openButton, "room_open"], ...parts.labels],
    handlers, drawSide, drive, forget, closed, ask,
  };
}

// The lecturer's panel: its elements, and what draws their words (drawWords) for the room's state.
// kinds: the room's question kinds (app/questions.py QUESTIONS), each with its ask buttons;
// actions: ask(kind, change), reveal(), close(), draw().
function lecturerPanel(room, kinds, actions) {
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
    actions.ask(kind, change);
    showAsks(false);
  };
  // one button per way of asking each kind: poll-top-key, poll-what-if-scale, …, poll-output
  const askButtons = Object.entries(kinds).flatMap(([kind, {asks}]) => asks.map(({change, words}) => [h("button", {
    type: "button", class: "ae-chip", "data-testid": ["poll", kind, change].filter(Boolean).join("-").replace(/_/g, "-"),
    on: {click: () => ask(kind, change)}}), words]));
  const revealButton = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-reveal", hidden: true,
    on: {click: () => actions.reveal()}});
  const closeButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-close",
    on: {click: () => actions.close()}});
  const answers = h("p", {"data-testid": "poll-answers", hidden: true});
  // folded, the panel is one line on the projector: the questions one tap away behind askToggle
  const asks = h("span", {class: "ae-room-asks"}, ...askButtons.map(([button]) => button));
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
      store("sessionStorage", FOLDED, folded && room.lecturer ? room.lecturer.code : null);
      actions.draw();
    }}});
  const panelHead = h("div", {class: "ae-card-head"}, title, askToggle, fold, closeButton);
  const panel = h("section", {class: "ae-card ae-room", hidden: true}, panelHead,
    h("div", {class: "ae-room-body"}, qr, h("div", {class: "ae-room-facts"},
      h("p", {}, codeLabel, " ", code), h("p", {class: "ae-room-link-line"}, link), h("p", {}, countLabel, " ", count),
      returnLine)),
    lecturerPoll);
  if (room.lecturer && stored("sessionStorage", FOLDED) === room.lecturer.code) setFolded(true);  // a reload mid-class

  return {
    panel, code, link, count, qr,
    // folded, as its button folds it, unless it is already
    foldAway() { if (fold.getAttribute("aria-expanded") === "true") fold.click(); },
    // the status line sits in the panel's head, before the fold button
    holdStatus(status) { if (status.parentNode !== panelHead) panelHead.insertBefore(status, fold); },
    labels: [[title, "room_title"], [codeLabel, "room_code"], [countLabel, "room_count"],
      ...askButtons, [revealButton, "poll_reveal"],
      [askToggle, "room_ask_toggle"], [returnSummary, "room_return_summary"]],
    drawWords(t, closeArmed) {
      fold.textContent = fold.getAttribute("aria-expanded") === "true" ? t("room_fold") : t("room_unfold");
      closeButton.textContent = closeArmed ? t("room_close_confirm") : t("room_close");
      closeButton.dataset.armed = String(closeArmed);
      returnLine.hidden = !room.returnCode;
      if (room.returnCode) returnText.textContent = t("room_return_code", {code: room.returnCode});
      answers.hidden = !room.lecturer || !room.poll;
      revealButton.hidden = !room.lecturer || !room.poll || room.poll.revealed;
      if (room.lecturer && room.poll) answers.textContent = t("poll_answers", {count: room.answerCount, students: room.answerStudents});
    },
  };
}
