// Why √d: a slider over d and, for random unit-variance q and k measured by the core
// (attention_core.why_scale, shipped in the constants), the spread of q·k and the largest softmax
// weight, without and with ÷√d, as a table and a plot; with the book's own example beside it.

import { h, scrollBox, memo, s, texts, headColor, watchScale } from "./dom.js";
import { fmt } from "./format.js";

// the plot's size and margins, in SVG units
// (room below the axis for its ticks and "d" at the larger size a narrow phone gives them: dom.js watchScale)
const PLOT = {width: 420, height: 200, left: 44, right: 22, top: 12, bottom: 44};

export function createWhyScale(ctx) {
  const table = ctx.constants.why_scale;
  const {width: WIDTH, height: HEIGHT, left: LEFT, right: RIGHT, top: TOP, bottom: BOTTOM} = PLOT;
  const dims = table.dimensions;
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "why-scale-intro"});
  // the chapter's own sentence that this view shows, beside it
  const chapter = h("p", {class: "ae-chapter", "data-testid": "why-scale-chapter"});
  const label = h("label", {for: "ae-why-d", "data-testid": "why-scale-label"});
  const slider = h("input", {type: "range", id: "ae-why-d", min: 0, max: dims.length - 1, step: 1, class: "ae-range",
    "data-testid": "why-scale-d", on: {input: () => ctx.actions.set({why_d: dims[Number(slider.value)]})}});
  const readout = scrollBox("");
  const plot = h("div", {class: "ae-why-plot", "data-testid": "why-scale-plot"});
  const book = h("p", {class: "ae-hint", "data-testid": "why-scale-book"});
  const el = h("section", {class: "ae-card ae-card-why", "data-testid": "why-scale"}, title, intro, chapter, label, slider,
    readout, plot, book);
  const drawLabels = texts([[title, "why_title"], [chapter, "chapter_why_scale"]]);

  // x for the i-th d (evenly spaced: d doubles each step), y for a weight from 0 to 1
  const x = (i) => LEFT + (i * (WIDTH - LEFT - RIGHT)) / (dims.length - 1);
  const y = (w) => TOP + (1 - w) * (HEIGHT - TOP - BOTTOM);
  const line = (values, cls, color) => s("polyline", {points: values.map((w, i) => `${x(i)},${y(w)}`).join(" "),
    class: cls, fill: "none", stroke: color, "stroke-width": 3});

  const draw = memo((snap) => {
    const {t} = snap;
    const i = Math.max(0, dims.indexOf(snap.whyD));
    const d = dims[i];
    intro.textContent = t("why_intro", {keys: table.keys, samples: table.samples});
    label.textContent = t("why_d", {d, sqrt: fmt(Math.sqrt(d), 2)});
    slider.value = String(i);
    slider.setAttribute("aria-valuetext", `d = ${d}`);
    const cell = (text, testid) => h("td", {class: "ae-num", text, "data-testid": testid});
    readout.setAttribute("aria-label", t("why_title"));
    readout.replaceChildren(h("table", {class: "ae-table", "data-testid": "why-scale-table"},
      h("thead", {}, h("tr", {}, h("th", {scope: "col", text: `d = ${d}`}), h("th", {scope: "col", class: "ae-num", text: t("why_raw")}),
        h("th", {scope: "col", class: "ae-num", text: t("why_scaled")}))),
      h("tbody", {},
        h("tr", {}, h("th", {scope: "row", text: t("why_spread")}),
          cell(fmt(table.spread_raw[i], 2), "why-spread-raw"), cell(fmt(table.spread_scaled[i], 2), "why-spread-scaled")),
        h("tr", {}, h("th", {scope: "row", text: t("why_top", {keys: table.keys})}),
          cell(fmt(table.top_raw[i], 3), "why-top-raw"), cell(fmt(table.top_scaled[i], 3), "why-top-scaled")))));
    const svg = watchScale(s("svg", {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "ae-why-svg", role: "img", "aria-label": t("why_plot")}));
    for (const w of [0, 0.5, 1]) {
      svg.append(s("line", {x1: LEFT, x2: WIDTH - RIGHT, y1: y(w), y2: y(w), class: "ae-why-grid"}));
      svg.append(s("text", {x: LEFT - 6, y: y(w), "text-anchor": "end", "dominant-baseline": "middle", class: "ae-why-tick", text: fmt(w, 1)}));
    }
    // the first tick starts at its point, clear of the weights' ticks
    dims.forEach((value, j) => svg.append(s("text", {x: x(j) - (j === 0 ? 4 : 0), y: HEIGHT - BOTTOM + 6, "text-anchor": j === 0 ? "start" : "middle",
      "dominant-baseline": "hanging", class: "ae-why-tick", text: String(value)})));
    svg.append(s("text", {x: (LEFT + WIDTH - RIGHT) / 2, y: HEIGHT - 2, "text-anchor": "middle", class: "ae-why-tick", text: "d"}));
    svg.append(s("line", {x1: x(i), x2: x(i), y1: TOP, y2: HEIGHT - BOTTOM, class: "ae-why-now"}));
    svg.append(line(table.top_raw, "ae-why-raw", "#222"), line(table.top_scaled, "ae-why-scaled", headColor(0)));
    svg.append(s("circle", {cx: x(i), cy: y(table.top_raw[i]), r: 6, fill: "#222"}),
      s("circle", {cx: x(i), cy: y(table.top_scaled[i]), r: 6, fill: headColor(0)}));
    plot.replaceChildren(svg, h("p", {class: "ae-why-legend"},
      h("span", {class: "ae-why-key", style: "background:#222"}), t("why_raw"), " ",
      h("span", {class: "ae-why-key", style: `background:${headColor(0)}`}), t("why_scaled"), " — ", t("why_plot")));
    const b = table.book;
    book.textContent = t("why_book", {d: b.d, sqrt: fmt(Math.sqrt(b.d), 0), scores: b.scores.map((v) => fmt(v, 0)).join(", "),
      raw: fmt(Math.max(...b.weights_raw), 3), scaled: fmt(Math.max(...b.weights_scaled), 3)});
  });
  return {el, update(snap) {
    el.hidden = !!(snap.held && snap.held.hides.includes("whyScale"));  // a what-if on √d_k held: it would answer it
    drawLabels(snap);
    draw(`${snap.lang}|${snap.whyD}`, snap);
  }};
}
