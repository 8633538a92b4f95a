// The header: title, tagline, and the language and lecture-mode switches.

import { h, memo } from "./dom.js";

export function createHeader(ctx) {
  const [normal, lecture] = ctx.constants.modes;
  const title = h("h1", {class: "ae-title"});
  const tagline = h("p", {class: "ae-tagline"});
  const langButton = h("button", {type: "button", class: "ae-chip", "data-testid": "lang-toggle", on: {click: () => {
    const languages = ctx.constants.languages;
    ctx.actions.set({lang: languages[(languages.indexOf(ctx.state.lang) + 1) % languages.length]});
  }}});
  const lectureButton = h("button", {type: "button", class: "ae-chip", "aria-pressed": "false", "data-testid": "lecture-toggle",
    on: {click: () => ctx.actions.set({mode: ctx.state.mode === lecture ? normal : lecture})}});
  const buttons = h("div", {class: "ae-header-buttons"}, langButton, lectureButton);
  const el = h("header", {class: "ae-header"}, h("div", {class: "ae-brand"}, title, tagline), buttons);
  const draw = memo((snap) => {
    const {t} = snap;
    title.textContent = t("app_title");
    tagline.textContent = t("tagline");
    langButton.textContent = t("language");
    lectureButton.textContent = t("lecture");
    lectureButton.setAttribute("aria-pressed", String(snap.lecture));
  });
  return {el, buttons, update: (snap) => draw(`${snap.lang}|${snap.mode}`, snap)};
}
