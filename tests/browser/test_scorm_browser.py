"""The SCORM 1.2 package (app/scorm.py, static/explorer/scorm.js) hosted by a real SCORM 1.2 runtime,
scorm-again (tests/scorm, npm), the way an LMS hosts it: a page with window.API and the package's
page in a frame, over HTTP. The exact values the LMS records after an honest student, a slipped
one, and a relaunch in the middle (the LMS's suspend_data is the record: the browser's own storage
is emptied first)."""
from __future__ import annotations

import functools
import http.server
import json
import threading
import zipfile

import numpy as np
import pytest
from playwright.sync_api import expect

from app.lesson_check import page_lesson
from app.lessons import read_lesson
from support import ROOT, free_port, run_export

pytestmark = pytest.mark.browser
RUNTIME = ROOT / "tests" / "scorm" / "node_modules" / "scorm-again" / "dist" / "scorm12.js"
#: the LMS: scorm-again's API on window, every call to it recorded, the package's page in a frame;
#: relaunch() is the LMS's next launch: a new API holding what the last one was told
HOST = """<!DOCTYPE html><html><head><meta charset="utf-8"><script src="scorm12.js"></script></head><body>
<iframe id="sco" style="width:1200px;height:900px"></iframe>
<script>
window.calls = []; window.kept = {};
function launch() {
  window.API = new Scorm12API({logLevel: 5, autocommit: false});
  for (const name of ["LMSInitialize", "LMSFinish", "LMSCommit"]) window.API.on(name, () => calls.push([name]));
  window.API.on("LMSSetValue.cmi.*", (element, value) => { calls.push(["LMSSetValue", element, value]); kept[element] = value; });
  // what an LMS keeps between launches: the record the SCO may read back (not the write-only time and exit)
  const record = Object.fromEntries(Object.entries(kept).filter(([element]) => !/session_time|exit/.test(element)));
  if (Object.keys(record).length) window.API.loadFromFlattenedJSON({...record, "cmi.core.entry": "resume"});
  document.getElementById("sco").src = "index.html";
}
window.relaunch = () => { document.getElementById("sco").src = "about:blank"; setTimeout(launch, 200); };
launch();
</script></body></html>"""


