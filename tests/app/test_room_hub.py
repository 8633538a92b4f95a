"""A room through its hub (app/room_socket.py), on both stores (one process's memory, and Redis
shared by processes): who may drive it, the identities the server issues, answers counted one per
student as they come, the lecturer away and back, closing, typed codes, the lecturer's key, floods
and the messages a mischievous page sends."""
from __future__ import annotations

import asyncio
import csv
import io
import json
import re

import numpy as np
import pytest

from app.rooms import CODE_ALPHABET, CODE_LENGTH, RETURN_LENGTH, RoomError, typed_codes
from room_pages import VIEW, Pages, counted, new_store, run


@pytest.fixture(params=["memory", "redis"])
def store(request):
    """async (**limits) → an empty store of each kind."""
    url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    return lambda **limits: new_store(request.param, url, **limits)


def hub_on(rooms, **options):
    from app.room_socket import RoomHub

    return RoomHub(rooms, grace_seconds=options.pop("grace_seconds", 0.05), **options)


def test_only_the_secret_or_the_return_code_drives_a_room_and_a_forged_one_reaches_no_one(store):
    """A lecturer opens a room (a readable code, a 128-bit secret, a return code shown once); two
    students join by the code as typed; the view reaches both with its seq; a guessed secret changes
    nothing; the lecturer's other device takes the room back with the return code and gets a
    secret of its own; a reloaded lecturer's page takes the room up with its state."""
    async def body():
        pages = Pages(hub_on(await store()))
        opened = await pages.say("lecturer", type="open")
        code, secret = opened["code"], opened["secret"]
        assert re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code) and len(secret) >= 22
        assert re.fullmatch(f"[{CODE_ALPHABET}]{{{RETURN_LENGTH}}}", opened["return_code"])
        joined = await pages.say("a", type="join", code=code.lower())
        await pages.say("b", type="join", code=f" {code[:3]} {code[3:]} ")
        assert joined["type"] == "joined" and joined["view"] is None and joined["poll"] is None and not joined["away"]
        assert counted(pages.sent["lecturer"]) == 2
        await pages.say("lecturer", type="drive", code=code, secret=secret, view=VIEW)
        assert pages.sent["a"][-1] == pages.sent["b"][-1] == {"type": "view", "view": VIEW, "seq": 1}
        for wrong in ("guessed", secret[:-1] + ("A" if secret[-1] != "A" else "B"), None, 12, code):
            assert (await pages.say("b", type="drive", code=code, secret=wrong, view={**VIEW, "query": 0}))["code"] == "not_lecturer"
        assert pages.sent["a"][-1]["view"] == VIEW  # nothing reached a
        assert (await pages.say("phone", type="lecture", code=code, return_code="ABCDEFGHJK"))["code"] == "not_lecturer"
        back = await pages.say("phone", type="lecture", code=code.lower(), return_code=opened["return_code"].lower())
        assert back["type"] == "lecturing" and back["view"] == VIEW and back["count"] == 2 and back["secret"] != secret
        await pages.say("phone", type="drive", code=code, secret=back["secret"], view={**VIEW, "query": 1})
        assert pages.sent["a"][-1]["view"]["query"] == 1
        again = await pages.say("again", type="lecture", code=code, secret=secret)  # the first device's secret still works
        assert again["type"] == "lecturing" and again["seq"] == 2 and "secret" not in again
    run(body())


def test_the_server_issues_each_student_s_identity_and_a_forged_one_is_a_new_student(store):
    """A student's identity is the server's: signed for the room, kept by the page, brought back on a
    reload (the answer with it); an id of the page's own making, or another room's identity, is not
    taken (a new one is issued), so knowing a student's id does not change their answer."""
    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        other, _ = await pages.open_room("other lecturer")
        joined = await pages.say("a", type="join", code=code, student="ab" * 8)
        token = joined["student"]
        assert re.fullmatch(r"[0-9a-f]{16}\.[0-9a-f]{32}", token) and not token.startswith("ab" * 8)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1})
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        await pages.say("a", type="answer", code=code, number=1, choice=3)
        again = await pages.say("a again", type="join", code=code, student=token)
        assert again["student"] == token and again["answer"] == 3
        student_id = token.split(".")[0]
        for forged in (student_id, student_id + "." + "0" * 32, token.upper()):
            other_page = await pages.say(f"forger {forged[-3:]}", type="join", code=code, student=forged)
            assert other_page["student"] != token and other_page["answer"] is None
        elsewhere = await pages.say("elsewhere", type="join", code=other, student=token)
        assert elsewhere["student"] != token  # a token is for its own room
        assert counted(pages.sent["lecturer"]) == 4
    run(body())


