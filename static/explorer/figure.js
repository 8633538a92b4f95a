// Figures for slides: the lines and the bars of the view on screen, under a caption that says
// which view it is, as one SVG file (text stays text) or as a PNG at twice the size.

import { h, s, headColor } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { drawnMaskedRow, drawnWeight, lensBadge, weightsShown } from "./snapshot.js";
import { headCaption } from "./captions.js";
import { lineFigures, linesSvg } from "./lines.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

const FONT = '"Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif';
// The page's CSS does not travel with a file: the rules the figure needs, written into it.
const STYLE = `text { font-family: ${FONT}; fill: #161616; }
.ae-axis { fill: #4a4a4a; font-size: 12px; font-weight: 700; }
.ae-qtoken rect { fill: transparent; } .ae-qtoken.ae-selected rect { fill: #ffe08a; stroke: #161616; stroke-width: 2; }
.ae-qtoken text, .ae-ktoken text { font-size: 15px; font-weight: 600; } .ae-ktoken.ae-masked text { fill: #8a8a8a; }
.ae-strike { stroke: #b00020; stroke-width: 2; } .ae-mask-mark { fill: #b00020; font-size: 13px; }
.ae-fig-title { font-size: 22px; font-weight: 700; } .ae-fig-state { font-size: 16px; fill: #333; }
.ae-fig-head { font-size: 13px; fill: #333; } .ae-fig-label { font-size: 16px; font-weight: 600; }
.ae-fig-value { font-size: 12px; font-variant-numeric: tabular-nums; } .ae-fig-masked { fill: #b00020; }`;
// The figure's layout, in CSS pixels: the caption above, the lines left, the bars right.
const WIDTH = 1200;
const LINES_WIDTH = 600;
const BARS_X = 640;
const TOP = 84;

// A line of text cut to `width` px at `size` px type, with "…", and its whole text as the SVG's
// <title> (a slide program shows it on hover): a figure's text never runs into the next panel.
// Widths are an upper estimate (Hangul and CJK a full em, the rest 0.62 em), not a measurement:
// the figure is built before it is drawn anywhere.
const emOf = (ch) => (/[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7a3\uff00-\uffef]/.test(ch) ? 1 : 0.62);
export function fittedText(attrs, text, width, size) {
  let used = 0, cut = text.length;
  for (let i = 0; i < text.length; i++) {
    used += emOf(text[i]) * size;
    if (used > width) { cut = i; break; }
  }
  if (cut === text.length) return s("text", {...attrs, text});
  let kept = text.slice(0, cut), keptWidth = [...kept].reduce((sum, ch) => sum + emOf(ch) * size, 0);
  while (kept && keptWidth + size > width) { keptWidth -= emOf(kept.at(-1)) * size; kept = kept.slice(0, -1); }
  return s("text", {...attrs}, `${kept}…`, s("title", {text}));
}

// The file name says the view: meet-friend_q4_h4_scale1_causal0 (plus _head2 for one head of several).
export function figureName(snap) {
  const alone = snap.headView >= 0 ? `_head${snap.headView + 1}` : "";
  const lens = snap.lens && snap.lens !== "weight" ? `_${snap.lens}` : "";
  return `${snap.source.name}_q${snap.query}_h${snap.heads}_scale${snap.scale ? 1 : 0}_causal${snap.causal ? 1 : 0}${alone}${lens}`;
}

// The caption's second line: query, heads, switches and d_k, in the UI's language.
export function figureState(snap) {
  const {t} = snap, lens = lensBadge(snap);
  return (lens ? `${lens} · ` : "") + t("figure_state", {query: snap.cube.tokens[snap.query], count: snap.heads,
    shown: snap.headView >= 0 ? `${t("head")} ${snap.headView + 1}` : t("all_heads"),
    // weights alone (a model's merged view, imported weights) have no d_k to state
    scale: snap.scale ? t("on") : t("off"), mask: snap.causal ? t("on") : t("off"),
    d_k: snap.cube.weightsOnly ? "—" : snap.cube.block(snap.heads).d_k});
}

