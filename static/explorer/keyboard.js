// Keys: ← → Home End move the query; Space / Shift+Space step through the reveal, but only
// where Space has no job of its own (a button, checkbox, select or text box keeps its Space).

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
export function listenToKeys(where, {state, query, lastQuery, setQuery, stepBy}) {
  function onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = keyTarget(event);
    if (isTyping(target)) return;
    let handled = true;
    if (event.key === "ArrowRight") setQuery(query() + 1);
    else if (event.key === "ArrowLeft") setQuery(query() - 1);
    else if (event.key === "Home") setQuery(0);
    else if (event.key === "End") setQuery(lastQuery());
    else if (event.key === " " && state.step >= 0 && !isControl(target)) stepBy(event.shiftKey ? -1 : 1);
    else handled = false;
    if (handled) event.preventDefault();
  }
  where.addEventListener("keydown", onKey);
  return () => where.removeEventListener("keydown", onKey);
}
