// Where a typed sentence's Q and K come from, said on the page, not in a tooltip: read by rules
// from its particles and endings (not a trained model), naming the words the rules cannot read,
// or arbitrary numbers with no meaning;
// a practice problem's numbers are picked for hand work, not read from its words.

import { h, memo } from "./dom.js";

export function createOrigin() {
  // lecture mode draws it one line (explorer.css): a click shows it whole, another folds it
  const el = h("p", {class: "ae-origin", "data-testid": "sentence-origin", hidden: true,
    on: {click: () => el.classList.toggle("ae-open")}});
  const draw = memo(({cube, t}) => {
    const {origin, roles} = cube.entry;
    el.hidden = !["rules", "hash", "practice"].includes(origin);
    el.classList.toggle("ae-warn", origin === "hash");
    if (origin === "hash" || origin === "practice") el.textContent = t(`origin_${origin}`);
    if (origin === "rules") {
      const named = roles.map((role, i) => (role && role !== "unread" ? `${t(`role_${role}`)} ${cube.tokens[i]}` : ""));
      const unread = cube.tokens.filter((_, i) => roles[i] === "unread");
      el.textContent = t("origin_rules", {roles: named.filter(Boolean).join(" · ")}) +
        (unread.length ? ` ${t("origin_unread", {words: unread.join(", ")})}` : "");
    }
    el.title = el.hidden ? "" : el.textContent;
  });
  return {el, update: (snap) => { if (snap.status === "ready") draw(`${snap.cube.serial}|${snap.lang}`, snap); }};
}
