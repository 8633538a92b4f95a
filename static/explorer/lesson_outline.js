// The outline of a lesson being written: every stop a line (its title, sentence, query, switches,
// step and question), the stop on show marked; a click opens that stop, where the panel's buttons
// move or delete it. Everything is set as text.

import { h } from "./dom.js";

// What a stop's view shows, in words: the sentence's (or model's) title and the query's token
// where the page has that sentence, else its link's own words.
function viewWords(ctx, t, lang, view) {
  const params = new URLSearchParams(view);
  const name = params.get("preset") || "";
  const cube = Array.from(ctx.cubes.values()).find((each) => each.entry && each.entry.name === name);
  const model = cube ? null : ctx.catalog.models.find((entry) => entry.name === name || (entry.training && entry.training.names.includes(name)));
  const entry = cube ? cube.entry : model;
  const title = entry && entry.titles ? entry.titles[lang] : name;
  const query = params.get("query");
  const token = cube && query !== null && cube.tokens[Number(query)] !== undefined ? cube.tokens[Number(query)] : query ?? "";
  const on = (key) => params.get(key) !== "0";
  const step = params.get("step");
  return t("lesson_outline_view", {sentence: title, query: token, scale: on("scale") ? t("on") : t("off"),
    causal: params.get("causal") === "1" ? t("on") : t("off"), step: step === null ? t("lesson_step_all") : t(`step_name_${step}`)});
}

// A stop's question as the question menu words it (constants.questions: kind, change).
function questionWords(ctx, t, [kind, change]) {
  const found = ctx.constants.questions.kinds[kind];
  const ask = found && found.asks.find((each) => (each.change || null) === (change || null));
  return ask ? t(ask.words) : [kind, change].filter(Boolean).join(" ");
}

// `open(stop)`: show stop `stop` (from 1) of the draft.
export function createOutline(ctx, open) {
  const title = h("p", {class: "ae-group-label"});
  const list = h("ol", {class: "ae-lesson-outline", "data-testid": "lesson-outline"});
  const el = h("div", {class: "ae-lesson-outline-box"}, title, list);
  function update(snap, shown, current) {
    const {t, lang} = snap;
    title.textContent = t("lesson_outline_label");
    const stops = shown ? shown.stops : [];
    el.hidden = !stops.length;
    const english = lang !== ctx.constants.languages[0];
    list.replaceChildren(...stops.map((stop, index) => {
      const asked = stop.ask && stop.ask[0] ? ` · ${t("lesson_outline_question", {kind: questionWords(ctx, t, stop.ask)})}` : "";
      const name = (english && stop.title_en) || stop.title || "—";
      return h("li", {class: index + 1 === current ? "ae-current" : ""},
        h("button", {type: "button", class: "ae-link-button", "data-testid": "lesson-outline-stop", "data-stop": String(index + 1),
          "aria-current": index + 1 === current ? "step" : "false", on: {click: () => open(index + 1)},
          text: `${name} — ${viewWords(ctx, t, lang, stop.view)}${asked}`}));
    }));
  }
  return {el, update};
}
