// The page's lesson, loaded on first use (bench/first_load.py): a page with no lesson shows the
// button that starts writing one, and lesson.js with its authoring, predictions and handout
// arrives when it is pressed, or at once where the page has a lesson to show: one Python sent
// (serve --lesson, a lesson package), or a link's lesson=. lesson.js takes the button over.

import { h } from "./dom.js";

export function createLazyLesson(ctx, made) {
  const start = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-start"});
  const slots = {el: h("section", {class: "ae-card ae-lesson", "data-testid": "lesson", hidden: true}), handout: h("div", {hidden: true})};
  // the link's lesson=, read before the page writes its URL again
  const asked = ctx.state.url_sync ? new URLSearchParams(window.location.search).get("lesson") : null;
  let lesson = null, loading = null, last = null;

  function load() {
    // the authoring panel where the entry gives one (a served page's: Python checks what is written)
    const modules = () => Promise.all([import("./lesson.js"), ctx.authoring ? ctx.authoring() : null]);
    loading = loading || ctx.firstUse(modules).then(([{createLesson}, authorModule]) => {
      lesson = createLesson(ctx, made, {start, asked, createAuthor: authorModule ? authorModule.createAuthor : null});
      slots.el.replaceWith(lesson.el);
      slots.handout.replaceWith(lesson.handout.el);
      if (last) lesson.update(last);
      return lesson;
    });
    return loading;
  }
  start.addEventListener("click", (event) => {
    if (lesson) return;
    event.stopImmediatePropagation();
    load().then(() => start.click());
  });
  const offered = () => {
    const shown = ctx.offered("lesson");
    return !!shown && Array.isArray(shown.stops) && shown.stops.length > 0;
  };
  if (asked !== null || offered()) load();

  return {
    get el() { return lesson ? lesson.el : slots.el; },
    get handout() { return lesson ? lesson.handout : {el: slots.handout}; },
    start,
    active: () => !!lesson && lesson.active(),
    move: (delta) => !!lesson && lesson.move(delta),
    update(snap) {
      last = snap;
      if (lesson) { lesson.update(snap); return; }
      if (offered()) load();  // Python sent one later (a notebook's lesson =)
      start.textContent = snap.t("lesson_start");
      start.hidden = !ctx.authoring;  // a file writes no lesson: nothing there checks it
    },
  };
}