def test_students_are_counted_once_however_many_pages_up_to_the_room_s_limit(store):
    async def body():
        pages = Pages(hub_on(await store(max_students=2)))
        code, _ = await pages.open_room()
        token = (await pages.say("a", type="join", code=code))["student"]
        await pages.say("a", type="join", code=code, student=token)  # the same page again
        await pages.say("a copy", type="join", code=code, student=token)  # a duplicated tab
        await pages.say("b", type="join", code=code)
        assert counted(pages.sent["lecturer"]) == 2
        assert (await pages.say("c", type="join", code=code))["code"] == "room_full"
        await pages.close("a")
        assert counted(pages.sent["lecturer"]) == 2  # a's copy keeps them in
        await pages.close("a copy")
        assert counted(pages.sent["lecturer"]) == 1
        assert (await pages.say("c", type="join", code=code))["type"] == "joined"
    run(body())


def test_a_question_counts_one_answer_per_student_as_answers_come_and_hides_its_truth(store):
    """Which key, on meet-friend's 만났다 (mask off and on): the question reaches every page without
    its truth; the lecturer sees answers / students; one answer per student, changeable (the
    counts move by one); a script's many tabs are many joins, never more answers than students;
    the reveal brings the counts and the core's truth; answering afterwards is refused."""
    from attention_core import PRESETS, attention

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        token = (await pages.say("a", type="join", code=code))["student"]
        await pages.say("b", type="join", code=code)
        preset = PRESETS["meet-friend"]
        for causal in (False, True):
            await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1, "causal": causal})
            asked = await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
            assert asked["type"] == "poll" and asked["eligible"] == 2
            assert "truth" not in pages.sent["a"][-1]["poll"] and "histogram" not in pages.sent["a"][-1]["poll"]
            number = asked["poll"]["number"]
            await pages.say("a", type="answer", code=code, number=number, choice=0)
            assert pages.sent["a"][-1] == {"type": "answered", "number": number, "answer": 0}
            await pages.say("a", type="answer", code=code, number=number, choice=3)  # changed: still one
            await pages.say("b", type="answer", code=code, number=number, choice=3)
            assert pages.sent["lecturer"][-1] == {"type": "answers", "number": number, "count": 2, "students": 2}
            for bad in (5, -1, True, "3", 1.0):
                assert (await pages.say("b", type="answer", code=code, number=number, choice=bad))["code"] == "bad_answer"
            assert (await pages.say("b", type="reveal", code=code, secret="guessed"))["code"] == "not_lecturer"
            assert (await pages.say("a again", type="join", code=code, student=token))["answer"] == 3
            revealed = await pages.say("lecturer", type="reveal", code=code, secret=secret)
            truth = int(attention(preset.q, preset.k, preset.v, heads=1, causal=causal).weights[0][4].argmax())
            assert revealed["poll"]["truth"] == truth and revealed["poll"]["histogram"] == [0, 0, 0, 2, 0]
            assert pages.sent["a"][-1]["answer"] == 3 and pages.sent["b"][-1]["answer"] == 3
            assert (await pages.say("a", type="answer", code=code, number=number, choice=1))["code"] == "no_poll"
            assert (await pages.say("lecturer", type="reveal", code=code, secret=secret))["code"] == "no_poll"
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 2, "head_view": -1})
        assert (await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key"))["code"] == "poll_one_head"
    run(body())


def test_ballot_stuffing_one_page_s_many_answers_count_once_and_answers_never_outnumber_students(store):
    """A script with 3 students' pages answering 57 times each, with made-up tokens and with forged
    identities, counts 3 answers of 3 students; a student cannot answer for another."""
    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        for name in ("s1", "s2", "s3"):
            await pages.say(name, type="join", code=code)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1})
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        for round_ in range(19):
            for name in ("s1", "s2", "s3"):
                pages.page(name).limit.tokens = 20  # a patient script stays under the rate limit
                await pages.say(name, type="answer", code=code, number=1, choice=4)
                await pages.say(name, type="join", code=code, student=f"{round_:016x}")  # a token of its own making
                await pages.say(name, type="answer", code=code, number=1, choice=4)
        last = pages.last("lecturer", "answers")
        assert (last["count"], last["students"], counted(pages.sent["lecturer"])) == (3, 3, 3)
        revealed = await pages.say("lecturer", type="reveal", code=code, secret=secret)
        assert revealed["poll"]["histogram"] == [0, 0, 0, 0, 3]
    run(body())


