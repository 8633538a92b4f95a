// What Python offers: the catalogs `sentences`, `models`, `strings`, `practice_bank` and `lesson`. A served
// page and a notebook receive each as one JSON text, `<name>_json` (app/explorer.py _catalogs:
// Bokeh sends a string at a fraction of a nested value's cost); the exported file's stand-in model
// holds them as they are. Each string is parsed once, and again only when Python sends a new one.

// Whether a model's `<name>_json` holds the catalog (a served page, a notebook): its text.
const carried = (value) => typeof value === "string";

// The catalogs, by name.
export const CATALOGS = ["sentences", "models", "strings", "practice_bank", "lesson"];

// A reader of the model's catalogs: offered(name) is the catalog's value, read and parsed once, and
// again only after Python sends a new one (click-cost: a served model's property read builds the
// dict of all its attributes, panel/models/reactive_esm.ts, and the page reads the strings on every
// repaint). Make it before anything else listens to the catalogs, so that their listeners read the
// new value.
export function offeredReader(model) {
  const values = new Map();  // name → its value, until Python sends a new one
  for (const name of CATALOGS) model.on(offeredProperty(model, name), () => values.delete(name));
  return (name) => {
    if (!values.has(name)) {
      const text = model[`${name}_json`];
      values.set(name, carried(text) ? JSON.parse(text) : model[name]);
    }
    return values.get(name);
  };
}

// The name of the model's property that changes when the catalog `name` does.
export function offeredProperty(model, name) {
  return carried(model[`${name}_json`]) ? `${name}_json` : name;
}
