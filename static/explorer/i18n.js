// The UI's words: one string table from Python (app/strings.py), looked up in the UI's language.

import { fill } from "./format.js";

// t(key, values) for `lang`. A key missing in that language falls back to another language and is
// reported once through `report(key, lang)`, so a slip is seen in the console, never shown as a key.
export function translator(strings, lang, report) {
  const table = strings[lang] || {};
  return (key, values = {}) => {
    let template = table[key];
    if (template === undefined) {
      report(key, lang);
      template = Object.values(strings).map((other) => other[key]).find((value) => value !== undefined) ?? "";
    }
    return fill(template, values);
  };
}