def test_an_output_question_counts_slips_by_name_and_refuses_a_vector_of_the_wrong_length(store):
    """Type the output of 어제 (query 1, √d on, the mask on, one head: 8 numbers): honest students
    with several rounding habits are counted right; those who forgot √d or the mask by those slips;
    4 numbers, or 9, are refused naming the count expected (before: counted, then 'no slip'); text
    that is not numbers is refused; the question says how many numbers it wants."""
    from app.constants import OUTCOMES
    from attention_core import PRESETS, attention
    from hand_work import typed

    preset = PRESETS["meet-friend"]
    view = {**VIEW, "heads": 1, "head_view": -1, "query": 1, "scale": True, "causal": True}

    def output(**switches):
        return attention(preset.q, preset.k, preset.v, heads=1, **{"scale": True, "causal": True, **switches}).output[0][1]

    typed_by = {"exact": typed(output()), "three": typed(np.round(output(), 3)), "two": typed(np.round(output(), 2)),
                "no_scale": typed(np.round(output(scale=False), 3)), "no_scale_2": typed(np.round(output(scale=False), 4)),
                "no_mask": typed(np.round(output(causal=False), 3))}

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        for name in typed_by:
            await pages.say(name, type="join", code=code)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view=view)
        asked = await pages.say("lecturer", type="ask", code=code, secret=secret, kind="output")
        assert asked["poll"]["length"] == len(output()) == 8
        assert (await pages.say("exact", type="answer", code=code, number=1, text="영점 삼")) == {
            "type": "error", "code": "bad_numbers", "values": {"problem": "not_number"}}
        for wrong in ("0.1, 0.2, 0.3, 0.4", typed(np.append(output(), 0.5))):
            refused = await pages.say("exact", type="answer", code=code, number=1, text=wrong)
            assert refused["code"] == "wrong_length" and refused["values"]["expected"] == "8"
        assert pages.last("lecturer", "answers") is None  # nothing was counted
        for name, text in typed_by.items():
            assert (await pages.say(name, type="answer", code=code, number=1, text=text)) == {
                "type": "answered", "number": 1, "answer": {"text": text}}  # no verdict yet
        revealed = await pages.say("lecturer", type="reveal", code=code, secret=secret)
        counts = dict(zip(OUTCOMES, revealed["poll"]["histogram"]))
        assert counts["correct"] + counts["rounded"] == 3 and counts["forgot_scale"] == 2 and counts["forgot_mask"] == 1
        np.testing.assert_allclose(revealed["poll"]["detail"]["exact"], np.round(output(), 3))
        mine = {name: pages.sent[name][-1]["answer"] for name in typed_by}
        assert mine["exact"]["status"] == "correct" and mine["no_mask"]["key"] == "hint_forgot_mask"
        assert "answer" not in pages.sent["lecturer"][-1]
    run(body())


def test_the_lecturer_s_closed_tab_tells_the_students_and_the_return_brings_the_question_back(store):
    """The lecturer's last page closes during a question: after the grace every student is told
    the lecturer is away (presence, seq), answers stay and the question stays unrevealed; a reload
    within the grace tells no one; the lecturer back tells everyone, the question still open."""
    async def body():
        import asyncio

        pages = Pages(hub_on(await store(), grace_seconds=0.2))
        code, secret = await pages.open_room()
        await pages.say("a", type="join", code=code)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1})
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        await pages.say("a", type="answer", code=code, number=1, choice=3)
        await pages.close("lecturer")
        await pages.say("reload", type="lecture", code=code, secret=secret)  # a reload: back within the grace
        await asyncio.sleep(0.4)
        await pages.settle()
        assert pages.last("a", "presence") is None
        await pages.close("reload")
        await asyncio.sleep(0.4)
        await pages.settle()
        away = pages.last("a", "presence")
        assert away["lecturer"] is False and away["seq"] > pages.last("a", "poll")["seq"]
        state = await pages.say("a", type="sync")
        assert state["away"] is True and state["answer"] == 3 and state["poll"]["revealed"] is False
        await pages.say("lecturer again", type="lecture", code=code, secret=secret)
        back = pages.last("lecturer again", "lecturing")
        assert back["poll"]["number"] == 1 and back["answered"] == 1 and back["away"] is False
        assert pages.last("a", "presence") == {"type": "presence", "lecturer": True, "seq": away["seq"] + 1}
    run(body())


