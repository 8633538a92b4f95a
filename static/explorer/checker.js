// The answer checker, on the page: a typed output vector against the true output and every likely
// slip, all of them numbers the core computed and shipped in the cube. The rules are the core's
// (attention_core.answer.judge, constants.checker); tests/golden/answers.json holds the page
// (tests/node/checker.test.mjs) and the core (tests/unit/test_golden_answers.py) to the same reading
// and the same verdict, case by case.

// How a typed answer is read: the core's rule book (attention_core.answer's docstring), with its
// character classes and patterns from constants.checker as regular-expression source; the page
// holds no copy of them. Built for each check (a few small expressions), kept nowhere.
function patterns(rules) {
  const space = `[${rules.space}]`;
  return {
    wide: new RegExp(`[${rules.wide}]`, "g"),
    minus: new RegExp(`[${rules.minus}]`, "g"),
    ignored: new RegExp(`[${rules.ignored}]`, "g"),
    aroundSlash: new RegExp(`${space}*/${space}*`, "g"),
    edges: new RegExp(`^${space}+|${space}+$`, "g"),
    separators: new RegExp(`[${rules.separators}]+`),
    number: new RegExp(`^(?:${rules.number})$`),
    fraction: new RegExp(`^(?:${rules.fraction})$`),
  };
}

// attention_core.numbers.normalise: full-width forms as ASCII, U+2212 as "-", invisible format
// characters dropped, no spaces around a "/".
function normalise(text, p, rules) {
  return text.replace(p.wide, (c) => String.fromCharCode(c.charCodeAt(0) - rules.wide_offset))
    .replace(p.minus, "-").replace(p.ignored, "").replace(p.aroundSlash, "/");
}

// One typed number, as attention_core.numbers.parse_number reads it: [value] or [null, key, values].
function parseNumber(text, p, rules) {
  const cleaned = normalise(text, p, rules).replace(p.edges, "");
  const characters = Array.from(cleaned);  // counted as Python counts them, not in UTF-16 units
  if (!cleaned) return [null, "err_empty", {}];
  if (characters.length > rules.max_number_chars) return [null, "err_too_long_number", {}];
  let value;
  const fraction = cleaned.match(p.fraction);
  if (fraction) {
    const [numerator, denominator] = [Number(fraction[1]), Number(fraction[2])];
    if (denominator === 0) return [null, "err_div_zero", {text: cleaned}];
    value = numerator / denominator;
  } else if (p.number.test(cleaned)) {
    value = Number(cleaned);
  } else {
    return [null, "err_not_number", {text: characters.slice(0, rules.shown_chars).join("")}];
  }
  if (!Number.isFinite(value) || Math.abs(value) > rules.max_magnitude) {
    return [null, "err_too_large", {text: cleaned, limit: rules.limit_text}];
  }
  return [value];
}

// "(0.214, 0.977)", "0.214 0.977" or "1/2; 1/3" as {numbers}, or {error: [key, values]} saying why
// not (attention_core.answer.parse_vector).
export function parseAnswer(text, rules) {
  const p = patterns(rules);
  const typed = normalise(Array.from(String(text)).slice(0, rules.max_answer_chars).join(""), p, rules);
  const parts = typed.split(p.separators).filter(Boolean);
  if (!parts.length) return {error: ["err_empty_answer", {}]};
  if (parts.length > rules.max_numbers) return {error: ["err_too_many_numbers", {}]};
  const numbers = [];
  for (const part of parts) {
    const [value, key, values] = parseNumber(part, p, rules);
    if (value === null) return {error: [key, values]};
    numbers.push(value);
  }
  return {numbers};
}

// The largest difference in any component; Infinity for another length or a path with no value.
function distance(answer, path) {
  if (answer.length !== path.length || !path.every(Number.isFinite)) return Infinity;
  return Math.max(...answer.map((x, i) => Math.abs(x - path[i])));
}

// Three decimals as the core writes them (attention_core.answer.three_decimals: a tie goes up).
const exactly = (vector) => "(" + vector.map((x) => x.toFixed(3)).join(", ") + ")";

// Whether a verdict counts as right: correct, or correct up to rounding.
export function isRight(verdict) {
  return !!verdict && (verdict.status === "correct" || verdict.status === "rounded");
}

// The slip to name, or "": of [name, distance] pairs the nearest (the first on a tie), when it lies
// within the rounding allowance and clearly nearer than the truth's distance `off`
// (attention_core.answer.named_slip).
function namedSlip(off, slips, rules) {
  const [slip, near] = slips.reduce((best, item) => (item[1] < best[1] ? item : best), ["", Infinity]);
  return near <= rules.rounding && near < rules.clearly_nearer * off ? slip : "";
}