def _hosted(folder, *flags):
    """The package export --scorm `flags` writes, unpacked beside the LMS's page, served over HTTP (a
    file:// frame may not reach its parent's API): yields the LMS's URL."""
    package = folder / "package.zip"
    printed = run_export(package, "--scorm", *flags)
    assert "SCORM 1.2 package" in printed
    with zipfile.ZipFile(package) as opened:
        assert sorted(opened.namelist()) == ["imsmanifest.xml", "index.html"]
        opened.extractall(folder)
    (folder / "scorm12.js").write_bytes(RUNTIME.read_bytes())
    (folder / "lms.html").write_text(HOST, encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/lms.html"
    server.shutdown()


@pytest.fixture(scope="module")
def lms(tmp_path_factory):
    """The LMS hosting the package of hand-calculation, mastery 80 %."""
    yield from _hosted(tmp_path_factory.mktemp("lms"), "--lesson", "hand-calculation", "--mastery", "80")


@pytest.fixture(scope="module")
def practice_lms(tmp_path_factory):
    """The LMS hosting a package of practice problems 1 and 2 alone, mastery 75 %."""
    yield from _hosted(tmp_path_factory.mktemp("practice-lms"), "--practice", "2", "--mastery", "75")


QUESTIONS = [(i + 1, stop["question"]) for i, stop in enumerate(page_lesson(read_lesson("hand-calculation"))["stops"])
             if stop.get("question")]


def _answer(frame, stop: int, question: dict, right: bool) -> None:
    """Go to `stop` in the package's page and predict, right or with a slip (another choice; an
    output without ÷√d, a slip the checker names)."""
    lesson = frame.locator("[data-testid=lesson]")
    while int(lesson.get_attribute("data-stop") or 0) < stop:
        frame.locator("[data-testid=lesson-next]").click()
    expect(lesson).to_have_attribute("data-stop", str(stop))
    if question["kind"] == "output":
        from attention_core import PRESETS, attention
        view = question["view"]
        preset = PRESETS[view["source"]["name"]]
        out = attention(preset.q, preset.k, preset.v, heads=view["heads"], scale=view["scale"] == right,
                        causal=view["causal"]).output[max(0, view["head_view"])][view["query"]]
        frame.locator("[data-testid=lesson-predict-input]").fill(", ".join(f"{x:.3f}" for x in out))
    else:
        choice = question["truth"] if right else (question["truth"] + 1) % question["choices"]
        frame.locator(f"[data-testid=lesson-predict-choice-{choice}]").click()
    frame.locator("[data-testid=lesson-predict-submit]").click()
    expect(frame.locator("[data-testid=lesson-verdict]")).to_have_attribute(
        "data-status", "correct" if right else "wrong")


def _lms_values(page) -> dict:
    return page.evaluate("""() => ({raw: API.cmi.core.score.raw, min: API.cmi.core.score.min,
        max: API.cmi.core.score.max, status: API.cmi.core.lesson_status, suspend: API.cmi.suspend_data})""")


def _interactions(page) -> list[dict]:
    """The interaction rows the LMS was told (cmi.interactions.n.*), in order."""
    kept = page.evaluate("kept")
    rows: dict[int, dict] = {}
    for element, value in kept.items():
        parts = element.split(".")
        if parts[:2] == ["cmi", "interactions"] and parts[2].isdigit():
            rows.setdefault(int(parts[2]), {})[parts[3]] = value
    return [rows[n] for n in sorted(rows)]


def _launched(context, lms):
    """The LMS's page with the package launched in its frame: (page, the frame)."""
    page = context.new_page()
    page.goto(lms)
    frame = page.frame_locator("#sco")
    expect(frame.locator("[data-testid=lesson]")).to_have_attribute("data-stops", "20", timeout=30_000)
    return page, frame


def test_an_honest_student_passes_and_the_lms_records_every_call_in_order(browser, lms):
    context = browser.new_context()
    try:
        page, frame = _launched(context, lms)
        assert _lms_values(page)["status"] == "incomplete"
        for stop, question in QUESTIONS:
            _answer(frame, stop, question, right=True)
        values = _lms_values(page)
        assert (values["raw"], values["min"], values["max"], values["status"]) == ("100", "0", "100", "passed")
        kept = json.loads(values["suspend"])
        assert kept["lesson"] == "hand-calculation" and len(kept["progress"]["answers"]) == 6
        page.evaluate("document.getElementById('sco').src = 'about:blank'")  # the student leaves: LMSFinish
        page.wait_for_function("calls.some((call) => call[0] === 'LMSFinish')")
        calls = page.evaluate("calls")
        names = [call[0] if call[0] != "LMSSetValue" else f"{call[1]}={call[2] if call[1] != 'cmi.suspend_data' else '…'}"
                 for call in calls]
        print("the LMS's calls for one honest student:", " → ".join(names))
        assert names[0] == "LMSInitialize" and names[1] == "cmi.core.lesson_status=incomplete" and names[2] == "LMSCommit"
        assert names[-1] == "LMSFinish" and names[-2] == "LMSCommit"
        assert any(name.startswith("cmi.core.session_time=") for name in names[-4:])
        assert "cmi.core.exit=" in names[-3:]  # passed: nothing to resume
        assert names.count("cmi.core.lesson_status=passed") >= 1
        told = _interactions(page)  # each prediction once, as a row of the LMS's report
        assert [(row["id"], row["result"]) for row in told] == [(f"stop-{stop}", "correct") for stop, _ in QUESTIONS]
        assert {row["type"] for row in told} == {"fill-in"}
        # a choice is said as the token (or the outcome) chosen, not as its number
        what_if = ["top_changes", "sharper", "flatter", "same"]
        assert [row["student_response"] for row, (_, q) in zip(told, QUESTIONS) if q["kind"] != "output"] == \
            [q["tokens"][q["truth"]] if q["kind"] == "top_key" else what_if[q["truth"]] for _, q in QUESTIONS if q["kind"] != "output"]
    finally:
        context.close()


def test_a_slipped_student_fails_and_a_relaunch_in_the_middle_goes_on_from_the_lmss_record(browser, lms):
    context = browser.new_context()
    try:
        page, frame = _launched(context, lms)
        plan = [True, False, False, True, False, True]  # three right of six: 50 % < 80 %
        for (stop, question), right in zip(QUESTIONS[:3], plan[:3]):
            _answer(frame, stop, question, right)
        middle = _lms_values(page)
        # no score before every question is answered: an LMS's mastery rule would make it a verdict
        assert (middle["raw"], middle["status"]) == ("", "incomplete")
        # the student closes the course's page; the LMS launches the package again later, and this
        # browser kept nothing: the LMS's suspend_data is the record
        page.frame_locator("#sco").locator("body").evaluate("() => localStorage.clear()")
        page.evaluate("relaunch()")
        page.wait_for_function("calls.filter((call) => call[0] === 'LMSInitialize').length === 2")
        assert page.evaluate("calls.some((call) => call[0] === 'LMSSetValue' && call[1] === 'cmi.core.exit' && call[2] === 'suspend')")
        frame = page.frame_locator("#sco")
        expect(frame.locator("[data-testid=lesson]")).to_have_attribute("data-stop", str(QUESTIONS[2][0]), timeout=30_000)
        expect(frame.locator("[data-testid=lesson-verdict]")).to_have_attribute("data-status", "wrong")  # kept
        for (stop, question), right in zip(QUESTIONS[3:], plan[3:]):
            _answer(frame, stop, question, right)
        values = _lms_values(page)
        assert (values["raw"], values["min"], values["max"], values["status"]) == ("50", "0", "100", "failed")  # 3 of 6
        slips = {answer.get("slip") for answer in json.loads(values["suspend"])["progress"]["answers"].values()}
        assert "forgot_scale" in slips  # the typed output without ÷√d, named
    finally:
        context.close()


def test_skipping_or_asking_for_the_answer_first_scores_0_and_no_score_reaches_the_lms_before_the_end(browser, lms):
    """A graded walk is fair: moving past an open prediction is said, then taken on the second press
    and scored 0; "show the answer" before predicting scores 0; no stop past an open question and no
    handout before the end; the LMS hears no score until the last answer, then the score and the
    status its own mastery rule gives."""
    context = browser.new_context()
    try:
        page, frame = _launched(context, lms)
        lesson = frame.locator("[data-testid=lesson]")
        skipped, shown = QUESTIONS[0], QUESTIONS[1]
        while int(lesson.get_attribute("data-stop") or 0) < skipped[0]:
            frame.locator("[data-testid=lesson-next]").click()
        expect(lesson).to_have_attribute("data-held", "top_key")
        expect(frame.locator("[data-testid=lesson-handout]")).to_be_hidden()
        frame.locator("[data-testid=lesson-next]").click()
        expect(frame.locator("[data-testid=lesson-skip-warning]")).to_be_visible()
        expect(lesson).to_have_attribute("data-stop", str(skipped[0]))
        frame.locator("[data-testid=lesson-next]").click()
        expect(lesson).to_have_attribute("data-stop", str(skipped[0] + 1))
        while int(lesson.get_attribute("data-stop") or 0) < shown[0]:
            frame.locator("[data-testid=lesson-next]").click()
        expect(lesson).to_have_attribute("data-stop", str(shown[0]))
        frame.locator("[data-testid=lesson-predict-show]").click()
        expect(frame.locator("[data-testid=lesson-verdict]")).to_have_attribute("data-status", "shown")
        for stop, question in QUESTIONS[2:]:
            _answer(frame, stop, question, right=True)
        values = _lms_values(page)
        assert (values["raw"], values["status"]) == ("66.67", "failed")  # 4 of 6 < 80 %
        calls = page.evaluate("calls")
        raws = [i for i, call in enumerate(calls) if call[0] == "LMSSetValue" and call[1] == "cmi.core.score.raw"]
        last_answer = max(i for i, call in enumerate(calls) if call[0] == "LMSSetValue" and call[1].endswith(".id")
                          and call[2] == f"stop-{QUESTIONS[-1][0]}")
        assert len(raws) == 1 and raws[0] > last_answer  # told once, after the last answer
        told = {row["id"]: (row["student_response"], row["result"]) for row in _interactions(page)}
        assert told[f"stop-{skipped[0]}"] == ("(skipped)", "wrong") and told[f"stop-{shown[0]}"] == ("(shown)", "wrong")
        expect(frame.locator("[data-testid=lesson-handout]")).to_be_visible()  # finished: the handout is theirs
    finally:
        context.close()


def test_without_an_lms_the_package_is_the_plain_exported_file(page, lms, console_errors):
    page.goto(lms.replace("lms.html", "index.html"))
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stops", "20", timeout=30_000)
    expect(page.locator("[data-testid=lesson-predict]")).to_be_hidden()  # stop 1: no question yet
    page.locator("[data-testid=lesson-next]").click()
    expect(page.locator("[data-testid=lesson]")).to_have_attribute("data-stop", "2")
    assert console_errors == []


# Practice problems graded row by row (the package of problems 1 and 2 alone, mastery 75 %).
from attention_core.practice import ROWS, check_row, practice_problem, practice_rows  # noqa: E402


def _typed(values, digits=3) -> str:
    return ", ".join(f"{x:.{digits}f}" for x in values)


def _check(frame, row: str, typed: str, status: str) -> None:
    frame.locator(f"[data-testid=practice-input-{row}]").fill(typed)
    frame.locator(f"[data-testid=practice-check-{row}]").click()
    expect(frame.locator(f"[data-testid=practice-result-{row}]")).to_have_attribute("data-status", status)


def _practice_launched(context, lms, number: int):
    page = context.new_page()
    page.goto(lms)
    frame = page.frame_locator("#sco")
    expect(frame.locator("[data-testid=practice-title]")).to_have_text(f"연습 문제 {number}", timeout=30_000)
    return page, frame


def _slipped_rows(problem) -> dict[str, str]:
    """A student who forgot ÷√d in the scaled row, then computed the weights and the output right
    from that row: the scores right, the scaled row a slip, the weights and the output carried."""
    rows = practice_rows(problem)
    scaled = _typed(dict(rows["scaled"].slips)["forgot_scale"])
    written = np.array([float(x) for x in scaled.split(", ")])
    weights = np.exp(written - written.max())
    weights = np.round(weights / weights.sum(), 3)
    return {"scores": _typed(rows["scores"].truth), "scaled": scaled, "weights": _typed(weights),
            "output": _typed(weights @ problem.v)}


def test_an_honest_student_solves_the_practice_problems_and_passes_with_a_row_a_point(browser, practice_lms):
    context = browser.new_context()
    try:
        page, frame = _practice_launched(context, practice_lms, 1)
        expect(frame.locator("[data-testid=practice-graded]")).to_be_visible()
        for number, digits in ((1, 3), (2, 2)):  # both rounding habits are honest
            rows = practice_rows(practice_problem(number))
            expect(frame.locator("[data-testid=practice-title]")).to_have_text(f"연습 문제 {number}")
            for row in ROWS:
                _check(frame, row, _typed(rows[row].truth, digits), "correct" if digits == 3 else check_row(
                    _typed(rows[row].truth, digits), practice_problem(number), row).status)
            if number == 1:
                assert _lms_values(page)["status"] == "incomplete"
                frame.locator("[data-testid=practice-next]").click()
        values = _lms_values(page)
        assert (values["raw"], values["min"], values["max"], values["status"]) == ("100", "0", "100", "passed")
        told = _interactions(page)
        assert [row["id"] for row in told] == [f"practice-{n}-{row}" for n in (1, 2) for row in ROWS]
        assert {row["result"] for row in told} == {"correct"} and {row["type"] for row in told} == {"fill-in"}
    finally:
        context.close()


def test_a_slipped_row_costs_its_point_and_the_rows_carried_from_it_keep_their_method_marks(browser, practice_lms):
    """Problem 1: forgot ÷√d in the scaled row, the weights and the output computed right from it
    (3 of 4: the first checked answer counts, a later fix does not); a relaunch with the browser's
    storage emptied goes on from the LMS's record; problem 2: one row, then the answers shown (1 of
    4). 4 of 8 points: 50 %, failed against 75 %."""
    context = browser.new_context()
    try:
        page, frame = _practice_launched(context, practice_lms, 1)
        problem = practice_problem(1)
        slipped = _slipped_rows(problem)
        expected = check_row(slipped["weights"], problem, "weights", slipped["scaled"])
        assert expected.status == "carried"  # the core's verdict: the case is the one named
        for row, status in zip(ROWS, ("correct", "wrong", "carried", "carried")):
            _check(frame, row, slipped[row], status)
        expect(frame.locator("[data-testid=practice-result-scaled]")).to_have_attribute("data-hint", "forgot_scale")
        _check(frame, "scaled", _typed(practice_rows(problem)["scaled"].truth), "correct")  # fixed: not graded again
        middle = _lms_values(page)
        assert (middle["raw"], middle["status"]) == ("", "incomplete")  # 3 of 8 so far: no score before the end
        told = _interactions(page)
        assert [(row["id"], row["result"], row["student_response"]) for row in told] == [
            (f"practice-1-{row}", result, slipped[row]) for row, result in
            zip(ROWS, ("correct", "wrong", "correct", "correct"))]

        page.frame_locator("#sco").locator("body").evaluate("() => localStorage.clear()")
        page.evaluate("relaunch()")
        page.wait_for_function("calls.filter((call) => call[0] === 'LMSInitialize').length === 2")
        frame = page.frame_locator("#sco")
        expect(frame.locator("[data-testid=practice-title]")).to_have_text("연습 문제 1", timeout=30_000)
        expect(frame.locator("[data-testid=practice-input-scaled]")).to_have_value(slipped["scaled"])  # the first answer, kept
        expect(frame.locator("[data-testid=practice-result-output]")).to_have_attribute("data-status", "carried")
        assert _lms_values(page)["raw"] == ""  # still no score: not every row was tried
        frame.locator("[data-testid=practice-next]").click()
        expect(frame.locator("[data-testid=practice-title]")).to_have_text("연습 문제 2")
        _check(frame, "scores", _typed(practice_rows(practice_problem(2))["scores"].truth), "correct")
        assert _lms_values(page)["status"] == "incomplete"
        frame.locator("[data-testid=practice-reveal]").click()
        values = _lms_values(page)
        assert (values["raw"], values["min"], values["max"], values["status"]) == ("50", "0", "100", "failed")
        assert len(_interactions(page)) == 5  # nothing told twice across the relaunch
    finally:
        context.close()
