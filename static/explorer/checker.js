// The answer checker, on the page: a typed output vector, or a practice problem's row, against what
// honest hand work can write for the truth and for every likely slip (honest.js, on the numbers the
// core shipped in the cube), and a practice row against the student's own row before it. The rules are the core's
// (attention_core.answer.judge, constants.checker); tests/golden/answers.json holds the page
// (tests/node/checker.test.mjs) and the core (tests/unit/test_golden_answers.py) to the same reading
// and the same verdict, case by case.

import { chainBand, exactBand, inside, typedCorners } from "./honest.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

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
    beforePercent: new RegExp(`${space}+${rules.percent}`, "g"),
    ending: new RegExp(`(?:${rules.ending})${space}*$`),
    edges: new RegExp(`^${space}+|${space}+$`, "g"),
    separators: new RegExp(`[${rules.separators}]+`),
    number: new RegExp(`^(?:${rules.number})$`),
    fraction: new RegExp(`^(?:${rules.fraction})$`),
  };
}

// attention_core.numbers.normalise: full-width forms as ASCII, U+2212 as "-", invisible format
// characters dropped, no spaces around a "/" or before a "%".
function normalise(text, p, rules) {
  return text.replace(p.wide, (c) => String.fromCharCode(c.charCodeAt(0) - rules.wide_offset))
    .replace(p.minus, "-").replace(p.ignored, "").replace(p.aroundSlash, "/").replace(p.beforePercent, rules.percent);
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
  } else if (cleaned.endsWith(rules.percent) && p.number.test(cleaned.slice(0, -rules.percent.length))) {
    value = Number(cleaned.slice(0, -rules.percent.length)) / 100;  // hundredths, divided as the core divides them
  } else {
    return [null, "err_not_number", {text: characters.slice(0, rules.shown_chars).join("")}];
  }
  if (!Number.isFinite(value) || Math.abs(value) > rules.max_magnitude) {
    return [null, "err_too_large", {text: cleaned, limit: rules.limit_text}];
  }
  return [value];
}

