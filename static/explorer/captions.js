// One caption per head on show: what that head looks at, from the preset (a claim the tests check).

import { h, memo, swatch } from "./dom.js";
import { viewKey } from "./snapshot.js";

// "head 2: looks at the subject (holds for query: 만났다)": the preset's caption of a head at the
// head count shown, with the query tokens its claim holds for (the core's, tested).
export function headCaption(snap, head) {
  const byCount = snap.cube.entry.captions[String(snap.heads)];
  const text = byCount && byCount[snap.lang] ? byCount[snap.lang][head] : "";
  const claims = byCount && byCount.scope ? byCount.scope[head] : [];
  const caption = snap.t("head_caption", {index: head + 1, caption: text || "—"});
  if (!claims.length) return caption;
  // a claim holds where its key is visible to its query: the mask can hide it (dividing by √d_k
  // or not never changes which key is largest)
  const queries = [...new Set(claims.filter(([query, key]) => !snap.cube.masked(snap.causal, query, key))
    .map(([query]) => query))].sort((a, b) => a - b).map((query) => snap.cube.tokens[query]);
  return `${caption} ${queries.length ? snap.t("caption_scope", {queries: queries.join(", ")}) : snap.t("caption_masked")}`;
}

export function createCaptions() {
  const el = h("ul", {class: "ae-captions", "data-testid": "head-captions"});
  const draw = memo((snap) => {
    el.replaceChildren(...snap.figureHeads.map((head) => h("li", {}, swatch(head), headCaption(snap, head))));
  });
  return {el, update: (snap) => { if (snap.status === "ready") draw(viewKey(snap, snap.figureHeads.join(",")), snap); }};
}
