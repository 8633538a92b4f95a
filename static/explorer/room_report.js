// A room's report, for its lecturer (app/report.py): every question asked, what the class answered
// (each choice, each slip by name), how many answered of those who could, the median time to a
// first answer. Downloaded as a CSV (Python writes it, in the page's language: Excel opens it as
// Korean), or laid out to print with a histogram a question. The room's code and secret are kept
// in this browser when the room closes, so the report can still be had afterwards (the server
// keeps it for serve --report-days). Nothing a student sent becomes HTML: it is all set as text.

import { h } from "./dom.js";
import { KINDS } from "./room_poll.js";
import { CLOSED, store, stored } from "./room_shared.js";

// the last closed room's {code, secret} in this browser

// `room`: the room's shared state; send(message).
// What an assignment of the lesson on show (`shown`, as the page received it) asks the server for:
// {name (as the lecturer's choice says it), message}: a built-in's name (`builtIns`), or each
// question's view (with its stop's title, for the report: not its note), kind and switch; null for
// no lesson or one without questions.
export function assignedLesson(shown, builtIns) {
  if (!shown || !Array.isArray(shown.stops) || !shown.stops.some((stop) => stop.question)) return null;
  if (builtIns.includes(shown.name)) return {name: shown.name, message: {lesson: shown.name}};
  return {name: shown.title, message: {questions: shown.stops.filter((stop) => stop.question).map((stop) => {
    const {view: {note, ...view}, kind, change} = stop.question;
    return {view: {...view, note: {title: stop.title || "", title_en: stop.title_en || ""}}, kind, change};
  })}};
}

