// lesson.js, lesson_author.js, lesson_predict.js: the pure parts of a lesson on the page.
import { test } from "node:test";
import assert from "node:assert/strict";
import { stopShown } from "../../static/explorer/lesson.js";
import { lessonText } from "../../static/explorer/lesson_author.js";
import { summaryOf } from "../../static/explorer/lesson_predict.js";

const stop = (fields) => ({title: "t", title_en: "", view: "preset=cat-fish", card: "", ask: null, claims: [], note: "n",
  note_en: "", speaker: "", speaker_en: "", ...fields});

test("a lesson is written back in its file's format: fields, a note over lines, no blank line inside a field", () => {
  const text = lessonText({title: " 내  수업 ", title_en: "Mine", stops: [
    stop({title: "첫째", view: "preset=cat-fish&query=2", ask: ["what_if", "scale"], claims: ["top 생선을"],
      note: "한 줄\n\n둘째 줄", note_en: "Line"}),
    stop({title: "", ask: ["top_key", null], note: "끝"}),
  ]});
  assert.equal(text, "# 내 수업\ntitle_en: Mine\n\n## 첫째\nview: preset=cat-fish&query=2\nask: what_if scale\n"
    + "claim: top 생선을\nnote: 한 줄\n  둘째 줄\nnote_en: Line\n\n## —\nview: preset=cat-fish\nask: top_key\nnote: 끝\n");
});

test("the stop shown stays inside the lesson, and the summary counts answers, right ones and slips once", () => {
  const lesson = {stops: [stop({question: {}}), stop({}), stop({question: {}}), stop({question: {}})]};
  assert.deepEqual([stopShown(lesson, 0), stopShown(lesson, 3), stopShown(lesson, 9), stopShown(lesson, "2")], [1, 3, 4, 1]);
  const answers = {1: {status: "correct"}, 3: {status: "wrong", slip: "forgot_scale"}, 2: {status: "correct"}};
  assert.deepEqual(summaryOf(lesson, {answers}), {asked: 3, answered: 2, predicted: 2, right: 1, slips: ["forgot_scale"]});
});

test("a lesson's file goes into a link and comes back whole; a cut link is refused", async () => {
  const { carriesText, decodeLesson, encodeLesson } = await import("../../static/explorer/lesson_link.js");
  const text = "# 내 수업\n\n## 첫째\nview: preset=cat-fish&query=2\nnote: 가중치는 0.786이에요. <b>글</b>?&=~\n";
  const value = await encodeLesson(text);
  assert.ok(carriesText(value) && /^~[A-Za-z0-9_-]+$/.test(value) && !carriesText("hand-calculation"));
  assert.equal(await decodeLesson(value), text);
  await assert.rejects(decodeLesson(value.slice(0, value.length - 6)));
});

test("a false sentence Python found in a draft is said on the page as lesson check says it, in either language", async () => {
  const { readFileSync } = await import("node:fs");
  const { problemWords } = await import("../../static/explorer/lesson_problem.js");
  const { catalogTranslator } = await import("../../static/explorer/i18n.js");
  const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
  const drafts = read("./fixtures/lesson_problems.json");
  assert.ok(drafts.length >= 7);
  for (const lang of ["ko", "en"]) {
    const reported = [];
    const t = catalogTranslator(read(`../../attention_core/locales/${lang}.json`).ui, lang, (key) => reported.push(key));
    for (const {sentence, problems} of drafts) {
      for (const {values, words} of problems) assert.equal(problemWords(t, values), words[lang], sentence);
    }
    assert.deepEqual(reported, []);
  }
});