def test_the_lecturer_closes_the_room_and_everyone_is_told_as_is_a_page_that_comes_later(store):
    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        await pages.say("a", type="join", code=code)
        assert (await pages.say("a", type="close", code=code, secret="guessed"))["code"] == "not_lecturer"
        await pages.say("lecturer", type="close", code=code, secret=secret)
        assert pages.last("a", "closed")["reason"] == "closed" and pages.last("lecturer", "closed")["reason"] == "closed"
        assert (await pages.say("late", type="join", code=code))["code"] == "closed"
        assert (await pages.say("lecturer", type="lecture", code=code, secret=secret))["code"] == "closed"
        assert (await pages.say("never", type="join", code="ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"))["code"] == "no_room"
    run(body())


def test_an_idle_room_and_a_room_without_its_lecturer_expire_and_their_pages_are_told(store):
    async def body():
        clock = Clock()
        kind = "redis" if "Redis" in type(await store()).__name__ else "memory"
        keep = 100 if kind == "memory" else 1  # a report's days, as seconds (Redis counts them itself)
        pages = Pages(hub_on(await store(clock=clock, idle_seconds=60, orphan_seconds=20, report_seconds=keep)))
        code, secret = await pages.open_room()
        orphan, orphan_secret = await pages.open_room("gone")
        await pages.say("a", type="join", code=code)
        await pages.say("b", type="join", code=orphan)
        await pages.close("gone")
        clock.now += 15
        await pages.hubs[0].sweep()
        await pages.settle()
        assert pages.last("b", "closed") is None
        clock.now += 10  # the orphan's lecturer away for 25 s > 20
        await pages.say("a", type="join", code=code)  # the lecturer's room hears from its class
        await pages.hubs[0].sweep()
        await pages.settle()
        assert pages.last("b", "closed")["reason"] == "expired" and pages.last("a", "closed") is None
        clock.now += 61
        await pages.hubs[0].sweep()
        await pages.settle()
        assert pages.last("a", "closed")["reason"] == "expired"
        assert (await pages.say("lecturer", type="drive", code=code, secret=secret, view=VIEW))["code"] == "closed"
        # an expired room's report is kept for its lecturer like a closed one's, then no more
        assert (await pages.say("lecturer", type="report", code=code, secret=secret))["records"] == []
        if kind == "memory":
            clock.now += keep + 1
            await pages.hubs[0].sweep()
        else:
            await asyncio.sleep(keep + 1.1)
        assert (await pages.say("lecturer", type="report", code=code, secret=secret))["code"] == "no_report"
    run(body())


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_full_store_evicts_the_idlest_room_without_a_lecturer_before_it_refuses(store):
    """A phone opening rooms and leaving them fills the store; a lecturer still opens one (the
    idlest lecturer-less room goes, its pages told); with every room's lecturer present, full."""
    async def body():
        clock = Clock()
        pages = Pages(hub_on(await store(clock=clock, max_rooms=3)))
        codes = []
        for n in range(3):
            codes.append((await pages.open_room(f"flood {n}"))[0])
            clock.now += 1
        await pages.say("student", type="join", code=codes[1])
        for n in range(3):
            await pages.close(f"flood {n}")
        pages.page("lecturer", address="10.9.9.9")
        code, _ = await pages.open_room("lecturer")
        assert code not in codes
        assert (await pages.say("student", type="sync"))["type"] == "joined"  # room 1 stayed; room 0 was the idlest
        assert (await pages.say("late", type="join", code=codes[0]))["code"] == "closed"
        await pages.open_room("second")
        await pages.open_room("third")  # evicts the last lecturer-less room
        assert (await pages.say("fourth", type="open"))["code"] == "full"
    run(body())


def test_one_address_opens_a_handful_of_rooms_and_a_lecturer_elsewhere_still_opens_one(store):
    async def body():
        pages = Pages(hub_on(await store()))
        refused = []
        for n in range(30):
            pages.page(f"phone {n}", address="10.6.6.6")
            refused.append((await pages.say(f"phone {n}", type="open"))["type"] == "error")
        assert refused.count(False) == 10 and all(refused[10:])
        pages.page("lecturer", address="10.1.1.1")
        await pages.open_room("lecturer")
    run(body())


def test_a_server_s_lecturer_key_is_asked_before_a_room_opens(store):
    async def body():
        pages = Pages(hub_on(await store(), lecturer_key="정답은-키"))
        assert (await pages.say("x", type="open"))["code"] == "need_key"
        assert (await pages.say("x", type="open", key="wrong"))["code"] == "bad_key"
        assert (await pages.say("x", type="open", key="정답은-키"))["type"] == "opened"
    run(body())


