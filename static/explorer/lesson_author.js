// Authoring a lesson in the page, no code: the view on show added as a stop, its title, note and
// question written, stops moved and deleted, and the file downloaded in docs/lessons.md's format
// (which `attention-viz lesson check` then checks against the numbers). The draft is kept in this
// browser (localStorage) until the lecturer starts another; a built-in lesson can be its start.
// Everything typed is set as text or a value, never as HTML.

import { h } from "./dom.js";
import { lessonProblem, problemWords } from "./lesson_problem.js";
import { createOutline } from "./lesson_outline.js";
import { encodeLesson } from "./lesson_link.js";
import { store, stored } from "./room_kept.js";
import { toSearch } from "./url.js";
import { modelLink } from "./url_writer.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

const DRAFT = "ae-lesson-draft";
// how long typing rests before the draft is checked (Python reads it as `lesson check` does)
const CHECK_AFTER_MS = 300;
// the link's parameters that belong to the page, not to a stop's view
const NOT_A_VIEW = ["lang", "mode", "stop", "why_d", "position", "lesson"];

// A stop's `view` for the page's view now: its link's parameters (`linked`: url_writer.js linkedValues;
// `model`: url_writer.js modelLink, a model's head on show, or null).
export function stopView(linked, step, table, model = null, text = "", practice = 0) {
  const params = new URLSearchParams(toSearch("", {linked, step, model, text, practice}, table));
  for (const key of NOT_A_VIEW) params.delete(key);
  return params.toString();
}

// The downloaded file's name: the lesson's title, in any script, with what a file name cannot hold
// made a dash (its own name when the title leaves nothing).
export function fileName(lesson) {
  const title = String(lesson.title || "").normalize("NFC").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").slice(0, 60);
  return `${title || lesson.name}.md`;
}

const oneLine = (text) => String(text || "").replace(/\s+/g, " ").trim();
// A field over several lines: the first on the field's own line, the others indented (a blank line
// would end the field, so there are none).
function field(key, value) {
  const [first, ...rest] = String(value).split("\n").map((line) => line.trim()).filter(Boolean);
  return [`${key}: ${first}`, ...rest.map((line) => `  ${line}`)].join("\n");
}

// The lesson as its file (docs/lessons.md): what app/lessons.py parse_lesson reads back.
export function lessonText(lesson) {
  const lines = [`# ${oneLine(lesson.title) || "Lesson"}`];
  if (oneLine(lesson.title_en)) lines.push(`title_en: ${oneLine(lesson.title_en)}`);
  for (const stop of lesson.stops) {
    lines.push("", `## ${oneLine(stop.title) || "—"}`);
    const fields = [["title_en", oneLine(stop.title_en)], ["view", stop.view], ["card", stop.card],
      ["ask", (stop.ask || []).filter(Boolean).join(" ")], ...(stop.claims || []).map((claim) => ["claim", claim]),
      ["note", stop.note], ["note_en", stop.note_en], ["speaker", stop.speaker], ["speaker_en", stop.speaker_en]];
    for (const [key, value] of fields) if (String(value || "").trim()) lines.push(field(key, value));
  }
  return lines.join("\n") + "\n";
}

