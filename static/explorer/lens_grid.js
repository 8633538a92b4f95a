// A lens as a layers × positions grid (the next-token card's logit lens, the masked-word card's):
// each cell a button with the top token there and its probability; a clicked cell lists its
// top k below, named by `cellName({layer, position, token})`. The numbers are Python's
// (app/models.py lens_entry, next_entry, masked_entry); nothing here computes them.

import { h } from "./dom.js";
import { fmt } from "./format.js";

// One token a model says, as a list item: its text and probability (3 decimals), its id and
// probability as data (what tests read), and `more` after them (a button).
export function saidItem(token, attrs = {}, ...more) {
  return h("li", {"data-token-id": String(token.id), "data-probability": String(token.probability), ...attrs},
    h("span", {class: "ae-next-token", text: token.token}), " ", h("span", {class: "ae-num", text: fmt(token.probability, 3)}), ...more);
}

// `testids`: {table, detail, cell (the prefix of each cell's: `${cell}-${layer}-${position}`)}.
export function createLensGrid(testids) {
  const table = h("table", {class: "ae-table ae-lens-grid", "data-testid": testids.table});
  const detail = h("div", {class: "ae-lens-detail", "data-testid": testids.detail, "aria-live": "polite", hidden: true});
  const el = h("div", {}, h("div", {class: "ae-scroll-x"}, table), detail);
  let picked = null;  // [layer, column] of the cell whose top k is listed
  let lens = null, drawn = "";

  // `grid`: {positions (P,), tokens (P,): the token at each, cells[layer][column]: its top k}.
  function draw(t, grid, {cellName, title}) {
    const key = JSON.stringify([t("lens_layer"), title, picked]);
    if (grid === lens && key === drawn) return;  // (a button redrawn under the pointer loses its click)
    if (grid !== lens) { lens = grid; picked = null; }
    drawn = JSON.stringify([t("lens_layer"), title, picked]);
    const {positions, tokens, cells} = grid;
    const last = cells.length - 1;
    const layerName = (layer) => (layer === 0 ? t("lens_embeddings") : layer === last ? t("lens_output", {layer}) : String(layer));
    const named = (layer, column) => cellName({layer: layerName(layer), position: positions[column] + 1, token: tokens[column]});
    const cell = (layer, column) => {
      const top = cells[layer][column][0];
      const pressed = Boolean(picked) && picked[0] === layer && picked[1] === column;
      return h("td", {"data-token-id": String(top.id), "data-probability": String(top.probability)},
        h("button", {type: "button", class: "ae-lens-cell", "data-testid": `${testids.cell}-${layer}-${positions[column]}`,
          // (its name begins with what it shows, then says which cell it is)
          "aria-pressed": String(pressed), "aria-label": `${top.token} ${fmt(top.probability, 2)} · ${named(layer, column)}`,
          on: {click: () => { picked = [layer, column]; draw(t, grid, {cellName, title}); }}},
        h("span", {class: "ae-next-token", text: top.token}), " ", h("span", {class: "ae-num", text: fmt(top.probability, 2)})));
    };
    // (the caption names the table; the card's hint explains it, outside the sideways scroll)
    table.replaceChildren(h("caption", {class: "ae-sr-only", text: title}),
      h("thead", {}, h("tr", {}, h("th", {scope: "col", text: t("lens_layer")}),
        ...positions.map((position, column) => h("th", {scope: "col", "data-position": String(position)},
          h("span", {class: "ae-next-token", text: tokens[column]}), h("br"),
          h("span", {class: "ae-hint", text: t("lens_position", {position: position + 1})}))))),
      h("tbody", {}, ...cells.map((row, layer) => h("tr", {"data-layer": String(layer)},
        h("th", {scope: "row", text: layerName(layer)}), ...row.map((_, column) => cell(layer, column))))));
    detail.hidden = !picked;
    if (picked) {
      const [layer, column] = picked;
      detail.replaceChildren(h("p", {text: named(layer, column)}),
        h("ol", {class: "ae-next-list"}, ...cells[layer][column].map((token) => saidItem(token))));
    }
  }
  // One position's lens (`top` per layer, each that layer's top k) as a one-column grid, made once
  // per `top`.
  const columns = new WeakMap();
  function drawColumn(t, {position, token, top}, options) {
    if (!columns.has(top)) columns.set(top, {positions: [position], tokens: [token], cells: top.map((said) => [said])});
    draw(t, columns.get(top), options);
  }
  return {el, draw, drawColumn, hide(hidden) { el.hidden = hidden; }};
}
