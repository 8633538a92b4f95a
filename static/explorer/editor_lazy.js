// The numbers editor, loaded on first use (bench/first_load.py: the first screen loads only what it
// draws): its folded card until the student opens it, or until numbers come back refused (which it
// marks); then editor.js takes the card's place, open as the student left it, focus kept.

import { h } from "./dom.js";

export function createLazyEditor(ctx) {
  const summary = h("summary", {"data-testid": "numbers-summary"});
  const slot = h("details", {class: "ae-editor", "data-testid": "numbers-editor"}, summary);
  let editor = null, loading = null, last = null;

  function load() {
    loading = loading || ctx.firstUse(() => import("./editor.js")).then(({createEditor}) => {
      editor = createEditor(ctx);
      const focused = summary.matches(":focus");
      editor.el.open = slot.open;
      slot.replaceWith(editor.el);
      if (last) editor.update(last);
      if (focused) editor.el.querySelector("summary").focus();
    });
  }
  slot.addEventListener("toggle", () => { if (slot.open) load(); });

  return {
    get el() { return editor ? editor.el : slot; },
    update(snap) {
      last = snap;
      if (editor) { editor.update(snap); return; }
      summary.textContent = snap.t("edit_numbers");
      if (snap.gridErrors && snap.gridErrors.length) load();
    },
  };
}
