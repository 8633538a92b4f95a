// Every view of the page, made once in the order of VIEWS, and where each goes: the first screen
// (in lecture mode exactly one screen high, explorer.css), its figure row (the stage), and the
// cards below (the grid). A new view is one line in VIEWS (and its import).

import { h } from "./dom.js";
import { lazyWhen } from "./lazy.js";
import { lensBlocked } from "./snapshot.js";
import { createLazyLesson } from "./lesson_lazy.js";
import { createHeader } from "./header.js";
import { createControls } from "./controls.js";
import { createTokens } from "./tokens.js";
import { createCaptions } from "./captions.js";
import { createOrigin } from "./origin.js";
import { createLive } from "./live.js";
import { createNotices } from "./notices.js";
import { createLines } from "./lines.js";
import { createFigureTools } from "./figure_tools.js";
import { createBars } from "./bars.js";
import { createWeightsTable } from "./weights_table.js";
import { createHeatmap } from "./heatmap.js";
import { createAssignment } from "./assignment_link.js";
import { createCalculation } from "./calculation.js";
import { createStepper } from "./stepper.js";
import { createLab } from "./lab.js";
import { createWhyScale } from "./why_scale.js";
import { createPolysemy } from "./polysemy.js";
import { createOrder } from "./order.js";
import { createConcatWo } from "./concat_wo.js";

// The views loaded on first use (lazy.js): a real model's cards with the first model on show, the
// practice problems when one is opened, the lens's line when a lens other than the weights is asked
// for, where Q, K and V come from for a sentence that has its layer.
const modelCards = () => import("./model_cards.js");
const modelShown = (snap) => !!snap.modelView;
const onModel = (make) => lazyWhen(modelCards, modelShown, make);
const ready = (snap) => snap.status === "ready";
const lensLine = lazyWhen(() => import("./lens_line.js"), (snap) => ready(snap) && (snap.lens !== "weight" || !!lensBlocked(snap)),
  (module) => module.createLensLine());
const qkvOrigin = lazyWhen(() => import("./qkv_origin.js"), (snap) => ready(snap) && snap.cube.has("layer/x"),
  (module, c) => module.createQkvOrigin(c));
const practice = lazyWhen(() => import("./practice.js"), (snap) => !!snap.practice, (module, c) => module.createPractice(c));

// [name, make(ctx, made so far), where its element goes, a card class or nothing]: "first", "stage"
// or "grid"; a card class puts the element in a card of its own; null: another view's card holds
// its parts (placeParts).
const VIEWS = [
  ["header", createHeader, "first"],
  ["notices", createNotices, "first"],
  ["lesson", (c, made) => createLazyLesson(c, made), "first"],  // lesson.js on first use
  ["room", (c) => c.createRoom(c), "first"],  // room.js served, room_offline.js in a file (explorer.js)
  ["assignment", createAssignment, "first"],
  ["controls", createControls, "first"],
  ["lensLine", lensLine, "first"],
  ["model", onModel((module, c) => module.createModel(c)), "first"],
  ["tokens", createTokens, "first"],
  ["origin", createOrigin, "first"],
  ["practice", practice, "first"],
  ["captions", createCaptions, "first"],
  ["live", createLive, "first"],
  ["figureTools", createFigureTools, null],  // its buttons sit in the lines' figure
  ["lines", (c, made) => createLines(c, made.figureTools.el), "stage"],
  ["bars", createBars, "stage", "ae-card-bars"],
  ["weights", createWeightsTable, "grid", "ae-card-weights"],
  ["stepper", createStepper, null],          // in the calculation's card
  ["lab", createLab, null],                  // its parts: the sentence box, the answer check, its card
  ["calculation", createCalculation, "grid", "ae-card-calc"],
  ["qkvOrigin", qkvOrigin, "grid"],
  ["rotation", onModel((module, c) => module.createRotation(c)), "grid"],
  ["lenses", onModel((module, c) => module.createLenses(c)), "grid"],
  ["maskedWord", onModel((module, c) => module.createMaskedWord(c)), "grid"],
  ["difference", onModel((module, c) => module.createDifference(c)), "grid"],
  ["concatWo", createConcatWo, "grid"],
  ["heatmap", createHeatmap, "grid"],
  ["whyScale", createWhyScale, "grid"],
  ["order", createOrder, "grid"],
  ["polysemy", createPolysemy, "grid"],
  ["labCard", (c, made) => ({el: made.lab.card, update() {}}), "grid"],
];

// Parts that live in another view's place.
function placeParts({header, controls, room, calculation, stepper, lab, lesson}) {
  if (lab.sentence) controls.secondary.append(lab.sentence);
  controls.secondary.append(lesson.start);
  header.buttons.prepend(controls.more);
  header.buttons.prepend(room.button);
  header.buttons.before(room.panel);
  calculation.el.before(h("div", {class: "ae-card-head"}, calculation.title, stepper.toggle), stepper.bar);
  calculation.el.after(lab.check);
}

// Every view made and placed in `root`: {made (name → view), views (in order), stage, grid}.
// `served`: the cards that ask Python (served.js), after the lenses card; an exported file has none.
export function createLayout(ctx, root, served = []) {
  const made = {};
  const areas = {first: [], stage: [], grid: []};
  const at = VIEWS.findIndex(([name]) => name === "lenses") + 1;
  for (const [name, make, area, card] of [...VIEWS.slice(0, at), ...served, ...VIEWS.slice(at)]) {
    made[name] = make(ctx, made);
    if (area) areas[area].push(card ? h("section", {class: `ae-card ${card}`}, made[name].el) : made[name].el);
  }
  placeParts(made);
  const stage = h("div", {class: "ae-stage"}, ...areas.stage);
  const grid = h("div", {class: "ae-grid"}, ...areas.grid);
  // the handout and the room's report print alone
  root.append(h("div", {class: "ae-first"}, ...areas.first, stage), grid, made.lesson.handout.el, made.room.reportView);
  return {made, views: Object.values(made), stage, grid};
}