// `lesson.current()`: the lesson on show (a draft, Python's, or none); `lesson.stop()`: its stop
// (from 1); `lesson.show(draft, stop)`: show the draft at that stop; `linkedOf(snap)`: the link's
// values of the view on show.
// `start`: the button that starts writing a lesson (lesson_lazy.js made it).
export function createAuthor(ctx, lesson, linkedOf, start) {
  const {constants} = ctx;
  let editing = false, snap = null;
  const drafted = () => stored("localStorage", DRAFT);
  const keep = (draft) => store("localStorage", DRAFT, draft);
  // the lesson being written: the draft, or a copy of the lesson on show (its first edit makes it one)
  function draft() {
    const shown = lesson.current();
    if (shown && shown.draft) return shown;
    const copy = shown ? {...JSON.parse(JSON.stringify(shown)), name: `my-${shown.name}`, draft: true}
      : {name: "my-lesson", title: snap ? snap.t("lesson_new_title") : "", title_en: "", stops: [], draft: true};
    for (const stop of copy.stops) delete stop.question;  // its truth was for the lesson as checked
    return copy;
  }
  // An edit of the draft at `stop`; `stay`: the view on show stays as it is (a title or a note
  // written, a stop's view replaced by it), else the stop the edit returns opens.
  function change(edit, stop = lesson.stop(), stay = false) {
    const next = draft();
    const shownStop = edit(next, stop) ?? stop;
    keep(next);
    scheduleCheck(next);
    lesson.show(next, Math.min(Math.max(1, shownStop), Math.max(1, next.stops.length)), stay);
  }
  // a field's text kept as it is typed (the view on show is not touched)
  const written = (input, name, ofStop, other = false) => () => change((next, stop) => {
    const target = ofStop ? next.stops[stop - 1] : next;
    if (target) target[other ? otherKey(name) : textKey(name)] = input.value;
  }, lesson.stop(), true);
  const english = () => snap && snap.lang !== constants.languages[0];
  const textKey = (name) => (english() ? `${name}_en` : name);
  const otherKey = (name) => (english() ? name : `${name}_en`);  // the note in the other language

  // The draft checked as it is written (served: Python's `lesson check`, every problem with its stop
  // and line): the download and the link wait for a lesson that passes, so a link the page gives
  // is one a served page opens. A file has no Python: it says to run the check before a class.
  let checked = {text: null, problems: null}, timer = null;
  function scheduleCheck(shown) {
    clearTimeout(timer);
    if (!ctx.state.lab || !shown || !shown.stops.length) return;
    const text = lessonText(shown);
    if (checked.text === text) return;
    checked = {text, problems: null};
    ctx.actions.redraw();
    timer = setTimeout(async () => {
      const reply = await ctx.actions.checkLesson(text);
      if (checked.text !== text) return;  // written on since
      checked = {text, problems: reply.ok ? reply.lesson.problems : [{problem: reply.error.code}]};
      ctx.actions.redraw();
    }, CHECK_AFTER_MS);
  }
  // whether the lesson on show may be downloaded or linked: checked and good (or in a file, unchecked)
  const passes = (shown) => !ctx.state.lab || (checked.text === lessonText(shown) && checked.problems && !checked.problems.length);

  start.addEventListener("click", () => {
    editing = true;
    const kept = drafted();
    if (kept && !lesson.current()) lesson.show(kept, 1); else ctx.actions.redraw();
  });
  const titleInput = h("input", {type: "text", class: "ae-input", "data-testid": "lesson-title-input"});
  titleInput.addEventListener("input", written(titleInput, "title", false));
  const stopTitleInput = h("input", {type: "text", class: "ae-input", "data-testid": "lesson-stop-title-input"});
  stopTitleInput.addEventListener("input", written(stopTitleInput, "title", true));
  const noteInput = h("textarea", {class: "ae-input", rows: 3, "data-testid": "lesson-note-input"});
  noteInput.addEventListener("input", written(noteInput, "note", true));
  // the note in the other language, and the speaker notes (what the lecturer alone sees) in both
  const noteOtherInput = h("textarea", {class: "ae-input", rows: 2, "data-testid": "lesson-note-other-input"});
  noteOtherInput.addEventListener("input", written(noteOtherInput, "note", true, true));
  const speakerInput = h("textarea", {class: "ae-input", rows: 2, "data-testid": "lesson-speaker-input"});
  speakerInput.addEventListener("input", written(speakerInput, "speaker", true));
  const speakerOtherInput = h("textarea", {class: "ae-input", rows: 2, "data-testid": "lesson-speaker-other-input"});
  speakerOtherInput.addEventListener("input", written(speakerOtherInput, "speaker", true, true));
  // the stop's step (its view's step=: the calculation up to it) and the card it brings into sight
  const stepSelect = h("select", {class: "ae-select", "data-testid": "lesson-step-select",
    on: {change: () => change((next, stop) => {
      const at = next.stops[stop - 1];
      if (!at) return stop;
      const params = new URLSearchParams(at.view);
      if (stepSelect.value === "") params.delete("step"); else params.set("step", stepSelect.value);
      at.view = params.toString();
      return stop;
    })}});
  const cardSelect = h("select", {class: "ae-select", "data-testid": "lesson-card-select",
    on: {change: () => change((next, stop) => { if (next.stops[stop - 1]) next.stops[stop - 1].card = cardSelect.value; return stop; })}});
  // a lesson file opened in the page (chosen, or dropped on the panel): read by Python, then the draft
  const fileInput = h("input", {type: "file", accept: ".md,.markdown,.txt,text/markdown,text/plain", class: "ae-file",
    "data-testid": "lesson-open-file", on: {change: () => { if (fileInput.files[0]) openFile(fileInput.files[0]); fileInput.value = ""; }}});
  const fileLabel = h("span");
  const fileSays = h("p", {class: "ae-hint", "data-testid": "lesson-open-says", role: "status"});
  async function openFile(file) {
    if (!ctx.state.lab) { fileSays.textContent = snap.t("lesson_open_needs_server"); return; }
    if (file.size > constants.lesson_max_bytes) { fileSays.textContent = snap.t("lesson_open_too_big"); return; }
    const text = await file.text();
    const reply = await ctx.actions.checkLesson(text);
    const read = reply.ok && reply.lesson.lesson;
    if (!read) {  // not a lesson at all: said with its line, and the draft stays as it was
      const [first] = reply.ok ? reply.lesson.problems : [];
      fileSays.textContent = snap.t("lesson_open_refused", {name: file.name, problem: problemWords(snap.t, first)});
      return;
    }
    const opened = {...read, name: file.name.replace(/\.[^.]*$/, "") || "my-lesson", draft: true};
    keep(opened);
    checked = {text: null, problems: null};
    fileSays.textContent = snap.t("lesson_open_done", {name: file.name, count: opened.stops.length});
    scheduleCheck(opened);
    lesson.show(opened, 1);
  }
  const askSelect = h("select", {class: "ae-select", "data-testid": "lesson-ask-select",
    on: {change: () => change((next, stop) => {
      if (next.stops[stop - 1]) next.stops[stop - 1].ask = askSelect.value ? askSelect.value.split(" ").concat([null]).slice(0, 2) : null;
    }, lesson.stop(), true)}});
  // the view on show as a stop's view: a book's sentence, a model's head, a sentence typed here
  // (its text=, which Python reads again), a practice problem (its number)
  const shownView = (current) => {
    const entry = current.cube.entry;
    const text = !current.modelView && entry.link === "text" ? entry.text : "";
    return stopView(linkedOf(current), current.step, constants.view, modelLink(current, constants), text,
      current.practice ? current.practice.number : 0);
  };
  const button = (testid, edit) => h("button", {type: "button", class: "ae-chip ae-small", "data-testid": testid, on: {click: () => change(edit)}});
  const add = button("lesson-add-stop", (next, stop) => {
    const view = shownView(snap);
    next.stops.splice(next.stops.length ? stop : 0, 0, {title: snap.cube.tokens[snap.query] || "", title_en: "", view, card: "",
      ask: null, claims: [], note: "", note_en: "", speaker: "", speaker_en: ""});
    return next.stops.length ? stop + (next.stops.length > 1 ? 1 : 0) : 1;
  });
  // the stop's view replaced by the view on show (a stop set up wrong is mended, not made again)
  const replace = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-replace-view", on: {click: () => change((next, stop) => {
    if (next.stops[stop - 1]) next.stops[stop - 1].view = shownView(snap);
  }, lesson.stop(), true)}});
  const up = button("lesson-move-up", (next, stop) => {
    if (stop < 2) return stop;
    [next.stops[stop - 2], next.stops[stop - 1]] = [next.stops[stop - 1], next.stops[stop - 2]];
    return stop - 1;
  });
  const down = button("lesson-move-down", (next, stop) => {
    if (stop >= next.stops.length) return stop;
    [next.stops[stop], next.stops[stop - 1]] = [next.stops[stop - 1], next.stops[stop]];
    return stop + 1;
  });
  const remove = button("lesson-delete-stop", (next, stop) => { next.stops.splice(stop - 1, 1); return stop - 1; });
  const download = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-download", on: {click: () => {
    const shown = lesson.current();
    if (!shown || !shown.stops.length || !passes(shown)) return;
    const url = URL.createObjectURL(new Blob([lessonText(shown)], {type: "text/markdown;charset=utf-8"}));
    const link = h("a", {href: url, download: fileName(shown)});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }}});
  // the lesson as a link: the file itself, compressed into the URL (lesson_link.js)
  const linkOut = h("input", {type: "text", class: "ae-input", readonly: true, "data-testid": "lesson-link", hidden: true});
  const copyLink = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-copy-link", on: {click: async () => {
    const shown = lesson.current();
    if (!shown || !shown.stops.length || !passes(shown)) return;
    const url = new URL(window.location.href);
    url.search = `?lesson=${await encodeLesson(lessonText(shown))}`;
    url.hash = "";
    linkOut.value = url.toString();
    linkOut.hidden = false;
    linkOut.select();
    try { await navigator.clipboard.writeText(linkOut.value); } catch (error) { /* selected, to copy by hand */ }
  }}});
  // a new, empty lesson in place of the draft kept: a draft with stops is given up only when the
  // lecturer says so
  const fresh = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-new", on: {click: () => {
    const shown = lesson.current();
    if (shown && shown.draft && shown.stops.length && !window.confirm(snap.t("lesson_new_confirm", {stops: shown.stops.length}))) return;
    const empty = {name: "my-lesson", title: snap ? snap.t("lesson_new_title") : "", title_en: "", stops: [], draft: true};
    keep(empty);
    linkOut.hidden = true;
    lesson.show(empty, 1);
  }}});
  const why = h("p", {class: "ae-hint", "data-testid": "lesson-author-hint"});
  const checkSays = h("p", {class: "ae-hint", "data-testid": "lesson-author-check", role: "status"});
  const problemList = h("ul", {class: "ae-lesson-problems", "data-testid": "lesson-author-problems"});
  const titleLabel = h("span"), stopTitleLabel = h("span"), noteLabel = h("span"), askLabel = h("span");
  const noteOtherLabel = h("span"), speakerLabel = h("span"), speakerOtherLabel = h("span"), stepLabel = h("span"), cardLabel = h("span");
  const outline = createOutline(ctx, (stop) => lesson.show(lesson.current(), stop));
  const el = h("div", {class: "ae-lesson-author", "data-testid": "lesson-author", hidden: true},
    h("label", {}, titleLabel, titleInput), h("div", {class: "ae-inline"}, add, replace, up, down, remove, download, copyLink, fresh), linkOut, why,
    checkSays, problemList, outline.el,
    h("label", {}, stopTitleLabel, stopTitleInput), h("label", {}, noteLabel, noteInput), h("label", {}, noteOtherLabel, noteOtherInput),
    h("div", {class: "ae-inline"}, h("label", {}, askLabel, askSelect), h("label", {}, stepLabel, stepSelect), h("label", {}, cardLabel, cardSelect)),
    h("label", {}, speakerLabel, speakerInput), h("label", {}, speakerOtherLabel, speakerOtherInput),
    h("label", {class: "ae-lesson-open"}, fileLabel, fileInput), fileSays);
  // a file dropped anywhere on the panel opens as the draft
  el.addEventListener("dragover", (event) => { event.preventDefault(); });
  el.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) openFile(file);
  });

  function update(current, stop) {
    snap = current;
    const {t} = current;
    start.textContent = t("lesson_start");
    el.hidden = !editing;
    // while a lesson is written the panel stands beside the page (the figure stays in sight)
    const root = el.closest(".ae-root");
    if (root) root.classList.toggle("ae-authoring", editing);
    if (!editing) return;
    const shown = lesson.current(), at = shown && shown.stops[stop - 1];
    for (const [node, key] of [[titleLabel, "lesson_title_label"], [stopTitleLabel, "lesson_stop_title_label"],
      [noteLabel, "lesson_note_label"], [askLabel, "lesson_ask_label"], [add, "lesson_add_stop"], [up, "lesson_move_up"],
      [down, "lesson_move_down"], [remove, "lesson_delete_stop"], [replace, "lesson_replace_view"], [download, "lesson_download"],
      [copyLink, "lesson_copy_link"], [fresh, "lesson_new"], [speakerLabel, "lesson_speaker_label"],
      [stepLabel, "lesson_step_label"], [cardLabel, "lesson_card_label"], [fileLabel, "lesson_open_label"]]) node.textContent = t(key);
    // the other language's fields say which language they hold
    noteOtherLabel.textContent = english() ? t("lesson_note_ko_label") : t("lesson_note_en_label");
    speakerOtherLabel.textContent = english() ? t("lesson_speaker_ko_label") : t("lesson_speaker_en_label");
    // a stop is a view every page opens: a book's sentence, or the trained model's head on its own
    // sentence (lesson check reads those), not a sentence typed here
    const model = current.modelView;
    const typedHere = current.cube && current.cube.entry.link === "text" && !!current.cube.entry.text;
    const addable = current.status === "ready" && (model ? constants.lesson_models.includes(model.entry.kind) && !model.entry.typed
      : current.source.kind === "preset" || typedHere || !!current.practice);
    add.disabled = !addable;
    replace.disabled = !addable || !at;
    // why a field waits: a stop is a book's sentence's view; a stop's fields wait for a first stop
    why.textContent = !addable ? t("lesson_add_presets_only") : !at ? t("lesson_add_first") : "";
    const kinds = constants.questions.kinds;
    const options = [["", t("lesson_ask_none")], ...Object.entries(kinds).flatMap(([kind, {asks}]) =>
      asks.map(({change: flip, words}) => [[kind, flip].filter(Boolean).join(" "), t(words)]))];
    if (askSelect.options.length !== options.length || askSelect.dataset.lang !== current.lang) {
      askSelect.replaceChildren(...options.map(([value, text]) => h("option", {value, text})));
      askSelect.dataset.lang = current.lang;
    }
    up.disabled = remove.disabled = !at;
    down.disabled = !at || stop >= shown.stops.length;
    const hasStops = !!(shown && shown.stops.length);
    if (hasStops && ctx.state.lab && checked.text !== lessonText(shown)) scheduleCheck(shown);  // a draft opened again
    const good = hasStops && passes(shown);
    download.disabled = copyLink.disabled = !good;
    const problems = hasStops && ctx.state.lab && checked.text === lessonText(shown) ? checked.problems : null;
    checkSays.dataset.state = !hasStops ? "empty" : !ctx.state.lab ? "file" : problems === null ? "checking" : problems.length ? "problems" : "ok";
    checkSays.textContent = {empty: "", file: t("lesson_check_in_file"), checking: t("lesson_check_waiting"), ok: t("lesson_check_ok"),
      problems: problems && problems.length ? t("lesson_check_problems", {count: problems.length}) : ""}[checkSays.dataset.state];
    problemList.replaceChildren(...(problems || []).map((values) => h("li", {"data-testid": "lesson-author-problem",
      "data-stop": values.stop || "", "data-line": values.line || "", text: problemWords(t, values)})));
    const set = (input, value) => { if (document.activeElement !== input) input.value = value || ""; };
    set(titleInput, shown ? shown[textKey("title")] : "");
    set(stopTitleInput, at ? at[textKey("title")] : "");
    set(noteInput, at ? at[textKey("note")] : "");
    set(noteOtherInput, at ? at[otherKey("note")] : "");
    set(speakerInput, at ? at[textKey("speaker")] : "");
    set(speakerOtherInput, at ? at[otherKey("speaker")] : "");
    const steps = [["", t("lesson_step_all")], ...Array.from({length: constants.steps}, (_, i) => [String(i), t(`step_name_${i}`)])];
    if (stepSelect.options.length !== steps.length || stepSelect.dataset.lang !== current.lang) {
      stepSelect.replaceChildren(...steps.map(([value, text]) => h("option", {value, text})));
      stepSelect.dataset.lang = current.lang;
    }
    if (document.activeElement !== stepSelect) stepSelect.value = at ? (new URLSearchParams(at.view).get("step") ?? "") : "";
    const cards = [["", t("lesson_card_none")], ...constants.lesson_cards.map((name) => [name, t(`lesson_card_${name}`)])];
    if (cardSelect.options.length !== cards.length || cardSelect.dataset.lang !== current.lang) {
      cardSelect.replaceChildren(...cards.map(([value, text]) => h("option", {value, text})));
      cardSelect.dataset.lang = current.lang;
    }
    if (document.activeElement !== cardSelect) cardSelect.value = at ? at.card || "" : "";
    outline.update(current, shown, stop);
    stopTitleInput.disabled = noteInput.disabled = askSelect.disabled = !at;
    noteOtherInput.disabled = speakerInput.disabled = speakerOtherInput.disabled = stepSelect.disabled = cardSelect.disabled = !at;
    if (document.activeElement !== askSelect) askSelect.value = at && at.ask ? at.ask.filter(Boolean).join(" ") : "";
  }

  return {el, start, update, editing: () => editing, refusal: lessonProblem};
}
