// Notices: what the page could not do as asked (a bad link, numbers it could not decode), each dismissable.

import { h, memo } from "./dom.js";

// A notice's values, a value that is itself a message ({key, values}) said in the page's language.
function words(values, t) {
  return Object.fromEntries(Object.entries(values || {}).map(([name, value]) =>
    [name, value && typeof value === "object" && value.key ? t(value.key, value.values) : value]));
}

export function createNotices(ctx) {
  const el = h("div", {class: "ae-notices", role: "status", "data-testid": "notices"});
  const draw = memo((snap) => {
    const items = snap.notices.items.map(([key, values], index) => ({text: snap.t(key, words(values, snap.t)), index}));
    if (snap.status === "failed") items.push({text: snap.t("err_decode", {error: String(snap.cube.error.message || snap.cube.error)})});
    el.replaceChildren(...items.map(({text, index}) => h("p", {class: "ae-notice"}, h("span", {text}),
      index === undefined ? null : h("button", {type: "button", class: "ae-chip ae-dismiss", text: snap.t("dismiss"),
        on: {click: () => ctx.actions.dismiss(index)}}))));
  });
  return {el, update: (snap) => draw([snap.lang, snap.notices.version, snap.status, snap.cube && snap.cube.serial].join("|"), snap)};
}
