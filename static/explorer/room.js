// A room (app/room_socket.py): a lecturer opens one on the served app and gets a code, a link and
// its QR code (the server's, from segno) with the count of students in it; a student who opens the
// link follows the lecturer's view until they choose to explore on their own, and rejoins at the
// lecturer's current view. Small JSON over the app's /room websocket; the page keeps the secret in
// this tab's sessionStorage only, so a lecturer who reloads keeps the room.

import { parseAnswer, verdictText } from "./checker.js";
import { h, s, texts } from "./dom.js";

// the view a room carries: the explorer's params a student follows (app/rooms.py VIEW_FIELDS)
const FOLLOWED = ["source", "query", "scale", "causal", "heads", "head_view", "step", "layer", "head", "merge", "special",
  "lens", "rope", "window", "compare"];
const STORED = "ae-room-lecturer";
// a lost socket is opened again after this long, doubling to the most
const RETRY_MS = 1000, RETRY_MAX_MS = 10_000;
// the lecturer's changes go out at most this often (a held arrow key sends the last)
const DRIVE_MS = 80;

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

// This tab's anonymous student token (random, kept for the tab): a reload keeps its answer.
function studentToken() {
  const key = "ae-room-student";
  try {
    let token = window.sessionStorage.getItem(key);
    if (!token || !/^[0-9a-f]{16,32}$/.test(token)) {
      token = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
      window.sessionStorage.setItem(key, token);
    }
    return token;
  } catch (error) {
    return undefined;  // the server makes one for the connection
  }
}

