// The UI's words: each language's catalog (the `ui` section of attention_core/locales/<lang>.json),
// looked up in the UI's language, a count's plural form picked as Intl.PluralRules picks it.

import { fill } from "./format.js";

// The placeholder whose number picks a plural value's form (attention_core.words.PLURAL_PLACEHOLDER).
export const PLURAL_PLACEHOLDER = "count";

// t(key, values) for `lang` from `strings` = {lang: catalog}, which may hold every language or only
// some (a page can ship one and add the other when the user switches). A key missing in `lang` falls
// back to another language the table has and is reported once through `report(key, lang)`, so a
// slip is seen in the console, never shown as a key.
export function translator(strings, lang, report) {
  const others = Object.entries(strings).filter(([other]) => other !== lang).map(([, table]) => table);
  return catalogTranslator(strings[lang] || {}, lang, report, others);
}

// t(key, values) from one language's catalog; `fallbacks` are other catalogs to take a missing key
// from ([] when the page has only this one). A value is a template, or a plural value
// {one: "…", other: "…"} (the language's plural categories) picked by values.count: a plural value
// without a count is reported as "<key>.count", a form the catalog lacks as "<key>.<form>", and
// "other" is shown instead.
export function catalogTranslator(catalog, lang, report, fallbacks = []) {
  const rules = new Intl.PluralRules(lang);
  return (key, given = {}) => {
    const values = inLanguage(given, lang);
    let value = catalog[key];
    if (value === undefined) {
      report(key, lang);
      value = fallbacks.map((other) => other[key]).find((found) => found !== undefined) ?? "";
    }
    return fill(typeof value === "string" ? value : pluralTemplate(value, rules, key, lang, values, report), values);
  };
}

// The form of a plural value for values.count.
// `values` with each value given per language (`truth_ko`, `truth_en`) also under its own name
// (`truth`) in `lang`, where that name is not given itself (as attention_core.words in_language).
export function inLanguage(values, lang) {
  const suffix = `_${lang}`, own = {};
  for (const [name, value] of Object.entries(values || {})) if (name.endsWith(suffix)) own[name.slice(0, -suffix.length)] = value;
  return {...own, ...values};
}

function pluralTemplate(value, rules, key, lang, values, report) {
  if (!(PLURAL_PLACEHOLDER in values)) {
    report(`${key}.${PLURAL_PLACEHOLDER}`, lang);
    return value.other ?? "";
  }
  const form = rules.select(Number(values[PLURAL_PLACEHOLDER]));
  if (value[form] === undefined) {
    report(`${key}.${form}`, lang);
    return value.other ?? "";
  }
  return value[form];
}

// The rest of what a served page has (app/explorer.py rest_json: it gets the first screen's words and
// constants first): ready() resolves once the page has every word of its languages and the constants
// of the modules loaded on first use (merged into `constants`), asking Python for them the first time
// (rest_wanted); at once where the page has them all (an exported file, or once they came).
export function wholeWords(model, constants) {
  const partial = () => model.rest_json === null;  // an exported file's model has no rest_json: it has all
  const merge = () => Object.assign(constants, JSON.parse(model.rest_json).constants);
  if (model.rest_json) merge();  // the page drawn again (a reconnect), the rest already here
  let waiting = null;
  return {
    partial,
    ready() {
      if (!partial()) return Promise.resolve();
      waiting = waiting || new Promise((resolve) => {
        model.on("rest_json", () => {
          if (partial()) return;
          merge();
          resolve();
        });
        model.rest_wanted = true;
      });
      return waiting;
    },
  };
}

// The page's translators from the catalog `strings` (offered("strings")): t for a language, made
// once a language until Python sends new strings (reset); a key missing in a language is reported
// once in the console. shownLang(asked): the language asked for when the page has its words (a
// served page gets one, and the other when it switches), else one it has.
export function createTranslations(strings, whole = null) {
  const reported = new Set();
  const report = (key, lang) => {
    // a served page's first words lack it: ask for the rest, and the page draws again with them
    if (whole && whole.partial()) { whole.ready(); return; }
    if (reported.has(`${lang}:${key}`)) return;
    reported.add(`${lang}:${key}`);
    console.error(`Attention Explorer: the string table has no "${key}" in "${lang}"`);
  };
  let translators = new Map();
  return {
    shownLang: (asked) => (asked in strings() ? asked : Object.keys(strings())[0]),
    translate(lang) {
      if (!translators.has(lang)) translators.set(lang, translator(strings(), lang, report));
      return translators.get(lang);
    },
    reset() { translators = new Map(); },
  };
}
