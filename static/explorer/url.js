// The view in the page's query string, both ways. Pure functions: no DOM, no model.

import { headsShown, openingChanges, viewCode } from "./snapshot.js";
import { cubeOf, entryOf, sourceNamed, sourceOf } from "./source.js";

// The view params in the link are declared in app/view_params.py (constants.view, each param's `link`):
// written in their declared order, always or when not the default; read here with no code of their
// own, unless their valid values depend on the entry on show (query, heads: read below). `step`,
// `text`, `numbers` and a model's view are written when they apply. `preset` (the key of `source`) is
// the name of the source on show (lecturers' links name entries so): read, it is resolved to its
// entry's source {kind, name}.
const linkKey = (param) => param.link.key || param.name;
const linked = (table) => table.filter((param) => param.link);

// The student's own numbers in a link: tokens, then Q, K and V, each row's numbers joined by
// ",", rows by "/", parts by "~" (tokens percent-encoded). The editor's limits bound its size.
export function encodeNumbers({tokens, q, k, v}) {
  const matrix = (rows) => rows.map((row) => row.join(",")).join("/");
  const token = (text) => encodeURIComponent(text).replace(/~/g, "%7E");  // "~" separates the parts
  return [tokens.map(token).join(","), matrix(q), matrix(k), matrix(v)].join("~");
}

// The inverse, as the strings the editor sends; null for anything that is not four parts.
export function decodeNumbers(text) {
  const parts = text.split("~");
  if (parts.length !== 4) return null;
  const matrix = (part) => part.split("/").map((row) => row.split(","));
  try {
    return {tokens: parts[0].split(",").map(decodeURIComponent), q: matrix(parts[1]), k: matrix(parts[2]), v: matrix(parts[3])};
  } catch (error) {  // a malformed %-escape in a token
    return null;
  }
}

// What a link asks for, checked against the sentences on offer.
//   search: location.search; cubes: Map name → Cube; models: the model entries on offer; state: the
//   model's current values; constants: Python's (app/constants.py); lab: whether Python is there to
//   take a typed sentence.
// Returns {changes, notices, pending}: the model changes to make (a `source` among them, never a
// name), the notices to show as
// [string key, values], and what to send to Python: a typed sentence ({text, query}), the
// student's own numbers ({numbers}), or null.
export function parseUrl(search, {cubes, models = [], state, constants, lab}) {
  const params = new URLSearchParams(search);
  const changes = {}, notices = [];
  const note = (key, values) => notices.push([key, values]);
  readDeclared(params, "page", {changes, note, state, constants});  // the language, the mode, …: whatever is on show
  if (params.has("practice")) {  // a practice problem, by number: it sets its own view
    const value = params.get("practice");
    if (/^[1-9]\d*$/.test(value) && Number(value) <= constants.practice.max) {
      return {changes, notices, pending: {practice: Number(value)}};
    }
    note("notice_practice", {value, last: constants.practice.max});
  }
  const text = params.get("text");
  const numbers = params.has("numbers") ? decodeNumbers(params.get("numbers")) : null;
  if (params.has("numbers") && !numbers) note("notice_numbers", {});
  if (params.has("preset")) {
    const value = params.get("preset");
    // a sentence typed through a model: the model it went through (its entry names what it makes)
    const through = models.find((m) => m.typed_name === value && m.name !== value);
    const named = sourceNamed(value, {cubes, models});
    if (named) changes.source = named;
    else if (through && text !== null) changes.source = sourceOf(through);  // Python runs it again
    else if (value === constants.own.numbers && !numbers && !params.has("numbers")) note("notice_numbers", {});
    else if (!((value === constants.own.sentence || value === constants.own.model) && text !== null)
        && !(value === constants.own.numbers && numbers)) {
      note("notice_preset", {value});
    }
  }
  if (params.has("step")) {
    const value = params.get("step");
    if (/^(0|[1-9]\d*)$/.test(value) && Number(value) < constants.steps) changes.step = Number(value);
    else note("notice_step", {value, last: constants.steps - 1});
  }
  const source = changes.source || state.source, kinds = constants.kinds;
  const modelEntry = kinds.models.includes(source && source.kind) ? entryOf(source, {cubes, models, kinds}) : null;
  // a model that came without its body (a served page's, not the one its link opened): its view
  // cannot be read from the link until it is here; the page shows it as it opens
  if (modelEntry && modelEntry.later) return {changes, notices, pending: null};
  if (modelEntry) {  // a model's view; a typed sentence in the link goes through the model
    const found = parseModelView(params, modelEntry, {changes, notices, note, state, constants});
    if (text !== null && lab) found.pending = {text, query: /^\d+$/.test(params.get("query") || "") ? Number(params.get("query")) : null};
    return found;
  }
  const cube = cubeOf(source, {cubes, kinds}) || [...cubes.values()].find((c) => !c.model);
  readDeclared(params, "view", {changes, note, state, constants});
  const own = text !== null || numbers !== null;  // Python checks query and heads against that sentence
  if (params.has("heads")) {  // a typed sentence or numbers: Python checks them against their own d
    const value = params.get("heads"), count = Number(value);
    if (/^\d+$/.test(value) && (own ? constants.head_choices : cube.head_counts).includes(count)) changes.heads = count;
    else note("notice_heads", {value, fallback: headsShown(cube, count)});
  }
  let query = cube.entry.default_query;
  if (params.has("query") && !own) {
    const value = params.get("query"), index = Number(value);
    if (/^\d+$/.test(value) && index < cube.n) query = index;
    else note("notice_query", {value, token: cube.tokens[query]});
  }
  changes.query = query;
  if (changes.heads === undefined && !cube.offers(state.heads)) changes.heads = headsShown(cube, state.heads);
  let pending = null;
  if (numbers && text === null) {
    const wanted = params.get("query");
    if (lab) pending = {numbers, query: /^\d+$/.test(wanted || "") ? Number(wanted) : null};
    else note("needs_server", {});
  }
  if (text !== null) {
    if (lab) {
      const wanted = params.get("query");
      const valid = /^\d+$/.test(wanted || "");
      if (wanted !== null && !valid) note("notice_query_last", {value: wanted});
      pending = {text, query: valid ? Number(wanted) : null};
    } else {
      note("needs_server", {});
    }
  }
  return {changes, notices, pending};
}