@pytest.mark.parametrize("raw, code", [
    ("not json", "bad_message"), ("[1]", "bad_message"), ('{"type": "shout"}', "bad_message"), ('{"type": 3}', "bad_message"),
    ('{"type": "join", "code": "ABC"}', "no_room"), ('{"type": "join", "code": 7}', "no_room"), ("x" * 9000, "bad_message"),
    ('{"type": "join", "code": ' + "[" * 4000 + "]" * 4000 + "}", "bad_message"),  # deeper than Python's parser goes
    ("[" * 3000 + "]" * 3000, "bad_message"), ('{"type": "sync"}', "no_room")])
def test_a_bad_message_is_answered_with_its_error_without_a_trace_and_the_hub_goes_on(raw, code, caplog):
    async def body():
        from app.room_socket import RoomHub

        pages = Pages(RoomHub())
        assert await pages.raw("page", raw) == {"type": "error", "code": code, "values": {}}
        await pages.open_room()
    run(body())
    assert "Traceback" not in caplog.text and not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]


def test_the_hub_limits_each_connection_s_rate_and_several_processes_without_redis_open_no_room():
    from app.room_socket import RoomHub
    from app.rooms import RATE_BURST

    async def body():
        pages = Pages(RoomHub())
        for _ in range(RATE_BURST + 3):
            await pages.say("page", type="join", code="ABCDEF")
        assert [m["code"] for m in pages.sent["page"]].count("slow_down") >= 3
        # a lecturer's page (its secret checked) goes at a lecturer's pace: a burst of views, a
        # question, the report, none refused
        code, secret = await pages.open_room()
        for query in range(RATE_BURST + 30):
            await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "query": query % 5})
        said = await pages.say("lecturer", type="report", code=code, secret=secret)
        assert said["type"] == "report" and "slow_down" not in [m.get("code") for m in pages.sent["lecturer"]]
        assert await Pages(RoomHub(needs_redis=True)).say("x", type="open") == {"type": "error", "code": "need_redis", "values": {}}
    run(body())


def test_a_typed_code_forgives_case_spaces_dashes_and_the_letters_the_alphabet_leaves_out():
    assert typed_codes(" abc-234 ") == ["ABC234"]
    assert typed_codes("ab c2 34") == ["ABC234"]
    assert typed_codes("0BC234") == ["DBC234", "QBC234"]
    assert set(typed_codes("A1C234")) == {"A7C234", "AJC234"}
    assert len(typed_codes("OOOOOO")) == 4  # at most MAX_READINGS guesses per typed code
    assert typed_codes("ABC23") == typed_codes(None) == typed_codes("가나다라마바") == []

    async def body():
        from app.room_socket import RoomHub
        from app.rooms import Rooms

        rooms = Rooms()
        pages = Pages(RoomHub(rooms))
        code, _ = await pages.open_room()
        # one letter misread (every misreading doubles the guesses, and a code is tried in at most
        # MAX_READINGS of them), or the whole code in lower case
        misread = (code.replace("D", "0", 1) if "D" in code else code.replace("J", "1", 1) if "J" in code
                   else code.lower())
        assert (await pages.say("a", type="join", code=misread))["code"] == code
    run(body())


def test_two_processes_answering_at_once_count_both_and_a_changed_answer_moves_one_count(redis_url):
    """Two hubs on one Redis (two processes): answers from both are counted once each, a changed
    answer moves one count from one choice to the other, and the counts read at the reveal are the
    ones kept as the answers came (no answer is read again)."""
    async def body():
        import asyncio

        from app.redis_rooms import RedisBus

        stores = [await new_store("redis", redis_url) for _ in range(2)]
        hubs = [hub_on(rooms, bus=RedisBus(rooms.redis)) for rooms in stores]
        pages = Pages(*hubs)
        for hub in hubs:
            hub.start()
        await asyncio.sleep(0.3)  # subscribed
        code, secret = await pages.open_room()
        students = [f"s{n}" for n in range(20)]
        for n, name in enumerate(students):
            pages.page(name, hub=n % 2)
            await pages.say(name, hub=n % 2, type="join", code=code)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1})
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        await asyncio.sleep(0.2)
        await asyncio.gather(*(hubs[n % 2].receive(pages.page(name), json.dumps(
            {"type": "answer", "code": code, "number": 1, "choice": n % 5})) for n, name in enumerate(students)))
        await pages.say("s0", type="answer", code=code, number=1, choice=4)  # 0 → 4
        await asyncio.sleep(0.3)
        await pages.settle()
        revealed = await pages.say("lecturer", type="reveal", code=code, secret=secret)
        assert revealed["poll"]["histogram"] == [3, 4, 4, 4, 5]
        assert max(m["count"] for m in pages.sent["lecturer"] if m["type"] == "answers") == 20
        for hub in hubs:
            hub.bus.close()
    run(body())