// Row `name` of the practice problem in `cube`: its truth, and its slips as [name, values] pairs
// (the array practice/<name> and entry.practice.slips, app/sentences.py's practice_entry).
export function practiceRow(cube, name) {
  const tensor = cube.tensor(`practice/${name}`);  // path 0 is the truth, then each slip in order
  return {truth: tensor.row({path: 0}), slips: cube.entry.practice.slips[name].map((slip, i) => [slip, tensor.row({path: i + 1})])};
}

// The verdict on one row of a practice problem (attention_core.practice.judge_row): `text` against
// the row's truth and its named slips, all looked up in the problem's cube.
export function judgeRow(text, row, {truth, slips}, rules) {
  const parsed = parseAnswer(text, rules);
  if (parsed.error) return {status: "invalid", slip: "", key: parsed.error[0], values: parsed.error[1]};
  const answer = parsed.numbers;
  const off = distance(answer, truth);
  const exact = {exact: exactly(truth)};
  if (off <= rules.tolerance) return {status: "correct", slip: "", key: "practice_correct", values: exact};
  if (off <= rules.rounding) return {status: "rounded", slip: "", key: "practice_rounded", values: exact};
  const slip = namedSlip(off, slips.map(([name, path]) => [name, distance(answer, path)]), rules);
  if (slip) return {status: "wrong", slip, key: `practice_hint_${slip}`, values: {}};
  if (off === Infinity) {
    return {status: "wrong", slip: "", key: "practice_length", values: {count: String(truth.length), given: String(answer.length)}};
  }
  return {status: "wrong", slip: "recheck", key: `practice_recheck_${row}`, values: {}};
}

// The verdict {status, slip, key, values} on `text` for view {heads, scale, causal, query, head, all_heads}.
export function judgeAnswer(text, cube, view, rules) {
  const {heads: H, scale, causal, query, head} = view;
  const where = {query: cube.tokens[query], head: String(head + 1)};
  const parsed = parseAnswer(text, rules);
  if (parsed.error) return {status: "invalid", slip: "", key: parsed.error[0], values: {...where, ...parsed.error[1]}};
  const answer = parsed.numbers;
  const truth = (h) => cube.output(H, scale, causal, h, query);
  const candidates = new Map(view.all_heads
    ? [...Array.from({length: H}, (_, h) => [String(h), truth(h)]), ...(H > 1 ? [["all", Array.from({length: H}, (_, h) => truth(h)).flat()]] : [])]
    : [[String(head), truth(head)]]);
  let nearest = null;  // [distance, name], the smallest, ties to the first name in text order (as the core)
  for (const [name, target] of candidates) {
    const d = distance(answer, target);
    if (!nearest || d < nearest[0] || (d === nearest[0] && name < nearest[1])) nearest = [d, name];
  }
  const [off, checked] = nearest;
  const focus = checked === "all" || off === Infinity ? head : Number(checked);
  const shown = {...where, head: checked === "all" ? `1–${H}` : String(focus + 1)};
  if (off <= rules.tolerance) return {status: "correct", slip: "", key: "answer_correct", values: {...shown, exact: exactly(candidates.get(checked))}};
  if (off <= rules.rounding) return {status: "rounded", slip: "", key: "answer_rounded", values: {...shown, exact: exactly(candidates.get(checked))}};
  const other = (s, c) => cube.output(H, s, c, focus, query);
  const slips = [
    [scale ? "forgot_scale" : "extra_scale", distance(answer, other(!scale, causal))],
    [causal ? "forgot_mask" : "extra_mask", distance(answer, other(scale, !causal))],
    ["both", distance(answer, other(!scale, !causal))],
    ["skipped_softmax", distance(answer, cube.tensor(`skipped/${H}`).row({scale: +scale, causal: +causal, head: focus, query}))],
    ["sum_not_softmax", distance(answer, cube.tensor(`sumnorm/${H}`).row({scale: +scale, causal: +causal, head: focus, query}))],
    ["weights_not_output", distance(answer, cube.weightRow(H, scale, causal, focus, query))],
  ];
  const others = Array.from({length: H}, (_, h) => h).filter((h) => h !== focus).map((h) => [h, distance(answer, truth(h))]);
  const closestOther = others.reduce((best, item) => (item[1] < best[1] ? item : best), [null, Infinity]);
  slips.push(["other_head", closestOther[1]]);
  const slip = namedSlip(off, slips, rules);
  const here = {...where, head: String(focus + 1)};
  if (slip) {
    return {status: "wrong", slip, key: `hint_${slip}`, values: slip === "other_head" ? {...here, other: String(closestOther[0] + 1)} : here};
  }
  if (off === Infinity) {
    return {status: "wrong", slip: "", key: "answer_length", values: {...where, count: String(truth(head).length), given: String(answer.length)}};
  }
  return {status: "wrong", slip: "recheck_scores", key: "hint_recheck_scores", values: here};
}
