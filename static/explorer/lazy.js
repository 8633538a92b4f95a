// A view whose module arrives when the page first needs it (bench/first_load.py: the first screen
// loads only what it draws). Until then a hidden slot stands where its element goes; once the view
// is made it takes the slot's place and is given the last snapshot.

import { h } from "./dom.js";

// A view maker for layout.js: load() is the module's import() (one chunk may serve several views);
// wanted(snap) whether the view has anything to show yet; make(module, ctx, made) makes the view, once
// the page has every word (a served page gets the first screen's first: i18n.js wholeWords).
export function lazyWhen(load, wanted, make) {
  return (ctx, made) => {
    const slot = h("div", {hidden: true});
    let view = null, asked = false, last = null;
    return {
      get el() { return view ? view.el : slot; },
      update(snap) {
        last = snap;
        if (view) { view.update(snap); return; }
        if (asked || !wanted(snap)) return;
        asked = true;
        ctx.firstUse(load).then((module) => {
          view = make(module, ctx, made);
          slot.replaceWith(...[].concat(view.el));
          view.update(last);
        });
      },
    };
  };
}