// The figure as an <svg> element, and its size in CSS pixels.
function figure(ctx, snap) {
  const {cube, visibleHeads, query: qi} = snap, maskedRow = drawnMaskedRow(snap, qi);
  const svg = s("svg", {xmlns: "http://www.w3.org/2000/svg", "font-family": FONT});
  svg.append(s("style", {text: STYLE}), s("rect", {x: 0, y: 0, width: "100%", height: "100%", fill: "#ffffff"}),
    fittedText({x: 20, y: 34, class: "ae-fig-title"}, cube.tokens.join(" "), WIDTH - 40, 22),
    fittedText({x: 20, y: 62, class: "ae-fig-state"}, figureState(snap), WIDTH - 40, 16));
  // the lines: one figure, or one small figure per head in a grid
  const figures = lineFigures(snap);
  const columns = figures.length === 1 ? 1 : figures.length <= 4 ? 2 : 4;
  const cellWidth = LINES_WIDTH / columns;
  let linesBottom = TOP;
  figures.forEach(({heads, geometry}, index) => {
    const drawn = linesSvg(ctx, snap, heads, false, geometry);
    drawn.removeAttribute("aria-describedby");  // the saved figure has no weights table beside it
    const [, , vbWidth, vbHeight] = drawn.getAttribute("viewBox").split(" ").map(Number);
    const height = cellWidth * vbHeight / vbWidth, captionHeight = figures.length > 1 ? 22 : 0;
    const x = 10 + (index % columns) * cellWidth, y = TOP + Math.floor(index / columns) * (height + captionHeight);
    if (captionHeight) {
      svg.append(s("rect", {x, y: y + 4, width: 12, height: 12, fill: headColor(heads[0]), class: "ae-fig-key"}),
        fittedText({x: x + 18, y: y + 15, class: "ae-fig-head"}, headCaption(snap, heads[0]), cellWidth - 26, 13));
    }
    drawn.setAttribute("x", x);
    drawn.setAttribute("y", y + captionHeight);
    drawn.setAttribute("width", cellWidth);
    drawn.setAttribute("height", height);
    svg.append(drawn);
    linesBottom = Math.max(linesBottom, y + captionHeight + height);
  });
  // the bars: one row per key, one bar per head, each with its weight
  // a head's bar every 18 px: its value's line (12 px type) clears the next head's
  const barHeight = 11, gap = 7, rowHeight = Math.max(30, visibleHeads.length * (barHeight + gap) + 10);
  const trackX = BARS_X + 130, trackWidth = WIDTH - trackX - 90;
  cube.tokens.forEach((token, j) => {
    const y = TOP + 10 + j * rowHeight, masked = maskedRow[j];
    svg.append(fittedText({x: BARS_X, y: y + rowHeight / 2, class: "ae-fig-label", "dominant-baseline": "middle"},
      shortLabel(token, 10), trackX - BARS_X - 8, 16));
    visibleHeads.forEach((head, k) => {
      const w = drawnWeight(snap, head, qi, j), barY = y + 5 + k * (barHeight + gap);
      svg.append(s("rect", {x: trackX, y: barY, width: trackWidth, height: barHeight, fill: "#f0f2f4"}),
        s("rect", {x: trackX, y: barY, width: Math.max(1, trackWidth * w), height: barHeight, fill: headColor(head)}),
        s("text", {x: WIDTH - 20, y: barY + barHeight - 1, "text-anchor": "end",
          class: "ae-fig-value" + (masked ? " ae-fig-masked" : ""), text: masked ? `✕ ${fmt(w)}` : fmt(w)}));
    });
  });
  const height = Math.ceil(Math.max(linesBottom, TOP + 10 + cube.n * rowHeight) + 20);
  svg.setAttribute("width", WIDTH);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${WIDTH} ${height}`);
  return {svg, width: WIDTH, height};
}

// The figure as the text of an .svg file.
export function figureText(ctx, snap) {
  const {svg, width, height} = figure(ctx, snap);
  return {text: '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(svg), width, height};
}

async function pngOf(svgText, width, height) {
  const url = URL.createObjectURL(new Blob([svgText], {type: "image/svg+xml"}));
  try {
    const image = new Image();
    await new Promise((resolve, reject) => {
      image.onload = resolve;
      image.onerror = () => reject(new Error("the browser could not draw the figure"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = 2 * width;
    canvas.height = 2 * height;
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("no PNG"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const link = h("a", {href: url, download: name, hidden: true});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The view `snap` saved as a figure file of `kind` ("svg" or "png"): what figure_tools.js's buttons do.
export async function saveFigure(ctx, snap, kind) {
  if (snap.status !== "ready" || !weightsShown(snap)) return;
  const {text, width, height} = figureText(ctx, snap);
  try {
    const blob = kind === "svg" ? new Blob([text], {type: "image/svg+xml"}) : await pngOf(text, width, height);
    download(`${figureName(snap)}.${kind}`, blob);
  } catch (error) {
    ctx.actions.notify("err_figure", {error: error.message});
  }
}
