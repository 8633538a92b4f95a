// The served page's and the notebook's entry (app/AttentionView.bundle.js): the explorer with the
// cards that ask Python as the student uses them (the next-token card and its lens, with the first
// model on show) and the room (room.js and its sides, over the server's /room socket, on first use:
// room_lazy.js). An exported file's bundle starts from static/standalone.js, which leaves them out:
// no Python to ask, no server to hold a room, and bytes its budget keeps (bench/export_size.py).
import { render as explorer } from "./explorer.js";
import { lazyWhen } from "./lazy.js";
import { createLazyRoom } from "./room_lazy.js";

const SERVED = [["nextToken", lazyWhen(() => import("./next_token.js"), (snap) => !!snap.modelView,
  (module, ctx) => module.createNextToken(ctx)), "grid"]];

// Writing a lesson (lesson_author.js, with the lesson on first use): Python checks the draft as it is
// typed, reads a lesson file opened, and keeps a link true; a file, with no Python, offers none.
const authoring = () => import("./lesson_author.js");

export function render(args) {
  return explorer(args, {served: SERVED, createRoom: createLazyRoom, authoring});
}
