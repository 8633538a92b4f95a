// What a causal model on show says next (the next request: app.models.next_entry; the numbers are
// attention_core.prediction's): the top k tokens after the sentence's last one at a temperature,
// each with a button that writes it onto the sentence and runs the model again, and the logit
// lens (each layer's guess: where in the layers it formed), at the last token and, asked for, as a
// layers × positions grid whose cells show their top k when clicked. A BERT-like model says
// plainly that it does not predict the next token. Served pages only: Python computes it.

import { h, texts } from "./dom.js";
import { fmt } from "./format.js";
import { createLensGrid, saidItem } from "./lens_grid.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

export function createNextToken(ctx) {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "next-intro"});
  const kLabel = h("label", {for: "ae-next-k"}), tLabel = h("label", {for: "ae-next-t"});
  const topK = h("input", {id: "ae-next-k", type: "number", min: 1, max: 100, step: 1, value: 5, class: "ae-input ae-narrow",
    "data-testid": "next-top-k"});
  const temperature = h("input", {id: "ae-next-t", type: "number", min: 0.05, max: 10, step: 0.1, value: 1,
    class: "ae-input ae-narrow", "data-testid": "next-temperature"});
  const askButton = h("button", {type: "button", class: "ae-chip", "data-testid": "next-ask", on: {click: () => ask()}});
  for (const input of [topK, temperature]) {
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") ask(); });
    input.addEventListener("change", () => { if (shown) ask(); });  // the list shown follows the controls
  }
  const problem = h("p", {class: "ae-effect ae-warn", role: "status", "data-testid": "next-error", hidden: true});
  const list = h("ol", {class: "ae-next-list", "data-testid": "next-token"});
  const lensTitle = h("h3");
  const lensAll = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lens-all", on: {click: () => askLens()}});
  const lensHint = h("p", {class: "ae-hint", "data-testid": "lens-hint"});
  const lensNote = h("p", {class: "ae-hint", "data-testid": "lens-note", hidden: true});
  const lens = createLensGrid({table: "logit-lens", detail: "lens-detail", cell: "lens-cell"});
  const controls = h("div", {class: "ae-inline"}, kLabel, topK, tLabel, temperature, askButton);
  const el = h("section", {class: "ae-card ae-card-next", "data-testid": "next-card", hidden: true},
    title, intro, controls, problem, list, lensTitle, lensHint, lensAll, lensNote, lens.el);
  const drawLabels = texts([[title, "next_title"], [kLabel, "next_top_k"], [tLabel, "next_temperature"],
    [askButton, "next_ask"], [lensAll, "next_lens_all"], [lensHint, "next_lens_caption"]]);
  let model = null;   // the model entry on show
  let shown = null;   // the reply's entry on show, for `model`
  let grid = null;    // the lens request's entry (every position), for `model`
  let asking = false;
  let current = null;  // the last snapshot

  // The logit lens at every position (the lens request: the output head at every layer and position).
  function askLens() {
    if (!model || !model.causal || lensAll.disabled) return;
    const asked = model, k = Number(topK.value);
    lensAll.disabled = true;
    ctx.actions.askLens({model: asked.name, top_k: Number.isInteger(k) ? k : -1}).then((reply) => {
      lensAll.disabled = false;
      if (model !== asked) return;
      if (reply.ok) { grid = reply.entries[0]; problem.hidden = true; }
      else { problem.textContent = current.t(`err_${reply.error.code}`, reply.error.values); problem.hidden = false; }
      drawn = "";
      draw();
    });
  }

  // what Python said for each question asked of this page: a top-k and temperature asked again
  // (a student trying 0.5, then 1 again) is shown from here, not asked twice
  const said = new Map();  // "model|version|k|temperature" → the next entry
  function ask() {
    if (!model || !model.causal || asking) return;
    const k = Number(topK.value), t = Number(temperature.value);
    const asked = model, key = `${asked.name}|${asked.version}|${k}|${t}`;
    if (said.has(key)) {
      shown = said.get(key);
      problem.hidden = true;
      drawn = "";
      draw();
      return;
    }
    asking = true;
    ctx.actions.askNext({model: asked.name, top_k: Number.isInteger(k) ? k : -1, temperature: Number.isFinite(t) ? t : -1})
      .then((reply) => {
        asking = false;
        if (model !== asked) return;  // another model meanwhile
        if (reply.ok) { shown = reply.entries[0]; said.set(key, shown); problem.hidden = true; }
        else { problem.textContent = current.t(`err_${reply.error.code}`, reply.error.values); problem.hidden = false; }
        drawn = "";
        draw();
      });
  }

  let drawn = "";
  function draw() {
    const snap = current;
    if (!snap) return;
    const {t} = snap;
    // drawn again only when what it shows changes (a button redrawn under the pointer loses its click)
    const key = JSON.stringify([snap.lang, model && model.name, model && model.version, shown && shown.name, grid && grid.name]);
    if (key === drawn) return;
    drawn = key;
    intro.textContent = model && !model.causal ? t("next_not_causal") : t("next_intro");
    controls.hidden = !model || !model.causal;
    list.replaceChildren(...(shown ? shown.top.map((token, i) => saidItem(token, {"data-testid": `next-row-${i}`}, " ",
      token.partial || !model.typable ? "" : h("button", {type: "button", class: "ae-chip ae-small", "data-testid": `next-append-${i}`,
        text: t("next_append"), on: {click: () => ctx.actions.sendSentence(shown.text + token.token, null)}}))) : []));
    list.setAttribute("aria-label", shown ? t("next_list", {temperature: fmt(shown.temperature, 2)}) : t("next_title"));
    lensTitle.hidden = lensAll.hidden = lensHint.hidden = !shown;
    lens.hide(!shown);
    lensNote.hidden = !grid || grid.positions[0] === 0;
    if (!shown) return;
    lensTitle.textContent = t("logit_lens_title");
    lensAll.hidden = Boolean(grid);
    if (grid) lensNote.textContent = t("next_lens_last", {position: grid.positions[0] + 1});
    // every position's lens (the grid), or the last token's (the next entry)
    const options = {cellName: (values) => t("next_lens_cell", values), title: t("logit_lens_title")};
    if (grid) lens.draw(t, grid, options);
    else lens.drawColumn(t, {position: shown.position, token: shown.after, top: shown.lens}, options);
  }

  function update(snap) {
    drawLabels(snap);
    current = snap;
    // a checkpoint run here (served): weights computed elsewhere say nothing of a next token
    const entry = snap.modelView && snap.lab && snap.modelView.entry.typable ? snap.modelView.entry : null;
    el.hidden = !entry;
    if (entry !== model) {  // another model or sentence: what was shown was of the last one
      model = entry;
      shown = grid = null;
      problem.hidden = true;
    }
    draw();
  }
  return {el, update};
}
