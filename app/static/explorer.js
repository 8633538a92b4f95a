// Attention Explorer's browser view: draws and tabulates numbers attention_core computed.
// It only indexes the precomputed state cube; it never recomputes softmax, scaling or masks.
// All user text goes in through textContent or SVG text nodes, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";
// Okabe–Ito, ordered for contrast on white; distinguishable with the common colour-vision deficiencies.
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#9C8A00"];
const URL_KEYS = ["preset", "query", "scale", "causal", "heads", "lang", "mode"];
const OWN = ["custom", "numbers"];  // names of the student's own sentence and numbers
const STEPS = 6;

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  append(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "on") {
      for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    } else if (name === "text") {
      node.textContent = String(value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function fmt(x, digits = 3) {
  if (x === -Infinity) return "−∞";
  const text = x.toFixed(digits);
  return text.startsWith("-") && Number(text) !== 0 ? "−" + text.slice(1) : text.replace(/^-/, "");
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : ""));
}

// The cube's numbers arrive as one zlib-compressed blob of float64s (attention_core.cube_payload).
async function inflate(base64) {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Float64Array(await new Response(stream).arrayBuffer());
}

// One sentence's state cube. Its metadata is there at once; its numbers once `ready` resolves.
// Index layouts follow attention_core.cube_payload.
class Cube {
  constructor(entry) {
    const p = entry.cube;
    this.entry = entry;
    this.tokens = p.tokens;
    this.n = p.n;
    this.d_model = p.d_model;
    this.dv_model = p.dv_model;
    this.head_counts = p.head_counts;
    this.loaded = false;
    this.ready = inflate(p.data).then((numbers) => {
      const view = (name) => {
        const spec = p.layout[name];
        return numbers.subarray(spec.offset, spec.offset + spec.shape.reduce((a, b) => a * b, 1));
      };
      this.q = view("q");
      this.k = view("k");
      this.v = view("v");
      this.mask = view("mask");
      this.blocks = {};
      for (const [count, block] of Object.entries(p.blocks)) {
        this.blocks[count] = {...block, scores: view(`scores/${count}`), scaled: view(`scaled/${count}`),
          weights: view(`weights/${count}`), output: view(`output/${count}`)};
      }
      this.loaded = true;
    });
  }
  block(H) { return this.blocks[String(H)]; }
  // Whether the causal mask (when on) hides key j from query i: the core's mask, looked up.
  masked(causal, i, j) { return causal === 1 && this.mask[i * this.n + j] === 1; }
  score(H, head, i, j) { const n = this.n; return this.block(H).scores[(head * n + i) * n + j]; }
  // With √d off the core's scaled scores are the raw scores, so the cube ships them once.
  scaled(H, scale, head, i, j) {
    const n = this.n; return scale ? this.block(H).scaled[(head * n + i) * n + j] : this.score(H, head, i, j);
  }
  weight(H, scale, causal, head, i, j) {
    const n = this.n; return this.block(H).weights[(((scale * 2 + causal) * H + head) * n + i) * n + j];
  }
  weightRow(H, scale, causal, head, i) {
    return Array.from({length: this.n}, (_, j) => this.weight(H, scale, causal, head, i, j));
  }
  output(H, scale, causal, head, i) {
    const b = this.block(H), dv = b.d_v, n = this.n;
    const start = ((((scale * 2 + causal) * H + head) * n) + i) * dv;
    return Array.from(b.output.subarray(start, start + dv));
  }
  slice(matrix, width, H, head, row) {
    const part = width / H;
    return Array.from(matrix.subarray(row * width + head * part, row * width + (head + 1) * part));
  }
  qRow(H, head, i) { return this.slice(this.q, this.d_model, H, head, i); }
  kRow(H, head, j) { return this.slice(this.k, this.d_model, H, head, j); }
  vRow(H, head, j) { return this.slice(this.v, this.dv_model, H, head, j); }
}

function vector(values) {
  return "(" + values.map((x) => fmt(x, 2)).join(", ") + ")";
}

