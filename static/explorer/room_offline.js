// An exported file's room: there is none, for no server holds one (a file's bundle leaves
// room.js and its sides out: served.js gives the served page and the notebook the real one). A
// link with room= says so; nothing else of a room is drawn.

import { h } from "./dom.js";
import { roomOfLink } from "./room_kept.js";

export function createOfflineRoom() {
  const joining = typeof window !== "undefined" && !!roomOfLink(window.location.search);
  const error = h("p", {class: "ae-effect ae-warn", "data-testid": "room-error", role: "status", hidden: !joining});
  return {
    el: [error],
    panel: h("span", {hidden: true}),
    reportView: h("div", {hidden: true}),
    button: h("span", {class: "ae-room-buttons"}),
    lecturing: () => false,
    inClass: () => false,
    ask() {},
    update(snap) {
      if (joining) error.textContent = snap.t("err_room_needs_server");
    },
  };
}