export function createRoom(ctx) {
  const {actions, state} = ctx;
  const served = typeof window !== "undefined" && /^https?:$/.test(window.location.protocol) && !!state.lab;
  const joining = typeof window !== "undefined" ? roomOfLink(window.location.search) : null;
  let stored = null;
  try { stored = JSON.parse(window.sessionStorage.getItem(STORED) || "null"); } catch (error) { stored = null; }
  let lecturer = stored && typeof stored.code === "string" && typeof stored.secret === "string" ? stored : null;
  let following = true, lastView = null, socket = null, retry = RETRY_MS, sent = "", driveTimer = null, current = null;
  let reached = false;  // whether a socket ever opened: else the server has no rooms (a notebook's)
  const queue = [];  // messages waiting for the socket

  const openButton = h("button", {type: "button", class: "ae-chip ae-room-open", "data-testid": "room-open", hidden: true,
    on: {click: () => { if (!lecturer) send({type: "open"}); }}});
  const title = h("h2"), codeLabel = h("span"), countLabel = h("span");
  const code = h("strong", {class: "ae-room-code", "data-testid": "room-code"});
  const link = h("a", {class: "ae-room-link", "data-testid": "room-link", target: "_blank", rel: "noopener"});
  const count = h("strong", {"data-testid": "room-count"});
  const qr = h("div", {class: "ae-room-qr", "data-testid": "room-qr"});
  // a question to the class: the lecturer asks and reveals; a student answers, then sees the verdict
  let poll = null, myAnswer = null, answerCount = 0, countSeq = -1;
  // the lecturer's questions about the view on the screen (app/questions.py)
  const ask = (kind, change) => { driveNow(); send({type: "ask", code: lecturer.code, secret: lecturer.secret, kind, change}); };
  const askTopKey = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-top-key", on: {click: () => ask("top_key")}});
  const askScale = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-what-if-scale", on: {click: () => ask("what_if", "scale")}});
  const askMask = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-what-if-causal", on: {click: () => ask("what_if", "causal")}});
  const askHeads = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-what-if-heads", on: {click: () => ask("what_if", "heads")}});
  const askOutput = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-output", on: {click: () => ask("output")}});
  const revealButton = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-reveal", hidden: true,
    on: {click: () => send({type: "reveal", code: lecturer.code, secret: lecturer.secret})}});
  const answers = h("p", {"data-testid": "poll-answers", hidden: true});
  const question = h("p", {class: "ae-poll-question", "data-testid": "poll-question"});
  const choices = h("div", {class: "ae-poll-choices", role: "group"});
  // an output question: the student's typed vector, read as the checker reads it before it goes
  const numbersLabel = h("label", {for: "ae-poll-numbers"});
  const numbers = h("input", {id: "ae-poll-numbers", type: "text", inputmode: "decimal", autocomplete: "off",
    class: "ae-input", "data-testid": "poll-numbers", on: {keydown: (event) => { if (event.key === "Enter") submitNumbers(); }}});
  const submit = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-submit", on: {click: () => submitNumbers()}});
  const typedLine = h("p", {class: "ae-hint", "data-testid": "poll-typed", hidden: true});
  const typing = h("div", {class: "ae-poll-typing", hidden: true}, numbersLabel, numbers, submit, typedLine);
  const result = h("p", {class: "ae-effect", "data-testid": "poll-result", hidden: true});
  const detail = h("p", {class: "ae-hint", "data-testid": "poll-detail", hidden: true});
  const histogram = h("ol", {class: "ae-poll-histogram", "data-testid": "poll-histogram", hidden: true});
  const pollCard = h("section", {class: "ae-card ae-poll", "data-testid": "poll", hidden: true}, question, choices, typing, result,
    detail, histogram);
  const lecturerPoll = h("div", {class: "ae-room-poll"}, askTopKey, askScale, askMask, askHeads, askOutput, answers, revealButton);
  // once the class is in, the QR code folds away: the code and the count stay on the screen
  const fold = h("button", {type: "button", class: "ae-chip ae-small", "aria-expanded": "true", "data-testid": "room-fold",
    on: {click: () => {
      const open = fold.getAttribute("aria-expanded") !== "true";
      fold.setAttribute("aria-expanded", String(open));
      panel.classList.toggle("ae-room-folded", !open);
      if (current) fold.textContent = open ? current.t("room_fold") : current.t("room_unfold");
    }}});
  const panel = h("section", {class: "ae-card ae-room", "data-testid": "room", hidden: true},
    h("div", {class: "ae-card-head"}, title, fold),
    h("div", {class: "ae-room-body"}, qr, h("div", {class: "ae-room-facts"},
      h("p", {}, codeLabel, " ", code), h("p", {class: "ae-room-link-line"}, link), h("p", {}, countLabel, " ", count))),
    lecturerPoll);
  const status = h("p", {class: "ae-room-status", "data-testid": "room-status", hidden: true});
  const detach = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-detach",
    on: {click: () => { following = false; draw(); }}});
  const rejoin = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-rejoin",
    on: {click: () => { following = true; if (lastView) follow(lastView); draw(); }}});
  const bar = h("div", {class: "ae-room-bar", hidden: true}, status, detach, rejoin);
  const error = h("p", {class: "ae-effect ae-warn", "data-testid": "room-error", role: "status", hidden: true});
  const drawLabels = texts([[openButton, "room_open"], [title, "room_title"], [codeLabel, "room_code"],
    [countLabel, "room_count"], [detach, "room_detach"], [rejoin, "room_rejoin"], [askTopKey, "poll_ask_top_key"],
    [askScale, "poll_ask_what_if_scale"], [askMask, "poll_ask_what_if_causal"], [askHeads, "poll_ask_what_if_heads"],
    [askOutput, "poll_ask_output"],
    [revealButton, "poll_reveal"], [numbersLabel, "poll_numbers"], [submit, "poll_submit"]]);

  function submitNumbers() {
    if (!poll || poll.revealed || lecturer) return;
    const parsed = parseAnswer(numbers.value, ctx.constants.checker);
    if (parsed.error) { showError(...parsed.error); return; }  // said here: nothing goes
    send({type: "answer", code: joining, number: poll.number, text: numbers.value});
  }

  // The question, its choices and, once revealed, the counts, the truth and the student's own verdict.
  // drawn again only when the question, the answer, the sentence or the language changes, not on
  // every repaint of the page (a click on a token)
  let pollDrawn = "";
  function drawPoll() {
    const t = current && current.t;
    if (!t) return;
    const key = [current.lang, current.cube ? current.cube.serial : "", JSON.stringify(poll), JSON.stringify(myAnswer), !!lecturer].join("|");
    if (key === pollDrawn) return;
    pollDrawn = key;
    const open = !!poll && !poll.revealed;
    pollCard.hidden = !poll;
    revealButton.hidden = !lecturer || !open;
    answers.hidden = !lecturer || !poll;
    if (!poll) return;
    const {what_if: whatIf, outcomes} = ctx.constants.questions;
    const tokens = poll.tokens;  // the question's sentence's, whatever sentence this page shows
    const query = tokens[poll.view.query] || "?", head = Math.max(0, poll.view.head_view) + 1;
    // each choice's words: a token, a what_if answer, an output's outcome (the histogram's rows)
    const labels = poll.kind === "top_key" ? tokens : poll.kind === "what_if" ? whatIf.map((name) => t(`poll_choice_${name}`))
      : outcomes.map((name) => t(`poll_outcome_${name}`));
    const flipTo = poll.to;  // a what_if's switch as it asks about it (on or off; a head count)
    question.textContent = poll.kind === "top_key" ? t("poll_top_key", {query})
      : poll.kind === "output" ? t("poll_output", {query, head})
        : poll.change === "heads" ? t("poll_what_if_heads", {query, head, heads: poll.to, piece: poll.piece + 1})
          : poll.change === "scale" ? (flipTo ? t("poll_what_if_scale_on", {query}) : t("poll_what_if_scale_off", {query}))
            : flipTo ? t("poll_what_if_causal_on", {query}) : t("poll_what_if_causal_off", {query});
    const choosing = poll.kind !== "output";
    choices.replaceChildren(...(choosing ? labels : []).map((label, j) => h("button", {type: "button", class: "ae-chip",
      "data-testid": `poll-choice-${j}`, "aria-pressed": String(myAnswer === j), disabled: !open || !!lecturer, text: label,
      on: {click: () => send({type: "answer", code: joining, number: poll.number, choice: j})}})));
    choices.hidden = !!lecturer || !choosing;  // the lecturer asks; the projector shows the counts once revealed
    typing.hidden = !!lecturer || choosing;
    numbers.disabled = submit.disabled = !open;
    const typed = myAnswer && typeof myAnswer === "object" ? myAnswer.text : null;
    if (typed !== null && document.activeElement !== numbers && numbers.value === "") numbers.value = typed;  // a reload
    typedLine.hidden = typed === null;
    if (typed !== null) typedLine.textContent = t("poll_submitted", {text: typed});
    result.hidden = !poll.revealed || !!lecturer || myAnswer === null || myAnswer === undefined;
    histogram.hidden = detail.hidden = !poll.revealed;
    if (!poll.revealed) return;
    // an output's rows: the outcomes someone had, and always the right one
    const rows = poll.histogram.map((n, j) => j).filter((j) => choosing || poll.histogram[j] > 0 || j === poll.truth);
    const most = Math.max(1, ...poll.histogram);
    histogram.replaceChildren(...rows.map((j) => {
      const n = poll.histogram[j], right = j === poll.truth || (!choosing && outcomes[j] === "rounded");
      return h("li", {class: right ? "ae-poll-truth" : "", "data-choice": choosing ? j : outcomes[j], "data-count": n,
        "data-truth": String(right)},
      h("span", {class: "ae-poll-label", text: labels[j]}),
      h("span", {class: "ae-poll-bar", style: `width:${(100 * n / most).toFixed(1)}%`}),
      h("span", {class: "ae-poll-count", text: right ? `${n} ✓` : String(n)}));
    }));
    const numbersOf = (vector) => "(" + vector.map((x) => x.toFixed(3)).join(", ") + ")";
    const moved = poll.kind === "what_if" ? {key: tokens[poll.detail.top_before], before: poll.detail.before.toFixed(3),
      after: poll.detail.after.toFixed(3), after_key: tokens[poll.detail.top_after], after_top: poll.detail.after_top.toFixed(3),
      heads: poll.to, piece: poll.piece + 1} : null;
    detail.textContent = moved ? (poll.change === "heads" ? t("poll_what_if_heads_detail", moved) : t("poll_what_if_detail", moved))
      : poll.kind === "output" ? t("poll_exact", {exact: numbersOf(poll.detail.exact)}) : "";
    detail.hidden = !detail.textContent;
    if (lecturer || myAnswer === null || myAnswer === undefined) return;
    if (choosing) {
      const right = myAnswer === poll.truth;
      result.dataset.status = right ? "correct" : "wrong";
      result.textContent = poll.kind === "top_key"
        ? (right ? t("poll_correct", {key: labels[poll.truth]}) : t("poll_wrong", {key: labels[poll.truth]}))
        : (right ? t("poll_correct_choice", {choice: labels[poll.truth]}) : t("poll_wrong_choice", {choice: labels[poll.truth]}));
    } else {  // the checker's verdict on the student's own numbers (Python's, as the page's checker words it)
      result.dataset.status = myAnswer.status;
      result.textContent = verdictText(t, myAnswer, "hint_");
    }
  }

  function draw() {
    const t = current ? current.t : null;
    openButton.hidden = !served || !!lecturer || !!joining;
    panel.hidden = !lecturer;
    bar.hidden = !joining;
    if (!t) return;
    fold.textContent = fold.getAttribute("aria-expanded") === "true" ? t("room_fold") : t("room_unfold");
    if (joining) {
      status.hidden = false;
      status.dataset.state = following ? "following" : "exploring";
      status.textContent = following ? t("room_following", {code: joining}) : t("room_exploring", {code: joining});
      detach.hidden = !following;
      rejoin.hidden = following;
    }
  }

  function showError(key, values = {}) {
    if (!current) return;
    const known = {err_room_no_room: current.t("err_room_no_room"), err_room_not_lecturer: current.t("err_room_not_lecturer"),
      err_room_room_full: current.t("err_room_room_full", values), err_room_full: current.t("err_room_full", values),
      err_room_bad_view: current.t("err_room_bad_view", values), err_room_slow_down: current.t("err_room_slow_down"),
      err_room_need_redis: current.t("err_room_need_redis"), err_room_unreachable: current.t("err_room_unreachable"),
      err_room_needs_server: current.t("err_room_needs_server"), err_room_bad_link: current.t("err_room_bad_link"),
      err_room_poll_presets: current.t("err_room_poll_presets"), err_room_poll_one_head: current.t("err_room_poll_one_head"),
      err_room_no_view: current.t("err_room_no_view"), err_room_no_poll: current.t("err_room_no_poll"),
      err_room_bad_answer: current.t("err_room_bad_answer"), err_room_bad_question: current.t("err_room_bad_question"),
      err_room_bad_numbers: current.t("err_room_bad_numbers"), err_room_poll_no_more_heads: current.t("err_room_poll_no_more_heads", values),
      err_room_poll_tie: current.t("err_room_poll_tie"), err_room_unavailable: current.t("err_room_unavailable"),
      err_room_poll_model_switches: current.t("err_room_poll_model_switches"), err_room_poll_model_kind: current.t("err_room_poll_model_kind")};
    // the room's refusals by their code; a typed answer the page could not read, in the checker's words
    error.textContent = known[key] || (key.startsWith("err_room_") ? current.t("err_room_bad_message") : current.t(key, values));
    error.hidden = false;
  }

  function follow(view) {
    lastView = view;
    if (!following || !view) return;
    const changes = followChanges(view, state);
    if (Object.keys(changes).length) actions.set(changes);
  }

  function drawQr(rows) {
    const size = rows.length, quiet = 4, side = size + 2 * quiet;
    const svg = s("svg", {viewBox: `0 0 ${side} ${side}`, class: "ae-room-qr-svg", role: "img", "shape-rendering": "crispEdges",
      "aria-label": current ? current.t("room_qr") : "QR"});
    svg.append(s("rect", {x: 0, y: 0, width: side, height: side, fill: "#ffffff"}));
    // one path of unit squares: a 41 × 41 code is one element, not 800
    let d = "";
    rows.forEach((row, y) => { for (let x = 0; x < row.length; x++) if (row[x] === "1") d += `M${x + quiet},${y + quiet}h1v1h-1z`; });
    svg.append(s("path", {d, fill: "#000000"}));
    qr.replaceChildren(svg);
    qr.dataset.size = String(size);
  }

  function studentsLink(roomCode) {
    const url = new URL(window.location.href);
    url.search = `?room=${roomCode}`;
    url.hash = "";
    return url.toString();
  }

  function receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "error") {
      if (message.code === "not_lecturer" || (message.code === "no_room" && lecturer)) {  // the room is gone
        lecturer = null;
        try { window.sessionStorage.removeItem(STORED); } catch (err) { /* storage refused: nothing kept */ }
      }
      showError(`err_room_${message.code}`, message.values || {});
      draw();
      return;
    }
    error.hidden = true;
    if (message.type === "opened" || message.type === "lecturing") {
      lecturer = {code: message.code, secret: message.secret || lecturer.secret};
      poll = null;  // a new room (the last one gone) has no question yet; a taken-up one says its own
      answerCount = 0;
      countSeq = -1;
      try { window.sessionStorage.setItem(STORED, JSON.stringify(lecturer)); } catch (err) { /* kept for this page only */ }
      const url = studentsLink(lecturer.code);
      code.textContent = lecturer.code;
      link.textContent = url;
      link.href = url;
      count.textContent = String(message.count || 0);
      if (message.type === "lecturing" && message.poll) {  // a reload: the question asked before it, and its answers
        poll = message.poll;
        answerCount = message.answers;
        answers.textContent = current ? current.t("poll_answers", {count: answerCount}) : "";
      }
      send({type: "qr", code: lecturer.code, secret: lecturer.secret, link: url});
      sent = "";
      drive();
    } else if (message.type === "qr") {
      drawQr(message.rows);
    } else if (message.type === "count") {
      // from several processes, an earlier count can arrive later: the store numbers them
      if (message.seq === undefined || message.seq > countSeq) {
        countSeq = message.seq === undefined ? countSeq : message.seq;
        count.textContent = String(message.count);
      }
    } else if (message.type === "joined" || message.type === "view") {
      if (message.type === "joined") {
        if (!message.poll || !poll || message.poll.number !== poll.number) numbers.value = "";  // another question now
        poll = message.poll;
        myAnswer = message.answer;
      }
      follow(message.view);
    } else if (message.type === "poll") {
      poll = message.poll;
      myAnswer = null;
      answerCount = 0;
      numbers.value = "";
      answers.textContent = current ? current.t("poll_answers", {count: 0}) : "";
    } else if (message.type === "answered") {
      myAnswer = message.answer;
    } else if (message.type === "answers") {
      // answers only grow; from several processes a count made earlier can arrive later: keep the largest
      if (poll && message.number === poll.number) answerCount = Math.max(answerCount, message.count);
      answers.textContent = current ? current.t("poll_answers", {count: answerCount}) : "";
    } else if (message.type === "revealed") {
      poll = message.poll;
      if (message.answer !== undefined) myAnswer = message.answer;  // a student's own, with its verdict
    }
    // while a question is open, what would give its answer away is hidden (snapshot.js polling): on
    // the students' pages, and on the lecturer's, which the class sees on the projector
    const hiding = (!!lecturer || !!joining) && !!poll && !poll.revealed;
    if (hiding !== !!ctx.local.polling) actions.setLocal({polling: hiding});
    draw();
    drawPoll();
  }

  function connect() {
    if (socket || (!lecturer && !joining && !served)) return;
    const url = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/room`;
    try { socket = new WebSocket(url); } catch (err) { showError("err_room_unreachable"); return; }
    socket.addEventListener("open", () => {
      retry = RETRY_MS;
      reached = true;
      if (lecturer) socket.send(JSON.stringify({type: "lecture", code: lecturer.code, secret: lecturer.secret}));
      if (joining) socket.send(JSON.stringify({type: "join", code: joining, student: studentToken()}));
      while (queue.length) socket.send(queue.shift());
    });
    socket.addEventListener("message", (event) => {
      try { receive(JSON.parse(event.data)); } catch (err) { /* not ours */ }
    });
    socket.addEventListener("close", () => {
      socket = null;
      if (!reached) { queue.length = 0; showError("err_room_unreachable"); return; }
      if (!lecturer && !joining) return;
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
  return {
    el: [panel, bar, error, pollCard],
    button: openButton,
    update(snap) {
      current = snap;
      drawLabels(snap);
      draw();
      drawPoll();
      if (lecturer) drive();
    },
  };
}
