// A real model's heads (app/models.py): the layers × heads overview, one small matrix per head, all
// at once and clickable (the head on show is picked here); the chosen head's summaries; and what
// the overview's shape says in words: its size, query heads sharing key/value heads, a sliding
// window, attention sinks.

import { h, memo } from "./dom.js";
import { fmt } from "./format.js";
import { inflate } from "./cube.js";

// A layer and a head as a person reads them: counted from 1 (links and data-* attributes count from 0).
export const counted = (layer, head) => ({layer: layer + 1, head: head + 1});

// The labels of the per-head summaries (attention_core.heads.layer_summaries), in the order shown.
const summaryLabels = (t) => ({entropy: t("summary_entropy"), first: t("summary_first"), self: t("summary_self"),
  previous: t("summary_previous")});

// One head's matrix: white for 0, deep blue for 1.
function paint(canvas, bytes, offset, cells) {
  const draw = canvas.getContext("2d");
  const image = draw.createImageData(cells, cells);
  for (let i = 0; i < cells * cells; i++) {
    const v = bytes[offset + i] / 255;
    image.data.set([Math.round(255 - 255 * v), Math.round(255 - 141 * v), Math.round(255 - 77 * v), 255], 4 * i);
  }
  draw.putImageData(image, 0, 0);
}

// The overview's pixels (app/models.py packed_overview), (layers, heads, cells, cells) uint8,
// round(255 × pooled weight): inflated, and a causal model's lower triangles put back in their squares.
export async function overviewPixels(entry) {
  const {cells, triangle, data} = entry.overview;
  const packed = new Uint8Array(await inflate(data));
  if (!triangle) return packed;
  const square = new Uint8Array(entry.layers * entry.heads * cells * cells);
  let read = 0;
  for (let matrix = 0; matrix < entry.layers * entry.heads; matrix++) {
    for (let row = 0; row < cells; row++) {
      square.set(packed.subarray(read, read + row + 1), (matrix * cells + row) * cells);
      read += row + 1;
    }
  }
  return square;
}

// One head in the overview: its matrix (painted when the pixels are inflated), named with its
// summaries (a screen reader and a hover say them), an attention sink marked with a badge; a click
// puts it on show.
function headButton(entry, layer, head, sink, t, actions) {
  const cells = entry.overview.cells;
  const canvas = h("canvas", {width: cells, height: cells});
  const values = Object.fromEntries(Object.keys(summaryLabels(t)).map((name) => [name, fmt(entry.summaries[name][layer][head], 2)]));
  const label = t("overview_head", {...counted(layer, head), ...values}) + (sink ? " " + t("overview_sink") : "");
  return h("button", {type: "button", class: "ae-overview-head", "aria-pressed": "false",
    "data-testid": `overview-${layer}-${head}`, "data-layer": layer, "data-head": head, "data-sink": String(sink),
    title: label, "aria-label": label, on: {click: () => actions.set({layer, head})}},
    canvas, sink ? h("span", {class: "ae-sink-badge", "aria-hidden": "true", text: t("sink_badge")}) : null);
}

// The overview, the layer and head picker. The grid is built once per model and language;
// choosing a head only moves the outline.
function createOverview(actions) {
  const el = h("div", {class: "ae-overview", "data-testid": "model-overview"});
  let buttons = [], drawn = 0;
  const draw = memo((entry, t) => {
    const drawing = ++drawn;
    el.dataset.painted = "false";
    el.style.setProperty("--heads", String(entry.heads));
    el.style.setProperty("--layers", String(entry.layers));
    buttons = [];
    const rows = [h("span"), ...Array.from({length: entry.heads}, (_, head) => h("span", {class: "ae-overview-label", text: `H${head + 1}`}))];
    // query heads that share a key/value head: one bracket over each group, named by its key/value head
    const shared = entry.kv_groups.some((group) => group.length > 1);
    if (shared) {
      rows.push(h("span"), ...entry.kv_groups.map((group, kv) => h("span", {class: "ae-overview-group", "data-testid": `kv-group-${kv}`,
        "data-heads": group.join(" "), style: `grid-column: span ${group.length}`, text: t("overview_kv", {kv: kv + 1})})));
    }
    const sinks = new Set(entry.sinks.map(([layer, head]) => `${layer}|${head}`));
    for (let layer = 0; layer < entry.layers; layer++) {
      rows.push(h("span", {class: "ae-overview-label", text: `L${layer + 1}`}));
      for (let head = 0; head < entry.heads; head++) {
        const button = headButton(entry, layer, head, sinks.has(`${layer}|${head}`), t, actions);
        buttons.push(button);
        rows.push(button);
      }
    }
    el.replaceChildren(...rows);
    const cells = entry.overview.cells, painted = buttons;
    overviewPixels(entry).then((bytes) => {
      if (drawing !== drawn) return;  // a newer model or sentence is drawn by now
      painted.forEach((button, i) => paint(button.querySelector("canvas"), bytes, i * cells * cells, cells));
      el.dataset.painted = "true";
      performance.mark("ae-overview-drawn");
    });
  });
  function update(snap) {
    const {entry, layer, head} = snap.modelView;
    draw(`${entry.name}|${entry.version}|${snap.lang}`, entry, snap.t);
    for (const button of buttons) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.layer) === layer && Number(button.dataset.head) === head));
    }
  }
  return {el, update};
}

