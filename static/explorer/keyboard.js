// Keys: ← → Home End move the query; Space / Shift+Space step through the reveal, but only
// where Space has no job of its own (a button, checkbox, select or text box keeps its Space).
// With a lesson open, the keys a presentation clicker sends move between its stops instead:
// PageDown, → and Space on, PageUp, ← and Shift+Space back; never while a field has focus.

const TYPING = new Set(["textarea", "select"]);
const CONTROLS = new Set(["button", "input", "select", "textarea", "summary", "a"]);

function keyTarget(event) {
  const target = event.composedPath ? event.composedPath()[0] : event.target;
  return target && target.tagName ? target : null;
}

function isTyping(target) {
  const tag = target ? target.tagName.toLowerCase() : "";
  return TYPING.has(tag) || (tag === "input" && target.type !== "checkbox") || (target && target.isContentEditable);
}

function isControl(target) {
  return !!target && (CONTROLS.has(target.tagName.toLowerCase()) || target.isContentEditable
    || ["button", "checkbox", "tab", "menuitem", "switch"].includes(target.getAttribute("role")));
}

// Listens on `where` (the window for a page of its own, the view's root in a notebook).
// Returns the function that stops listening.
export function listenToKeys(where, {state, query, lastQuery, setQuery, stepBy, lesson}) {
  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = keyTarget(event);
    if (isTyping(target)) return;
    if (lesson && lesson.active() && onLessonKey(event, target)) return;
    let handled = true;
    if (event.key === "ArrowRight") setQuery(query() + 1);
    else if (event.key === "ArrowLeft") setQuery(query() - 1);
    else if (event.key === "Home") setQuery(0);
    else if (event.key === "End") setQuery(lastQuery());
    else if (event.key === " " && state.step >= 0 && !isControl(target)) stepBy(event.shiftKey ? -1 : 1);
    else handled = false;
    if (handled) event.preventDefault();
  }
  // A clicker's key in a lesson: handled (true), or left to the page.
  function onLessonKey(event, target) {
    const space = event.key === " " && !isControl(target);
    const delta = event.key === "PageDown" || event.key === "ArrowRight" || (space && !event.shiftKey) ? 1
      : event.key === "PageUp" || event.key === "ArrowLeft" || (space && event.shiftKey) ? -1 : 0;
    if (!delta) return false;
    event.preventDefault();
    lesson.move(delta);
    return true;
  }
  where.addEventListener("keydown", onKey);
  return () => where.removeEventListener("keydown", onKey);
}
