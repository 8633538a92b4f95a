// An assigned link's part of the page (?assign=ID): assignment.js, loaded only for such a link
// (lazy.js); a page without one has none of it (no second question card on the page).

import { h } from "./dom.js";
import { lazyWhen } from "./lazy.js";

// The assignment a link asks for, or null.
export function assignmentOfLink(search) {
  const value = new URLSearchParams(search).get("assign");
  return value && /^[A-Za-z0-9_-]{8,40}$/.test(value) ? value : null;
}

export function createAssignment(ctx, made) {
  const id = ctx.state.url_sync && typeof window !== "undefined" ? assignmentOfLink(window.location.search) : null;
  if (!id) return {el: h("section", {hidden: true}), update() {}};
  return lazyWhen(() => import("./assignment.js"), () => true, (module) => module.createAssigned(ctx, id))(ctx, made);
}