def test_the_report_counts_every_question_and_is_kept_for_the_lecturer_after_the_room_closes(store):
    """The report (app/report.py): one record a question asked, its counts as they stood, the slips
    by name, students and answers, the median time to a first answer; asked for by the lecturer's
    secret only, while the room is open and after it closed (kept with the room's data); a CSV
    Excel opens as Korean, with no cell a spreadsheet would take for a formula."""
    import csv
    import io

    from attention_core import PRESETS, attention
    from hand_work import typed

    preset = PRESETS["meet-friend"]

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        for name in ("a", "b", "c"):
            await pages.say(name, type="join", code=code)
        view = {**VIEW, "heads": 1, "head_view": -1, "query": 1, "scale": True, "causal": True}
        await pages.say("lecturer", type="drive", code=code, secret=secret, view=view)
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        truth = int(attention(preset.q, preset.k, preset.v, heads=1, causal=True).weights[0][1].argmax())
        await pages.say("a", type="answer", code=code, number=1, choice=truth)
        await pages.say("b", type="answer", code=code, number=1, choice=(truth + 1) % 5)
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="output")
        out = lambda **switches: attention(preset.q, preset.k, preset.v, heads=1, **{"scale": True, "causal": True, **switches}).output[0][1]  # noqa: E731
        await pages.say("a", type="answer", code=code, number=2, text=typed(np.round(out(), 3)))
        await pages.say("b", type="answer", code=code, number=2, text=typed(np.round(out(scale=False), 3)))
        await pages.say("c", type="answer", code=code, number=2, text=typed(np.round(out(scale=False), 3)))
        assert (await pages.say("a", type="report", code=code, secret="guessed"))["code"] == "not_lecturer"
        live = await pages.say("lecturer", type="report", code=code, secret=secret)
        assert [r["number"] for r in live["records"]] == [1, 2] and live["records"][1]["answered"] == 3
        await pages.say("lecturer", type="close", code=code, secret=secret)
        kept = await pages.say("lecturer", type="report", code=code, secret=secret, lang="en")
        assert kept["records"] == live["records"]
        first, second = kept["records"]
        assert (first["answered"], first["eligible"], first["counts"][truth]) == (2, 3, 1)
        assert first["median_seconds"] is not None and first["median_seconds"] >= 0
        assert (await pages.say("late", type="report", code=code, secret="guessed"))["code"] == "not_lecturer"
        other = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        assert (await pages.say("late", type="report", code=other, secret=secret))["code"] == "no_report"
        text_csv = kept["csv"]
        assert text_csv.startswith("\ufeff")  # Excel reads UTF-8 (Korean) by its byte-order mark
        rows = list(csv.DictReader(io.StringIO(text_csv[1:])))
        assert [row["kind"] for row in rows] == ["top_key", "output"]
        assert rows[0]["question"] == "Query 어제: which key gets the most weight?" and rows[0]["truth"] == preset.tokens[truth]
        assert (rows[0]["students"], rows[0]["answers"], rows[0]["correct"]) == ("3", "2", "1")
        assert rows[0]["keys"] == " | ".join(preset.tokens) and rows[0][f"key {truth + 1}"] == "1"
        assert (rows[1]["answers"], rows[1]["correct"], rows[1]["output: forgot_scale"]) == ("3", "1", "2")
        assert rows[1]["view"] == "preset=meet-friend&query=1&heads=1&head_view=-1&scale=1&causal=1"
    run(body())


def test_the_reports_csv_never_writes_a_cell_a_spreadsheet_would_run():
    from app.report import report_csv

    kept = {"number": 1, "kind": "top_key", "change": "", "to": None, "piece": None, "truth": 0, "counts": [1, 2],
            "view": {"source": {"kind": "preset", "name": "=cmd|' /C calc'!A0"}, "query": 0, "heads": 1, "scale": True,
                     "causal": False}, "tokens": ["=HYPERLINK(\"x\")", "+1", ], "answered": 3, "eligible": 3,
            "median_seconds": 2.5, "mode": "live"}
    written = report_csv([kept], "ko")
    for cell in (cell for line in written[1:].splitlines()[1:] for cell in next(__import__("csv").reader([line]))):
        assert not cell.startswith(("=", "+", "-", "@")), cell
    assert "'=cmd" in written and "'=HYPERLINK" in written


