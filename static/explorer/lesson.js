// A lesson (docs/lessons.md, app/lessons.py): its stops, each a view of the page with a note, walked
// with the buttons and the keys a presentation clicker sends (keyboard.js). Python sends the lesson
// (the `lesson` catalog, checked against the core: app/lesson_check.py); the stop on show is the view
// param `stop` (from 1), in the link. A stop's view is read as a link is (url.js parseUrl), so a stop
// opens exactly what its link would. Nothing a lesson says becomes HTML: it is set as text.

import { h } from "./dom.js";
import { createHandout } from "./lesson_handout.js";
import { carriesText, decodeLesson } from "./lesson_link.js";
import { answeredStep, createPredict, practicePending, progressOf, saveProgress } from "./lesson_predict.js";
import { linkedValues } from "./url_writer.js";
import { parseUrl } from "./url.js";
import { entryOf } from "./source.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

// The view changes that open `stop`: its parameters read as a link's; what it does not say (the
// step, the head shown alone, the switches) back to the declared defaults, so that no stop inherits
// the last one's view. `waiting`: a model whose whole entry must come first (its head cannot be
// read from the stop until then: open it, and read the stop again).
export function stopChanges(stop, {cubes, models, state, constants}) {
  const params = new URLSearchParams(stop.view);
  // a typed sentence (text=) or a practice problem (practice=): what it asks of Python or the bank
  const found = parseUrl("?" + stop.view, {cubes, models, state, constants, lab: !!state.lab});
  const changes = {...found.changes};
  const asks = found.pending && (found.pending.practice || found.pending.text !== undefined) ? found.pending : null;
  const entry = changes.source ? entryOf(changes.source, {cubes, models, kinds: constants.kinds}) : null;
  if (entry && entry.later) return {changes: {source: changes.source}, notices: [], waiting: true};
  if (!params.has("step")) changes.step = -1;
  for (const param of constants.view) {
    const key = param.link ? param.link.key || param.name : param.name;
    if (param.link && param.link.read === "view" && !params.has(key) && !(param.name in changes)) changes[param.name] = param.default;
  }
  return {changes, notices: found.notices, waiting: false, asks};
}

// Where the entry gives no authoring (an exported file: no Python to check what is written), the
// button that would start it stays hidden.
function noAuthor(ctx, lesson, linkedOf, start) {
  start.hidden = true;
  return {el: h("div", {hidden: true}), start, update() { start.hidden = true; }, editing: () => false,
    refusal: () => ({where: "", problem: ""})};
}

// Which way the page shows a lesson (app/stop_shows.py MODES: constants.stop_shows.modes' names).
export function pageMode(ctx, room) {
  const [, lecture, self] = ctx.constants.modes;
  if (room.lecturing()) return "lecture_room";
  if (room.inClass()) return "phone";
  if (ctx.state.mode === lecture) return window.parent !== window ? "deck" : "lecture";
  if (ctx.state.mode === self) return ctx.sco ? "scorm" : "self";
  return "normal";
}

// The first stop (from 1) whose question is still open in `progress` (a walk alone), or Infinity.
export function firstOpen(lesson, progress) {
  const at = lesson.stops.findIndex((stop, i) => stop.question && !progress.answers[i + 1]);
  return at < 0 ? Infinity : at + 1;
}

// The stop to show, from 1: the one asked for, kept inside the lesson.
export const stopShown = (lesson, stop) => Math.min(Math.max(1, Number.isInteger(stop) ? stop : 1), lesson.stops.length);

