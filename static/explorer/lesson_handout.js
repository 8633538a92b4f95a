// A lesson's printable handout (explorer.css @media print): every stop on a page of its own — its
// title, its figure, its note and its question — and the answers on the last page. Each figure is
// drawn by the page's own views from the stop's view, so it shows the numbers the stop shows: the
// weights' bars, or where the weights are not shown yet (before softmax, or a stop that asks for a
// prediction: no answer is given away) the calculation as far as the stop goes. Built when asked,
// shown in the page with its print button, gone when closed. Nothing a lesson says becomes HTML.

import { h } from "./dom.js";
import { createBars } from "./bars.js";
import { createCalculation } from "./calculation.js";
import { figureState } from "./figure.js";
import { KINDS } from "./room_poll.js";
import { makeSnapshot, weightsShown } from "./snapshot.js";

const NO_NOTICES = Object.freeze({items: Object.freeze([]), version: 0});

// `stopChanges(stop, …)`: the view changes that open a stop (lesson.js).
export function createHandout(ctx, stopChanges) {
  const {state, constants, actions} = ctx;
  const heading = h("h2", {"data-testid": "handout-title"});
  const hint = h("p", {class: "ae-hint ae-no-print", "data-testid": "handout-hint"});
  const print = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-handout-print", on: {click: () => window.print()}});
  const close = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-handout-close", on: {click: () => clear()}});
  const pages = h("div", {class: "ae-handout-pages"});
  const el = h("section", {class: "ae-card ae-handout", "data-testid": "lesson-handout-pages", hidden: true},
    h("div", {class: "ae-card-head ae-no-print"}, heading, h("span", {class: "ae-inline"}, print, close)), hint, pages);
  const rootOf = () => el.closest(".ae-root") || el;
  let built = 0;  // the newest build: an older one still waiting for a sentence stops there

  function clear() {
    built += 1;
    el.hidden = true;
    pages.replaceChildren();
    delete el.dataset.state;
    rootOf().classList.remove("ae-handout-open");
  }

  // The handout of `lesson` in the language of `snap`.
  async function build(lesson, snap) {
    const number = ++built, t = snap.t, english = snap.lang !== constants.languages[0];
    const pick = (ko, en) => (english && en ? en : ko);
    el.hidden = false;
    el.dataset.state = "building";
    rootOf().classList.add("ae-handout-open");  // the print stylesheet prints it alone
    heading.textContent = t("handout_title", {title: pick(lesson.title, lesson.title_en)});
    hint.textContent = t("handout_hint");
    print.textContent = t("handout_print");
    close.textContent = t("handout_close");
    pages.replaceChildren();
    const stops = [], answers = [];
    let view = {...state, step: -1, mode: constants.modes[0]};  // a stop that names no sentence keeps the last one's
    for (const [i, stop] of lesson.stops.entries()) {
      const read = () => stopChanges(stop, {cubes: ctx.cubes, models: ctx.catalog.models, state: view, constants});
      let found = read();
      if (found.waiting && await actions.entryWhole(found.changes.source)) found = read();  // a model's whole entry first
      view = {...view, ...found.changes, mode: constants.modes[0], checking: !!stop.question};
      await actions.viewWhole(view);
      if (number !== built) return;
      const stopSnap = makeSnapshot({state: view, cubes: ctx.cubes, catalog: ctx.catalog, local: {}, constants,
        lang: snap.lang, t, notices: NO_NOTICES});
      const q = stop.question, kind = q ? {...constants.questions.kinds[q.kind], ...KINDS[q.kind]} : null;
      const asked = q ? kind.question(q, t, {query: q.tokens[q.view.query] || "?", head: Math.max(0, q.view.head_view) + 1}) : "";
      const labels = q ? kind.labels(q, t, kind.outcomes) : [];
      stops.push(h("article", {class: "ae-handout-stop", "data-testid": "handout-stop", "data-stop": String(i + 1)},
        h("h3", {text: t("handout_stop", {stop: i + 1, title: pick(stop.title, stop.title_en)})}),
        figure(stopSnap),
        h("p", {class: "ae-lesson-note", "data-testid": "handout-note", text: pick(stop.note, stop.note_en)}),
        ...(q ? [h("div", {class: "ae-handout-question", "data-testid": "handout-question"},
          h("p", {text: `${t("handout_question")} ${asked}`}),
          kind.typed ? h("p", {class: "ae-handout-blank", text: t("handout_your_answer")})
            : h("ol", {class: "ae-handout-choices"}, ...labels.map((label) => h("li", {text: label}))))] : [])));
      if (q) {
        const said = kind.typed ? kind.detail(q, t) : [t("handout_choice", {choice: labels[q.truth]}), kind.detail(q, t)].filter(Boolean).join(" ");
        answers.push(h("li", {"data-testid": "handout-answer", "data-stop": String(i + 1),
          text: t("handout_answer", {stop: i + 1, answer: said})}));
      }
    }
    const last = h("article", {class: "ae-handout-stop ae-handout-answers", "data-testid": "handout-answers"},
      h("h3", {text: t("handout_answers")}), h("ol", {}, ...answers));
    pages.replaceChildren(...stops, ...(answers.length ? [last] : []));
    el.dataset.state = "ready";
    el.dataset.stops = String(stops.length);
    if (el.scrollIntoView) el.scrollIntoView({block: "start"});
  }

  // A stop's figure: the page's bars of its weights, or its calculation as far as it shows.
  function figure(snap) {
    if (snap.status !== "ready") return h("p", {class: "ae-hint", text: snap.t("handout_no_figure")});
    const view = weightsShown(snap) ? createBars() : createCalculation(ctx);
    view.update(snap);
    // the sentence and the view the figure is of (the caption the page's figure has)
    const said = h("p", {class: "ae-hint", "data-testid": "handout-view", text: `${snap.cube.tokens.join(" ")} — ${figureState(snap)}`});
    return h("div", {class: "ae-handout-figure", "data-testid": "handout-figure",
      "data-figure": weightsShown(snap) ? "bars" : "calculation"}, said, view.el);
  }

  // A lesson that is gone (or the page in lecture mode) takes its handout with it.
  function update(shown) {
    if (!shown && !el.hidden) clear();
  }

  return {el, build, update};
}