def test_an_assigned_link_takes_the_absent_students_answers_until_its_deadline_into_the_same_report(store, monkeypatch):
    """The lecturer makes a link of the room's questions (open or closed), a deadline and names
    asked for: a student opens it, gets the questions without their truth, answers each once and
    is judged at once; the report counts those answers marked "assigned", with a row a named
    student; a forged identity, a second answer, no name, an unknown link and an answer after the
    deadline are refused and store nothing."""
    import time as clock

    from attention_core import PRESETS, attention

    preset = PRESETS["meet-friend"]

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        await pages.say("a", type="join", code=code)
        await pages.say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1, "head_view": -1})
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        await pages.say("a", type="answer", code=code, number=1, choice=3)
        await pages.say("lecturer", type="ask", code=code, secret=secret, kind="what_if", change="scale")
        now = clock.time()
        assert (await pages.say("a", type="assign", code=code, secret="guessed", deadline=now + 3600))["code"] == "not_lecturer"
        assert (await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=now - 1))["code"] == "bad_deadline"
        made = await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=now + 3600, ask_name=True)
        link = made["id"]
        await pages.say("lecturer", type="close", code=code, secret=secret)  # the link outlives the room
        opened = await pages.say("absent", type="assignment", id=link)
        assert [q["kind"] for q in opened["questions"]] == ["top_key", "what_if"] and opened["answers"] == {}
        assert all("truth" not in q for q in opened["questions"]) and opened["ask_name"] is True
        student = opened["student"]
        truth = int(attention(preset.q, preset.k, preset.v, heads=1).weights[0][4].argmax())
        assert (await pages.say("absent", type="assigned", id=link, student=student, number=1, choice=truth))["code"] == "need_name"
        judged = await pages.say("absent", type="assigned", id=link, student=student, number=1, choice=truth, student_name="김민수 2026",
                                 seconds=12)
        assert judged["type"] == "assigned" and judged["poll"]["truth"] == truth and judged["answer"] == truth
        again = await pages.say("absent", type="assigned", id=link, student=student, number=1, choice=0, student_name="김민수 2026")
        assert again["code"] == "answered"
        forged = await pages.say("absent", type="assigned", id=link, student="0123456789abcdef.0", number=2, choice=0, student_name="x")
        assert forged["code"] == "no_poll"
        assert (await pages.say("absent", type="assignment", id="no-such-link"))["code"] == "no_assignment"
        back = await pages.say("absent", type="assignment", id=link, student=student)  # a reload: the answer kept, judged
        assert back["student"] == student and back["answers"]["1"]["answer"] == truth
        reported = await pages.say("lecturer", type="report", code=code, secret=secret)
        report = reported["records"]
        assert "\r\n,김민수 2026,student,,,,,,1,1,,assigned" in reported["csv"]  # a row a named student
        assert [(r["kind"], r["mode"]) for r in report] == [("top_key", "live"), ("what_if", "live"), ("top_key", "assigned"),
                                                            ("what_if", "assigned"), ("student", "assigned")]
        assert report[2]["counts"][truth] == 1 and report[2]["answered"] == 1 and report[3]["answered"] == 0
        assert report[4] == {"kind": "student", "number": None, "name": "김민수 2026", "answered": 1, "right": 1, "mode": "assigned"}
        # the median time of the assigned answers: each student's time on the question on their own
        # page, as it says it; a time that is not one (a day and more, a word) is left out
        for who, seconds in (("b", 20), ("c", 1e9), ("d", "soon")):
            mine = (await pages.say(who, type="assignment", id=link))["student"]
            await pages.say(who, type="assigned", id=link, student=mine, number=1, choice=0, student_name=who, seconds=seconds)
        report = (await pages.say("lecturer", type="report", code=code, secret=secret))["records"]
        assert (report[2]["answered"], report[2]["median_seconds"], report[3]["median_seconds"]) == (4, 16.0, None)
        monkeypatch.setattr(clock, "time", lambda: now + 3601)  # past the deadline
        assert (await pages.say("absent", type="assignment", id=link, student=student))["code"] == "assignment_closed"
        late = await pages.say("absent", type="assigned", id=link, student=student, number=2, choice=0, student_name="김민수 2026")
        assert late["code"] == "assignment_closed"
        monkeypatch.undo()
        report = (await pages.say("lecturer", type="report", code=code, secret=secret))["records"]
        assert report[3]["answered"] == 0  # nothing was kept
    run(body())


