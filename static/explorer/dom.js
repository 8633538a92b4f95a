// Building DOM and SVG nodes. Text goes in as text nodes or attributes, never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

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

function appendChildren(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// An HTML element: h("button", {type: "button", text: "4", on: {click}}, ...children).
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

// The weights table's id: the figures name it as their text alternative (aria-describedby), so a
// screen reader reaches the numbers a figure draws. One explorer per shadow root, so one id each.
export const WEIGHTS_TABLE_ID = "ae-weights-table";

// A box a wide table scrolls sideways in: reachable by the keyboard (tabindex 0), a region named
// by `label` (the view's title in the page's language), so a screen reader says what scrolls.
export function scrollBox(label, attrs = {}, ...children) {
  return h("div", {class: "ae-scroll", tabindex: "0", role: "region", "aria-label": label, ...attrs}, ...children);
}

// A number cell that carries its column's heading (data-label), which a phone shows beside the
// number where a stacked table (class ae-stack) puts each row's cells one under another.
export function labelledCell(label, text) {
  return h("td", {class: "ae-num", "data-label": label, text});
}

// `hint` (a line that says the box scrolls sideways) shown while `box` is wider inside than out:
// measured by the browser whenever the box changes size (a phone turned, more heads).
export function sayWhenItScrolls(box, hint) {
  hint.hidden = true;
  if (typeof ResizeObserver === "undefined") return;
  new ResizeObserver(() => { hint.hidden = box.scrollWidth <= box.clientWidth + 1; }).observe(box);
}

// An SVG element, with the same arguments as h().
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

// An SVG drawn in viewBox units, scaled to its box: --svg-scale is kept at its screen pixels per
// unit, which the stylesheet's text rules read so that no label in it falls under 12 px on screen
// when a narrow phone shrinks it (explorer.css --min-text). Returns the svg.
export function watchScale(svg) {
  if (typeof ResizeObserver === "undefined") return svg;
  new ResizeObserver(() => {
    const matrix = svg.getScreenCTM();
    // rounded down, so that 12 px ÷ the scale rounds up
    const scale = matrix ? String(Math.floor(Math.hypot(matrix.a, matrix.b) * 1000) / 1000) : "0";
    if (scale !== "0" && svg.style.getPropertyValue("--svg-scale") !== scale) svg.style.setProperty("--svg-scale", scale);
  }).observe(svg);
  return svg;
}

// Okabe–Ito with crimson for its yellow-olive (which deuteranopes saw as the vermilion: ΔE2000 0.9),
// ordered so that the first four heads have at least 3:1 contrast on white and stay apart. Smallest
// CIEDE2000 difference between any two heads shown, for normal vision and simulated protanopia and
// deuteranopia (Machado et al. 2009): 49.6 at 2 heads, 18.2 at 4, 12.2 at 8 (tests/unit/test_palette.py).
// Colour is never the only cue: every head is also numbered, and a second head's lines are dashed.
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#000000", "#CC79A7", "#E69F00", "#56B4E9", "#CC2244"];

// The colour of head `head` (0-based), the same in every view.
export function headColor(head) {
  return PALETTE[head % PALETTE.length];
}

// A small coloured square that says which head a row, bar or button belongs to.
export function swatch(head) {
  return h("span", {class: "ae-swatch", style: `background:${headColor(head)}`, "aria-hidden": "true"});
}

// Sets a node's text as textContent would, cheaply when it has one text node already (its data
// changes, no node is made) and not at all when the text is the same: for views that set a
// query's numbers on what they drew.
export function setText(node, text) {
  const first = node.firstChild;
  if (text !== "" && first && first === node.lastChild && first.nodeType === Node.TEXT_NODE) {
    if (first.data !== text) first.data = text;
  } else {
    node.textContent = text;
  }
}

// Sets an attribute only when its value changes.
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

// Calls draw(...args) only when key differs from the last call's: a view repaints only what changed.
export function memo(draw) {
  let last, lastWords;
  return (key, ...args) => {
    // the words it was drawn with (its first argument: a snapshot, or its t): a served page that
    // gets the rest of its words later (i18n.js wholeWords) draws again with them
    const first = args[0], words = typeof first === "function" ? first : first && typeof first.t === "function" ? first.t : null;
    if (key === last && words === lastWords) return false;
    last = key;
    lastWords = words;
    draw(...args);
    return true;
  };
}

// Why the weights are not shown: a room's open question hides them until the lecturer reveals
// the answer, an answer being worked until it is right, the step-by-step reveal until Softmax.
export function hiddenWhy({t, polling, checking, held}) {
  if (polling) return t("poll_hidden");
  if (held) return t("held_hidden");  // a lesson's question: the prediction, or the lecturer's reveal
  return checking ? t("checking_hidden") : `${t("step_name_3")}: ${t("step_hidden")}`;
}

// What a weights view shows in their place (hiddenWhy).
export function placeholder(snap) {
  return h("p", {class: "ae-placeholder", text: hiddenWhy(snap)});
}

// A view of the numbers under an <h2>: the title follows the language, and draw(snap) refills
// `box` when key(snap) changes, once the sentence's numbers are there.
// `badge(snap)`: a few words after the title (what the figure draws, where it is not the weights), or "".
export function titledView(titleKey, box, key, draw, badge = () => "") {
  const title = h("h2");
  const drawTitle = memo((text, extra) => {
    title.replaceChildren(text, ...(extra ? [" ", h("span", {class: "ae-title-badge", text: extra})] : []));
  });
  const drawBox = memo(draw);
  let drawn = 0;  // how many times the box was drawn: what was set on an earlier drawing is gone
  return {title, box, update(snap) {
    const extra = snap.status === "ready" ? badge(snap) : "";
    drawTitle(`${snap.lang}|${extra}`, snap.t(titleKey), extra);
    if (snap.status === "ready" && drawBox(key(snap), snap)) drawn += 1;
  },
  // a memo key for what is set on the box's drawing (a query's numbers): new with every drawing, so
  // that a box drawn again (weights hidden by a room's question, then shown) gets its numbers again
  drawnKey(rest) { return `${drawn}|${rest}`; }};
}

// Sets each node's text to its string in the UI's language, whenever the language changes.
// pairs: [[node, string key], …]. Returns update(snap).
export function texts(pairs) {
  const draw = memo((t) => { for (const [node, key] of pairs) node.textContent = t(key); });
  return (snap) => draw(snap.lang, snap.t);
}
