// The numbers editor: the sentence's Q, K and V as cells the student can change. Python parses
// and computes; a bad cell comes back as an error marked in place, and nothing else changes.

import { h, scrollBox, memo } from "./dom.js";
import { sourceOf } from "./source.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

export function createEditor(ctx) {
  const {constants, actions} = ctx;
  const limits = constants.limits;
  const summary = h("summary", {"data-testid": "numbers-summary"});
  const hint = h("p", {class: "ae-hint"});
  const dLabel = h("label", {for: "ae-d"});
  const dSelect = h("select", {id: "ae-d", class: "ae-select ae-select-small", "data-testid": "numbers-d"},
    ...Array.from({length: limits.max_d}, (_, i) => h("option", {value: i + 1, text: i + 1})));
  const addToken = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-add"});
  const removeToken = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-remove"});
  const reset = h("button", {type: "button", class: "ae-chip", "data-testid": "numbers-reset"});
  const grid = scrollBox("", {"data-testid": "numbers-grid"});
  const errorsBox = h("div", {class: "ae-grid-errors", role: "status", "data-testid": "numbers-errors"});
  const el = h("details", {class: "ae-editor", "data-testid": "numbers-editor"}, summary, hint,
    h("div", {class: "ae-inline ae-editor-tools"}, dLabel, dSelect, addToken, removeToken, reset), grid, errorsBox);

  let draft = null;        // the typed cells: {tokens, q, k, v}, each a list of strings
  let source = null;       // the cube the draft started from (Reset goes back to it)
  let seen = null;         // the last cube on show that the editor has looked at
  let expectingOwn = false;  // numbers were sent from here: the cube that comes back is the draft's own
  let staleErrors = null;  // errors that were about a grid since replaced: not shown
  let shownErrors = [];    // the errors marked on the grid now
  let t = null;

  const send = () => {
    expectingOwn = true;
    actions.send({type: "numbers", tokens: draft.tokens, q: draft.q, k: draft.k, v: draft.v});
  };

  function draftFrom(cube) {
    return {tokens: [...cube.tokens], q: cube.matrixText("q"), k: cube.matrixText("k"), v: cube.matrixText("v")};
  }

  function resize(n, d) {
    const fitRow = (row) => Array.from({length: d}, (_, j) => (j < row.length ? row[j] : "0"));
    for (const name of ["q", "k", "v"]) draft[name] = Array.from({length: n}, (_, i) => fitRow(draft[name][i] || []));
    draft.tokens = Array.from({length: n}, (_, i) => draft.tokens[i] ?? `t${i + 1}`);
    buildGrid();
    send();
  }

  function buildGrid() {
    dSelect.value = String(draft.q[0] ? draft.q[0].length : 1);
    const cell = (where, i, j, value, label) => h("input", {type: "text", class: "ae-cell", value, "aria-label": label,
      "data-where": where, "data-row": i, "data-col": j, "data-testid": `cell-${where}-${i}-${j}`,
      autocomplete: "off", spellcheck: "false", on: {change: (event) => {
        if (where === "token") draft.tokens[i] = event.target.value;
        else draft[where][i][j] = event.target.value;
        send();
      }}});
    const head = h("tr", {}, h("th", {scope: "col", text: t("token")}),
      ...["q", "k", "v"].flatMap((m) => draft[m][0].map((_, j) => h("th", {scope: "col", class: `ae-col-${m}`,
        text: `${m.toUpperCase()}${j + 1}`}))));
    const body = draft.tokens.map((token, i) => h("tr", {},
      h("td", {}, cell("token", i, 0, token, `${t("token")} ${i + 1}`)),
      ...["q", "k", "v"].flatMap((m) => draft[m][i].map((value, j) =>
        h("td", {class: `ae-col-${m}`}, cell(m, i, j, value, `${m.toUpperCase()} ${i + 1}, ${j + 1}`))))));
    grid.replaceChildren(h("table", {class: "ae-table ae-grid-table"}, h("thead", {}, head), h("tbody", {}, body)));
    markErrors(shownErrors);  // a rebuilt grid keeps its marks
  }

  function markErrors(errors) {
    shownErrors = errors;
    const cells = Array.from(grid.querySelectorAll("input"));
    for (const input of cells) {
      input.removeAttribute("aria-invalid");
      input.classList.remove("ae-invalid");
      input.removeAttribute("title");
    }
    dSelect.classList.remove("ae-invalid");
    const messages = [];
    for (const error of errors) {
      const message = t(`err_${error.code}`, error.values);
      if (error.where === "d") dSelect.classList.add("ae-invalid");
      const input = cells.find((c) => c.dataset.where === String(error.where)
        && c.dataset.row === String(error.row) && c.dataset.col === String(error.col));
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
    errorsBox.replaceChildren(...messages.map((m) => h("p", {class: "ae-field-error", text: m})));
  }

  // A new sentence (not the student's own numbers) replaces the draft; errors about the old grid go stale.
  function startFrom(snap) {
    source = snap.cube;
    staleErrors = snap.gridErrors;
    shownErrors = [];
    // a model's head is explored, not typed over (its numbers are the model's, float32)
    const fits = !source.model && !source.weightsOnly && source.d_model <= limits.max_d && source.dv_model === source.d_model;
    draft = fits ? draftFrom(source) : null;
    if (draft) buildGrid();
    else grid.replaceChildren(h("p", {class: "ae-hint", text: t("err_too_wide", {d: source.d_model, limit: limits.max_d})}));
    for (const tool of [dSelect, addToken, removeToken, reset]) tool.disabled = !draft;
  }

  // the tools are disabled while there is no draft (a sentence too wide to edit): no event then
  dSelect.addEventListener("change", () => resize(draft.tokens.length, Number(dSelect.value)));
  addToken.addEventListener("click", () => {
    if (draft.tokens.length < limits.max_tokens) resize(draft.tokens.length + 1, draft.q[0].length);
  });
  removeToken.addEventListener("click", () => {
    if (draft.tokens.length > 1) resize(draft.tokens.length - 1, draft.q[0].length);
  });
  reset.addEventListener("click", () => {
    draft = draftFrom(source);
    shownErrors = [];
    buildGrid();
    // Python keeps the last errors until told: cleared, the same slip typed again shows again
    actions.setLocal({gridErrors: []});
    actions.set({source: sourceOf(source.entry), query: Math.min(ctx.state.query, source.n - 1)});
  });

  const drawLabels = memo(() => {
    summary.textContent = t("edit_numbers");
    grid.setAttribute("aria-label", t("edit_numbers"));
    hint.textContent = t("numbers_hint");
    dLabel.textContent = t("d");
    addToken.textContent = t("add_token");
    removeToken.textContent = t("remove_token");
    reset.textContent = t("reset_numbers");
    if (draft) buildGrid();  // its headers and labels are in the UI's language
  });
  const drawErrors = memo((errors) => markErrors(errors));

  function update(snap) {
    t = snap.t;
    // each new sentence on show restarts the draft, but the own numbers the draft itself sent
    // (numbers from a link or a notebook do restart it: they are not what is typed here)
    if (snap.status === "ready" && snap.cube !== seen) {
      const own = snap.source.name === constants.own.numbers;  // the student's own numbers (or W)
      seen = snap.cube;
      if (!(own && expectingOwn)) {
        startFrom(snap);
        drawErrors(`${snap.cube.serial}|${snap.lang}|stale`, []);
      }
      if (own) expectingOwn = false;
    }
    drawLabels(snap.lang);
    const errors = snap.gridErrors === staleErrors ? [] : snap.gridErrors;
    drawErrors([source && source.serial, snap.lang, JSON.stringify(errors)].join("|"), errors);
  }
  return {el, update};
}
