// What honest hand work can produce, on the page: attention_core.honest's steps and bands, run on
// the numbers the core shipped (a practice problem's Q, K, V; a view's scores and V), with the
// habits from constants.checker (decimals, digits, slack). tests/golden/answers.json holds the page's
// verdicts to the core's. A row is an array of numbers; its variants an array of rows; a band
// [low, high], two rows.

// x to `decimals` places, a half away from zero; null: as it is (honest.rounded).
export function rounded(x, decimals) {
  if (decimals === null) return x;
  const scale = 10 ** decimals;
  return Math.sign(x) * Math.floor(Math.abs(x) * scale + 0.5) / scale;
}

// A positive x to `digits` significant digits; null, or x not above 0: as it is (honest.significant).
export function significant(x, digits) {
  if (digits === null || !(x > 0)) return x;
  const scale = 10 ** (digits - 1 - Math.floor(Math.log10(x)));
  return Math.floor(x * scale + 0.5) / scale;
}

// √d as students write it, as a divisor (honest.divisors): exact, to each of habits.root_decimals,
// and 1/√d to each as a multiplier; sorted, distinct.
export function divisors(d, habits) {
  const root = Math.sqrt(d);
  if (root === Math.round(root)) return [root];
  const written = new Set([root, ...habits.root_decimals.flatMap((places) => [rounded(root, places), 1 / rounded(1 / root, places)])]);
  return [...written].sort((a, b) => a - b);
}

// Every path as each habit writes it: habits.decimals, the decimals kept in turn ([] not rounded).
const eachRounding = (rows, habits) => habits.decimals.flatMap((habit) => rows.map((row) => row.map((x) => habit.reduce(rounded, x))));

// Scaled scores as students keep them (honest._each_scaled_rounding): each of habits.scaled_decimals
// in turn, or to each of habits.scaled_digits significant digits (the sign kept).
const signedSignificant = (x, digits) => Math.sign(x) * significant(Math.abs(x), digits);
const eachScaledRounding = (rows, habits) => [
  ...habits.scaled_decimals.flatMap((habit) => rows.map((row) => row.map((x) => habit.reduce(rounded, x)))),
  ...habits.scaled_digits.flatMap((digits) => rows.map((row) => row.map((x) => signedSignificant(x, digits))))];

// rows → make(rows of the visible keys), the hidden keys 0.
function overVisible(rows, visible, make) {
  const made = make(rows.map((row) => row.filter((_, j) => visible[j])));
  return made.map((seen) => { let i = 0; return visible.map((shown) => (shown ? seen[i++] : 0)); });
}

const sumInOrder = (row) => row.reduce((total, x) => total + x, 0);
const normalised = (rows) => rows.map((row) => {
  const sum = sumInOrder(row);
  return Math.abs(sum) > 1e-12 ? row.map((x) => x / sum) : row.map(() => NaN);
});
const exps = (rows, habits) => habits.digits.flatMap((digits) => rows.map((row) => row.map((x) => significant(Math.exp(x), digits))));

// One step of a chain on every path (honest.step). context: {d_k, visible, v, k, d_model, habits}.
function step(name, rows, {d_k, visible, v, k, d_model, habits}) {
  const weighted = (rows, by) => rows.map((row) => by[0].map((_, c) => row.reduce((total, w, j) => total + w * by[j][c], 0)));
  switch (name) {
    case "scale": return eachScaledRounding(divisors(d_k, habits).flatMap((root) => rows.map((row) => row.map((x) => x / root))), habits);
    case "scale_model": return eachScaledRounding(divisors(d_model || d_k, habits).flatMap((root) => rows.map((row) => row.map((x) => x / root))), habits);
    case "round": return eachRounding(rows, habits);
    case "divide_d": return eachRounding(rows.map((row) => row.map((x) => x / d_k)), habits);
    case "times_scale": return eachScaledRounding(divisors(d_k, habits).flatMap((root) => rows.map((row) => row.map((x) => x * root))), habits);
    case "softmax": return overVisible(rows, visible, (seen) => eachRounding(normalised(exps(seen, habits)), habits));
    case "softmax_all": return eachRounding(normalised(exps(rows, habits)), habits).map((row) => row.map((x, j) => (visible[j] ? x : 0)));
    case "exp": return overVisible(rows, visible, (seen) => exps(seen, habits));
    case "by_sum": return overVisible(rows, visible, (seen) => eachRounding(normalised(seen), habits));
    case "hide": return overVisible(rows, visible, (seen) => seen);
    case "output": return eachRounding(weighted(rows, v), habits);
    case "output_k": return eachRounding(weighted(rows, k), habits);
    default: throw new Error(`no step ${name}`);
  }
}

// Every row honest hand work can write after `steps` from `start` (a row, or rows).
export function variants(start, steps, {d_k = 1, visible = null, v = null, k = null, d_model = null, habits}) {
  let rows = Array.isArray(start[0]) ? start : [start];
  const seen = visible || rows[0].map(() => true);
  for (const name of steps) rows = step(name, rows, {d_k, visible: seen, v, k, d_model, habits});
  return rows;
}

// The band of rows: [lowest, highest] per component over the finite rows, widened by the slack;
// NaN where no row is finite.
export function band(rows, habits) {
  const finite = rows.filter((row) => row.every(Number.isFinite));
  const width = rows.length ? rows[0].length : 0;
  if (!finite.length) return [Array(width).fill(NaN), Array(width).fill(NaN)];
  const low = [], high = [];
  for (let c = 0; c < width; c++) {
    let lo = Infinity, hi = -Infinity;
    for (const row of finite) { lo = Math.min(lo, row[c]); hi = Math.max(hi, row[c]); }
    low.push(lo - habits.slack);
    high.push(hi + habits.slack);
  }
  return [low, high];
}

export const chainBand = (start, steps, context) => band(variants(start, steps, context), context.habits);

// The band of numbers known exactly: as they are, or rounded.
export const exactBand = (values, habits) => band(eachRounding([values], habits), habits);

// Whether every component of `answer` lies in the band.
export function inside(answer, [low, high]) {
  return answer.length === low.length && low.every(Number.isFinite) && answer.every((x, i) => low[i] <= x && x <= high[i]);
}

// The fewest decimals (up to 6) that write x.
function decimalsOf(x) {
  for (let places = 0; places < 7; places++) if (Math.abs(rounded(x, places) - x) < 1e-9) return places;
  return 6;
}

// What a student may have had in mind for a row they typed: each value ± half a unit of its last
// decimal (at least the second), every corner of that box; more than 10 values: the row as typed.
export function typedCorners(values) {
  if (values.length > 10) return [values];
  const half = values.map((x) => 0.5 * 10 ** -Math.max(2, decimalsOf(x)));
  let corners = [[]];
  values.forEach((x, i) => { corners = corners.flatMap((corner) => [[...corner, x - half[i]], [...corner, x + half[i]]]); });
  return corners;
}