// The declared params the link reads `when` ("page": whatever the source; "view": after the
// source's opening view) into changes, each by its kind; a value not among its choices keeps the
// current one, with a notice.
function readDeclared(params, when, {changes, note, state, constants}) {
  for (const param of linked(constants.view)) {
    const key = linkKey(param);
    if (param.link.read !== when || !params.has(key)) continue;
    const current = changes[param.name] ?? state[param.name] ?? param.default;
    if (param.kind === "bool") {
      readFlag(params, param.name, {changes, note, state: {[param.name]: current}});
      continue;
    }
    const value = params.get(key);
    const read = param.kind === "int" ? readInt(value, param) : param.choices.find((c) => String(c) === value);
    if (read !== undefined) changes[param.name] = read;
    else note("notice_choice", {name: key, value, fallback: current});
  }
}

// A 0/1 switch of the link into changes[name], or a notice keeping the current value.
function readFlag(params, name, {changes, note, state}) {
  if (!params.has(name)) return;
  const value = params.get(name);
  if (value === "1" || value === "0") changes[name] = value === "1";
  else note("notice_flag", {name, value, fallback: state[name] ? 1 : 0});
}

// A model's view in a link: layer and head (0-based, like query), merge=0 for its sub-word tokens,
// special=1 for its special tokens, the switches and the query, checked against the model.
function parseModelView(params, entry, {changes, notices, note, state, constants}) {
  // a model opens as it opens from the sentence list (its layer and head too), unless the link says otherwise
  Object.assign(changes, openingChanges(entry));
  for (const [name, count] of [["layer", entry.layers], ["head", entry.heads]]) {
    if (!params.has(name)) continue;
    const value = params.get(name);
    if (/^\d+$/.test(value) && Number(value) < count) changes[name] = Number(value);
    else if (name === "layer") note("notice_layer", {value, last: count - 1});
    else note("notice_head", {value, last: count - 1});
  }
  for (const name of ["merge", "special"]) readFlag(params, name, {changes, note, state});
  readDeclared(params, "view", {changes, note, state, constants});
  const merge = changes.merge ?? state.merge !== false, special = changes.special ?? !!state.special;
  if (params.has("top_k")) {  // how many of the strongest keys the lines and bars show
    const value = params.get("top_k");
    if (/^[1-9]\d*$/.test(value)) changes.top_k = Number(value);
    else note("notice_top_k", {value, fallback: state.top_k});
  }
  if (params.has("threshold")) {  // … and the least weight they show
    const value = params.get("threshold"), number = Number(value);
    if (value.trim() !== "" && Number.isFinite(number) && number >= 0 && number <= 1) changes.threshold = number;
    else note("notice_threshold", {value, fallback: state.threshold});
  }
  // the experiments on the head beyond √d and the mask, where the model offers them
  const offer = entry.experiments || {rope: false, windows: []};
  if (params.has("rope")) {
    if (offer.rope) readFlag(params, "rope", {changes, note, state: {rope: state.rope !== false}});
    else note("notice_choice", {name: "rope", value: params.get("rope"), fallback: "—"});
  }
  if (params.has("window")) {  // a window size among those offered, 0 for none
    const value = params.get("window");
    if (/^\d+$/.test(value) && offer.windows.includes(Number(value))) changes.window = Number(value);
    else note("notice_choice", {name: "window", value, fallback: entry.window || "—"});
  }
  if (params.has("compare")) {  // the checkpoint each head is compared with, by its entry name
    const value = params.get("compare"), compared = entry.compared || [];
    if (compared.some((other) => other.name === value)) changes.compare = value;
    else note("notice_choice", {name: "compare", value, fallback: compared.length ? compared[0].name : "—"});
  }
  const code = entry.views[viewCode(merge, special)], tokens = entry.groups[code].length;
  changes.query = entry.opens_at[code];  // its last token that is not a special token, as a model opens
  if (params.has("query") && !params.has("text")) {  // a typed sentence's query is checked by Python, on it
    const value = params.get("query");
    if (/^\d+$/.test(value) && Number(value) < tokens) changes.query = Number(value);
    else note("notice_query", {value, token: entry.labels[code][changes.query]});
  }
  return {changes, notices, pending: null};
}

