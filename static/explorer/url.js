// The view in the page's query string, both ways. Pure functions: no DOM, no model.

// The parameters every view writes, in this order; `step` and `text` are written when they apply.
const URL_KEYS = ["preset", "query", "scale", "causal", "heads", "lang", "mode"];

// What a link asks for, checked against the sentences on offer.
//   search: location.search; cubes: Map name → Cube; state: the model's current values;
//   constants: Python's (app/constants.py); lab: whether Python is there to take a typed sentence.
// Returns {changes, notices, pending}: the model changes to make, the notices to show as
// [string key, values], and the typed sentence to send to Python ({text, query}) or null.
export function parseUrl(search, {cubes, state, constants, lab}) {
  const params = new URLSearchParams(search);
  const changes = {}, notices = [];
  const note = (key, values) => notices.push([key, values]);
  const text = params.get("text");
  if (params.has("preset")) {
    const value = params.get("preset");
    if (cubes.has(value)) changes.preset = value;
    else if (!(value === constants.own.sentence && text !== null)) note("notice_preset", {value});
  }
  if (params.has("step")) {
    const value = params.get("step");
    if (/^(0|[1-9]\d*)$/.test(value) && Number(value) < constants.steps) changes.step = Number(value);
    else note("notice_step", {value, last: constants.steps - 1});
  }
  const cube = cubes.get(changes.preset || state.preset) || cubes.values().next().value;
  for (const name of ["scale", "causal"]) {
    if (!params.has(name)) continue;
    const value = params.get(name);
    if (value === "1" || value === "0") changes[name] = value === "1";
    else note("notice_flag", {name, value, fallback: state[name] ? 1 : 0});
  }
  if (params.has("heads")) {
    const value = params.get("heads"), count = Number(value);
    if (/^\d+$/.test(value) && cube.offers(count)) changes.heads = count;
    else note("notice_heads", {value, fallback: cube.head_counts[0]});
  }
  for (const [name, allowed] of [["lang", constants.languages], ["mode", constants.modes]]) {
    if (!params.has(name)) continue;
    const value = params.get(name);
    if (allowed.includes(value)) changes[name] = value;
    else note("notice_choice", {name, value, fallback: state[name]});
  }
  let query = cube.entry.default_query;
  if (params.has("query") && text === null) {  // with text=, Python checks the query against that sentence
    const value = params.get("query"), index = Number(value);
    if (/^\d+$/.test(value) && index < cube.n) query = index;
    else note("notice_query", {value, fallback: query});
  }
  changes.query = query;
  if (changes.heads === undefined && !cube.offers(state.heads)) changes.heads = cube.head_counts[0];
  let pending = null;
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

// The query string for `view` ({preset, query, scale, causal, heads, lang, mode, step, text}),
// keeping any other parameter of `search` (an embedding page's own).
export function toSearch(search, view) {
  const params = new URLSearchParams(search);
  const values = {...view, scale: view.scale ? 1 : 0, causal: view.causal ? 1 : 0};
  for (const key of URL_KEYS) params.set(key, String(values[key]));
  if (view.step >= 0) params.set("step", String(view.step)); else params.delete("step");
  if (view.text) params.set("text", view.text); else params.delete("text");
  return "?" + params.toString();
}
