// The typed source of what is on show: {kind, name} (app/kinds.py). Its kind says which catalog
// holds its entry (a model kind's: the models; the others': the sentences); a name alone is only
// read from a link's preset=<name> (url.js), and resolved here once.

/** @typedef {{kind: string, name: string}} Source */

// The source that names an entry (a sentence's or a model's).
export function sourceOf(entry) {
  return Object.freeze({kind: entry.kind, name: entry.name});
}

// Whether two sources name the same entry (an entry names itself by its kind and name too).
export function sameSource(a, b) {
  return !!a && !!b && a.kind === b.kind && a.name === b.name;
}

// The sentence cube a source names: a sentence kind's, of that kind and name; null for a model's.
//   cubes: Map name → Cube (a model head's under a key of its own, with `cube.model`);
//   kinds: constants.kinds ({sentences, models}).
export function cubeOf(source, {cubes, kinds}) {
  if (!source || kinds.models.includes(source.kind)) return null;
  const cube = cubes.get(source.name);
  return cube && !cube.model && sameSource(cube.entry, source) ? cube : null;
}

// The entry a source names, from its kind's catalog only: a model kind's in `models`, the others'
// among the sentence cubes; null when that catalog has none of this kind and name.
export function entryOf(source, {cubes, models = [], kinds}) {
  if (!source) return null;
  if (kinds.models.includes(source.kind)) return models.find((entry) => sameSource(entry, source)) || null;
  const cube = cubeOf(source, {cubes, kinds});
  return cube ? cube.entry : null;
}

// The source a link's preset=<name> names: a model's first (as the page has always found them),
// then a sentence's; null when neither catalog has the name.
export function sourceNamed(name, {cubes, models = []}) {
  if (name === "trained") {  // the trained model at its last step (README: ?preset=trained)
    const steps = models.filter((entry) => entry.kind === "trained" && !entry.typed).map((entry) => entry.name).sort();
    if (steps.length) return sourceNamed(steps[steps.length - 1], {cubes, models});
  }
  const model = models.find((entry) => entry.name === name);
  if (model) return sourceOf(model);
  const cube = cubes.get(name);
  return cube && !cube.model ? sourceOf(cube.entry) : null;
}
