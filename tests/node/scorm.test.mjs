// The SCORM 1.2 SCO's pure parts (static/explorer/scorm.js): the API found as ADL's discovery finds
// it, the session time in SCORM 1.2's CMITimespan, and the score and status the LMS is told.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findApi, scoreOf, timespan } from "../../static/explorer/scorm.js";

const api = {LMSInitialize: () => "true"};

test("the API is found on the window, up its parents, or on its opener's", () => {
  const top = {API: api};
  top.parent = top;
  const middle = {parent: top};
  const frame = {parent: middle};
  assert.equal(findApi(frame), api);
  const alone = {parent: null, opener: {API: api, parent: null}};
  assert.equal(findApi(alone), api);
  const none = {};
  none.parent = none;
  assert.equal(findApi(none), null);
  const blocked = {get parent() { throw new Error("cross-origin"); }, get API() { throw new Error("cross-origin"); }};
  assert.equal(findApi(blocked), null);
});

test("the session time is SCORM 1.2's HHHH:MM:SS.SS", () => {
  assert.equal(timespan(0), "0000:00:00.00");
  assert.equal(timespan(2.734), "0000:00:02.73");
  assert.equal(timespan(3725.5), "0001:02:05.50");
  assert.match(timespan(1e9), /^9999:\d\d:\d\d\.\d\d$/);
});

test("the score counts right answers of those asked; the status waits for every answer, then passes or fails", () => {
  assert.deepEqual(scoreOf({asked: 6, answered: 3, right: 3}, 80), {raw: 3, min: 0, max: 6, status: "incomplete"});
  assert.deepEqual(scoreOf({asked: 6, answered: 6, right: 5}, 80), {raw: 5, min: 0, max: 6, status: "passed"});  // 83 %
  assert.deepEqual(scoreOf({asked: 6, answered: 6, right: 4}, 80), {raw: 4, min: 0, max: 6, status: "failed"});  // 67 %
  assert.equal(scoreOf({asked: 6, answered: 6, right: 0}, null).status, "completed");
});
