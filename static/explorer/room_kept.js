// What the first screen reads of a room before room.js is loaded (room_lazy.js): whether this page
// can hold one, and whether it is in one or may take one up; room_shared.js gives them to the rest.

export const LECTURER = "ae-room-lecturer";  // localStorage: {code, secret} of the room this browser lectures
export const CLOSED = "ae-room-report";  // localStorage: {code, secret} of the room this browser lectured, closed: its report

// The room code a link asks to join (?room=ABC234), or null.
export function roomOfLink(search) {
  const code = new URLSearchParams(search).get("room");
  return code ? code.trim().toUpperCase().slice(0, 16) : null;
}

// Storage that may refuse (a private window, a sandboxed frame): a failed read is nothing kept.
export function stored(storage, key, fallback = null) {
  try { return JSON.parse(window[storage].getItem(key) || "null") ?? fallback; } catch (error) { return fallback; }
}
export function store(storage, key, value) {
  try {
    if (value === null) window[storage].removeItem(key); else window[storage].setItem(key, JSON.stringify(value));
  } catch (error) { /* kept for this page only */ }
}

// Whether this page can hold a room: the served app's (a file has no server; a notebook's lab is off).
export const roomServed = (state) => typeof window !== "undefined" && /^https?:$/.test(window.location.protocol) && !!state.lab;

// Whether a page is in a room or may take one up as it opens (room_lazy.js loads room.js at once):
// a room= link, a lecturer's room kept in this browser, a closed room's report kept for its lecturer.
export function roomKept(search) {
  return !!roomOfLink(search) || !!validLecturer(stored("localStorage", LECTURER)) || !!stored("localStorage", CLOSED);
}

export const validLecturer = (kept) => kept && typeof kept.code === "string" && typeof kept.secret === "string" ? kept : null;
