// The served page's room, loaded on first use (bench/first_load.py): a page in no room shows the
// two buttons that open or join one, and room.js with its sides arrives when one is pressed. A page
// that is in a room, or may take one up, loads it at once: a room= link, a lecturer's room or a
// closed room's report kept in this browser (room_shared.js roomKept). room.js takes the buttons
// over, so a button keeps its focus and its place.

import { h } from "./dom.js";
import { roomKept, roomOfLink, roomServed } from "./room_kept.js";

export function createLazyRoom(ctx) {
  const openButton = h("button", {type: "button", class: "ae-chip ae-room-open", "data-testid": "room-open", hidden: true});
  const joinOpen = h("button", {type: "button", class: "ae-chip ae-room-join-open", "data-testid": "room-join-open",
    "aria-expanded": "false", hidden: true});
  const button = h("span", {class: "ae-room-buttons"}, openButton, joinOpen);
  // where room.js's parts go once it is here (hidden until then: a page in no room shows none)
  const slots = {el: h("div", {hidden: true}), panel: h("div", {hidden: true}), reportView: h("div", {hidden: true})};
  const served = roomServed(ctx.state);
  let room = null, loading = null, last = null;

  function load() {
    loading = loading || ctx.firstUse(() => import("./room.js")).then(({createRoom}) => {
      room = createRoom(ctx, {openButton, joinOpen, button});
      slots.el.replaceWith(...room.el);
      slots.panel.replaceWith(room.panel);
      slots.reportView.replaceWith(room.reportView);
      if (last) room.update(last);
      return room;
    });
    return loading;
  }
  // a press before room.js is here: it loads, then the press is its own (room.js's handler)
  for (const pressed of [openButton, joinOpen]) {
    pressed.addEventListener("click", (event) => {
      if (room) return;
      event.stopImmediatePropagation();
      load().then(() => pressed.click());
    });
  }
  if (roomKept(window.location.search)) load();

  return {
    el: [slots.el],
    get panel() { return room ? room.panel : slots.panel; },
    get reportView() { return room ? room.reportView : slots.reportView; },
    button,
    lecturing: () => !!room && room.lecturing(),
    // a student in a room: room.js says once it is here; until then, a room= link is one joining
    inClass: () => (room ? room.inClass() : !!roomOfLink(window.location.search)),
    ask: (kind, change) => { if (room) room.ask(kind, change); },
    update(snap) {
      last = snap;
      if (room) { room.update(snap); return; }
      openButton.textContent = snap.t("room_open");
      joinOpen.textContent = snap.t("room_join_open");
      openButton.hidden = joinOpen.hidden = !served;
    },
  };
}
