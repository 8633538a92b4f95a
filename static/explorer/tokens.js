// The query token buttons: one per token, rebuilt only when the sentence changes. A long sentence
// or import (more than BUTTONS_UP_TO tokens) gets a compact picker instead, so that the figure
// stays on the first screen: a list to type a token's first letters into, and one token back or on.

import { h, memo, texts } from "./dom.js";

const BUTTONS_UP_TO = 64;

export function createTokens(ctx) {
  const label = h("p", {class: "ae-group-label", id: "ae-tokens-label"});
  const bar = h("div", {class: "ae-tokens", role: "toolbar", "aria-labelledby": "ae-tokens-label", "data-testid": "token-buttons"});
  const step = (by) => () => ctx.actions.setQuery(Math.min(Math.max(0, Number(list.value) + by), list.options.length - 1));
  const back = h("button", {type: "button", class: "ae-chip", "data-testid": "token-back", text: "←", on: {click: step(-1)}});
  const on = h("button", {type: "button", class: "ae-chip", "data-testid": "token-next", text: "→", on: {click: step(1)}});
  const list = h("select", {class: "ae-select", "aria-labelledby": "ae-tokens-label", "data-testid": "token-list",
    on: {change: () => ctx.actions.setQuery(Number(list.value))}});
  const picker = h("div", {class: "ae-token-picker", "data-testid": "token-picker", hidden: true}, back, list, on);
  const el = h("div", {class: "ae-token-row"}, label, bar, picker);
  const drawText = texts([[label, "query_tokens"]]);
  const drawLabel = (snap) => {
    drawText(snap);
    back.setAttribute("aria-label", snap.t("token_back"));
    on.setAttribute("aria-label", snap.t("token_next"));
  };
  const drawButtons = memo((cube) => {
    const long = cube.n > BUTTONS_UP_TO;
    bar.hidden = long;
    picker.hidden = !long;
    // a token first, then where it stands: typing a token's first letters finds it in the list
    if (long) list.replaceChildren(...cube.tokens.map((token, i) => h("option", {value: i, text: `${token} (${i + 1}/${cube.n})`})));
    bar.replaceChildren(...(long ? [] : cube.tokens.map((token, i) => h("button", {type: "button", class: "ae-token", "data-index": i,
      "aria-pressed": "false", text: token, on: {click: () => ctx.actions.setQuery(i)}}))));
  });
  function update(snap) {
    drawLabel(snap);
    if (snap.status !== "ready") return;
    drawButtons(snap.cube.serial, snap.cube);
    drawSelection(`${snap.cube.serial}|${snap.query}|${!!snap.practising}`, snap);
  }
  const drawSelection = memo((snap) => {
    if (!picker.hidden) list.value = String(snap.query);
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