// "(1.234, 5.678)", "1.234 5.678", "1/2; 1/3", "0.214、0.977.", "(0.2, 0.8)입니다" or "62%, 38%" as
// {numbers}, or {error: [key, values]} saying why not (attention_core.answer.parse_vector): a
// sentence's ending dropped, then split at the separators.
export function parseAnswer(text, rules) {
  const p = patterns(rules);
  const typed = normalise(Array.from(String(text)).slice(0, rules.max_answer_chars).join(""), p, rules).replace(p.ending, "");
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

// What a verdict says, in words: its own message, then each other slip its numbers also fit
// (values.also), under `prefix` ("hint_" for an output, "practice_hint_" for a practice row).
export function verdictText(t, verdict, prefix) {
  const also = (verdict.values.also || "").split(",").filter(Boolean);
  return [t(verdict.key, verdict.values), ...also.map((slip) => t("hint_also", {hint: t(`${prefix}${slip}`, verdict.values)}))].join(" ");
}

// Whether a verdict gives the row its credit: right, or right from the student's own earlier row.
export function isCredited(verdict) {
  return isRight(verdict) || (!!verdict && verdict.status === "carried");
}

const within = (answer, bands) => bands.some((held) => inside(answer, held));

// The practice problem in `cube` as the checker reads it: its query's score row, d, V, and each
// row's truth and slips (the array practice/<row>: path 0 the truth, then each slip named, in
// order, by entry.practice.slips[row]); bands made once, when first asked for.
export function practiceProblem(cube) {
  const rows = {};
  for (const [name, slips] of Object.entries(cube.entry.practice.slips)) {
    const tensor = cube.tensor(`practice/${name}`);
    rows[name] = {truth: tensor.row({path: 0}), slips: slips.map((slip, i) => [slip, tensor.row({path: i + 1})])};
  }
  return {rows, scores: rows.scores.truth, d_k: cube.tensor("q").row({token: 0}).length,
    v: cube.tensor("v").matrix(), bands: new Map()};
}

// What honest hand work can write for row `name` (attention_core.practice.row_bands): {truth: [band],
// slip: [band, …]}: a chain's from the true scores, another slip's from its exact numbers.
function rowBands(problem, name, rules) {
  if (!problem.bands.has(name)) {
    const chains = rules.row_chains[name], context = {d_k: problem.d_k, v: problem.v, habits: rules};
    const made = {truth: [chainBand(problem.scores, chains.truth, context)]};
    for (const [slip, values] of problem.rows[name].slips) {
      (made[slip] = made[slip] || []).push(slip in chains ? chainBand(problem.scores, chains[slip], context) : exactBand(values, rules));
    }
    problem.bands.set(name, made);
  }
  return problem.bands.get(name);
}

// The row before `name`, or null for the first.
const rowBefore = (name, rules) => (rules.rows.indexOf(name) > 0 ? rules.rows[rules.rows.indexOf(name) - 1] : null);

// The verdict on one row of a practice problem (attention_core.practice.check_row and judge_row):
// `text` against what honest hand work can write for it, from the true scores or from the
// student's own row before it (`previousText`, carried forward), and against each slip's band.
export function judgeRow(text, name, problem, rules, previousText = null) {
  const parsed = parseAnswer(text, rules);
  if (parsed.error) return {status: "invalid", slip: "", key: parsed.error[0], values: parsed.error[1]};
  const answer = parsed.numbers, row = problem.rows[name];
  let carried = null, previousRight = true;
  const before = rowBefore(name, rules);
  if (previousText !== null && before) {
    const typed = parseAnswer(previousText, rules);
    if (!typed.error) {
      const chain = rules.row_chains[name].truth;
      if (typed.numbers.length === problem.scores.length && typed.numbers.every(Number.isFinite)) {
        carried = chainBand(typedCorners(typed.numbers), chain.slice(-1), {d_k: problem.d_k, v: problem.v, habits: rules});
      }
      previousRight = within(typed.numbers, rowBands(problem, before, rules).truth);
    }
  }
  const exact = {exact: exactly(row.truth)};
  if (answer.length !== row.truth.length) {
    return {status: "wrong", slip: "", key: "practice_length", values: {count: String(row.truth.length), given: String(answer.length)}};
  }
  const bands = rowBands(problem, name, rules);
  if (within(answer, bands.truth)) {
    const close = distance(answer, row.truth) <= rules.tolerance;
    return {status: close ? "correct" : "rounded", slip: "", key: close ? "practice_correct" : "practice_rounded", values: exact};
  }
  if (carried && inside(answer, carried)) {
    return previousRight ? {status: "rounded", slip: "", key: "practice_rounded", values: exact}
      : {status: "carried", slip: "", key: "practice_carried", values: exact};
  }
  let named = [...new Set(row.slips.map(([slip]) => slip).filter((slip) => within(answer, bands[slip])))];
  if (named.includes("other_query")) named = ["other_query"];  // another query's row worked right: that alone
  if (named.length) return {status: "wrong", slip: named[0], key: `practice_hint_${named[0]}`, values: {also: named.slice(1).join(",")}};
  return {status: "wrong", slip: "recheck", key: `practice_recheck_${name}`, values: {}};
}

// What honest hand work can write for the query's output in each head of a view, under every way
// of constants.checker.output_chains (attention_core.answer.view_bands): [{name: band}] a head.
export function viewBands(cube, {heads: H, scale, causal, query}, rules) {
  const d_k = cube.qRow(H, 0, 0).length;
  const mask = (masked) => (masked ? cube.tokens.map((_, j) => j <= query) : null);
  return Array.from({length: H}, (_, head) => {
    const scores = cube.tensor(`scores/${H}`).row({head, query});
    const v = cube.tokens.map((_, j) => cube.vRow(H, head, j)), k = cube.tokens.map((_, j) => cube.kRow(H, head, j));
    return Object.fromEntries(rules.output_chains[`${+scale}${+causal}`].map(([name, , masked, steps]) =>
      [name, chainBand(scores, steps, {d_k, visible: mask(masked), v, k, d_model: d_k * H, habits: rules})]));
  });
}

// The query to practise a slip on, in view {heads, scale, causal, query, head} of `cube`: the first
// other query (after it, round the sentence) where the same slip made again would be named by the
// checker (the middle of that slip's honest band, judged), so that a try there is aimed at it; the
// next query for a slip the checker cannot name (recheck); null where no query would show it.
export function aimedQuery(cube, view, slip, rules) {
  const n = cube.tokens.length;
  for (let step = 1; step < n; step += 1) {
    const query = (view.query + step) % n;
    if (slip === "recheck" || slip === "recheck_output") return query;
    const at = {...view, query, all_heads: false};
    const bands = viewBands(cube, at, rules);
    const held = slip === "other_head" ? bands.filter((_, h) => h !== view.head).map((other) => other.truth)
      : [bands[view.head][slip]].filter(Boolean);
    for (const [low, high] of held) {
      const middle = low.map((x, i) => ((x + high[i]) / 2).toFixed(6)).join(", ");
      if (judgeAnswer(middle, cube, at, rules, null, bands).slip === slip) return query;
    }
  }
  return null;
}

// The band of an output computed honestly from the weights a student typed and the head's V rows
// (attention_core.answer.carried_output), whatever those weights are; null without weights, or
// with weights of another length or not finite.
function carriedOutput(weights, v, rules) {
  if (!weights || weights.length !== v.length || !weights.every(Number.isFinite)) return null;
  return chainBand(typedCorners(weights), ["output"], {v, habits: rules});
}

// The verdict {status, slip, key, values} on `text` for view {heads, scale, causal, query, head,
// all_heads} (attention_core.answer.judge); `weightsText`: the weights the student typed beside
// it, if any (an output computed from them is credited: rounded, or carried from wrong weights).
// `bands`: viewBands(cube, view, rules), when the caller has them for this view (a test judging
// thousands of answers on a few views makes them once a view).
export function judgeAnswer(text, cube, view, rules, weightsText = null, bands = null) {
  const {heads: H, scale, causal, query, head} = view;
  const where = {query: cube.tokens[query], head: String(head + 1)};
  const parsed = parseAnswer(text, rules);
  if (parsed.error) return {status: "invalid", slip: "", key: parsed.error[0], values: {...where, ...parsed.error[1]}};
  const answer = parsed.numbers;
  bands = bands || viewBands(cube, view, rules);
  const truth = (h) => cube.output(H, scale, causal, h, query);
  const candidates = new Map(view.all_heads
    ? Array.from({length: H}, (_, h) => [String(h), [truth(h), [bands[h].truth]]])
    : [[String(head), [truth(head), [bands[head].truth]]]]);
  if (view.all_heads && H > 1) {
    const all = Array.from({length: H}, (_, h) => bands[h].truth);
    candidates.set("all", [Array.from({length: H}, (_, h) => truth(h)).flat(),
      [[all.flatMap(([low]) => low), all.flatMap(([, high]) => high)]]]);
  }
  // nearest first, a tie to the first name in text order (as the core sorts them)
  const ranked = [...candidates].map(([name, [target]]) => [distance(answer, target), name])
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  for (const [off, name] of ranked) {
    const [target, held] = candidates.get(name);
    if (within(answer, held)) {
      const close = off <= rules.tolerance;
      return {status: close ? "correct" : "rounded", slip: "", key: close ? "answer_correct" : "answer_rounded",
        values: {...where, head: name === "all" ? `1–${H}` : String(Number(name) + 1), exact: exactly(target)}};
    }
  }
  const typed = weightsText === null ? null : parseAnswer(weightsText, rules);
  const weights = typed && !typed.error ? typed.numbers : null;
  const carried = carriedOutput(weights, cube.tokens.map((_, j) => cube.vRow(H, head, j)), rules);
  if (carried && inside(answer, carried)) {
    const shown = {...where, exact: exactly(truth(head))};
    return inside(weights, bands[head].weights_not_output) ? {status: "rounded", slip: "", key: "answer_rounded", values: shown}
      : {status: "carried", slip: "", key: "answer_carried", values: shown};
  }
  const [off, checked] = ranked[0];
  const focus = checked === "all" || off === Infinity ? head : Number(checked);
  const here = {...where, head: String(focus + 1)};
  const held = Object.entries(bands[focus]).filter(([name, band]) => name !== "truth" && inside(answer, band)).map(([name]) => name);
  let named = held.filter((name) => !name.startsWith(rules.unnamed));
  // the first step where a mistake no hint names parts from the table (if one gives this answer)
  const order = Object.values(rules.unnamed_parts);
  const parts = held.filter((name) => name.startsWith(rules.unnamed)).map((name) => rules.unnamed_parts[name.slice(rules.unnamed.length)]);
  const part = parts.length ? parts.sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] : null;
  const others = Array.from({length: H}, (_, h) => h).filter((h) => h !== focus && inside(answer, bands[h].truth));
  if (others.length) {
    named.push("other_head");
    here.other = String(others[0] + 1);
  }
  // a mistake no hint names gives it too: no step's name, only what is sure (another head's), or nothing
  if (named.length - (others.length ? 1 : 0) < held.length) named = others.length ? ["other_head"] : [];
  if (named.length) {  // another query's honest output: say so, and no slip that only looks like it
    const worked = cube.tokens.map((_, j) => j).filter((j) => j !== query
      && distance(answer, cube.output(H, scale, causal, focus, j)) <= rules.near_other
      && inside(answer, viewBands(cube, {...view, query: j}, rules)[focus].truth));
    if (worked.length) return {status: "wrong", slip: "other_query", key: "hint_other_query", values: {...here, other_query: cube.tokens[worked[0]]}};
  }
  if (named.length) return {status: "wrong", slip: named[0], key: `hint_${named[0]}`, values: {...here, also: named.slice(1).join(",")}};
  if (answer.length !== truth(focus).length) {
    return {status: "wrong", slip: "", key: "answer_length", values: {...where, count: String(truth(head).length), given: String(answer.length)}};
  }
  if (part !== null) return {status: "wrong", slip: "recheck", key: `hint_parts_at_${part}`, values: here};  // which step parts, nothing more
  // a weighted sum of the v the query sees lies between their smallest and largest, per component
  const seen = cube.tokens.map((_, j) => j).filter((j) => !causal || j <= query).map((j) => cube.vRow(H, focus, j));
  const outside = answer.some((x, c) => {
    const column = seen.map((row) => row[c]);
    return x < Math.min(...column) - 0.005 - rules.slack || x > Math.max(...column) + 0.005 + rules.slack;
  });
  const slip = outside ? "recheck_output" : "recheck";
  return {status: "wrong", slip, key: `hint_${slip}`, values: here};
}