// The query string for `view`: `linked`, the value shown of each param in the link (constants.view:
// `table`; the source's name for `source`), and where they apply `step`, `text`, `numbers`,
// `practice` and a model's view; keeping any other parameter of `search` (an embedding page's own).
export function toSearch(search, view, table) {
  const params = new URLSearchParams(search);
  const declared = linked(table);
  if (view.practice) {  // a problem is its number: it opens unsolved, in its own view; the page's own params stay
    for (const param of declared) params.delete(linkKey(param));
    for (const key of ["step", "text", "numbers"]) params.delete(key);
    params.set("practice", String(view.practice));
    for (const param of declared) if (param.link.read === "page") writeDeclared(params, param, view.linked[param.name]);
    return "?" + params.toString();
  }
  params.delete("practice");
  for (const key of ["layer", "head", "merge", "special"]) params.delete(key);
  for (const key of ["top_k", "threshold", "rope", "window", "compare"]) params.delete(key);
  if (view.model) {  // a model's head: its layer and head, its token view, and the keys shown where not all
    params.set("layer", String(view.model.layer));
    params.set("head", String(view.model.head));
    params.set("merge", view.model.merge ? "1" : "0");
    params.set("special", view.model.special ? "1" : "0");
    if (view.model.topK !== view.model.defaultTopK) params.set("top_k", String(view.model.topK));
    if (view.model.threshold > 0) params.set("threshold", String(view.model.threshold));
    if (view.model.rope === false) params.set("rope", "0");
    if (Number.isInteger(view.model.window)) params.set("window", String(view.model.window));
    if (view.model.compare) params.set("compare", view.model.compare);
  }
  for (const param of declared) writeDeclared(params, param, view.linked[param.name]);
  if (view.step >= 0) params.set("step", String(view.step)); else params.delete("step");
  if (view.text) params.set("text", view.text); else params.delete("text");
  if (view.numbers) params.set("numbers", view.numbers); else params.delete("numbers");
  return "?" + params.toString();
}

// A declared int param's value in the link, inside its range; undefined for anything else.
function readInt(value, {low, high}) {
  if (!/^-?\d+$/.test(value)) return undefined;
  const number = Number(value);
  return number >= low && (high === null || number <= high) ? number : undefined;
}

// One declared param in the link: always, or only where it is not the default (`write`); a switch as 1 or 0.
function writeDeclared(params, param, value) {
  const key = linkKey(param);
  if (value === undefined || (param.link.write === "changed" && value === param.default)) params.delete(key);
  else params.set(key, param.kind === "bool" ? (value ? "1" : "0") : String(value));
}
