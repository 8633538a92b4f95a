// Numbers and labels as a student reads them: fixed decimals, a true minus sign, short token labels.

// x with `digits` decimals; −∞ for a masked score; "−0.000" is shown as "0.000".
// The keys of `row` whose number, written with `digits` decimals, equals key `top`'s: a sentence that
// names the largest names them all (two keys that look equal are both the largest to a student).
export function tiedAt(row, top, digits = 3) {
  const shown = (x) => fmt(Math.abs(x), digits);
  return Array.from(row, (_, key) => key).filter((key) => shown(row[key]) === shown(row[top]));
}

export function fmt(x, digits = 3) {
  if (x === -Infinity) return "−∞";
  // toFixed writes 1e21 and beyond in scientific notation, which a student should never see
  const text = Math.abs(x) < 1e21 ? x.toFixed(digits)
    : x.toLocaleString("en-US", {useGrouping: false, minimumFractionDigits: digits, maximumFractionDigits: digits});
  return text.startsWith("-") && Number(text) !== 0 ? "−" + text.slice(1) : text.replace(/^-/, "");
}

// A given number as short as it is exact to three decimals: 2, −1, 0.5, 1.414.
export function short(x) {
  return fmt(x, 3).replace(/\.?0+$/, "");
}

// A given vector, each number as short as it is exact: (1, 1, 0), (0.5, 2).
export function shortVector(values) {
  return "(" + values.map(short).join(", ") + ")";
}

// A vector as the book writes it: (0.21, 0.98).
export function vector(values, digits = 2) {
  return "(" + values.map((x) => fmt(x, digits)).join(", ") + ")";
}

// A token cut to `max` characters with an ellipsis, for labels in figures.
export function shortLabel(token, max = 12) {
  return token.length > max ? token.slice(0, max - 1) + "…" : token;
}

// A character's width in ems, as the figures' fonts draw it: Hangul, kana and CJK ideographs a full
// em; Latin letters, digits and punctuation about 0.6 (Noto Sans: 0.45–0.9, "W" the widest).
export function charEms(char) {
  const code = char.codePointAt(0);
  const wide = (code >= 0x1100 && code <= 0x11ff) || (code >= 0x2e80 && code <= 0xa4cf) || (code >= 0xac00 && code <= 0xd7a3)
    || (code >= 0xf900 && code <= 0xfaff) || (code >= 0xff00 && code <= 0xff60);
  return wide ? 1 : 0.62;
}

// A token's width in ems (charEms, character by character).
export function labelEms(token) {
  let ems = 0;
  for (const char of token) ems += charEms(char);
  return ems;
}

// A token cut to `ems` of width with an ellipsis (0.62 em), for labels in a figure's narrow column.
export function fitLabel(token, ems) {
  if (labelEms(token) <= ems) return token;
  let kept = "", width = 0.62;
  for (const char of token) {
    if (width + charEms(char) > ems) break;
    kept += char;
    width += charEms(char);
  }
  return kept + "…";
}

// "{name}" placeholders filled from values; a placeholder with no value stays visible, so a slip shows.
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
