// One sentence's state cube: the numbers attention_core computed (cube_payload), indexed by the
// axis names its `layout` gives. Nothing here computes attention; it only looks numbers up.

// Base64 text as its bytes.
export function base64Bytes(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The payload's blob: zlib-compressed little-endian numbers, each array in the type its layout
// names (and an exported file's packed state, static/standalone.js; a model's overview), as base64
// text or as the bytes a socket's binary frame brought. Rejects where the browser cannot inflate.
export async function inflate(packed) {
  if (typeof DecompressionStream === "undefined") throw new Error("this browser has no DecompressionStream");
  const bytes = typeof packed === "string" ? base64Bytes(packed) : packed;
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Response(stream).arrayBuffer();
}

// The layout's dtypes (attention_core.cube.DTYPES) as typed arrays.
const TYPED = {f8: Float64Array, f4: Float32Array, u2: Uint16Array, i2: Int16Array, u1: Uint8Array, i1: Int8Array};

// One array of the blob, indexed by its axes' names (row-major, as NumPy writes it), so that no
// caller depends on their order. `select` fixes some axes for good (a practice problem's own
// problem in a bank of them). A name the array has no axis for is ignored: weights alone have no
// scale or causal axis, since they exist only at the model's own switches.
export class Tensor {
  constructor(buffer, name, {offset, shape, axes, dtype}, select = {}) {
    const Typed = TYPED[dtype];
    if (!Typed) throw new TypeError(`${name}: unknown dtype ${dtype}`);
    if (!Array.isArray(axes) || axes.length !== shape.length) throw new TypeError(`${name}: one axis name per axis`);
    this.name = name;
    this.data = new Typed(buffer, offset, shape.reduce((a, b) => a * b, 1));
    const strides = shape.map((_, axis) => shape.slice(axis + 1).reduce((a, b) => a * b, 1));
    this.base = 0;  // where the selected part starts
    this.axes = [];
    this.shape = [];
    this.strides = [];
    axes.forEach((axis, i) => {
      if (axis in select) {
        this.base += this.check(axis, select[axis], shape[i]) * strides[i];
      } else {
        this.axes.push(axis);
        this.shape.push(shape[i]);
        this.strides.push(strides[i]);
      }
    });
  }
  check(axis, index, size) {
    if (!Number.isInteger(index) || index < 0 || index >= size) {
      throw new RangeError(`${this.name}: index ${index} on axis ${axis} of size ${size}`);
    }
    return index;
  }
  // The size of axis `name`.
  size(name) {
    const axis = this.axes.indexOf(name);
    if (axis < 0) throw new RangeError(`${this.name} has no axis ${name}, only [${this.axes}]`);
    return this.shape[axis];
  }
  // Where the number at these indices is; `free` axes at the end take no index.
  offset(indices, free = 0) {
    let at = this.base;
    for (let axis = 0; axis < this.axes.length - free; axis++) {
      const name = this.axes[axis];
      if (!(name in indices)) throw new RangeError(`${this.name}: no index for axis ${name} of [${this.axes}]`);
      at += this.check(name, indices[name], this.shape[axis]) * this.strides[axis];
    }
    return at;
  }
  // One number: an index for each axis, by name ({scale, causal, head, query, key}).
  at(indices) { return this.data[this.offset(indices)]; }
  // A two-axis array as its rows, top to bottom (W_Q, E + P, …: a matrix as the book prints it).
  matrix() {
    if (this.axes.length !== 2) throw new RangeError(`${this.name} has axes [${this.axes}], not two`);
    const [rows, cols] = this.shape;
    return Array.from({length: rows}, (_, i) => Array.from(this.data.subarray(this.base + i * this.strides[0],
      this.base + i * this.strides[0] + cols)));
  }
  // The last axis at the given indices (by name, one for every other axis), as a plain array.
  row(indices) {
    const start = this.offset(indices, 1), length = this.shape[this.shape.length - 1];
    return Array.from(this.data.subarray(start, start + length));
  }
}

// A view switch as an index: the cube stores [off, on]. Anything but a boolean is a caller's bug.
function flag(name, value) {
  if (typeof value !== "boolean") throw new TypeError(`${name} must be true or false, not ${JSON.stringify(value)}`);
  return value ? 1 : 0;
}

// The switches of a view, as indices by name.
function switches(scale, causal) {
  return {scale: flag("scale", scale), causal: flag("causal", causal)};
}

// A sentence: its metadata at once, its numbers once `ready` settles (state "ready" or "failed").
export class Cube {
  constructor(entry, serial) {
    const p = entry.cube;
    this.entry = entry;
    this.serial = serial;
    this.tokens = p.tokens;
    this.n = p.n;
    this.d_model = p.d_model;
    this.sqrt_d_model = p.sqrt_d_model;
    this.dv_model = p.dv_model;
    this.head_counts = p.head_counts;
    this.blocks = p.blocks;
    // a model's head (app/models.py): which model, layer, head and token view; with weights only,
    // its arrays have no scale or causal axis (the weights exist at the model's own switches)
    this.model = entry.model_head || null;
    this.weightsOnly = !!p.weights_only;
    this.state = "loading";
    this.error = null;
    // a served preset not on show travels without its numbers (data null): the page asks Python for
    // the whole entry (explorer.js) and this cube stays "loading" until that one replaces it
    this.numbersLater = p.data === null;
    if (this.numbersLater) {
      this.ready = new Promise(() => {});
      return;
    }
    this.ready = (p.encoding === "zlib-base64" ? inflate(p.data) : Promise.reject(new Error(`unknown encoding ${p.encoding}`)))
      .then((buffer) => {
        this.arrays = Object.fromEntries(Object.entries(p.layout).map(([name, spec]) =>
          [name, new Tensor(buffer, name, spec, p.select || {})]));
      this.state = "ready";
    }, (error) => {
      this.state = "failed";
      this.error = error;
    });
  }
  offers(heads) { return this.head_counts.includes(heads); }
  // Whether the payload has the array (e.g. layer/x only where a preset shows where Q, K, V come from).
  has(name) { return !!(this.arrays && this.arrays[name]); }
  block(heads) { return this.blocks[String(heads)]; }
  tensor(name) {
    const tensor = this.arrays && this.arrays[name];
    if (!tensor) throw new RangeError(`the cube has no array ${name}`);
    return tensor;
  }
  // Whether the causal mask, when on, hides key from query: the core's mask, looked up.
  masked(causal, query, key) {
    return flag("causal", causal) === 1 && this.has("mask") && this.tensor("mask").at({query, key}) === 1;
  }
  // masked() for every key of the query, in key order.
  maskedRow(causal, query) {
    return Array.from({length: this.n}, (_, key) => this.masked(causal, query, key));
  }
  score(heads, head, query, key) { return this.tensor(`scores/${heads}`).at({head, query, key}); }
  // With √d off the scaled scores are the raw scores, which the cube ships once.
  scaled(heads, scale, head, query, key) {
    return flag("scale", scale) ? this.tensor(`scaled/${heads}`).at({head, query, key}) : this.score(heads, head, query, key);
  }
  weight(heads, scale, causal, head, query, key) {
    return this.tensor(`weights/${heads}`).at({...switches(scale, causal), head, query, key});
  }
  weightRow(heads, scale, causal, head, query) {
    return this.tensor(`weights/${heads}`).row({...switches(scale, causal), head, query});
  }
  // The sentence the core chose for what ÷√d_k does to the query's weights (scale_effect.EFFECTS),
  // and for more than one head the heads note's (SHARPENINGS) with the largest weight ÷√d_model;
  // null where the cube has none (a model's weights alone).
  scaleEffect(heads, causal, head, query, {effects, sharpenings}) {
    if (!this.has(`effect/${heads}`)) return null;
    const at = {causal: flag("causal", causal), head, query};
    const found = {effect: effects[this.tensor(`effect/${heads}`).at(at)]};
    if (this.has(`sharpening/${heads}`)) {
      found.sharpening = sharpenings[this.tensor(`sharpening/${heads}`).at(at)];
      found.modelMax = this.tensor(`modelmax/${heads}`).at(at);
    }
    return found;
  }
  // A model's head: the query's keys from the heaviest down, and the weight left after the first r + 1.
  rankRow(scale, causal, query) { return this.tensor("rank/1").row({...switches(scale, causal), head: 0, query}); }
  restAfter(scale, causal, query, r) { return this.tensor("rest/1").at({...switches(scale, causal), head: 0, query, rank: r}); }
  // A head through a lens (attention_core.lenses.DRAWN): the row it draws for the query (a model's
  // head at its own switches: the switches are ignored; a sentence's one head at these switches),
  // and a model's keys ranked as rankRow and restAfter rank the weights. `lens` is the index of
  // lens/drawn's row (DRAWN without "weight"); lensCount: how many lenses the cube has.
  lensRow(lens, query, scale, causal) { return this.tensor("lens/drawn").row({...switches(scale, causal), lens, query}); }
  lensCount() { return this.has("lens/drawn") ? this.tensor("lens/drawn").size("lens") : 0; }
  lensRankRow(lens, query) { return this.tensor("lens/rank").row({lens, query}); }
  lensRestAfter(lens, query, r) { return this.tensor("lens/rest").at({lens, query, rank: r}); }
  // What the query gives to tokens not shown (merged views without special tokens), or 0.
  hidden(query) { return this.has("hidden/1") ? this.tensor("hidden/1").at({query}) : 0; }
  output(heads, scale, causal, head, query) {
    return this.tensor(`output/${heads}`).row({...switches(scale, causal), head, query});
  }
  // The head's slice of a token's q, k or v row: d_model / heads (or dv_model / heads) numbers.
  headSlice(name, heads, head, token) {
    const row = this.tensor(name).row({token});
    const part = row.length / heads;
    return row.slice(head * part, (head + 1) * part);
  }
  qRow(heads, head, query) { return this.headSlice("q", heads, head, query); }
  kRow(heads, head, key) { return this.headSlice("k", heads, head, key); }
  vRow(heads, head, key) { return this.headSlice("v", heads, head, key); }
  // The matrix as strings, one row per token, for the numbers editor.
  matrixText(name) {
    return this.tensor(name).matrix().map((row) => row.map((x) => String(x)));
  }
}
