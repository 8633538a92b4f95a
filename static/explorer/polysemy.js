// The same word in two sentences (000 line 68): 은행에 has one embedding; after attention it is a
// different vector in each sentence, pulled toward its context. Its weights in each sentence, its
// outputs, their cosines and a 2-D picture (a projection the core computed, said so): every number
// is attention_core.polysemy's, shipped in the constants.

import { h, memo, s, texts, headColor, watchScale } from "./dom.js";
import { fmt, vector } from "./format.js";

// the picture's size, in SVG units, and its margin
const FIELD = {width: 360, height: 300, margin: 46};
// the colour of the word before attention and after it in each sentence
const COLOURS = {before: "#222", after0: headColor(0), after1: headColor(1), word: "#888"};

export function createPolysemy(ctx) {
  const data = ctx.constants.polysemy;
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "poly-intro"});
  // the chapter's own sentence that this view shows, beside it
  const chapter = h("p", {class: "ae-chapter", "data-testid": "poly-chapter"});
  const columns = h("div", {class: "ae-poly-columns"});
  const cosines = h("p", {class: "ae-poly-cosines", "data-testid": "poly-cosines"});
  const plot = h("figure", {class: "ae-poly-plot", "data-testid": "poly-plot"});
  const el = h("section", {class: "ae-card ae-card-poly", "data-testid": "polysemy"}, title, intro, chapter, columns, cosines, plot);
  const drawTitle = texts([[title, "poly_title"], [chapter, "chapter_polysemy"]]);

  const [xs, ys] = [0, 1].map((axis) => data.points.map((point) => point.xy[axis]));
  const scale = (values, size, flip) => {
    const low = Math.min(...values), high = Math.max(...values);
    return (value) => {
      const at = FIELD.margin + ((value - low) / (high - low || 1)) * (size - 2 * FIELD.margin);
      return flip ? size - at : at;
    };
  };
  const px = scale(xs, FIELD.width, false), py = scale(ys, FIELD.height, true);

  const draw = memo((snap) => {
    const {t} = snap;
    intro.textContent = t("poly_intro", {word: data.word, components: data.components.map((c) => t(`poly_component_${c}`)).join(", ")});
    columns.replaceChildren(...data.sentences.map((sentence, n) => h("div", {class: "ae-poly-sentence"},
      h("h3", {text: `${t("poly_sentence", {number: n + 1})}: ${sentence.tokens.join(" ")}`}),
      h("table", {class: "ae-table", "data-testid": `poly-weights-${n}`},
        h("caption", {text: t("poly_weights", {word: data.word})}),
        h("tbody", {}, ...sentence.tokens.map((token, j) => h("tr", {class: j === sentence.index ? "ae-selected-row" : ""},
          h("th", {scope: "row", text: token}), h("td", {class: "ae-num", text: fmt(sentence.weights[j], 3)}))))),
      h("p", {class: "ae-poly-vector", "data-testid": `poly-output-${n}`},
        h("span", {class: "ae-swatch", style: `background:${COLOURS[`after${n}`]}`, "aria-hidden": "true"}),
        t("poly_output", {word: data.word, input: vector(sentence.input, 1), output: vector(sentence.output, 3)})))));
    const c = data.cosines;
    const [first, second] = data.sentences.map((sentence) => sentence.tokens);
    cosines.textContent = t("poly_cosines", {word: data.word, before_after_0: fmt(c.before_after[0], 3),
      before_after_1: fmt(c.before_after[1], 3), after_after: fmt(c.after_after, 3),
      context_0: first[0], before_context_0: fmt(c.before_context[0], 3), after_context_0: fmt(c.after_context[0], 3),
      context_1: second[0], before_context_1: fmt(c.before_context[1], 3), after_context_1: fmt(c.after_context[1], 3)});
    const svg = watchScale(s("svg", {viewBox: `0 0 ${FIELD.width} ${FIELD.height}`, class: "ae-poly-svg", role: "img",
      "aria-label": t("poly_projection", {share: fmt(100 * data.share, 0)})}));
    const before = data.points.find((point) => point.kind === "before");
    for (const point of data.points.filter((p) => p.kind.startsWith("after"))) {
      svg.append(s("line", {x1: px(before.xy[0]), y1: py(before.xy[1]), x2: px(point.xy[0]), y2: py(point.xy[1]),
        stroke: COLOURS[point.kind], "stroke-width": 2.5, "stroke-dasharray": "5 3"}));
    }
    for (const point of data.points) {
      const [x, y] = [px(point.xy[0]), py(point.xy[1])];
      const label = point.kind.startsWith("after")
        ? `${point.label} (${t("poly_sentence", {number: Number(point.kind.slice(5)) + 1})})` : point.label;
      const right = x > FIELD.width / 2;  // labels on the right half read leftwards, so they stay inside
      svg.append(s("circle", {cx: x, cy: y, r: point.kind === "word" ? 5 : 7, fill: COLOURS[point.kind]}),
        s("text", {x: right ? x - 9 : x + 9, y: y + 5, "text-anchor": right ? "end" : "start", class: "ae-poly-label",
          "data-kind": point.kind, text: label}));
    }
    plot.replaceChildren(svg, h("figcaption", {text: t("poly_projection", {share: fmt(100 * data.share, 0)})}));
  });
  return {el, update(snap) {
    drawTitle(snap);
    draw(snap.lang, snap);
  }};
}
