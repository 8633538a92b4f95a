// Step-by-step reveal: the switch, previous / next, and where the student is ("Step 2/6: ÷ √d_k").
// Buttons are never rebuilt or natively disabled, so a keyboard user keeps focus at either end.

import { h, hiddenWhy, memo } from "./dom.js";

// `made.lesson`: a lesson on show takes Space and the arrows (keyboard.js): the hint says so.
export function createStepper(ctx, made) {
  const {actions, constants} = ctx;
  const goTo = (step) => actions.set({step: Math.max(0, Math.min(constants.steps - 1, step))});
  // aria-disabled keeps a button focusable when it has nothing to do; a click then does nothing
  const stepButton = (testid, delta) => {
    const button = h("button", {type: "button", class: "ae-chip", "data-testid": testid, on: {click: () => {
      if (button.getAttribute("aria-disabled") !== "true") goTo(ctx.state.step + delta);
    }}});
    return button;
  };
  const toggle = h("button", {type: "button", class: "ae-chip", "aria-pressed": "false", "data-testid": "step-toggle",
    on: {click: () => actions.set({step: ctx.state.step >= 0 ? -1 : 0})}});
  const prev = stepButton("step-prev", -1), next = stepButton("step-next", +1);
  const label = h("span", {class: "ae-step-label", "data-testid": "step-label"});
  const keys = h("span", {class: "ae-step-keys"});
  const bar = h("div", {class: "ae-stepbar"}, prev, label, next, keys);
  const draw = memo((snap, lesson) => {
    const {t, step, steps} = snap;
    const on = step >= 0;
    toggle.textContent = t("step_mode");
    toggle.setAttribute("aria-pressed", String(on));
    bar.hidden = !on;
    prev.textContent = t("step_prev");
    next.textContent = t("step_next");
    prev.setAttribute("aria-disabled", String(step <= 0));
    next.setAttribute("aria-disabled", String(step >= steps - 1));
    keys.textContent = lesson ? t("step_keys_lesson") : t("step_keys");
    // a room's open question hides every step, a lesson's question held the steps past what it is
    // worked from: the label says so, not a step the page does not show
    label.textContent = !on ? "" : snap.polling || (snap.held && snap.reveal < step + 1) ? hiddenWhy(snap)
      : t("step_of", {step: step + 1, steps, name: t(`step_name_${Math.min(step, steps - 1)}`)});
  });
  const lessonOn = () => !!(made && made.lesson && made.lesson.active());
  return {toggle, bar, update: (snap) => draw(`${snap.lang}|${snap.step}|${snap.polling}|${snap.reveal}|${!!snap.held}|${lessonOn()}`, snap, lessonOn()), goTo};
}
