// Order lost without position (000 line 71): the same words in two orders, particles dropped, with a
// switch for the position vectors. Off, the two sentences' outputs are the same rows reordered; on,
// the verb finds the first word and its output differs. Every number is attention_core.order's,
// shipped in the constants.

import { h, scrollBox, memo, texts } from "./dom.js";
import { fmt, vector } from "./format.js";

export function createOrder(ctx) {
  const data = ctx.constants.order;
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "order-intro"});
  // the chapter's own sentence that this view shows, beside it
  const chapter = h("p", {class: "ae-chapter", "data-testid": "order-chapter"});
  const box = h("input", {type: "checkbox", id: "ae-order-position", "data-testid": "order-position",
    on: {change: () => ctx.actions.set({position: box.checked})}});
  const boxText = h("span");
  const columns = h("div", {class: "ae-poly-columns"});
  const verdict = h("p", {class: "ae-order-verdict", "data-testid": "order-verdict"});
  const el = h("section", {class: "ae-card ae-card-order", "data-testid": "order"}, title, intro, chapter,
    h("label", {for: "ae-order-position", class: "ae-switch"}, box, boxText), columns, verdict);
  const drawLabels = texts([[title, "order_title"], [boxText, "order_position"], [chapter, "chapter_order"]]);

  const draw = memo((snap) => {
    const {t} = snap;
    const shown = data[snap.position ? "on" : "off"];
    box.checked = snap.position;
    intro.textContent = t("order_intro", {word: data.word, components: data.components.map((c) => t(`order_component_${c}`)).join(", ")});
    columns.replaceChildren(...data.sentences.map((tokens, n) => h("div", {class: "ae-poly-sentence"},
      h("h3", {text: `${t("poly_sentence", {number: n + 1})}: ${tokens.join(" ")}`}),
      scrollBox(`${t("order_title")}: ${t("poly_sentence", {number: n + 1})}`, {}, h("table", {class: "ae-table", "data-testid": `order-table-${n}`},
        h("thead", {}, h("tr", {}, h("th", {scope: "col", text: t("key")}),
          h("th", {scope: "col", class: "ae-num", text: t("order_weight", {word: data.word})}),
          h("th", {scope: "col", class: "ae-num", text: t("order_input")}), h("th", {scope: "col", class: "ae-num", text: t("order_output")}))),
        h("tbody", {}, ...tokens.map((token, j) => h("tr", {class: token === data.word ? "ae-selected-row" : ""},
          h("th", {scope: "row", text: token}), h("td", {class: "ae-num", text: fmt(shown.weights[n][j], 3)}),
          h("td", {class: "ae-num", text: vector(shown.x[n][j], 1)}), h("td", {class: "ae-num", text: vector(shown.outputs[n][j], 3)})))))))));
    verdict.textContent = snap.position
      ? t("order_differs", {word: data.word, difference: fmt(shown.difference[data.word], 3),
        first: data.sentences.map((tokens) => tokens[0]).join(", ")})
      : t("order_same", {word: data.word, difference: fmt(Math.max(...Object.values(shown.difference)), 3),
        // each word's weight, the same in both sentences (attention_core.order): the first one's, in its order
        weights: data.sentences[0].map((token, j) => `${token} ${fmt(shown.weights[0][j], 3)}`).join(", ")});
  });
  return {el, update(snap) {
    drawLabels(snap);
    draw(`${snap.lang}|${snap.position}`, snap);
  }};
}
