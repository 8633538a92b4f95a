// The query token buttons: one per token, rebuilt only when the sentence changes.

import { h, memo, texts } from "./dom.js";

export function createTokens(ctx) {
  const label = h("p", {class: "ae-group-label", id: "ae-tokens-label"});
  const bar = h("div", {class: "ae-tokens", role: "toolbar", "aria-labelledby": "ae-tokens-label", "data-testid": "token-buttons"});
  const el = h("div", {class: "ae-token-row"}, label, bar);
  const drawLabel = texts([[label, "query_tokens"]]);
  const drawButtons = memo((cube) => {
    bar.replaceChildren(...cube.tokens.map((token, i) => h("button", {type: "button", class: "ae-token", "data-index": i,
      "aria-pressed": "false", text: token, on: {click: () => ctx.actions.setQuery(i)}})));
  });
  function update(snap) {
    drawLabel(snap);
    if (snap.status !== "ready") return;
    drawButtons(snap.cube.serial, snap.cube);
    drawSelection(`${snap.cube.serial}|${snap.query}|${!!snap.practising}`, snap);
  }
  const drawSelection = memo((snap) => {
    Array.from(bar.children).forEach((button, i) => {
      button.setAttribute("aria-pressed", String(i === snap.query));
      button.classList.toggle("ae-selected", i === snap.query);
      button.disabled = !!snap.practising && i !== snap.query;  // an unsolved problem asks about its own query
    });
  });
  // Keyboard moves keep focus on the token buttons when it was there.
  function focusQuery(query) {
    const focused = el.getRootNode().activeElement;
    if (focused && bar.contains(focused) && bar.children[query]) bar.children[query].focus();
  }
  return {el, update, focusQuery};
}