export function render({ model, el }) {
  const cubes = new Map(model.sentences.map((entry) => [entry.name, new Cube(entry)]));
  const t = (key, values = {}) => fill((model.strings[model.lang] || model.strings.ko)[key] || key, values);
  let notices = [];

  // ---------- state helpers (the state itself lives on the model, synced with Python) ----------
  const cube = () => cubes.get(model.preset) || cubes.values().next().value;
  // What is drawn: the model's query and heads, clamped to the sentence on show. update() never
  // writes a clamp back to the model, so a half-applied update from Python cannot bounce back.
  const shown = {query: 0, heads: 1};
  const visibleHeads = () => {
    const H = shown.heads;
    return model.head_view >= 0 && model.head_view < H ? [model.head_view] : Array.from({length: H}, (_, i) => i);
  };
  const focusHead = () => (model.head_view >= 0 && model.head_view < shown.heads ? model.head_view : 0);
  const flags = () => [model.scale ? 1 : 0, model.causal ? 1 : 0];
  const caption = (H, head) => {
    const byCount = cube().entry.captions[String(H)];
    return byCount && byCount[model.lang] ? byCount[model.lang][head] : "";
  };

  function readUrl() {
    if (!model.url_sync) return;
    let params;
    try { params = new URLSearchParams(window.location.search); } catch (e) { return; }
    const found = {};
    const note = (key, values) => notices.push([key, values]);
    const text = params.get("text");
    if (params.has("preset")) {
      const value = params.get("preset");
      if (cubes.has(value)) found.preset = value;
      else if (!(value === "custom" && text !== null)) note("notice_preset", {value});
    }
    if (params.has("step")) {
      const value = params.get("step");
      if (/^\d$/.test(value) && Number(value) < STEPS) found.step = Number(value);
      else note("notice_step", {value});
    }
    const c = cubes.get(found.preset || model.preset) || cube();
    for (const name of ["scale", "causal"]) {
      if (!params.has(name)) continue;
      const value = params.get(name);
      if (value === "1" || value === "0") found[name] = value === "1";
      else note("notice_flag", {name, value, fallback: model[name] ? 1 : 0});
    }
    if (params.has("heads")) {
      const value = params.get("heads"), count = Number(value);
      if (/^\d+$/.test(value) && c.head_counts.includes(count)) found.heads = count;
      else note("notice_heads", {value, fallback: 1});
    }
    for (const [name, allowed] of [["lang", ["ko", "en"]], ["mode", ["normal", "lecture"]]]) {
      if (!params.has(name)) continue;
      const value = params.get(name);
      if (allowed.includes(value)) found[name] = value;
      else note("notice_choice", {name, value, fallback: model[name]});
    }
    let query = c.entry.default_query;
    if (params.has("query") && text === null) {  // with text=, Python checks the query against that sentence
      const value = params.get("query"), index = Number(value);
      if (/^\d+$/.test(value) && index < c.n) query = index;
      else note("notice_query", {value, fallback: query});
    }
    found.query = query;
    if (found.heads === undefined && !c.head_counts.includes(model.heads)) found.heads = 1;
    Object.assign(model, found);
    if (text !== null) {
      if (model.lab) {
        sentenceInput.value = text;
        const wanted = params.get("query");
        const valid = /^\d+$/.test(wanted || "");
        if (wanted !== null && !valid) note("notice_query_last", {value: wanted});
        pendingSentence = {type: "sentence", text, query: valid ? Number(wanted) : null};
      } else {
        note("needs_server", {});
      }
    }
  }

  function writeUrl() {
    if (!model.url_sync || awaitingSentence) return;  // keep text= until its sentence has arrived
    try {
      const params = new URLSearchParams(window.location.search);
      const values = {preset: model.preset, query: shown.query, scale: model.scale ? 1 : 0,
        causal: model.causal ? 1 : 0, heads: shown.heads, lang: model.lang, mode: model.mode};
      for (const key of URL_KEYS) params.set(key, String(values[key]));
      if (model.step >= 0) params.set("step", String(model.step)); else params.delete("step");
      if (model.preset === "custom" && model.sentence_text) params.set("text", model.sentence_text);
      else params.delete("text");
      const url = window.location.pathname + "?" + params.toString() + window.location.hash;
      window.history.replaceState(window.history.state, "", url);
    } catch (e) { /* file:// in some embedders forbids it; the view still works */ }
  }

  // ---------- persistent skeleton ----------
  const root = h("div", {class: "ae-root", "data-testid": "explorer"});
  const title = h("h1", {class: "ae-title"});
  const tagline = h("p", {class: "ae-tagline"});
  const langButton = h("button", {type: "button", class: "ae-chip", "data-testid": "lang-toggle"});
  const lectureButton = h("button", {type: "button", class: "ae-chip", "aria-pressed": "false", "data-testid": "lecture-toggle"});
  const noticeBox = h("div", {class: "ae-notices", role: "status", "data-testid": "notices"});
  const header = h("header", {class: "ae-header"},
    h("div", {class: "ae-brand"}, title, tagline), h("div", {class: "ae-header-buttons"}, langButton, lectureButton));

  const sentenceLabel = h("label", {for: "ae-sentence"});
  const sentenceSelect = h("select", {id: "ae-sentence", class: "ae-select", "data-testid": "preset-select"});
  for (const c of cubes.values()) sentenceSelect.append(h("option", {value: c.entry.name}));
  const scaleBox = h("input", {type: "checkbox", id: "ae-scale", "data-testid": "scale-toggle"});
  const scaleLabel = h("label", {for: "ae-scale", class: "ae-switch"}, scaleBox, h("span"));
  const causalBox = h("input", {type: "checkbox", id: "ae-causal", "data-testid": "causal-toggle"});
  const causalLabel = h("label", {for: "ae-causal", class: "ae-switch"}, causalBox, h("span"));
  const headsLegend = h("span", {class: "ae-group-label"});
  const headsGroup = h("div", {class: "ae-segmented", role: "group", "data-testid": "heads-group"});
  const headViewLegend = h("span", {class: "ae-group-label"});
  const headViewGroup = h("div", {class: "ae-segmented ae-headview", role: "group", "data-testid": "head-view-group"});
  const controls = h("section", {class: "ae-controls"},
    h("div", {class: "ae-control ae-control-sentence"}, sentenceLabel, sentenceSelect),
    h("div", {class: "ae-control ae-switches"}, scaleLabel, causalLabel),
    h("div", {class: "ae-control"}, headsLegend, headsGroup),
    h("div", {class: "ae-control"}, headViewLegend, headViewGroup));

  // the student's own sentence (needs Python: the core tokenizes and makes toy Q/K/V)
  const sentenceOwnLabel = h("label", {for: "ae-own"});
  const sentenceInput = h("input", {type: "text", id: "ae-own", class: "ae-input", "data-testid": "sentence-input",
    autocomplete: "off", spellcheck: "false"});
  const sentenceApply = h("button", {type: "button", class: "ae-chip", "data-testid": "sentence-apply"});
  const sentenceError = h("p", {class: "ae-field-error", role: "status", "data-testid": "sentence-error"});
  const sentenceControl = h("div", {class: "ae-control ae-control-own"}, sentenceOwnLabel,
    h("div", {class: "ae-inline"}, sentenceInput, sentenceApply), sentenceError);
  let pendingSentence = null, awaitingSentence = false;
  const submitSentence = () => model.send_msg({type: "sentence", text: sentenceInput.value, query: null});
  sentenceApply.addEventListener("click", submitSentence);
  sentenceInput.addEventListener("keydown", (event) => { if (event.key === "Enter") submitSentence(); });
  if (model.lab) controls.append(sentenceControl);

  const tokensLabel = h("p", {class: "ae-group-label", id: "ae-tokens-label"});
  const tokenBar = h("div", {class: "ae-tokens", role: "toolbar", "aria-labelledby": "ae-tokens-label", "data-testid": "token-buttons"});
  const live = h("div", {class: "ae-live", "aria-live": "polite", "data-testid": "live-region"});

  const linesTitle = h("h2");
  const linesBox = h("div", {class: "ae-lines", "data-testid": "lines-figure"});
  const barsTitle = h("h2");
  const barsBox = h("div", {class: "ae-bars", "data-testid": "bars"});
  const heatTitle = h("h2");
  const heatBox = h("div", {class: "ae-heat", "data-testid": "heatmap"});
  const calcTitle = h("h2");
  const calcBox = h("div", {class: "ae-calc", "data-testid": "calculation"});
  const weightsTitle = h("h2");
  const weightsBox = h("div", {class: "ae-weights"});
  const captionBox = h("ul", {class: "ae-captions", "data-testid": "head-captions"});

  // step-by-step reveal
  const stepToggle = h("button", {type: "button", class: "ae-chip", "aria-pressed": "false", "data-testid": "step-toggle"});
  const stepPrev = h("button", {type: "button", class: "ae-chip", "data-testid": "step-prev"});
  const stepNext = h("button", {type: "button", class: "ae-chip", "data-testid": "step-next"});
  const stepLabel = h("span", {class: "ae-step-label", "data-testid": "step-label"});
  const stepKeys = h("span", {class: "ae-step-keys"});
  const stepBar = h("div", {class: "ae-stepbar"}, stepPrev, stepLabel, stepNext, stepKeys);
  const setStep = (step) => setState({step: Math.max(0, Math.min(STEPS - 1, step))});
  stepToggle.addEventListener("click", () => setState({step: model.step >= 0 ? -1 : 0}));
  stepPrev.addEventListener("click", () => setStep(model.step - 1));
  stepNext.addEventListener("click", () => setStep(model.step + 1));

  // check my answer (needs Python: the core's checker)
  const answerLabel = h("label", {for: "ae-answer"});
  const answerInput = h("input", {type: "text", id: "ae-answer", class: "ae-input", "data-testid": "answer-input",
    autocomplete: "off", spellcheck: "false"});
  const answerButton = h("button", {type: "button", class: "ae-chip", "data-testid": "answer-check"});
  const answerHint = h("p", {class: "ae-hint"});
  const answerResult = h("p", {class: "ae-answer", role: "status", "data-testid": "answer-result"});
  const checkTitle = h("h3");
  const checkBox = h("div", {class: "ae-check"}, checkTitle, answerHint, answerLabel,
    h("div", {class: "ae-inline"}, answerInput, answerButton), answerResult);
  const submitAnswer = () => model.send_msg({type: "check", text: answerInput.value});
  answerButton.addEventListener("click", submitAnswer);
  answerInput.addEventListener("keydown", (event) => { if (event.key === "Enter") submitAnswer(); });

  // the numbers editor (needs Python: the core parses and computes)
  const labTitle = h("h2");
  const editorSummary = h("summary", {"data-testid": "numbers-summary"});
  const editorHint = h("p", {class: "ae-hint"});
  const dLabel = h("label", {for: "ae-d"});
  const dSelect = h("select", {id: "ae-d", class: "ae-select ae-select-small", "data-testid": "numbers-d"},
    ...Array.from({length: 8}, (_, i) => h("option", {value: i + 1, text: i + 1})));
  const addToken = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-add"});
  const removeToken = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-remove"});
  const resetNumbers = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-reset"});
  const gridBox = h("div", {class: "ae-scroll", "data-testid": "numbers-grid"});
  const gridErrors = h("div", {class: "ae-grid-errors", role: "status", "data-testid": "numbers-errors"});
  const editor = h("details", {class: "ae-editor", "data-testid": "numbers-editor"}, editorSummary, editorHint,
    h("div", {class: "ae-inline ae-editor-tools"}, dLabel, dSelect, addToken, removeToken, resetNumbers),
    gridBox, gridErrors);
  const serverNote = h("p", {class: "ae-hint", "data-testid": "needs-server"});
  const labCard = h("section", {class: "ae-card ae-card-lab"}, labTitle, model.lab ? editor : serverNote);

  root.append(header, noticeBox, controls, h("div", {class: "ae-token-row"}, tokensLabel, tokenBar), captionBox, live,
    h("div", {class: "ae-grid"},
      h("section", {class: "ae-card ae-card-lines"}, linesTitle, linesBox),
      h("section", {class: "ae-card ae-card-bars"}, barsTitle, barsBox, weightsTitle, weightsBox),
      h("section", {class: "ae-card ae-card-calc"},
        h("div", {class: "ae-card-head"}, calcTitle, stepToggle), stepBar, calcBox, model.lab ? checkBox : null),
      h("section", {class: "ae-card ae-card-heat"}, heatTitle, heatBox),
      labCard));

  // ---------- interactions: each sets model state, then repaints in the same task ----------
  // Interactions set model state and repaint in a microtask: still before the next frame, and
  // once for a batch of property changes (from a click, or from one Python update).
  let scheduled = false;
  function scheduleUpdate() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => { scheduled = false; update(); });
  }
  function setQuery(index) {
    model.query = Math.max(0, Math.min(cube().n - 1, index));
    scheduleUpdate();
  }
  function setState(changes) {
    Object.assign(model, changes);
    scheduleUpdate();
  }
  sentenceSelect.addEventListener("change", () => {
    const c = cubes.get(sentenceSelect.value);
    const heads = c.head_counts.includes(model.heads) ? model.heads : 1;
    setState({preset: c.entry.name, query: c.entry.default_query, heads, head_view: -1});
  });
  scaleBox.addEventListener("change", () => setState({scale: scaleBox.checked}));
  causalBox.addEventListener("change", () => setState({causal: causalBox.checked}));
  langButton.addEventListener("click", () => setState({lang: model.lang === "ko" ? "en" : "ko"}));
  lectureButton.addEventListener("click", () => setState({mode: model.mode === "lecture" ? "normal" : "lecture"}));

  function onKey(event) {
    const target = event.composedPath ? event.composedPath()[0] : event.target;
    const tag = target && target.tagName ? target.tagName.toLowerCase() : "";
    if (tag === "input" && target.type !== "checkbox" || tag === "textarea" || tag === "select") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    let handled = true;
    if (event.key === "ArrowRight") setQuery(shown.query + 1);
    else if (event.key === "ArrowLeft") setQuery(shown.query - 1);
    else if (event.key === "Home") setQuery(0);
    else if (event.key === "End") setQuery(cube().n - 1);
    else if (event.key === " " && model.step >= 0) setStep(model.step + (event.shiftKey ? -1 : 1));
    else handled = false;
    if (handled) {
      event.preventDefault();
      const focused = root.getRootNode().activeElement;
      if (focused && focused.classList && focused.classList.contains("ae-token")) {
        const button = tokenBar.children[Math.max(0, Math.min(cube().n - 1, model.query))];
        if (button) button.focus();
      }
    }
  }
  // A standalone page (served or exported) answers the arrows anywhere; in a notebook, only inside the view.
  const keyTarget = model.url_sync ? window : root;
  keyTarget.addEventListener("keydown", onKey);
  root.setAttribute("tabindex", "-1");

  // ---------- drawing ----------
  let tokenSentence = null;
  function buildTokens(c) {
    if (tokenSentence === c.entry.name) return;
    tokenSentence = c.entry.name;
    tokenBar.replaceChildren(...c.tokens.map((token, i) =>
      h("button", {type: "button", class: "ae-token", "data-index": i, "aria-pressed": "false",
        text: token, on: {click: () => setQuery(i)}})));
  }

  function buildSegmented(group, items, current, onPick) {
    group.replaceChildren(...items.map(([value, label, color, testid]) => {
      const button = h("button", {type: "button", class: "ae-seg", "aria-pressed": String(value === current),
        "data-value": value, "data-testid": testid, on: {click: () => onPick(value)}});
      if (color) button.append(h("span", {class: "ae-swatch", style: `background:${color}`, "aria-hidden": "true"}));
      button.append(label);
      return button;
    }));
  }

  function shortLabel(token, max = 12) {
    return token.length > max ? token.slice(0, max - 1) + "…" : token;
  }

  function drawLines(c, H, scale, causal, heads) {
    const n = c.n, row = 34, top = 28, height = top + n * row + 8;
    const qx = 140, kx = 270, width = 400;
    const svg = s("svg", {viewBox: `0 0 ${width} ${height}`, class: "ae-lines-svg", role: "img",
      "aria-label": t("lines_title")});
    svg.append(s("text", {x: qx, y: 16, "text-anchor": "end", class: "ae-axis", text: t("axis_query")}),
      s("text", {x: kx, y: 16, "text-anchor": "start", class: "ae-axis", text: t("axis_key")}));
    const y = (i) => top + i * row + row / 2;
    const qi = shown.query;
    heads.forEach((head, order) => {
      const offset = (order - (heads.length - 1) / 2) * Math.min(4, 16 / heads.length);
      for (let j = 0; j < n; j++) {
        const w = c.weight(H, scale, causal, head, qi, j);
        if (c.masked(causal, qi, j)) continue;
        svg.append(s("line", {x1: qx + 8, y1: y(qi) + offset, x2: kx - 8, y2: y(j) + offset,
          stroke: PALETTE[head % PALETTE.length], "stroke-width": (1.5 + 12 * w).toFixed(2),
          "stroke-opacity": (0.25 + 0.75 * w).toFixed(3), "stroke-linecap": "round",
          "data-head": head, "data-key": j, "data-weight": w}));
      }
    });
    for (let i = 0; i < n; i++) {
      const selected = i === qi;
      const group = s("g", {class: "ae-qtoken" + (selected ? " ae-selected" : ""), "data-index": i,
        "data-testid": `figure-token-${i}`, on: {click: () => setQuery(i)}});
      group.append(s("rect", {x: 4, y: y(i) - row / 2 + 3, width: qx - 2, height: row - 6, rx: 6}),
        s("text", {x: qx, y: y(i) + 6, "text-anchor": "end", text: shortLabel(c.tokens[i])}),
        s("title", {text: c.tokens[i]}));
      svg.append(group);
      const masked = c.masked(causal, qi, i);
      const key = s("g", {class: "ae-ktoken" + (masked ? " ae-masked" : "")});
      key.append(s("text", {x: kx, y: y(i) + 6, "text-anchor": "start", text: shortLabel(c.tokens[i])}),
        s("title", {text: c.tokens[i]}));
      if (masked) {
        key.append(s("line", {x1: kx - 4, y1: y(i) + 1, x2: kx + 8 + 9 * Math.min(12, c.tokens[i].length), y2: y(i) + 1,
          class: "ae-strike"}), s("text", {x: width - 6, y: y(i) + 6, "text-anchor": "end", class: "ae-mask-mark", text: "✕ 0"}));
      }
      svg.append(key);
    }
    linesBox.replaceChildren(svg);
  }

  function drawBars(c, H, scale, causal, heads) {
    const qi = shown.query;
    const rows = c.tokens.map((token, j) => {
      const masked = c.masked(causal, qi, j);
      const bars = heads.map((head) => {
        const w = c.weight(H, scale, causal, head, qi, j);
        return h("div", {class: "ae-bar-line"},
          h("div", {class: "ae-bar-track"},
            h("div", {class: "ae-bar", style: `width:${(100 * w).toFixed(2)}%;background:${PALETTE[head % PALETTE.length]}`})),
          h("span", {class: "ae-bar-value", text: masked ? `✕ ${fmt(w)}` : fmt(w)}));
      });
      return h("div", {class: "ae-bar-row" + (masked ? " ae-masked" : "")},
        h("span", {class: "ae-bar-label", title: token, text: shortLabel(token, 14)}),
        h("div", {class: "ae-bar-stack" + (heads.length > 2 ? " ae-many" : "")}, bars));
    });
    barsBox.replaceChildren(...rows);
  }

  // The grids depend on the sentence, heads, toggles and language, not on the query: they are
  // built once per such view, and a click only moves the outline of the query's row.
  let heatKey = null, heatOutlines = [], heatGeometry = null, cubeOfHeat = null;

  function drawHeatmap(c, H, scale, causal, heads) {
    const n = c.n, cell = Math.max(18, Math.min(44, Math.floor(320 / n))), label = 86;
    const key = [c.entry.name, c.tokens.length, H, scale, causal, heads.join(","), model.lang].join("|");
    if (key === heatKey && heatBox.isConnected && heatBox.firstChild && heatBox.firstChild.tagName === "FIGURE"
        && cubeOfHeat === c) {
      for (const outline of heatOutlines) outline.setAttribute("y", heatGeometry.label + shown.query * heatGeometry.cell - 2);
      return;
    }
    heatKey = key;
    cubeOfHeat = c;
    heatGeometry = {cell, label};
    heatOutlines = [];
    const grids = heads.map((head) => {
      const size = label + n * cell + 4;
      const svg = s("svg", {viewBox: `0 0 ${size} ${size}`, class: "ae-heat-svg", role: "img",
        "aria-label": `${t("heatmap_title")} — ${t("head")} ${head + 1}`});
      const color = PALETTE[head % PALETTE.length];
      for (let i = 0; i < n; i++) {
        svg.append(s("text", {x: label - 6, y: label + i * cell + cell / 2 + 5, "text-anchor": "end", class: "ae-heat-label",
          text: shortLabel(c.tokens[i], 7)}));
        svg.append(s("text", {x: 0, y: 0, class: "ae-heat-label", "text-anchor": "start",
          transform: `translate(${label + i * cell + cell / 2 + 5},${label - 6}) rotate(-60)`, text: shortLabel(c.tokens[i], 7)}));
        for (let j = 0; j < n; j++) {
          const w = c.weight(H, scale, causal, head, i, j);
          const masked = c.masked(causal, i, j);
          const x = label + j * cell, yy = label + i * cell;
          svg.append(s("rect", {x, y: yy, width: cell - 1, height: cell - 1, fill: masked ? "#f3f3f3" : color,
            "fill-opacity": masked ? 1 : (0.06 + 0.94 * w).toFixed(3), class: "ae-heat-cell", "data-row": i}));
          if (masked) {
            svg.append(s("path", {d: `M${x + 4},${yy + 4}L${x + cell - 5},${yy + cell - 5}M${x + cell - 5},${yy + 4}L${x + 4},${yy + cell - 5}`,
              class: "ae-heat-x"}));
          } else if (cell >= 30) {
            svg.append(s("text", {x: x + cell / 2, y: yy + cell / 2 + 4, "text-anchor": "middle",
              class: "ae-heat-num" + (w > 0.5 ? " ae-on-dark" : ""), text: fmt(w, 2)}));
          }
        }
      }
      // one listener per grid instead of one per cell
      svg.addEventListener("click", (event) => {
        const row = event.target.getAttribute && event.target.getAttribute("data-row");
        if (row !== null && row !== undefined) setQuery(Number(row));
      });
      const outline = s("rect", {x: label - 2, y: label + shown.query * cell - 2, width: n * cell + 3, height: cell + 3,
        class: "ae-heat-row"});
      heatOutlines.push(outline);
      svg.append(outline);
      return h("figure", {class: "ae-heat-fig"}, svg,
        heads.length > 1 || H > 1 ? h("figcaption", {text: `${t("head")} ${head + 1}`}) : null);
    });
    heatBox.replaceChildren(...grids);
  }

  // reveal: how many of the six steps show (6 = all). Columns appear one step at a time.
  function drawCalc(c, H, scale, causal, reveal) {
    const head = focusHead(), qi = shown.query, b = c.block(H);
    const qv = c.qRow(H, head, qi);
    const columns = ["score", "scaled", "mask", "softmax", "contribution"].slice(0, Math.min(reveal, 5));
    const rows = c.tokens.map((token, j) => {
      const masked = c.masked(causal, qi, j);
      const w = c.weight(H, scale, causal, head, qi, j);
      const cells = {
        score: () => h("td", {class: "ae-num"},
          b.d_k <= 4 ? h("span", {class: "ae-dot", text: `${vector(qv)}·${vector(c.kRow(H, head, j))} = `}) : null,
          fmt(c.score(H, head, qi, j), 3)),
        scaled: () => h("td", {class: "ae-num", text: scale ? fmt(c.scaled(H, 1, head, qi, j), 3) : t("not_scaled")}),
        mask: () => h("td", {class: "ae-num", text: masked ? "−∞" : "—"}),
        softmax: () => h("td", {class: "ae-num ae-strong", text: fmt(w, 3)}),
        contribution: () => h("td", {class: "ae-num", text: `${fmt(w, 3)} × ${vector(c.vRow(H, head, j))}`}),
      };
      return h("tr", {class: masked && reveal > 2 ? "ae-masked" : ""},
        h("th", {scope: "row", text: token}), ...columns.map((name) => cells[name]()));
    });
    const header = h("tr", {}, ...["key", ...columns].map((k) => h("th", {scope: "col", text: t(k)})));
    const output = c.output(H, scale, causal, head, qi);
    const table = h("table", {class: "ae-table", "data-testid": "calc-table"},
      h("caption", {text: `${c.tokens[qi]} — ${t("head")} ${head + 1}/${H}`}),
      h("thead", {}, header), h("tbody", {}, rows),
      reveal >= STEPS ? h("tfoot", {}, h("tr", {}, h("th", {scope: "row", text: t("output")}),
        h("td", {colspan: columns.length, class: "ae-num ae-strong", "data-testid": "output-vector",
          text: "(" + output.map((x) => fmt(x, 3)).join(", ") + ")"}))) : null);
    // the spread over the keys the query can see, with and without √d_k: both rows come from the cube
    const visible = (row) => row.filter((_, j) => !c.masked(causal, qi, j));
    const rowOn = visible(c.weightRow(H, 1, causal, head, qi)), rowOff = visible(c.weightRow(H, 0, causal, head, qi));
    const stepTexts = ["step_scores", scale ? "step_scale" : "step_noscale", causal ? "step_mask" : "step_nomask",
      "step_softmax", "step_output"];
    const steps = h("ol", {class: "ae-steps"}, ...stepTexts.slice(0, Math.min(reveal, 5)).map((key, i) =>
      h("li", {class: model.step >= 0 && i === Math.min(model.step, 4) ? "ae-current" : "", text: t(key)})));
    const formula = h("p", {class: "ae-formula"},
      h("span", {class: "ae-formula-main", text: scale ? "softmax(QKᵀ / √d_k) V" : "softmax(QKᵀ) V"}),
      h("span", {class: "ae-formula-values", text: t("formula_values", {d_k: b.d_k, sqrt_d_k: fmt(b.sqrt_d_k, 3)})}));
    const effect = reveal > 3 ? h("p", {class: "ae-effect" + (scale ? "" : " ae-warn"), "data-testid": "scale-effect",
      text: t(scale ? "scale_effect" : "scale_effect_off", {on: fmt(Math.max(...rowOn)), on_min: fmt(Math.min(...rowOn)),
        off: fmt(Math.max(...rowOff)), off_min: fmt(Math.min(...rowOff))})}) : null;
    calcBox.replaceChildren(formula, effect || "", h("div", {class: "ae-scroll"}, table), steps);
  }

  function drawWeightsTable(c, H, scale, causal, heads) {
    const qi = shown.query;
    const header = h("tr", {}, h("th", {scope: "col", text: t("key")}),
      ...heads.map((head) => h("th", {scope: "col", class: "ae-num", text: H > 1 ? `${t("head")} ${head + 1}` : t("weight")})));
    const rows = c.tokens.map((token, j) => h("tr", {"data-key": j},
      h("th", {scope: "row", text: token}),
      ...heads.map((head) => h("td", {class: "ae-num", "data-head": head,
        text: fmt(c.weight(H, scale, causal, head, qi, j), 3)}))));
    weightsBox.replaceChildren(h("div", {class: "ae-scroll"}, h("table", {class: "ae-table", "data-testid": "weights-table"},
      h("caption", {text: t("query_caption", {token: c.tokens[qi]})}), h("thead", {}, header), h("tbody", {}, rows))));
  }

  function drawCaptions(c, H, heads) {
    captionBox.replaceChildren(...heads.map((head) => {
      const text = caption(H, head);
      return h("li", {}, h("span", {class: "ae-swatch", style: `background:${PALETTE[head % PALETTE.length]}`, "aria-hidden": "true"}),
        t("head_caption", {index: head + 1, caption: text || "—"}));
    }));
  }

  function drawNotices() {
    noticeBox.replaceChildren(...notices.map(([key, values], index) =>
      h("p", {class: "ae-notice"}, h("span", {text: t(key, values)}),
        h("button", {type: "button", class: "ae-chip ae-dismiss", text: t("dismiss"),
          on: {click: () => { notices.splice(index, 1); drawNotices(); }}}))));
  }

  function announce(c, H, scale, causal, heads) {
    const head = heads[0], qi = shown.query;
    const row = c.weightRow(H, scale, causal, head, qi);
    const best = row.indexOf(Math.max(...row));
    live.textContent = t("announce", {query: c.tokens[qi], key: c.tokens[best], weight: fmt(row[best])});
  }

  function drawStepBar() {
    const on = model.step >= 0;
    stepToggle.textContent = t("step_mode");
    stepToggle.setAttribute("aria-pressed", String(on));
    stepBar.hidden = !on;
    stepPrev.textContent = t("step_prev");
    stepNext.textContent = t("step_next");
    stepPrev.disabled = model.step <= 0;
    stepNext.disabled = model.step >= STEPS - 1;
    stepKeys.textContent = t("step_keys");
    if (on) stepLabel.textContent = t("step_of", {step: model.step + 1, name: t(`step_name_${model.step}`)});
  }

  // ----- the lab: own sentence, own numbers, answer check -----
  let draft = null, draftSource = null;  // the editor's typed cells, and the cube they started from

  function draftFrom(c) {
    const rows = (matrix, width) => Array.from({length: c.n}, (_, i) =>
      Array.from(matrix.subarray(i * width, (i + 1) * width), (x) => String(x)));
    return {tokens: [...c.tokens], q: rows(c.q, c.d_model), k: rows(c.k, c.d_model), v: rows(c.v, c.dv_model)};
  }

  function sendDraft() {
    model.send_msg({type: "numbers", tokens: draft.tokens, q: draft.q, k: draft.k, v: draft.v});
  }

  function resizeDraft(n, d) {
    const fitRow = (row) => Array.from({length: d}, (_, j) => (j < row.length ? row[j] : "0"));
    for (const name of ["q", "k", "v"]) {
      draft[name] = Array.from({length: n}, (_, i) => fitRow(draft[name][i] || []));
    }
    draft.tokens = Array.from({length: n}, (_, i) => draft.tokens[i] ?? `t${i + 1}`);
  }

  function buildGrid() {
    const d = draft.q[0] ? draft.q[0].length : 1;
    dSelect.value = String(d);
    const cell = (where, i, j, value, label) => h("input", {type: "text", class: "ae-cell", value, "aria-label": label,
      "data-where": where, "data-row": i, "data-col": j, "data-testid": `cell-${where}-${i}-${j}`,
      autocomplete: "off", spellcheck: "false", on: {change: (event) => {
        if (where === "token") draft.tokens[i] = event.target.value;
        else draft[where][i][j] = event.target.value;
        sendDraft();
      }}});
    const head = h("tr", {}, h("th", {scope: "col", text: t("token")}),
      ...["q", "k", "v"].flatMap((m) => draft[m][0].map((_, j) => h("th", {scope: "col", class: `ae-col-${m}`,
        text: `${m.toUpperCase()}${j + 1}`}))));
    const body = draft.tokens.map((token, i) => h("tr", {},
      h("td", {}, cell("token", i, 0, token, `${t("token")} ${i + 1}`)),
      ...["q", "k", "v"].flatMap((m) => draft[m][i].map((value, j) =>
        h("td", {class: `ae-col-${m}`}, cell(m, i, j, value, `${m.toUpperCase()} ${i + 1}, ${j + 1}`))))));
    gridBox.replaceChildren(h("table", {class: "ae-table ae-grid-table"}, h("thead", {}, head), h("tbody", {}, body)));
    markGridErrors();
  }

  function markGridErrors() {
    for (const input of gridBox.querySelectorAll("input")) {
      input.removeAttribute("aria-invalid");
      input.classList.remove("ae-invalid");
      input.removeAttribute("title");
    }
    dSelect.classList.remove("ae-invalid");
    const messages = [];
    for (const error of model.grid_errors) {
      const message = t(`err_${error.code}`, error.values);
      if (error.where === "d") dSelect.classList.add("ae-invalid");
      const input = Array.from(gridBox.querySelectorAll("input")).find((cell) => cell.dataset.where === String(error.where)
        && cell.dataset.row === String(error.row) && cell.dataset.col === String(error.col));
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.classList.add("ae-invalid");
        input.setAttribute("title", message);
        messages.push(`${input.getAttribute("aria-label")}: ${message}`);
      } else {
        messages.push(message);
      }
    }
    if (messages.length) messages.push(t("err_grid_summary"));
    gridErrors.replaceChildren(...messages.map((m) => h("p", {class: "ae-field-error", text: m})));
  }

  function drawLab(c) {
    labTitle.textContent = t("lab_title");
    serverNote.textContent = t("needs_server");
    if (!model.lab) return;
    sentenceOwnLabel.textContent = t("my_sentence");
    sentenceInput.setAttribute("placeholder", t("my_sentence_placeholder"));
    sentenceInput.setAttribute("title", t("my_sentence_hint"));
    sentenceApply.textContent = t("apply");
    sentenceError.textContent = model.sentence_error ? t(`err_${model.sentence_error.code}`, model.sentence_error.values) : "";
    editorSummary.textContent = t("edit_numbers");
    editorHint.textContent = t("numbers_hint");
    dLabel.textContent = t("d");
    addToken.textContent = t("add_token");
    removeToken.textContent = t("remove_token");
    resetNumbers.textContent = t("reset_numbers");
    if (model.preset !== "numbers" && draftSource !== c) {
      draftSource = c;
      const limit = model.limits.max_d;
      draft = c.d_model <= limit && c.dv_model === c.d_model ? draftFrom(c) : null;
      if (model.grid_errors.length) model.grid_errors = [];  // they were about the grid now replaced
      if (draft) buildGrid();
      else gridBox.replaceChildren(h("p", {class: "ae-hint", text: t("err_too_wide", {d: c.d_model, limit})}));
      for (const tool of [dSelect, addToken, removeToken, resetNumbers]) tool.disabled = !draft;
    } else {
      markGridErrors();
    }
    checkTitle.textContent = t("check_title");
    answerHint.textContent = t("check_hint");
    answerLabel.textContent = t("check_title");
    answerButton.textContent = t("check");
    const verdict = model.answer;
    const current = verdict && verdict.preset === model.preset && verdict.query === shown.query
      && verdict.heads === shown.heads && verdict.head === focusHead()
      && verdict.scale === !!model.scale && verdict.causal === !!model.causal;
    answerResult.textContent = current ? t(verdict.key, verdict.values) : "";
    answerResult.className = "ae-answer" + (current ? ` ae-${verdict.status}` : "");
  }

  dSelect.addEventListener("change", () => { if (!draft) return; resizeDraft(draft.tokens.length, Number(dSelect.value)); buildGrid(); sendDraft(); });
  addToken.addEventListener("click", () => {
    if (!draft || draft.tokens.length >= model.limits.max_tokens) return;
    resizeDraft(draft.tokens.length + 1, draft.q[0].length); buildGrid(); sendDraft();
  });
  removeToken.addEventListener("click", () => {
    if (!draft || draft.tokens.length <= 1) return;
    resizeDraft(draft.tokens.length - 1, draft.q[0].length); buildGrid(); sendDraft();
  });
  resetNumbers.addEventListener("click", () => {
    const base = draftSource;
    if (!base || !draft) return;
    draft = draftFrom(base);
    model.grid_errors = [];
    buildGrid();
    setState({preset: base.entry.name, query: Math.min(shown.query, base.n - 1)});
  });

  function update() {
    // the student's own sentence may be named before its cube arrives: wait for it
    if (!cubes.has(model.preset) && OWN.includes(model.preset)) return;
    const c = cube();
    if (!c.loaded) { c.ready.then(update); return; }
    shown.heads = c.head_counts.includes(model.heads) ? model.heads : 1;
    shown.query = Math.min(Math.max(0, model.query), c.n - 1);
    const H = shown.heads, [scale, causal] = flags(), heads = visibleHeads();
    root.classList.toggle("ae-lecture", model.mode === "lecture");
    root.setAttribute("lang", model.lang);
    title.textContent = t("app_title");
    tagline.textContent = t("tagline");
    langButton.textContent = t("language");
    lectureButton.textContent = t("lecture");
    lectureButton.setAttribute("aria-pressed", String(model.mode === "lecture"));
    sentenceLabel.textContent = t("sentence");
    for (const option of sentenceSelect.options) {
      const entry = cubes.get(option.value).entry;
      option.textContent = model.lang === "en" ? entry.title_en : entry.title_ko;
    }
    sentenceSelect.value = c.entry.name;
    scaleBox.checked = !!model.scale;
    causalBox.checked = !!model.causal;
    scaleLabel.lastChild.textContent = t("scale");
    causalLabel.lastChild.textContent = t("causal");
    headsLegend.textContent = t("heads");
    headViewLegend.textContent = t("head_view");
    tokensLabel.textContent = t("query_tokens");
    buildSegmented(headsGroup, c.head_counts.map((count) => [count, String(count), null, `heads-${count}`]), H,
      (count) => setState({heads: count, head_view: -1}));
    buildSegmented(headViewGroup,
      [[-1, t("all_heads"), null, "head-view-all"],
        ...Array.from({length: H}, (_, i) => [i, String(i + 1), PALETTE[i % PALETTE.length], `head-view-${i}`])],
      model.head_view >= 0 && model.head_view < H ? model.head_view : -1, (value) => setState({head_view: value}));
    buildTokens(c);
    Array.from(tokenBar.children).forEach((button, i) => {
      button.setAttribute("aria-pressed", String(i === shown.query));
      button.classList.toggle("ae-selected", i === shown.query);
    });
    linesTitle.textContent = t("lines_title");
    barsTitle.textContent = t("bars_title");
    heatTitle.textContent = t("heatmap_title");
    calcTitle.textContent = t("calc_title");
    weightsTitle.textContent = t("weights_title");
    const reveal = model.step >= 0 ? model.step + 1 : STEPS;
    drawCaptions(c, H, heads);
    if (reveal >= 4) {  // lines, bars, heatmap and the weights table appear at the softmax step
      drawLines(c, H, scale, causal, heads);
      drawBars(c, H, scale, causal, heads);
      drawHeatmap(c, H, scale, causal, heads);
      drawWeightsTable(c, H, scale, causal, heads);
    } else {
      for (const box of [linesBox, barsBox, heatBox, weightsBox]) {
        box.replaceChildren(h("p", {class: "ae-placeholder", text: `${t("step_name_3")}: ${t("step_hidden")}`}));
      }
    }
    drawCalc(c, H, scale, causal, reveal);
    drawStepBar();
    drawLab(c);
    drawNotices();
    if (reveal >= 4) announce(c, H, scale, causal, heads);
    else live.textContent = t("step_of", {step: model.step + 1, name: t(`step_name_${model.step}`)});
    writeUrl();
  }

  for (const name of ["preset", "query", "scale", "causal", "heads", "head_view", "lang", "mode", "step",
    "sentence_error", "grid_errors", "answer"]) {
    model.on(name, scheduleUpdate);
  }
  function addOwn(entry) {
    if (!entry) return;
    cubes.set(entry.name, new Cube(entry));
    if (!Array.from(sentenceSelect.options).some((o) => o.value === entry.name)) {
      sentenceSelect.append(h("option", {value: entry.name}));
    }
    if (entry.name === model.preset) tokenSentence = null;  // same name, new tokens
  }
  model.on("custom", () => { awaitingSentence = false; addOwn(model.custom); scheduleUpdate(); });
  model.on("sentence_error", () => { awaitingSentence = false; });
  model.on("sentences", () => {
    cubes.clear();
    for (const entry of model.sentences) cubes.set(entry.name, new Cube(entry));
    sentenceSelect.replaceChildren(...model.sentences.map((entry) => h("option", {value: entry.name})));
    addOwn(model.custom);
    tokenSentence = null;
    scheduleUpdate();
  });
  model.on("remove", () => keyTarget.removeEventListener("keydown", onKey));

  addOwn(model.custom);
  readUrl();
  update();
  if (pendingSentence) {
    awaitingSentence = true;
    model.send_msg(pendingSentence);
  }
  return root;
}
