// An assigned link (?assign=ID, app/assignments.py): a room's questions for the students who missed
// the lecture, answered at their own pace before the deadline. Each question opens its view (the
// weights and the output hidden until answered, as in a lesson walked alone), its words and choices
// are a room's (room_poll.js), and each answer is judged at once by the server's checker and kept
// once. The identity the server signs for this link is kept in the browser, so a reload shows the
// answers given. Everything a student typed is set as text.

import { h } from "./dom.js";
import { createPollCard } from "./room_poll.js";
import { createRoomConnection } from "./room_connection.js";
import { followChanges, store, stored } from "./room_shared.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

// The page of an assigned link `id` (assignment_link.js loads this module for such a link only).
export function createAssigned(ctx, id) {
  const {actions, state, constants} = ctx;
  const identityKey = `ae-assign:${id}`;
  let data = null, current = 1, answers = {}, errorKey = null, errorValues = {}, closed = false;
  let shownAt = Date.now();  // when the question on show was shown: the report's time to answer
  let student = stored("localStorage", identityKey, null);
  // the questions moved past unanswered (scored 0, said first): kept, so that none is answered after
  // a later question's view may have shown its answer
  const skippedKey = `ae-assign-skipped:${id}`;
  const skipped = new Set(stored("localStorage", skippedKey, []));
  let warned = null;  // the question whose skip was said: the next press takes it
  const title = h("h2", {"data-testid": "assignment-title"});
  const progress = h("span", {class: "ae-hint", "data-testid": "assignment-progress"});
  const deadline = h("p", {class: "ae-hint", "data-testid": "assignment-deadline"});
  const nameLabel = h("span");
  const nameInput = h("input", {type: "text", class: "ae-input", maxlength: 80, autocomplete: "off", "data-testid": "assignment-name"});
  const nameLine = h("label", {class: "ae-assignment-name", hidden: true}, nameLabel, " ", nameInput);
  const error = h("p", {class: "ae-effect ae-warn", role: "status", "data-testid": "assignment-error", hidden: true});
  const prev = h("button", {type: "button", class: "ae-chip", "data-testid": "assignment-prev", on: {click: () => go(current - 1)}});
  const next = h("button", {type: "button", class: "ae-chip", "data-testid": "assignment-next", on: {click: () => moveOn()}});
  const card = createPollCard(ctx, {answer(value) {
    if (!data || answers[current] || closed || skipped.has(current)) return;
    send({type: "assigned", id, student, number: current, ...value, student_name: nameInput.value,
      seconds: Math.round((Date.now() - shownAt) / 100) / 10});
  }});
  const el = h("section", {class: "ae-card ae-assignment", "data-testid": "assignment", hidden: !id},
    h("div", {class: "ae-card-head"}, title, h("span", {class: "ae-inline"}, progress, prev, next)), deadline, nameLine, error, card.el);

  const connection = createRoomConnection({
    wanted: () => !!id,
    hello: () => [{type: "assignment", id, ...(student ? {student} : {})}],
    receive, staying: () => !!id && !closed, lost: () => {},
    unreachable: () => say("err_room_unreachable"),
  });
  const send = connection.send;

  function say(key, values = {}) {
    errorKey = key;
    errorValues = values;
    actions.redraw();
  }
  // The first question neither answered nor moved past (from 1; past the last: the last).
  const firstOpen = () => {
    const at = data.questions.findIndex((q) => !answers[q.number] && !skipped.has(q.number));
    return at < 0 ? data.questions.length : at + 1;
  };
  // On from the question on show: past an open one only on the second press, scored 0 (said first).
  function moveOn() {
    if (data && !answers[current] && !skipped.has(current)) {
      if (warned !== current) { warned = current; say("lesson_skip_warning"); return; }
      skipped.add(current);
      store("localStorage", skippedKey, [...skipped]);
    }
    go(current + 1);
  }
  // Question `number` (from 1): its view on show, its answer hidden until given; none past the
  // first question still open.
  function go(number) {
    if (!data) return;
    current = Math.min(Math.max(1, number), data.questions.length, firstOpen());
    warned = null;
    shownAt = Date.now();
    const question = data.questions[current - 1];
    // its answer held as a lesson's is (app/stop_shows.py HELD), until answered
    actions.setLocal({held: answers[current] ? null : {kind: question.kind, change: question.change || null}});
    actions.set({...followChanges(question.view, state, constants.view), checking: !answers[current],
      ...(answers[current] ? {step: -1} : {})});
    card.clear();
    errorKey = skipped.has(current) ? "lesson_skipped" : null;
    errorValues = {answer: ""};
    actions.redraw();
  }
  function receive(message) {
    if (!message || typeof message !== "object") return;
    if (message.type === "assignment") {
      data = message;
      student = message.student;
      store("localStorage", identityKey, student);
      answers = {...message.answers};
      go(firstOpen());
    } else if (message.type === "assigned") {
      answers[message.number] = message;
      if (message.number === current) {  // answered: the view shows its numbers, every step
        actions.setLocal({held: null});
        actions.set({checking: false, step: -1});
      }
      errorKey = null;
      actions.redraw();
    } else if (message.type === "error") {
      if (message.code === "assignment_closed" || message.code === "no_assignment") { closed = true; data = null; }
      say(`err_room_${message.code}`, message.values || {});
    }
  }
  if (id && typeof window !== "undefined" && /^https?:$/.test(window.location.protocol)) connection.connect();
  else if (id) setTimeout(() => say("err_room_needs_server"));

  return {
    el,
    update(snap) {
      el.hidden = !id;
      if (!id) return;
      const {t} = snap;
      title.textContent = t("assignment_title");
      prev.textContent = t("assignment_prev");
      next.textContent = t("assignment_next");
      nameLabel.textContent = t("assignment_name");
      el.dataset.state = closed ? "closed" : data ? "open" : "waiting";
      error.hidden = !errorKey;
      if (errorKey) error.textContent = t(errorKey, errorValues);
      nameLine.hidden = !data || !data.ask_name;
      prev.hidden = next.hidden = progress.hidden = deadline.hidden = !data;
      if (!data) { card.draw(snap, {poll: null}); return; }
      const total = data.questions.length;
      el.dataset.question = String(current);
      el.dataset.answered = String(Object.keys(answers).length);
      progress.textContent = t("assignment_progress", {number: current, total, answered: Object.keys(answers).length});
      deadline.textContent = t("assignment_deadline", {when: new Date(data.deadline * 1000).toLocaleString(snap.lang)});
      prev.disabled = current <= 1;
      next.disabled = current >= total;
      const given = answers[current];
      card.draw(snap, given ? {poll: given.poll, mine: given.answer, lecturer: false, away: false}
        : {poll: data.questions[current - 1], mine: null, lecturer: false, away: false});
    },
  };
}
