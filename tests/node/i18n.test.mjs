// i18n.js: a key looked up in the UI's language, a count's plural form picked as the catalogs (and
// Python) pick it, placeholders filled, and a missing key or form reported, never shown as a key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { translator, catalogTranslator } from "../../static/explorer/i18n.js";

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const catalogs = {ko: read("../../attention_core/locales/ko.json").ui, en: read("../../attention_core/locales/en.json").ui};
const golden = read("../plural_forms.json").cases;

function recorder() {
  const reported = [];
  return {reported, report: (key, lang) => reported.push(`${lang}:${key}`)};
}

test("a count picks the plural form Intl.PluralRules gives, the same cases Python passes", () => {
  const strings = {ko: {n: {other: "{count}개"}}, en: {n: {one: "one:{count}", other: "other:{count}"}}};
  for (const [lang, count, form] of golden) {
    const {reported, report} = recorder();
    const shown = translator(strings, lang, report)("n", {count});
    assert.equal(shown, lang === "ko" ? `${count}개` : `${form}:${count}`, `${lang} ${count}`);
    assert.deepEqual(reported, []);
  }
});

test("the catalogs' counted strings read well for one and for many", () => {
  const {reported, report} = recorder();
  const en = translator(catalogs, "en", report), ko = translator(catalogs, "ko", report);
  assert.equal(en("rest_keys", {count: 1, weight: "0.100"}), "The other 1 key carries 0.100");
  assert.equal(en("rest_keys", {count: 3, weight: "0.400"}), "The other 3 keys carry 0.400");
  assert.equal(ko("rest_keys", {count: 1, weight: "0.100"}), "나머지 Key 1개의 가중치 합: 0.100");
  assert.match(en("figure_state", {query: "q", count: 1, shown: "All", scale: "on", mask: "off", d_k: 2}), /All \(1 head\)/);
  assert.match(en("figure_state", {query: "q", count: 4, shown: "All", scale: "on", mask: "off", d_k: 2}), /All of 4 heads/);
  assert.equal(en("answer_length", {count: "1", given: "2"}), "The output vector has 1 number (you typed 2).");
  assert.deepEqual(reported, []);
});

test("placeholders are filled from the values; one without a value stays visible", () => {
  const t = translator({en: {hello: "{who} → {what} {who}"}}, "en", () => assert.fail("nothing is missing"));
  assert.equal(t("hello", {who: "q", what: 0}), "q → 0 q");
  assert.equal(t("hello", {who: "q"}), "q → {what} q");
});

test("a missing key is reported and taken from another language, never shown as the key", () => {
  const {reported, report} = recorder();
  const t = translator({ko: {only_ko: "한국어만"}, en: {}}, "en", report);
  assert.equal(t("only_ko"), "한국어만");
  assert.equal(t("nowhere"), "");
  assert.deepEqual(reported, ["en:only_ko", "en:nowhere"]);
});

test("a plural value without a count, or without the form asked for, is reported and shows 'other'", () => {
  const {reported, report} = recorder();
  const t = catalogTranslator({n: {other: "{count} things"}, bare: {one: "one", other: "other"}}, "en", report);
  assert.equal(t("n", {count: 1}), "1 things");
  assert.equal(t("bare"), "other");
  assert.deepEqual(reported, ["en:n.one", "en:bare.count"]);
});

test("one language's catalog alone is enough: the page can ship one and fetch the other on a switch", () => {
  const {reported, report} = recorder();
  const ko = catalogTranslator(catalogs.ko, "ko", report);
  assert.equal(ko("app_title"), "어텐션 탐색기");
  assert.equal(ko("rest_keys", {count: 2, weight: "0.5"}), "나머지 Key 2개의 가중치 합: 0.5");
  assert.equal(ko("not_a_key"), "");
  assert.deepEqual(reported, ["ko:not_a_key"]);
  // a table holding only the language on show works through translator() too
  const en = translator({en: catalogs.en}, "en", report);
  assert.equal(en("app_title"), "Attention Explorer");
});
