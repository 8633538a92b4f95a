// A lesson Python refused, in the page's words (lesson_problem.js): only a served page, where
// Python checks lessons, says these (an exported file carries none of their words).

// A lesson Python refused (app/lessons.py LessonError.page_values), in the page's words: where
// (the stop and line), and what (err_lesson_<reason>; a question the view cannot ask, in the room's
// words err_room_<room>), each a {key, values} the notice translates in the language on show.
export function lessonProblem({reason, stop, line, room, problem, ...values}) {
  const where = stop ? {key: "lesson_where_stop", values: {stop, line}} : line ? {key: "lesson_where_line", values: {line}} : "";
  if (!reason) return {where, problem: problem || ""};  // a server that says only its check's words
  return {where, problem: room ? {key: `err_room_${room}`, values} : {key: `err_lesson_${reason}`, values}};
}

// A problem Python found, as one line of text in the language `t` speaks: where, then what.
export function problemWords(t, values) {
  const {where, problem} = lessonProblem(values || {});
  const said = (part) => (part && typeof part === "object" ? t(part.key, part.values) : part || "");
  return `${said(where)}${said(problem)}`;
}
