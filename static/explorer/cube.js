// One sentence's state cube: the numbers attention_core computed (cube_payload), indexed by the
// shapes its `layout` gives. Nothing here computes attention; it only looks numbers up.

// Base64 text as its bytes.
export function base64Bytes(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The payload's blob: base64 of zlib-compressed float64s (or float32s, a real model's). Rejects
// where the browser cannot inflate.
async function inflate(base64, encoding) {
  if (typeof DecompressionStream === "undefined") throw new Error("this browser has no DecompressionStream");
  const bytes = base64Bytes(base64);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  const buffer = await new Response(stream).arrayBuffer();
  return encoding === "zlib-float32le-base64" ? new Float32Array(buffer) : new Float64Array(buffer);
}

// One array of the blob, read with the shape the layout gives (row-major, as NumPy writes it).
class Tensor {
  constructor(numbers, name, {offset, shape}) {
    this.name = name;
    this.shape = shape;
    this.strides = shape.map((_, axis) => shape.slice(axis + 1).reduce((a, b) => a * b, 1));
    this.data = numbers.subarray(offset, offset + shape.reduce((a, b) => a * b, 1));
  }
  offset(indices) {
    let at = 0;
    indices.forEach((index, axis) => {
      if (!Number.isInteger(index) || index < 0 || index >= this.shape[axis]) {
        throw new RangeError(`${this.name}: index ${index} on axis ${axis} of shape [${this.shape}]`);
      }
      at += index * this.strides[axis];
    });
    return at;
  }
  // One number: as many indices as axes.
  at(...indices) {
    if (indices.length !== this.shape.length) throw new RangeError(`${this.name} needs ${this.shape.length} indices`);
    return this.data[this.offset(indices)];
  }
  // The last axis at the given leading indices, as a plain array.
  row(...indices) {
    if (indices.length !== this.shape.length - 1) throw new RangeError(`${this.name}: a row needs ${this.shape.length - 1} indices`);
    const start = this.offset(indices);
    return Array.from(this.data.subarray(start, start + this.shape[this.shape.length - 1]));
  }
}

// A view switch as an index: the cube stores [off, on]. Anything but a boolean is a caller's bug.
function flag(name, value) {
  if (typeof value !== "boolean") throw new TypeError(`${name} must be true or false, not ${JSON.stringify(value)}`);
  return value ? 1 : 0;
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
    this.dv_model = p.dv_model;
    this.head_counts = p.head_counts;
    this.blocks = p.blocks;
    // a model's head (app/models.py): which model, layer, head and token view; with weights only,
    // the payload has one copy of the weights, at the model's own switches
    this.model = entry.model_head || null;
    this.weightsOnly = !!p.weights_only;
    this.state = "loading";
    this.error = null;
    this.ready = inflate(p.data, p.encoding).then((numbers) => {
      this.arrays = Object.fromEntries(Object.entries(p.layout).map(([name, spec]) => [name, new Tensor(numbers, name, spec)]));
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
    return flag("causal", causal) === 1 && this.has("mask") && this.tensor("mask").at(query, key) === 1;
  }
  score(heads, head, query, key) { return this.tensor(`scores/${heads}`).at(head, query, key); }
  // With √d off the scaled scores are the raw scores, which the cube ships once.
  scaled(heads, scale, head, query, key) {
    return flag("scale", scale) ? this.tensor(`scaled/${heads}`).at(head, query, key) : this.score(heads, head, query, key);
  }
  // The [scale][causal] indices of a view; weights alone come at one setting only.
  variant(scale, causal) {
    const at = [flag("scale", scale), flag("causal", causal)];
    return this.weightsOnly ? [0, 0] : at;
  }
  weight(heads, scale, causal, head, query, key) {
    return this.tensor(`weights/${heads}`).at(...this.variant(scale, causal), head, query, key);
  }
  weightRow(heads, scale, causal, head, query) {
    return this.tensor(`weights/${heads}`).row(...this.variant(scale, causal), head, query);
  }
  // A model's head: the query's keys from the heaviest down, and the weight left after the first r + 1.
  rankRow(scale, causal, query) { return this.tensor("rank/1").row(...this.variant(scale, causal), 0, query); }
  restAfter(scale, causal, query, r) { return this.tensor("rest/1").at(...this.variant(scale, causal), 0, query, r); }
  // What the query gives to tokens not shown (merged views without special tokens), or 0.
  hidden(query) { return this.has("hidden/1") ? this.tensor("hidden/1").at(query) : 0; }
  output(heads, scale, causal, head, query) {
    return this.tensor(`output/${heads}`).row(flag("scale", scale), flag("causal", causal), head, query);
  }
  // The head's slice of a token's q, k or v row: d_model / heads (or dv_model / heads) numbers.
  headSlice(name, heads, head, token) {
    const row = this.tensor(name).row(token);
    const part = row.length / heads;
    return row.slice(head * part, (head + 1) * part);
  }
  qRow(heads, head, query) { return this.headSlice("q", heads, head, query); }
  kRow(heads, head, key) { return this.headSlice("k", heads, head, key); }
  vRow(heads, head, key) { return this.headSlice("v", heads, head, key); }
  // The matrix as strings, one row per token, for the numbers editor.
  matrixText(name) {
    return Array.from({length: this.n}, (_, i) => this.tensor(name).row(i).map((x) => String(x)));
  }
}
