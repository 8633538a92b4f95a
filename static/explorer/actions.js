// What a view may do to the page (ctx.actions): change the view, the query, the page's own state;
// send the student's sentence or numbers; open a practice problem or a model; measure an ablation;
// show and dismiss notices. Each changes the store (page_store.js) or asks Python (loading.js).

import { modelShown, openingChanges, queryShown } from "./snapshot.js";
import { sourceOf } from "./source.js";

// `root`: the page's element (a dismissed notice gives it the focus back).
export function createActions(store, loading, requests, {constants, offered, schedule, root}) {
  const {state, local, link, viewState} = store;
  const actions = {
    set(changes) {
      link.held = false;
      loading.whenWhole(changes.source, () => viewState.set(changes));
    },
    // A model at its opening view (its switches, first token view, last word as the query).
    openModel(entry) {
      loading.whenWhole(sourceOf(entry), (whole) => actions.set({source: sourceOf(whole), ...openingChanges(whole)}));
    },
    setQuery(index) {
      const current = store.current;
      if (!current || current.status !== "ready" || current.practising) return;  // a problem asks about its own query
      link.held = false;
      viewState.set({query: queryShown(current.cube, index)}, {onPause: true});
    },
    // The page's own state (errors of the last request, the checker's verdict).
    setLocal(changes) { Object.assign(local, changes); schedule(); },
    // A request for the student's own sentence, numbers or W: the newest one counts.
    send: (message, options) => loading.sendOwn(message, options),
    redraw: schedule,
    // Practice problem `number`: from the file's bank where there is one, else asked of Python.
    openPractice(number) {
      const bank = offered("practice_bank") || [];
      if (bank.length) {
        const entry = bank[number - 1];
        if (entry) loading.showPractice(entry);
        else actions.notify("notice_practice", {value: number, last: bank.length});
      } else if (state.lab) {  // the URL keeps practice= until the problem is here
        requests.ask("practice", {type: "practice", number}).then((reply) => {
          if (reply.ok) loading.showPractice(reply.entries[0]);
          else actions.notify("notice_practice", {value: number, last: constants.practice.max});
        });
      } else {
        actions.notify("needs_server", {});
      }
    },
    sendSentence(text, query, options) {
      // a model that takes typed sentences, on show, runs it; else it is the toy sentence
      const shown = modelShown(state, store.catalog.models, constants.kinds);
      const through = shown && shown.entry.typable ? shown.entry.name : null;
      return actions.send({type: "sentence", text, query, model: through}, options);
    },
    // What a view shows with its numbers here (a promise of its cube, or null); the whole entry a
    // source names (a promise of whether it is here).
    viewWhole: (view) => loading.viewWhole(view),
    entryWhole: (source) => loading.entryWhole(source),
    // A lesson a link carries or names, read and checked by Python: its reply ({ok, lesson | error}).
    askLesson: (message) => requests.ask("lesson", {type: "lesson", name: null, text: null, ...message}),
    // A lesson being written, checked by Python as it is typed: its reply ({ok, lesson: {problems}}).
    checkLesson: (text) => requests.ask("lesson_check", {type: "lesson_check", text}),
    // What a causal model says next (app.models.next_entry): its reply ({ok, entries | error}).
    askNext: (message) => requests.ask(`next:${message.model}`, {type: "next", ...message}),
    // The logit lens at every position of the sentence (app.models.lens_entry): its reply.
    askLens: (message) => requests.ask(`lens:${message.model}`, {type: "lens", ...message}),
    // A model's head removed and the model run again (loading.js), and what the page has of it for
    // a head cube: its percent per query, "waiting", or undefined.
    measureAblation: (cube) => loading.measureAblation(cube),
    ablationOf: (cube) => loading.ablationOf(cube),
    // what removing the head does to a causal model's next token (with its ablation), or null
    nextChangeOf: (cube) => loading.nextChangeOf(cube),
    notify: (key, values) => store.notify(key, values),
    dismiss(index) {
      store.notices.items = store.notices.items.filter((_, i) => i !== index);
      store.notices.version += 1;
      root.focus({preventScroll: true});  // the pressed button is gone
      schedule();
    },
  };
  return actions;
}
