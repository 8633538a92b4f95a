// What Python offers: the catalogs `sentences`, `models`, `strings` and `practice_bank`. A served
// page and a notebook receive each as one JSON string, `<name>_json` (app/explorer.py _catalogs:
// Bokeh sends a string at a fraction of a nested value's cost); the exported file's stand-in model
// holds them as they are. Each string is parsed once, and again only when Python sends a new one.

// A reader of the model's catalogs: offered(name) is the catalog's value.
export function offeredReader(model) {
  const parsed = new Map();
  return (name) => {
    const text = model[`${name}_json`];
    if (typeof text !== "string") return model[name];
    const last = parsed.get(name);
    if (last && last.text === text) return last.value;
    const value = JSON.parse(text);
    parsed.set(name, {text, value});
    return value;
  };
}

// The name of the model's property that changes when the catalog `name` does.
export function offeredProperty(model, name) {
  return typeof model[`${name}_json`] === "string" ? `${name}_json` : name;
}