// `made`: the page's views by name (a stop brings its card into view).
// given: {start, asked} from lesson_lazy.js: the button that starts writing a lesson, which the
// author takes over, and the link's lesson= as the page opened.
export function createLesson(ctx, made, {start, asked: linked, createAuthor = null}) {
  const {state, actions, offered, constants} = ctx;
  const title = h("strong", {class: "ae-lesson-title", "data-testid": "lesson-title"});
  const count = h("span", {class: "ae-lesson-count", "data-testid": "lesson-count"});
  const prev = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-prev", on: {click: () => move(-1)}});
  const next = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-next", on: {click: () => move(1)}});
  const stopTitle = h("h2", {class: "ae-lesson-stop", "data-testid": "lesson-stop-title"});
  const note = h("p", {class: "ae-lesson-note", "data-testid": "lesson-note"});
  const speaker = h("p", {class: "ae-hint ae-lesson-speaker", "data-testid": "lesson-speaker"});
  let draft = null;  // a lesson being written in the page (lesson_author.js), shown instead of Python's
  const lesson = () => {
    if (draft) return draft;
    if (made.room.inClass()) return null;  // a student in a room follows the room's stop: no stop bar of its own
    const shown = offered("lesson");
    return shown && Array.isArray(shown.stops) && shown.stops.length ? shown : null;
  };
  const author = (createAuthor || noAuthor)(ctx, {
    current: lesson,
    stop: () => (lesson() ? stopShown(lesson(), state.stop) : 1),
    show(written, stop, stay = false) {  // stay: the view on show stays (a note written)
      draft = written;
      if (written.stops.length && !stay) goTo(stop);
      else { if (written.stops.length) actions.set({stop}); actions.redraw(); }
    },
  }, (snap) => linkedValues(snap, state, constants.view), start);
  const predict = createPredict(ctx);
  const handout = createHandout(ctx, stopChanges);
  // the handout to print: every stop's figure, note and question, the answers last (not on a projector)
  const handoutButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-handout",
    on: {click: () => { if (lesson() && latest) handout.build(lesson(), latest); }}});
  const el = h("section", {class: "ae-card ae-lesson", "data-testid": "lesson", hidden: true, "aria-live": "polite"},
    h("div", {class: "ae-card-head"}, title, h("span", {class: "ae-lesson-nav"}, count, prev, next, handoutButton)), stopTitle, note, speaker,
    ...predict.el, author.el);
  let opened = null;  // the stop whose view the page was last given, "name|stop"
  // a room's lecturer: the stop whose question the class is asked once its view is on show, and
  // the stops asked already (going back to a stop does not ask the class again)
  let toAsk = null;
  const askedStops = new Set();
  let latest = null;  // the snapshot last drawn (the handout is built in its language)
  let sight = null;  // the card the stop on show brings into sight once drawn (goTo), or null
  let asked = linked;  // the link's lesson=
  const revealed = new Set();  // the projector: question stops the lecturer has revealed, "name|stop"
  const modeOf = () => constants.stop_shows.modes[pageMode(ctx, made.room)];


  // Go to stop `number` (from 1): its view, its card in sight.
  function goTo(number) {
    const shown = lesson();
    if (!shown) return;
    const mode = modeOf(), alone = mode.until === "answer", progress = alone ? progressOf(shown.name) : null;
    // walked alone: no stop past a question still open (moving on answers it: skip)
    const index = Math.min(stopShown(shown, number), alone ? firstOpen(shown, progress) : Infinity), stop = shown.stops[index - 1];
    const {changes, notices, waiting, asks} = stopChanges(stop, {cubes: ctx.cubes, models: ctx.catalog.models, state, constants});
    if (waiting) {  // a model's stop: its whole entry first, then the stop's head
      actions.entryWhole(changes.source).then((here) => { if (here) goTo(number); });
      return;
    }
    for (const [key, values] of notices) actions.notify(key, values);  // a lesson the check let through: say so
    opened = `${shown.name}|${index}`;
    // a question's answer stays hidden (app/stop_shows.py HELD) until the student predicts (alone)
    // or the lecturer reveals it (the projector); where a student is is kept
    if (alone) saveProgress(ctx, shown, {...progress, stop: index});
    // a try at a slip that waits for its answer: its query, its answer hidden
    const pending = alone ? practicePending(progress, index) : null;
    const open = !!stop.question && (alone ? !progress.answers[index] : mode.until === "reveal" && !revealed.has(opened));
    const answered = !!stop.question && !open && mode.held === "kind";  // the answer is shown, whatever the step
    actions.setLocal({held: open && mode.held === "kind" ? {kind: stop.question.kind, change: stop.question.change || null} : null});
    const step = answered ? answeredStep(changes.step, constants.stop_shows.held[stop.question.kind]) : changes.step;
    actions.set({...changes, ...(pending ? {query: pending.query} : {}), step, stop: index,
      checking: open || !!pending});
    // a stop on a typed sentence or a practice problem: Python reads the sentence again, the bank opens the problem
    if (asks && asks.practice) actions.openPractice(asks.practice);
    else if (asks) actions.sendSentence(asks.text, asks.query, {});
    toAsk = stop.ask && made.room.lecturing() && !askedStops.has(opened) ? {key: opened, index, ask: stop.ask} : null;
    sight = stop.card || "lesson";  // brought into sight once the stop's view is drawn (update)
  }
  // The stop's card in sight, or else the page's top (its header, the lesson's note, and the figure
  // under it: in lecture mode exactly the first screen): a stop after one that showed a card far
  // down the page must not leave the class looking at that card. Called after every view has drawn
  // the stop (a link that opens on a stop draws the card later).
  function bringIntoSight(name) {
    const card = name !== "lesson" && made[name];
    const target = card && card.el ? card.el.closest(".ae-card") || card.el : el.closest(".ae-root") || el;
    if (target.scrollIntoView) target.scrollIntoView({block: "start"});
    el.dataset.sight = name;  // what the stop brought into sight (tests wait for it)
  }
  // A lesson the link carries: its text, read and checked by Python (a file with no Python says so).
  async function openCarried(value) {
    if (!state.lab) { actions.notify("needs_server", {}); return; }
    let text;
    try { text = await decodeLesson(value); } catch (error) { actions.notify("notice_lesson_link", {}); return; }
    const reply = await actions.askLesson({text});
    if (!reply.ok) { actions.notify("err_lesson", author.refusal(reply.error.values)); return; }
    draft = reply.lesson;
    opened = null;  // opens at the link's stop
    actions.redraw();
  }
  // One stop on or back; at either end, tell the page around an embedded lesson (a slide deck), so
  // that the clicker goes on to its slides. Returns whether the lesson moved.
  function move(delta) {
    const shown = lesson();
    if (!shown) return false;
    const from = stopShown(shown, state.stop), to = from + delta, until = modeOf().until;
    if (delta > 0 && ctx.local.held && until === "reveal") {  // the projector: the first press reveals
      revealed.add(`${shown.name}|${from}`);
      const hold = constants.stop_shows.held[ctx.local.held.kind];
      actions.setLocal({held: null});
      actions.set({checking: false, step: answeredStep(state.step, hold)});
      return true;
    }
    // alone: moving past an open question is a skip (0), said first, taken on the second press
    if (delta > 0 && until === "answer" && !predict.skip(shown, from)) return true;
    if (to < 1 || to > shown.stops.length) {
      if (window.parent !== window) {
        window.parent.postMessage({source: "attention-explorer", type: "lesson-boundary", direction: delta < 0 ? "prev" : "next"}, "*");
      }
      return false;
    }
    goTo(to);
    return true;
  }

  function update(snap) {
    const shown = lesson();
    latest = snap;
    handout.update(shown && shown.stops.length ? shown : null);
    handoutButton.textContent = snap.t("lesson_handout");
    // the lecturer's handout at any time; a student's once every question is answered; none on a projector
    const handoutOf = shown && shown.stops.length ? modeOf().handout : null;
    handoutButton.hidden = !handoutOf || (handoutOf === "after_finish"
      && firstOpen(shown, progressOf(shown.name)) !== Infinity);
    if (asked !== null) {  // a lesson the link carries, or names but Python did not send (say which there are), once
      if (carriesText(asked)) openCarried(asked);
      else if (!shown || shown.name !== asked) actions.notify("notice_lesson", {value: asked, names: constants.lessons.join(", ")});
      asked = null;
    }
    el.hidden = !shown && !author.editing();
    if (!shown || !shown.stops.length) ctx.local.lessonNote = null;
    author.update(snap, shown ? stopShown(shown, state.stop) : 1);
    prev.textContent = snap.t("lesson_prev");
    next.textContent = snap.t("lesson_next");
    if (!shown || !shown.stops.length) {  // a lesson being written, with no stop yet
      title.textContent = shown ? shown.title : snap.t("lesson_new_title");
      for (const node of [count, stopTitle, note, speaker]) node.textContent = "";
      prev.disabled = next.disabled = true;
      delete el.dataset.stop;
      el.dataset.stops = "0";
      return;
    }
    const index = stopShown(shown, state.stop), stop = shown.stops[index - 1], english = snap.lang !== constants.languages[0];
    if (opened === null || !opened.startsWith(`${shown.name}|`)) {  // the lesson opens at its stop, or alone where the student was
      const kept = snap.mode === constants.modes[2] && state.stop === 1 ? progressOf(shown.name).stop : index;
      goTo(stopShown(shown, kept));
      return;
    }
    el.dataset.stop = String(index);
    el.dataset.stops = String(shown.stops.length);
    el.dataset.held = snap.held ? snap.held.kind : "";  // a question held (tests wait on it)
    title.textContent = english && shown.title_en ? shown.title_en : shown.title;
    count.textContent = snap.t("lesson_count", {stop: index, stops: shown.stops.length});
    prev.disabled = index <= 1 && window.parent === window;
    next.disabled = index >= shown.stops.length && window.parent === window;
    stopTitle.textContent = english && stop.title_en ? stop.title_en : stop.title;
    note.textContent = english && stop.note_en ? stop.note_en : stop.note;
    // the lecturer's own words: on the laptop (normal mode), never on the projector (lecture mode)
    const said = english && stop.speaker_en ? stop.speaker_en : stop.speaker;
    speaker.hidden = snap.mode !== constants.modes[0] || !said;  // nor to a student walking it alone
    speaker.textContent = said ? snap.t("lesson_speaker", {text: said}) : "";
    predict.update(snap, shown, index, modeOf());
    // what a room's students read with the stop (room_lecturer.js sends it with the view)
    ctx.local.lessonNote = {title: stop.title || "", note: stop.note || "", title_en: stop.title_en || "", note_en: stop.note_en || ""};
    if (sight && snap.status === "ready") {  // after this frame's views have drawn the stop
      const name = sight;
      sight = null;
      delete el.dataset.sight;
      requestAnimationFrame(() => bringIntoSight(name));
    }
    // the stop's view is on show (a preset may have had to arrive first): now the class is asked about it
    if (toAsk && toAsk.index === index && snap.status === "ready" && made.room.lecturing()) {
      askedStops.add(toAsk.key);
      made.room.ask(...toAsk.ask);
      toAsk = null;
    }
  }

  return {el, handout, update, active: () => !!lesson() && lesson().stops.length > 0, move, start: author.start};
}
