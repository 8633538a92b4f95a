// The page as a SCORM 1.2 SCO (export --scorm, app/scorm.py): it finds the LMS's API (window.API, up
// the parent frames, then the opener's), initialises it, and reports the lesson walked alone as the
// LMS grades it: cmi.core.score.raw / min / max from the fair checker's verdicts (a rounded answer
// counts as right), cmi.core.lesson_status (incomplete, then completed, or passed / failed against
// the mastery score the lecturer chose), the progress in cmi.suspend_data (so the LMS's next launch
// goes on where the student was), cmi.core.session_time, then LMSCommit; LMSFinish when the page
// goes. Without an LMS it does nothing: the plain exported file.

import { keepProgress } from "./lesson_predict.js";

// ADL's discovery: the API on this window or on one of its parents (at most 7 up), else on the
// opener's.
export function findApi(start) {
  const up = (win) => {
    for (let hops = 0; win && hops <= 7; hops += 1) {
      try {
        if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
      } catch (error) { return null; }  // another origin's frame: no further
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  };
  return up(start) || (start.opener ? up(start.opener) : null);
}

// A duration as SCORM 1.2's CMITimespan: HHHH:MM:SS.SS.
export function timespan(seconds) {
  const whole = Math.max(0, seconds);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  return `${String(Math.min(h, 9999)).padStart(4, "0")}:${String(m).padStart(2, "0")}:${s.toFixed(2).padStart(5, "0")}`;
}

// What the LMS is told of a lesson walked alone (summary: lesson_predict.js summaryOf).
export function scoreOf(summary, mastery) {
  const done = summary.asked > 0 && summary.answered >= summary.asked;
  const percent = summary.asked ? (100 * summary.right) / summary.asked : 0;
  const status = !done ? "incomplete" : mastery === null || mastery === undefined ? "completed"
    : percent >= mastery ? "passed" : "failed";
  return {raw: summary.right, min: 0, max: summary.asked, status};
}

// SCORM 1.2 keeps at most 4,096 characters of suspend_data.
const SUSPEND_CHARS = 4096;

// settings: {mastery}; the page's window. Returns the SCO ({reported(lessonName, progress,
// summary)}), or null without an LMS.
export function startScorm(settings, win) {
  const api = findApi(win);
  if (!api) return null;
  const began = Date.now();
  if (String(api.LMSInitialize("")) !== "true") return null;
  // the LMS's record of an earlier launch comes first: the progress as it was left
  try {
    const kept = JSON.parse(api.LMSGetValue("cmi.suspend_data") || "null");
    if (kept && typeof kept.lesson === "string" && kept.progress) keepProgress(kept.lesson, kept.progress);
  } catch (error) { /* not ours: started afresh */ }
  const status = String(api.LMSGetValue("cmi.core.lesson_status") || "");
  if (status === "" || status === "not attempted") api.LMSSetValue("cmi.core.lesson_status", "incomplete");
  api.LMSCommit("");
  let last = "incomplete", scored = "";
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    api.LMSSetValue("cmi.core.session_time", timespan((Date.now() - began) / 1000));
    api.LMSSetValue("cmi.core.exit", last === "incomplete" ? "suspend" : "");
    api.LMSCommit("");
    api.LMSFinish("");
  };
  win.addEventListener("pagehide", finish);
  win.addEventListener("beforeunload", finish);
  return {
    reported(name, progress, summary) {
      if (finished) return;
      const data = JSON.stringify({lesson: name, progress});
      if (data.length <= SUSPEND_CHARS) api.LMSSetValue("cmi.suspend_data", data);
      const score = scoreOf(summary, settings.mastery), said = JSON.stringify(score);
      if (said !== scored) {  // the score and status told again only when they change
        api.LMSSetValue("cmi.core.score.raw", String(score.raw));
        api.LMSSetValue("cmi.core.score.min", String(score.min));
        api.LMSSetValue("cmi.core.score.max", String(score.max));
        api.LMSSetValue("cmi.core.lesson_status", score.status);
        scored = said;
      }
      last = score.status;
      api.LMSCommit("");
    },
    finish,
  };
}
