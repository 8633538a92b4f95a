// The page's state, owned in one place (docs/architecture.md "The page's state"): the view asked
// for (the model's params, mirrored by view_state.js), what only the page holds (`local`: why the
// last request was refused, the checker's last verdict; the notices; the link's held values), the
// sentences' cubes and the models' catalog, and the last snapshot drawn. Views read it through
// the snapshot (snapshot.js); actions (actions.js) and replies (loading.js) change it; every change
// calls `changed` once, which schedules one repaint.

import { Cube } from "./cube.js";
import { createViewState } from "./view_state.js";

// `offered`: the catalogs' reader (offered.js); `constants`: Python's (app/constants.py: `view`, every
// view param the page mirrors, declared in app/view_params.py; `kinds`); `changed()`: after a change.
export function createPageStore(model, offered, constants, changed) {
  const kinds = constants.kinds;
  let serial = 0;
  const cubes = new Map();
  const viewState = createViewState(model, constants.view.map((param) => param.name), changed);
  const store = {
    viewState,
    state: viewState.state,  // the view asked for: read by every view, changed through viewState.set
    cubes,  // a sentence's cube under its name; a model head's under the page's own key (snapshot.js modelShown)
    // the models on offer: Python's catalog, and those its replies added (a sentence typed through one);
    // the sentences its replies added (the student's own), kept when Python's catalog changes
    catalog: {models: [...(offered("models") || [])], sentences: new Map()},
    // what only the page holds: why the last request was refused, and the checker's last verdict
    local: {sentenceError: null, gridErrors: [], layerErrors: [], answer: null},
    notices: {items: [], version: 0},
    // a link with a value the page could not use keeps what was typed in it (`held`), so it can be
    // mended, until the student changes the view; `query`: a query= that came with text= or
    // numbers=, checked once they are here
    link: {held: false, query: null},
    asked: new Set(),  // heads (and presets' numbers) asked for once: a refused one is not asked again
    current: null,  // the last snapshot drawn
    addCube(entry, key = entry && entry.name) { if (entry) cubes.set(key, new Cube(entry, ++serial)); },
    // An entry a reply brought: a model's goes in the catalog (its heads, made for its old sentence,
    // go); a sentence's becomes a cube.
    /** @param {import("./entries").Entry} entry */
    offer(entry) {
      if (!kinds.models.includes(entry.kind)) { store.catalog.sentences.set(entry.name, entry); store.addCube(entry); return; }
      store.catalog.models = [...store.catalog.models.filter((m) => m.name !== entry.name), entry];
      for (const [name, cube] of cubes) {
        if (cube.model && cube.model.model === entry.name) { cubes.delete(name); store.asked.delete(name); }
      }
    },
    // A notice at the top of the page ([string key, values]), until the student dismisses it.
    notify(key, values) {
      store.notices.items = [...store.notices.items, [key, values]];
      store.notices.version += 1;
      changed();
    },
  };
  for (const entry of offered("sentences")) store.addCube(entry);
  return store;
}