def test_an_assigned_link_can_carry_a_built_in_lessons_questions_into_the_rooms_report(store):
    """Assigned from a lesson: the questions are the lesson's question stops (their views, kinds and
    switches), whatever the room asked; an unknown lesson is refused; the answers join the room's report."""
    import time as clock

    from app.lesson_check import built_in_page_lesson

    asked = [stop["question"] for stop in built_in_page_lesson("hand-calculation")["stops"] if stop.get("question")]

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        deadline = clock.time() + 600
        assert (await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=deadline))["code"] == "nothing_to_assign"
        refused = await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=deadline, lesson="nope")
        assert refused["code"] == "no_lesson"
        made = await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=deadline, lesson="hand-calculation")
        opened = await pages.say("absent", type="assignment", id=made["id"])
        assert [(q["kind"], q["view"]["query"]) for q in opened["questions"]] == [(q["kind"], q["view"]["query"]) for q in asked]
        judged = await pages.say("absent", type="assigned", id=made["id"], student=opened["student"], number=1,
                                 choice=asked[0]["truth"])
        assert judged["answer"] == asked[0]["truth"] and judged["poll"]["truth"] == asked[0]["truth"]
        said = await pages.say("lecturer", type="report", code=code, secret=secret)
        records = said["records"]
        assert [r["mode"] for r in records] == ["assigned"] * len(asked) and records[0]["answered"] == 1
        # the CSV names the lesson stop each question was asked at
        rows = list(csv.DictReader(io.StringIO(said["csv"].lstrip("\ufeff"))))
        titles = [stop["title"] for stop in built_in_page_lesson("hand-calculation")["stops"] if stop.get("question")]
        assert [row["stop"] for row in rows] == titles and titles[0]
    run(body())


def test_an_assigned_link_can_carry_the_lecturers_own_lessons_questions_checked_and_made_again(store):
    """A lesson of the lecturer's own (not a built-in): the page sends each question's view, kind
    and switch; the server checks each view as a room's, makes each question and its truth again
    (a truth sent along is not taken), and refuses what is not a question, in one error."""
    import time as clock

    from app.assignments import MAX_SENT_QUESTIONS
    from app.lesson_check import built_in_page_lesson

    asked = [stop["question"] for stop in built_in_page_lesson("scale-mask-heads")["stops"] if stop.get("question")]
    sent = [{"view": {**q["view"], "note": {"title": f"멈춤 {i}", "title_en": f"Stop {i}"}}, "kind": q["kind"],
             "change": q["change"], "truth": 99} for i, q in enumerate(asked)]

    async def body():
        pages = Pages(hub_on(await store()))
        code, secret = await pages.open_room()
        deadline = clock.time() + 600
        refusals = [[], "x", [{"kind": "nope", "view": asked[0]["view"], "change": None}],
                    [{"kind": asked[0]["kind"], "view": {**asked[0]["view"], "query": 99}, "change": asked[0]["change"]}],
                    [{"kind": asked[0]["kind"], "view": {**asked[0]["view"], "evil": 1}, "change": asked[0]["change"]}],
                    [{key: sent[0][key] for key in ("view", "kind", "change")}] * (MAX_SENT_QUESTIONS + 1)]
        for questions in refusals:
            refused = await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=deadline, questions=questions)
            assert refused["type"] == "error" and refused["code"] in ("bad_question", "bad_view", "too_many_questions"), questions
        assert (refused["code"], refused["values"]) == ("too_many_questions", {"most": str(MAX_SENT_QUESTIONS)})
        made = await pages.say("lecturer", type="assign", code=code, secret=secret, deadline=deadline, questions=sent)
        opened = await pages.say("absent", type="assignment", id=made["id"])
        assert [(q["kind"], q["view"]["query"], q["change"]) for q in opened["questions"]] == \
            [(q["kind"], q["view"]["query"], q["change"]) for q in asked]
        judged = await pages.say("absent", type="assigned", id=made["id"], student=opened["student"], number=1,
                                 choice=asked[0]["truth"])
        assert judged["poll"]["truth"] == asked[0]["truth"] != 99
        said = await pages.say("lecturer", type="report", code=code, secret=secret, lang="en")
        assert [r["mode"] for r in said["records"]] == ["assigned"] * len(asked) and said["records"][0]["answered"] == 1
        rows = list(csv.DictReader(io.StringIO(said["csv"].lstrip("\ufeff"))))
        assert [row["stop"] for row in rows] == [f"Stop {i}" for i in range(len(asked))]
    run(body())
