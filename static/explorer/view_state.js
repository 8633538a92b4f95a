// The view the student asked for (app/explorer.py AttentionView's params: source, query, switches,
// heads, …), held in the page as a plain object.
//
// click-cost: reading a param off a served page's Panel model builds the dict of all the model's
// attributes on every read (panel/models/reactive_esm.ts model_getter); and writing one sends it to
// Python there and then. A snapshot reads about thirty: the page reads them here. A change the page
// makes is written to the model (and so to Python) at once, except the query, which every click and
// arrow key changes and only Python's requests and a notebook read: it is written once the student
// pauses (PAUSE_MS after the last change), before any request (flush), and before the page goes.
// A change Python makes (a notebook, a reply) comes back through the model's events.

export const PAUSE_MS = 200;

// `names`: the params mirrored; `changed()`: called after every change, the page's or Python's.
export function createViewState(model, names, changed, {pauseMs = PAUSE_MS} = {}) {
  const state = {};
  for (const name of names) state[name] = model[name];
  const due = new Map();  // name → the value waiting for the pause
  let timer = null;
  for (const name of names) {
    model.on(name, () => {  // Python's change, or the model echoing the page's own
      const value = model[name];
      due.delete(name);
      if (value === state[name]) return;  // the page's own write: on show already
      state[name] = value;
      changed();
    });
  }
  const write = (name, value) => { if (model[name] !== value) model[name] = value; };
  function flush() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    const waiting = [...due];
    due.clear();
    for (const [name, value] of waiting) write(name, value);
  }
  return {
    state,
    // `changes` ({name: value}) on show at once; written to the model now, or, with onPause, once
    // the student pauses. A param that is not mirrored goes to the model as it is.
    set(changes, {onPause = false} = {}) {
      for (const [name, value] of Object.entries(changes)) {
        if (!(name in state)) { model[name] = value; continue; }
        state[name] = value;
        if (onPause) {
          due.set(name, value);
        } else {
          due.delete(name);
          write(name, value);
        }
      }
      if (onPause) {
        if (timer !== null) clearTimeout(timer);
        timer = setTimeout(flush, pauseMs);
      }
      changed();
    },
    flush,
    // Whether a change waits for the pause.
    pending: () => due.size > 0,
  };
}
