// A room's question card (app/questions.py): the question, a student's choices or typed numbers,
// and once revealed the counts, the truth and the student's own verdict. The room (room.js) owns
// the connection and the question's state; this card only draws it and hands answers back. What
// differs between kinds is in KINDS, one entry a kind; what Python says of a kind (typed, its
// outcomes, its ask buttons) comes with the constants (constants.questions.kinds).

import { parseAnswer, verdictText } from "./checker.js";
import { h } from "./dom.js";

// An example of `length` numbers, for the question's words and the input's placeholder, made of
// `example` (the typed kind's, app/questions.py EXAMPLE_NUMBERS: never an answer, right or a named
// slip, of any book sentence's view, so the example gives nothing away).
export function exampleNumbers(length, example) {
  const count = Math.max(1, length || 2);
  return Array.from({length: count}, (_, i) => example[i % example.length]).join(", ");
}

// What is wrong with typed numbers before they go: the checker's words, or that the count is not
// the question's (null when they can be sent).
export function numbersProblem(text, length, rules) {
  const parsed = parseAnswer(text, rules);
  if (parsed.error) return parsed.error;
  if (length && parsed.numbers.length !== length) return ["err_room_wrong_length", {expected: length, given: parsed.numbers.length}];
  return null;
}

const numbersOf = (vector) => "(" + vector.map((x) => x.toFixed(3)).join(", ") + ")";

// How the card draws each kind (app/questions.py QUESTIONS), merged with the kind's constants
// (outcomes, typed, example): the choices' or outcomes' words (`labels`, the histogram's rows), the
// question (app/questions.py question_words says it in the same keys, for the report's CSV), what the
// reveal adds (`detail`), and the words of a chosen answer's verdict (`verdict`; a typed answer's
// is the checker's). `at`: {query, head}, the question's query token and head (from 1).
export const KINDS = {
  top_key: {
    labels: (poll) => poll.tokens,
    question: (poll, t, {query}) => t("poll_top_key", {query}),
    detail: () => "",
    verdict: (right, label, t) => (right ? t("poll_correct", {key: label}) : t("poll_wrong", {key: label})),
  },
  what_if: {
    labels: (poll, t, outcomes) => outcomes.map((name) => t(`poll_choice_${name}`)),
    question(poll, t, {query, head}) {
      if (poll.change === "heads") return t("poll_what_if_heads", {query, head, heads: poll.to, piece: poll.piece + 1});
      if (poll.change === "scale") return poll.to ? t("poll_what_if_scale_on", {query}) : t("poll_what_if_scale_off", {query});
      return poll.to ? t("poll_what_if_causal_on", {query}) : t("poll_what_if_causal_off", {query});
    },
    detail(poll, t) {
      const tokens = poll.tokens, d = poll.detail;
      const moved = {key: tokens[d.top_before], before: d.before.toFixed(3), after: d.after.toFixed(3),
        after_key: tokens[d.top_after], after_top: d.after_top.toFixed(3), heads: poll.to, piece: poll.piece + 1};
      return poll.change === "heads" ? t("poll_what_if_heads_detail", moved) : t("poll_what_if_detail", moved);
    },
    verdict: (right, label, t) => (right ? t("poll_correct_choice", {choice: label}) : t("poll_wrong_choice", {choice: label})),
  },
  output: {
    labels: (poll, t, outcomes) => outcomes.map((name) => t(`poll_outcome_${name}`)),
    question(poll, t, {query, head}) {
      return t("poll_output", {query, head, count: poll.length || 2, example: exampleNumbers(poll.length, this.example)});
    },
    detail: (poll, t) => t("poll_exact", {exact: numbersOf(poll.detail.exact)}),
  },
};

