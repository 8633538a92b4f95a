// One caption per head on show: what that head looks at, from the preset (a claim the tests check).

import { h, memo, swatch } from "./dom.js";
import { viewKey } from "./snapshot.js";

// "head 2: looks at the subject (holds for query: 만났다)": the preset's caption of a head at the
// head count shown, with the query tokens its claim holds for (the core's, tested).
export function headCaption(snap, head) {
  const byCount = snap.cube.entry.captions[String(snap.heads)];
  const text = byCount && byCount[snap.lang] ? byCount[snap.lang][head] : "";
  const scope = byCount && byCount.scope ? byCount.scope[head] : [];
  const caption = snap.t("head_caption", {index: head + 1, caption: text || "—"});
  if (!scope.length) return caption;
  return `${caption} ${snap.t("caption_scope", {queries: scope.map((i) => snap.cube.tokens[i]).join(", ")})}`;
}

export function createCaptions() {
  const el = h("ul", {class: "ae-captions", "data-testid": "head-captions"});
  const draw = memo((snap) => {
    el.replaceChildren(...snap.visibleHeads.map((head) => h("li", {}, swatch(head), headCaption(snap, head))));
  });
  return {el, update: (snap) => { if (snap.status === "ready") draw(viewKey(snap), snap); }};
}
