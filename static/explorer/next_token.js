// What a causal model on show says next (the next request: app.models.next_entry; the numbers are
// attention_core.prediction's): the top k tokens after the sentence's last one at a temperature,
// each with a button that writes it onto the sentence and runs the model again, and the logit
// lens (each layer's guess: where in the layers it formed), at the last token and, asked for, as a
// layers × positions grid whose cells show their top k when clicked. A BERT-like model says
// plainly that it does not predict the next token. Served pages only: Python computes it.

import { h, texts } from "./dom.js";
import { fmt } from "./format.js";

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
  const lens = h("table", {class: "ae-table ae-lens-grid", "data-testid": "logit-lens", hidden: true});
  const lensScroll = h("div", {class: "ae-scroll-x"}, lens);
  const detail = h("div", {class: "ae-lens-detail", "data-testid": "lens-detail", "aria-live": "polite", hidden: true});
  const controls = h("div", {class: "ae-inline"}, kLabel, topK, tLabel, temperature, askButton);
  const el = h("section", {class: "ae-card ae-card-next", "data-testid": "next-card", hidden: true},
    title, intro, controls, problem, list, lensTitle, lensHint, lensAll, lensNote, lensScroll, detail);
  const drawLabels = texts([[title, "next_title"], [kLabel, "next_top_k"], [tLabel, "next_temperature"],
    [askButton, "next_ask"], [lensAll, "next_lens_all"], [lensHint, "next_lens_caption"]]);
  let model = null;   // the model entry on show
  let shown = null;   // the reply's entry on show, for `model`
  let grid = null;    // the lens request's entry (every position), for `model`
  let picked = null;  // the lens cell whose top k is shown: [layer, column]
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
      if (reply.ok) { grid = reply.entries[0]; picked = null; problem.hidden = true; }
      else { problem.textContent = current.t(`err_${reply.error.code}`, reply.error.values); problem.hidden = false; }
      drawn = "";
      draw();
    });
  }

  // The lens as the page has it: every position's (the grid), or the last token's (the next entry).
  function lensColumns() {
    if (grid) return {positions: grid.positions, tokens: grid.tokens, cells: grid.cells};
    return {positions: [shown.position], tokens: [shown.after], cells: shown.lens.map((top) => [top])};
  }

  function drawLens(t) {
    const {positions, tokens, cells} = lensColumns();
    const last = cells.length - 1;
    const layerName = (layer) => (layer === 0 ? t("next_lens_embeddings") : layer === last ? t("next_lens_output", {layer}) : String(layer));
    lensTitle.textContent = t("next_lens_title");
    lensAll.hidden = Boolean(grid);
    lensNote.hidden = !grid || grid.positions[0] === 0;
    if (grid) lensNote.textContent = t("next_lens_last", {position: grid.positions[0] + 1});
    const cell = (layer, column) => {
      const top = cells[layer][column][0], position = positions[column];
      const pressed = Boolean(picked) && picked[0] === layer && picked[1] === column;
      return h("td", {"data-token-id": String(top.id), "data-probability": String(top.probability)},
        h("button", {type: "button", class: "ae-lens-cell", "data-testid": `lens-cell-${layer}-${position}`,
          "aria-pressed": String(pressed), "aria-label": t("next_lens_cell", {layer: layerName(layer), position: position + 1,
            token: tokens[column]}),
          on: {click: () => { picked = [layer, column]; drawn = ""; draw(); }}},
        h("span", {class: "ae-next-token", text: top.token}), " ", h("span", {class: "ae-num", text: fmt(top.probability, 2)})));
    };
    // (the caption names the table; the hint above it explains it, outside the sideways scroll)
    lens.replaceChildren(h("caption", {class: "ae-sr-only", text: t("next_lens_title")}),
      h("thead", {}, h("tr", {}, h("th", {scope: "col", text: t("next_lens_layer")}),
        ...positions.map((position, column) => h("th", {scope: "col", "data-position": String(position)},
          h("span", {class: "ae-next-token", text: tokens[column]}), h("br"),
          h("span", {class: "ae-hint", text: t("next_lens_position", {position: position + 1})}))))),
      h("tbody", {}, ...cells.map((row, layer) => h("tr", {"data-layer": String(layer)},
        h("th", {scope: "row", text: layerName(layer)}), ...row.map((_, column) => cell(layer, column))))));
    detail.hidden = !picked;
    if (picked) {
      const [layer, column] = picked;
      detail.replaceChildren(h("p", {text: t("next_lens_cell", {layer: layerName(layer), position: positions[column] + 1,
        token: tokens[column]})}), h("ol", {class: "ae-next-list"}, ...cells[layer][column].map((token) => h("li", {
        "data-token-id": String(token.id), "data-probability": String(token.probability)},
      h("span", {class: "ae-next-token", text: token.token}), " ", h("span", {class: "ae-num", text: fmt(token.probability, 3)})))));
    }
  }

  function ask() {
    if (!model || !model.causal || asking) return;
    const k = Number(topK.value), t = Number(temperature.value);
    asking = true;
    const asked = model;
    ctx.actions.askNext({model: asked.name, top_k: Number.isInteger(k) ? k : -1, temperature: Number.isFinite(t) ? t : -1})
      .then((reply) => {
        asking = false;
        if (model !== asked) return;  // another model meanwhile
        if (reply.ok) { shown = reply.entries[0]; problem.hidden = true; }
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
    const key = JSON.stringify([snap.lang, model && model.name, model && model.version, shown && shown.name, grid && grid.name, picked]);
    if (key === drawn) return;
    drawn = key;
    intro.textContent = model && !model.causal ? t("next_not_causal") : t("next_intro");
    controls.hidden = !model || !model.causal;
    list.replaceChildren(...(shown ? shown.top.map((token, i) => h("li", {"data-token-id": String(token.id),
      "data-probability": String(token.probability), "data-testid": `next-row-${i}`},
    h("span", {class: "ae-next-token", text: token.token}), " ", h("span", {class: "ae-num", text: fmt(token.probability, 3)}), " ",
    token.partial || !model.typable ? "" : h("button", {type: "button", class: "ae-chip ae-small", "data-testid": `next-append-${i}`,
      text: t("next_append"), on: {click: () => ctx.actions.sendSentence(shown.text + token.token, null)}}))) : []));
    list.setAttribute("aria-label", shown ? t("next_list", {temperature: fmt(shown.temperature, 2)}) : t("next_title"));
    lens.hidden = lensTitle.hidden = lensAll.hidden = lensHint.hidden = !shown;
    if (!shown) { lensNote.hidden = detail.hidden = true; return; }
    drawLens(t);
  }

  function update(snap) {
    drawLabels(snap);
    current = snap;
    // a checkpoint run here (served): weights computed elsewhere say nothing of a next token
    const entry = snap.modelView && snap.lab && snap.modelView.entry.typable ? snap.modelView.entry : null;
    el.hidden = !entry;
    if (entry !== model) {  // another model or sentence: what was shown was of the last one
      model = entry;
      shown = grid = picked = null;
      problem.hidden = true;
    }
    draw();
  }
  return {el, update};
}
