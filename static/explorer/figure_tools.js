// The figure's two save buttons; they act on the view on screen when pressed. What they save is
// drawn by figure.js, loaded with the first press (bench/first_load.py: the first screen loads only
// what it draws).

import { h, texts } from "./dom.js";

export function createFigureTools(ctx) {
  let current = null;
  const save = (kind) => {
    if (!current) return;
    const snap = current;
    // the figure's words come with the rest of the page's (i18n.js wholeWords)
    ctx.firstUse(() => import("./figure.js")).then((module) => module.saveFigure(ctx, {...snap, t: ctx.translate()}, kind));
  };
  const svgButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "figure-svg", on: {click: () => save("svg")}});
  const pngButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "figure-png", on: {click: () => save("png")}});
  const el = h("div", {class: "ae-figure-tools"}, svgButton, pngButton);
  const drawLabels = texts([[svgButton, "save_svg"], [pngButton, "save_png"]]);
  return {el, update(snap) { current = snap; drawLabels(snap); }};
}