export function createRoomReport(ctx, room, send) {
  const {constants, state} = ctx;
  let wanted = null;  // what the lecturer asked the report for: "csv" or "print"
  const target = () => room.lecturer || stored("localStorage", CLOSED, null);
  const ask = (what) => {
    const kept = target();
    if (!kept || !kept.code || !kept.secret) return;
    wanted = what;
    send({type: "report", code: kept.code, secret: kept.secret, lang: state.lang});
  };
  const csvButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-report", on: {click: () => ask("csv")}});
  const printButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-report-print",
    on: {click: () => ask("print")}});
  // an assigned link of the room's questions (app/assignments.py), a deadline (a week by default)
  const assignButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "room-assign",
    on: {click: () => { assignForm.hidden = !assignForm.hidden; }}});
  const week = new Date(Date.now() + 7 * 86400e3 - new Date().getTimezoneOffset() * 60e3).toISOString().slice(0, 16);
  const deadlineLabel = h("span"), nameLabel = h("span"), linkLabel = h("span");
  const deadlineInput = h("input", {type: "datetime-local", class: "ae-input", value: week, "data-testid": "assign-deadline"});
  const askName = h("input", {type: "checkbox", "data-testid": "assign-name"});
  // what it asks: the room's questions, or those of the lesson on show (a built-in's by its name; the
  // lecturer's own lesson's as each question's view, kind and switch, which the server checks and
  // makes again)
  const fromLabel = h("span");
  const from = h("select", {class: "ae-select", "data-testid": "assign-from"});
  const fromLine = h("label", {hidden: true}, fromLabel, " ", from);
  const lessonShown = () => assignedLesson(ctx.offered("lesson"), constants.lessons);
  const create = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "assign-create", on: {click: () => {
    const kept = target(), at = Date.parse(deadlineInput.value);
    if (!kept || !Number.isFinite(at)) return;
    const lesson = from.value === "lesson" ? lessonShown() : null;
    send({type: "assign", code: kept.code, secret: kept.secret, deadline: at / 1000, ask_name: askName.checked,
      ...(lesson ? lesson.message : {})});
  }}});
  const linkOut = h("input", {type: "text", class: "ae-input", readonly: true, "data-testid": "assign-link"});
  const linkLine = h("label", {hidden: true}, linkLabel, " ", linkOut);
  const assignForm = h("div", {class: "ae-assign-form", "data-testid": "assign-form", hidden: true},
    fromLine, h("label", {}, deadlineLabel, " ", deadlineInput), h("label", {}, askName, " ", nameLabel), create, linkLine);
  const title = h("h2", {"data-testid": "room-report-title"});
  const print = h("button", {type: "button", class: "ae-chip", on: {click: () => window.print()}});
  const close = h("button", {type: "button", class: "ae-chip", "data-testid": "room-report-close", on: {click: () => hide()}});
  const body = h("div", {class: "ae-report-questions"});
  const view = h("section", {class: "ae-card ae-room-report", "data-testid": "room-report-view", hidden: true},
    h("div", {class: "ae-card-head"}, title, h("span", {class: "ae-inline ae-no-print"}, print, close)), body);
  const rootOf = () => view.closest(".ae-root") || view;
  function hide() {
    view.hidden = true;
    body.replaceChildren();
    rootOf().classList.remove("ae-report-open");
  }

  function download(message) {
    const url = URL.createObjectURL(new Blob([message.csv], {type: "text/csv;charset=utf-8"}));
    const link = h("a", {href: url, download: `attention-room-${message.code}.csv`});
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // The report laid out to print: a question a block, its histogram, the right answer marked.
  function show(message, t) {
    title.textContent = t("room_report_title", {code: message.code});
    print.textContent = t("handout_print");
    close.textContent = t("handout_close");
    const blocks = message.records.map((record) => {
      const kind = {...constants.questions.kinds[record.kind], ...KINDS[record.kind]};
      const query = record.tokens[record.view.query] || "?";
      const labels = kind.labels(record, t, kind.outcomes);
      const most = Math.max(1, ...record.counts);
      const right = kind.typed ? record.counts[0] + record.counts[1] : record.counts[record.truth];
      const rows = labels.map((label, i) => h("li", {class: "ae-report-row", "data-choice": String(i), "data-count": String(record.counts[i]),
        "data-truth": String(kind.typed ? i < 2 : i === record.truth)},
        // a choice's label says which was right; a typed answer's first two outcomes say so themselves
        h("span", {class: "ae-report-label", text: label + (!kind.typed && i === record.truth ? ` (${t("room_report_truth")})` : "")}),
        h("span", {class: "ae-report-bar", style: `width:${(100 * record.counts[i] / most).toFixed(1)}%`}),
        h("span", {class: "ae-num", text: String(record.counts[i])})));
      return h("article", {class: "ae-report-question", "data-testid": "room-report-question", "data-number": String(record.number)},
        h("h3", {text: `${record.number}. ${kind.question(record, t, {query, head: Math.max(0, record.view.head_view ?? 0) + 1})}`}),
        h("p", {class: "ae-hint", text: t("room_report_line", {answers: record.answered, students: record.eligible, correct: right,
          seconds: record.median_seconds === null ? "—" : String(record.median_seconds)})}),
        h("ol", {class: "ae-report-histogram"}, ...rows));
    });
    body.replaceChildren(...(blocks.length ? blocks : [h("p", {class: "ae-hint", text: t("room_report_none")})]));
    view.hidden = false;
    rootOf().classList.add("ae-report-open");  // the print stylesheet prints it alone
    if (view.scrollIntoView) view.scrollIntoView({block: "start"});
  }

  return {
    buttons: [csvButton, printButton, assignButton, assignForm],
    view,
    // the assigned link made: shown to copy
    assigned(message) {
      const url = new URL(window.location.href);
      url.search = `?assign=${encodeURIComponent(message.id)}`;
      url.hash = "";
      linkOut.value = url.toString();
      linkLine.hidden = false;
      linkOut.select();
    },
    // the room closed: its code and secret kept, to ask for its report afterwards
    keep(lecturer) { if (lecturer) store("localStorage", CLOSED, {code: lecturer.code, secret: lecturer.secret}); },
    handle(message) {
      const t = room.current ? room.current.t : null;
      if (!t) return;
      if (wanted === "print") show(message, t); else download(message);
      wanted = null;
    },
    draw(t) {
      const kept = target();
      csvButton.hidden = printButton.hidden = assignButton.hidden = !room.served || !kept;
      if (assignButton.hidden) assignForm.hidden = true;
      csvButton.textContent = t("room_report");
      printButton.textContent = t("room_report_print");
      assignButton.textContent = t("room_assign");
      deadlineLabel.textContent = t("assign_deadline");
      nameLabel.textContent = t("assign_name");
      create.textContent = t("assign_create");
      linkLabel.textContent = t("assign_link");
      const lesson = lessonShown();
      fromLine.hidden = !lesson;
      fromLabel.textContent = t("assign_from");
      const options = [["room", t("assign_from_room")], ...(lesson ? [["lesson", t("assign_from_lesson", {name: lesson.name})]] : [])];
      const said = options.map((option) => option.join("=")).join("|");
      if (from.dataset.said !== said) {  // drawn again when the lesson or the language changes
        const chosen = from.value;
        from.replaceChildren(...options.map(([value, text]) => h("option", {value, text})));
        from.value = options.some(([value]) => value === chosen) ? chosen : "room";
        from.dataset.said = said;
      }
    },
  };
}
