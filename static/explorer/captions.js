// One caption per head on show: what that head looks at, from the preset (a claim the tests check).

import { h, memo, swatch } from "./dom.js";
import { viewKey } from "./snapshot.js";

export function createCaptions() {
  const el = h("ul", {class: "ae-captions", "data-testid": "head-captions"});
  const draw = memo(({cube, heads, visibleHeads, lang, t}) => {
    const byCount = cube.entry.captions[String(heads)];
    el.replaceChildren(...visibleHeads.map((head) => {
      const text = byCount && byCount[lang] ? byCount[lang][head] : "";
      return h("li", {}, swatch(head), t("head_caption", {index: head + 1, caption: text || "—"}));
    }));
  });
  return {el, update: (snap) => { if (snap.status === "ready") draw(viewKey(snap), snap); }};
}