// The chosen head's summaries: they change with the model and head, not with a click on a token.
function createSummary() {
  const el = h("table", {class: "ae-table ae-summary", "data-testid": "head-summary"});
  const draw = memo((entry, layer, head, t) => {
    const labels = summaryLabels(t);
    el.replaceChildren(h("caption", {text: t("summary_caption", counted(layer, head))}),
      h("tbody", {}, ...Object.keys(labels).map((name) => h("tr", {"data-summary": name},
        h("th", {scope: "row", text: labels[name]}), h("td", {class: "ae-num", text: fmt(entry.summaries[name][layer][head], 3)})))));
  });
  function update(snap) {
    const {entry, layer, head} = snap.modelView;
    draw(`${entry.name}|${entry.version}|${layer}|${head}|${snap.lang}`, entry, layer, head, snap.t);
  }
  return {el, update};
}

// The overview beside the chosen head's summaries. update(snap): only while a model is on show.
export function createHeads(ctx) {
  const overview = createOverview(ctx.actions), summary = createSummary();
  const el = h("div", {class: "ae-model-body"}, overview.el, summary.el);
  return {el, update(snap) { overview.update(snap); summary.update(snap); }};
}

// The overview in words, each its own line in the card: the model's size (and the pooling of a
// long sentence), the Llama family's query heads sharing key/value heads and sliding window, the
// group of the head on show, and the attention sinks. update(snap): only while a model is on show.
export function createHeadNotes() {
  const about = h("p", {class: "ae-hint", "data-testid": "model-about"});
  const shape = h("p", {class: "ae-hint", "data-testid": "model-shape"});
  const headGroup = h("p", {class: "ae-hint", "data-testid": "head-kv-group"});
  const sinkNote = h("p", {class: "ae-hint", "data-testid": "sink-note"});
  function update(snap) {
    const {entry, head} = snap.modelView, t = snap.t;
    about.textContent = t("model_about", {source: entry.source, layers: entry.layers, heads: entry.heads, n: entry.n}) +
      (entry.overview.cells < entry.n ? " " + t("model_pooled", {cells: entry.overview.cells}) : "");
    const share = entry.kv_groups[0].length;
    shape.textContent = [share > 1 ? t("model_kv_groups", {share, kv: entry.kv_groups.length}) : "",
      entry.window ? t("model_window", {window: entry.window}) : ""].filter(Boolean).join(" ");
    shape.hidden = !shape.textContent;
    // the head on show: the query heads that share its key/value head
    const kv = entry.kv_groups.findIndex((group) => group.includes(head));
    headGroup.hidden = share <= 1 || kv < 0;
    headGroup.textContent = headGroup.hidden ? "" : t("head_kv_group", {kv: kv + 1,
      heads: entry.kv_groups[kv].map((other) => `H${other + 1}`).join(", ")});
    sinkNote.textContent = entry.sinks.length ? t("sink_note", {count: entry.sinks.length, badge: t("sink_badge")}) : "";
    sinkNote.hidden = !entry.sinks.length;
  }
  return {about, shape, headGroup, sinkNote, update};
}
