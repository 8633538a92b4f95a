// The served page's and the notebook's entry (app/AttentionView.bundle.js): the explorer with the
// cards that ask Python as the student uses them (the next-token card and its lens). An exported
// file's bundle starts from static/standalone.js, which leaves them out: no Python to ask, and
// bytes its budget keeps (bench/export_size.py).
import { render as explorer } from "./explorer.js";
import { createNextToken } from "./next_token.js";

const SERVED = [["nextToken", createNextToken, "grid"]];

export function render(args) {
  return explorer(args, SERVED);
}