export function createPollCard(ctx, {answer}) {
  const question = h("p", {class: "ae-poll-question", "data-testid": "poll-question"});
  const choices = h("div", {class: "ae-poll-choices", role: "group"});
  const numbersLabel = h("label", {for: "ae-poll-numbers"});
  const numbers = h("input", {id: "ae-poll-numbers", type: "text", inputmode: "decimal", autocomplete: "off",
    class: "ae-input", "data-testid": "poll-numbers", "aria-describedby": "ae-poll-numbers-error",
    on: {keydown: (event) => { if (event.key === "Enter") submitNumbers(); }, input: () => { numbersError.hidden = true; }}});
  const submit = h("button", {type: "button", class: "ae-chip", "data-testid": "poll-submit", on: {click: () => submitNumbers()}});
  const numbersError = h("p", {id: "ae-poll-numbers-error", class: "ae-effect ae-warn", "data-testid": "poll-numbers-error",
    role: "status", hidden: true});
  const typedLine = h("p", {class: "ae-hint", "data-testid": "poll-typed", hidden: true});
  const typing = h("div", {class: "ae-poll-typing", hidden: true}, numbersLabel, numbers, submit, numbersError, typedLine);
  const paused = h("p", {class: "ae-hint", "data-testid": "poll-paused", hidden: true});
  const result = h("p", {class: "ae-effect", "data-testid": "poll-result", hidden: true});
  const detail = h("p", {class: "ae-hint", "data-testid": "poll-detail", hidden: true});
  const histogram = h("ol", {class: "ae-poll-histogram", "data-testid": "poll-histogram", hidden: true});
  const el = h("section", {class: "ae-card ae-poll", "data-testid": "poll", hidden: true}, question, paused, choices, typing,
    result, detail, histogram);
  let shown = null;  // what draw was last given

  function sayNumbersProblem(key, values) {
    const t = shown && shown.snap.t;
    if (!t) return;
    numbersError.textContent = t(key, values);
    numbersError.hidden = false;
  }

  function submitNumbers() {
    if (!shown || !shown.open || shown.lecturer) return;
    const problem = numbersProblem(numbers.value, shown.poll.length, ctx.constants.checker);
    if (problem) { sayNumbersProblem(...problem); return; }  // said here: nothing goes
    answer({text: numbers.value});
  }

  const kindOf = (poll) => ({...ctx.constants.questions.kinds[poll.kind], ...KINDS[poll.kind]});

  function drawHistogram(poll, labels, choosing) {
    const {outcomes} = kindOf(poll);
    // an output's rows: the outcomes someone had, and always the right one
    const rows = poll.histogram.map((n, j) => j).filter((j) => choosing || poll.histogram[j] > 0 || j === poll.truth);
    const most = Math.max(1, ...poll.histogram);
    histogram.replaceChildren(...rows.map((j) => {
      const n = poll.histogram[j], right = j === poll.truth || (!choosing && outcomes[j] === "rounded");
      return h("li", {class: right ? "ae-poll-truth" : "", "data-choice": choosing ? j : outcomes[j], "data-count": n,
        "data-truth": String(right)},
      h("span", {class: "ae-poll-label", text: labels[j]}),
      h("span", {class: "ae-poll-bar", style: `width:${(100 * n / most).toFixed(1)}%`}),
      h("span", {class: "ae-poll-count", text: right ? `${n} ✓` : String(n)}));
    }));
  }

  function drawVerdict(poll, mine, labels, choosing, t) {
    if (choosing) {
      const right = mine === poll.truth;
      result.dataset.status = right ? "correct" : "wrong";
      result.textContent = kindOf(poll).verdict(right, labels[poll.truth], t);
    } else {  // the checker's verdict on the student's own numbers (Python's, as the page's checker words it)
      result.dataset.status = mine.status;
      result.textContent = verdictText(t, mine, "hint_");
    }
  }

  // Drawn again only when the question, the answer, the pause, the sentence or the language
  // changes, not on every repaint of the page (a click on a token).
  let drawnKey = "";
  function draw(snap, {poll, mine, lecturer, away}) {
    const t = snap && snap.t;
    if (!t) return;
    const key = [snap.lang, snap.cube ? snap.cube.serial : "", JSON.stringify(poll), JSON.stringify(mine), !!lecturer, !!away].join("|");
    if (key === drawnKey) return;
    drawnKey = key;
    const open = !!poll && !poll.revealed;
    shown = {snap, poll, open: open && !away, lecturer};
    el.hidden = !poll;
    if (!poll) { numbers.value = ""; numbersError.hidden = true; return; }
    numbersLabel.textContent = t("poll_numbers");
    submit.textContent = t("poll_submit");
    const kind = kindOf(poll), labels = kind.labels(poll, t, kind.outcomes), choosing = !kind.typed;
    const at = {query: poll.tokens[poll.view.query] || "?", head: Math.max(0, poll.view.head_view) + 1};
    question.textContent = kind.question(poll, t, at);
    paused.hidden = !(open && away && !lecturer);
    paused.textContent = t("poll_paused");
    choices.replaceChildren(...(choosing ? labels : []).map((label, j) => h("button", {type: "button", class: "ae-chip",
      "data-testid": `poll-choice-${j}`, "aria-pressed": String(mine === j), disabled: !shown.open || !!lecturer, text: label,
      on: {click: () => answer({choice: j})}})));
    choices.hidden = !!lecturer || !choosing;  // the lecturer asks; the projector shows the counts once revealed
    typing.hidden = !!lecturer || choosing;
    numbers.disabled = submit.disabled = !shown.open;
    numbers.placeholder = choosing ? "" : exampleNumbers(poll.length, kindOf(poll).example);
    const typed = mine && typeof mine === "object" ? mine.text : null;
    if (typed !== null && document.activeElement !== numbers && numbers.value === "") numbers.value = typed;  // a reload
    typedLine.hidden = typed === null;
    if (typed !== null) typedLine.textContent = t("poll_submitted", {text: typed});
    result.hidden = !poll.revealed || !!lecturer || mine === null || mine === undefined;
    // an assigned link's answer, revealed to its student alone, has no class's counts to draw
    const counted = Array.isArray(poll.histogram) && poll.histogram.length > 0;
    detail.hidden = !poll.revealed;
    histogram.hidden = !poll.revealed || !counted;
    if (!poll.revealed) return;
    if (counted) drawHistogram(poll, labels, choosing);
    detail.textContent = kind.detail(poll, t);
    detail.hidden = !detail.textContent;
    if (!lecturer && mine !== null && mine !== undefined) drawVerdict(poll, mine, labels, choosing, t);
  }

  return {
    el,
    draw,
    // a new question: its typed numbers start empty
    clear() { numbers.value = ""; numbersError.hidden = true; },
    // a refusal of the typed numbers by the server, said beside them
    refuse(key, values) { sayNumbersProblem(key, values); },
  };
}
