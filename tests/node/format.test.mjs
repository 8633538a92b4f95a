// format.js: every number a student sees is fixed-point, rounds to the value, and has a true minus sign.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fitLabel, fmt, labelEms, short, shortVector, tiedAt, vector, fill } from "../../static/explorer/format.js";
import { figureHeadsShown } from "../../static/explorer/snapshot.js";

// values across every magnitude a page can show: tiny weights, model scores, huge typed numbers
function* values() {
  for (let exponent = -30; exponent <= 30; exponent++) {
    for (const mantissa of [1, 1.5, 2.345678, 9.99951]) {
      yield mantissa * 10 ** exponent;
      yield -mantissa * 10 ** exponent;
    }
  }
  yield* [0, -0, 0.0005, -0.0005, 0.9995, -0.9995, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE];
}

test("numbers are never in scientific notation, at any magnitude and any number of decimals", () => {
  for (const x of values()) {
    for (const digits of [0, 2, 3]) {
      const text = fmt(x, digits);
      assert.match(text, /^−?\d+(\.\d+)?$/, `${x} with ${digits} decimals: ${text}`);
      if (digits) assert.equal(text.split(".")[1].length, digits, text);
    }
  }
});

test("a shown number is the value rounded, with U+2212 for a minus and no negative zero", () => {
  for (const x of values()) {
    if (Math.abs(x) > 1e15) continue;  // beyond float64's integer precision a text can only approximate
    const text = fmt(x, 3);
    const back = Number(text.replace("−", "-"));
    assert.ok(Math.abs(back - x) <= 0.0005 + 1e-12 * Math.abs(x), `${x} → ${text}`);
    assert.ok(!text.includes("-"), text);
    if (back === 0) assert.ok(!text.startsWith("−"), `${x} → ${text}`);
  }
  assert.equal(fmt(-Infinity), "−∞");
  assert.equal(fmt(-1.5, 2), "−1.50");
});

test("given numbers are as short as they are exact to three decimals", () => {
  assert.deepEqual([2, -1, 0.5, 1.41421356, 0, -0.0001, 10, 100.5].map(short), ["2", "−1", "0.5", "1.414", "0", "0", "10", "100.5"]);
  assert.equal(shortVector([1, 1, 0]), "(1, 1, 0)");
  assert.equal(vector([0.2143, -0.9771]), "(0.21, −0.98)");
});

test("placeholders fill from values and a missing one stays visible", () => {
  assert.equal(fill("{a} of {b}", {a: 1, b: "x"}), "1 of x");
  assert.equal(fill("{a} {missing}", {a: 0}), "0 {missing}");
});

test("a label fits its column: Hangul a full em, Latin 0.62, cut with an ellipsis only when too wide", () => {
  assert.equal(labelEms("학교에서"), 4);
  assert.ok(Math.abs(labelEms("coffee") - 6 * 0.62) < 1e-9);
  assert.equal(fitLabel("학교에서", 4.4), "학교에서");  // the book's longest 어절 keeps its whole text
  assert.equal(fitLabel("coffee", 4.4), "coffee");
  for (const token of ["도서관에서부터", "international", "Which", "서점에서", "?", "オーストラリア", "aé학"]) {
    const label = fitLabel(token, 4.4);
    assert.ok(labelEms(label) <= 4.4 + 1e-9, `${token} → ${label}`);
    assert.ok(label === token || (label.endsWith("…") && token.startsWith(label.slice(0, -1))), `${token} → ${label}`);
  }
  assert.equal(fitLabel("도서관에서부터", 4.4), "도서관…");
});

test("lecture mode draws four heads a screen, the lecturer paging through eight; elsewhere every head", () => {
  const eight = [0, 1, 2, 3, 4, 5, 6, 7];
  assert.deepEqual(figureHeadsShown(eight, true, 0), [0, 1, 2, 3]);
  assert.deepEqual(figureHeadsShown(eight, true, 1), [4, 5, 6, 7]);
  assert.deepEqual(figureHeadsShown(eight, true, 5), [4, 5, 6, 7]);  // a page past the last: the last
  assert.deepEqual(figureHeadsShown(eight, true, undefined), [0, 1, 2, 3]);
  assert.deepEqual(figureHeadsShown(eight, false, 1), eight);
  assert.deepEqual(figureHeadsShown([0, 1, 2, 3], true, 1), [0, 1, 2, 3]);
  assert.deepEqual(figureHeadsShown([2], true, 1), [2]);  // one head shown alone
});

test("a sentence naming the largest names every key that looks as large at the decimals shown", () => {
  // a causal head's second query: its two weights' changes are opposite and equal in size
  assert.deepEqual(tiedAt([0.1204, -0.1203, 0], 0), [0, 1]);
  assert.deepEqual(tiedAt([0.5, 0.4996, 0.0004], 0), [0, 1]);  // 0.500 and 0.500
  assert.deepEqual(tiedAt([0.5, 0.4994, 0.0006], 0), [0]);     // 0.500 and 0.499
  assert.deepEqual(tiedAt(new Float64Array([0.2, 0.7, 0.1]), 1), [1]);
});
