"""A room's rules (app/rooms.py): only the lecturer's secret drives it, every view is checked field
by field, students join and leave anonymously up to a limit, rooms expire when idle, messages are
rate-limited, and codes are not guessable in practice."""
from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from app.rooms import (CODE_ALPHABET, CODE_LENGTH, RATE_BURST, RATE_PER_SECOND, RateLimit, RoomError, Rooms,
                       checked_view, guesses_to_find_a_room)


@pytest.fixture(params=["memory", "redis"])
def make_rooms(request):
    """Rooms with the same rules two ways: one process's memory (app.rooms.Rooms), and Redis shared
    by processes (app.redis_rooms.RedisRooms, on a redis-server the run starts, emptied per test)."""
    if request.param == "memory":
        yield Rooms
        return
    from app.redis_rooms import RedisRooms, connect

    client = connect(request.getfixturevalue("redis_url"))
    client.flushdb()
    yield lambda **limits: RedisRooms(client, **limits)
    client.close()


def counted(received) -> int | None:
    """The count a lecturer's page shows: of the count messages it got, the one made last (seq)."""
    counts = [message for message in received if message["type"] == "count"]
    return max(counts, key=lambda message: message["seq"])["count"] if counts else None


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


VIEW = {"source": {"kind": "preset", "name": "meet-friend"}, "query": 4, "scale": True, "causal": False, "heads": 2,
        "head_view": -1, "step": -1, "layer": 0, "head": 0, "merge": True, "special": False, "lens": "weight",
        "rope": True, "window": -1, "compare": "", "lang": "ko"}


def test_a_room_has_a_short_readable_code_and_a_128_bit_secret_that_alone_drives_it(make_rooms):
    rooms = make_rooms()
    code, secret = rooms.open()
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}", code) and not set(code) & set("01OIL")
    assert len(secret) >= 22 and secret not in code  # token_urlsafe(16): 128 bits
    assert rooms.drive(code, secret, VIEW) == VIEW
    for wrong in ("", secret[:-1] + ("A" if secret[-1] != "A" else "B"), None, 12, code):
        with pytest.raises(RoomError) as refused:
            rooms.drive(code, wrong, {**VIEW, "query": 0})
        assert refused.value.code == "not_lecturer"
    assert rooms.join(code, "s1") == VIEW  # the last good view stays
    with pytest.raises(RoomError) as refused:
        rooms.join("ZZZZZZ", "s1")
    assert refused.value.code == "no_room"
    other, _ = rooms.open()
    assert other != code
    with pytest.raises(RoomError):  # one room's secret does not drive another
        rooms.drive(other, secret, VIEW)


@pytest.mark.parametrize("field, value", [
    ("query", -1), ("query", 1.5), ("query", True), ("query", "4"), ("scale", 1), ("heads", 3), ("heads", 16),
    ("head_view", 8), ("step", 6), ("lens", "attention"), ("window", -2), ("lang", "fr"), ("text", "가" * 2001),
    ("source", {"kind": "preset"}), ("source", {"kind": "nope", "name": "x"}), ("source", {"kind": "preset", "name": "x" * 81}),
    ("source", "meet-friend"), ("compare", 3)])
def test_a_view_with_any_field_of_the_wrong_kind_or_range_is_refused_naming_it(field, value):
    with pytest.raises(RoomError) as refused:
        checked_view({**VIEW, field: value})
    assert refused.value.code == "bad_view" and refused.value.values == {"field": field}


def test_a_view_missing_a_field_or_with_an_unknown_one_is_refused_and_text_is_optional():
    with pytest.raises(RoomError) as refused:
        checked_view({key: value for key, value in VIEW.items() if key != "heads"})
    assert refused.value.values == {"field": "heads"}
    with pytest.raises(RoomError) as refused:
        checked_view({**VIEW, "<script>": 1})
    assert refused.value.values == {"field": "<script>"}  # named, as text: the page never makes it HTML
    assert checked_view({**VIEW, "text": "나는 밥을 먹었다"})["text"] == "나는 밥을 먹었다"
    with pytest.raises(RoomError):
        checked_view([VIEW])


def test_students_join_and_leave_anonymously_up_to_the_room_s_limit(make_rooms):
    """Up to the room's limit; a student is counted once however many pages they have in the room
    (on any process: the Redis store counts them), and leaves with their last."""
    rooms = make_rooms(max_students=2)
    code, secret = rooms.open()
    assert rooms.join(code, "a") is None  # before the lecturer's first view
    rooms.join(code, "a", tab=False)  # the same page again is one student, one page
    rooms.join(code, "b")
    assert rooms.count(code) == 2
    with pytest.raises(RoomError) as refused:
        rooms.join(code, "c")
    assert refused.value.code == "room_full" and refused.value.values == {"students": "2"}
    rooms.leave(code, "a")
    rooms.join(code, "c")
    assert rooms.count(code) == 2
    rooms.join(code, "c")  # a second tab of c's: still one student, who leaves with the last tab
    rooms.leave(code, "c")
    assert rooms.count(code) == 2
    rooms.leave(code, "c")
    assert rooms.count(code) == 1


def test_an_idle_room_expires_and_a_process_holds_a_bounded_number_of_rooms(make_rooms):
    clock = Clock()
    rooms = make_rooms(clock=clock, max_rooms=2, idle_seconds=60)
    first, secret = rooms.open()
    clock.now += 50
    rooms.join(first, "a")  # any message keeps it open
    clock.now += 50
    assert rooms.count(first) == 1
    second, _ = rooms.open()
    with pytest.raises(RoomError) as refused:
        rooms.open()
    assert refused.value.code == "full" and refused.value.values == {"rooms": "2"}
    clock.now += 61
    with pytest.raises(RoomError) as refused:
        rooms.drive(first, secret, VIEW)
    assert refused.value.code == "no_room" and len(rooms) == 0
    rooms.open()  # room again for a new one


def test_a_connection_s_messages_are_rate_limited_with_a_burst():
    clock = Clock()
    limit = RateLimit(clock=clock)
    assert sum(limit.allow() for _ in range(100)) == RATE_BURST
    clock.now += 1
    assert sum(limit.allow() for _ in range(100)) == int(RATE_PER_SECOND)
    clock.now += 60  # a quiet minute refills the burst, no more
    assert sum(limit.allow() for _ in range(100)) == RATE_BURST


def test_guessing_a_room_s_code_at_the_rate_limit_takes_longer_than_a_lecture():
    """Codes per second one connection can try is the rate limit; with 200 rooms open (a busy
    process), hitting any one takes on average about 5 days."""
    found = guesses_to_find_a_room(200)
    assert found["codes"] == 31 ** 6
    assert found["seconds"] == pytest.approx(31 ** 6 / 200 / 2 / RATE_PER_SECOND)
    assert found["seconds"] > 4 * 24 * 3600


def test_the_hub_carries_the_lecturer_s_view_to_students_and_a_forged_one_to_no_one(make_rooms):
    """app/room_socket.py's hub with pages as fake connections (what each was sent): a lecturer
    opens a room, two students join (the lecturer sees the count), the lecturer's view reaches both,
    a student's message with a guessed secret changes nothing and is told so, a student who leaves
    is counted out, and a lecturer's page that reloads takes the room up again with its secret."""
    import json

    from app.room_socket import Connection, RoomHub, qr_rows

    hub = RoomHub(make_rooms())
    sent = {name: [] for name in ("lecturer", "a", "b", "again")}
    pages = {name: Connection(send=box.append) for name, box in sent.items()}
    say = lambda page, **message: hub.receive(pages[page], json.dumps(message))  # noqa: E731
    say("lecturer", type="open")
    opened = sent["lecturer"][-1]
    code, secret = opened["code"], opened["secret"]
    assert opened["type"] == "opened"
    say("a", type="join", code=code.lower())  # typed as read, in any case
    say("b", type="join", code=f" {code} ")
    assert sent["a"][-1] == {"type": "joined", "code": code, "view": None, "poll": None, "answer": None}
    assert counted(sent["lecturer"]) == 2
    say("lecturer", type="drive", code=code, secret=secret, view=VIEW)
    assert sent["a"][-1] == sent["b"][-1] == {"type": "view", "view": VIEW}
    say("b", type="drive", code=code, secret="guessed", view={**VIEW, "query": 0})
    assert sent["b"][-1] == {"type": "error", "code": "not_lecturer", "values": {}}
    assert sent["a"][-1] == {"type": "view", "view": VIEW}  # nothing reached a
    hub.closed(pages["b"])
    assert counted(sent["lecturer"]) == 1
    say("again", type="lecture", code=code, secret=secret)
    assert sent["again"][-1] == {"type": "lecturing", "code": code, "count": 1, "view": VIEW, "poll": None, "answers": 0}
    link = f"http://127.0.0.1:5006/?room={code}"
    say("again", type="qr", code=code, secret=secret, link=link)
    made = sent["again"][-1]
    assert made["type"] == "qr" and made["rows"] == qr_rows(link) and made["size"] == len(made["rows"]) >= 21
    say("again", type="qr", code=code, secret=secret, link="javascript:alert(1)")
    assert sent["again"][-1]["code"] == "bad_link"


@pytest.mark.parametrize("raw, code", [("not json", "bad_message"), ("[1]", "bad_message"), ('{"type": "shout"}', "bad_message"),
                                       ('{"type": "join", "code": "ABC"}', "no_room"), ('{"type": "join", "code": 7}', "no_room"),
                                       ("x" * 9000, "bad_message")])
def test_the_hub_answers_a_bad_message_with_its_error_and_goes_on(raw, code):
    from app.room_socket import Connection, RoomHub

    hub, sent = RoomHub(), []
    hub.receive(Connection(send=sent.append), raw)
    assert sent == [{"type": "error", "code": code, "values": {}}]


def test_the_hub_limits_each_connection_s_rate_and_several_processes_without_redis_open_no_room():
    from app.room_socket import Connection, RoomHub

    clock, sent = Clock(), []
    hub = RoomHub()
    page = Connection(send=sent.append, limit=RateLimit(clock=clock))
    for _ in range(RATE_BURST + 3):
        hub.receive(page, '{"type": "join", "code": "ABCDEF"}')
    assert [m["code"] for m in sent].count("slow_down") == 3
    sent.clear()
    RoomHub(needs_redis=True).receive(Connection(send=sent.append), '{"type": "open"}')
    assert sent == [{"type": "error", "code": "need_redis", "values": {}}]


def test_a_question_hides_its_truth_until_the_reveal_counts_one_answer_a_student_and_survives_a_reload(make_rooms):
    """Which key gets the most weight, asked on the lecturer's view of meet-friend (query 만났다,
    mask off and on): the question reaches everyone without its truth; the lecturer sees only how
    many answered; a student's answer is one, changeable, and kept across a reload (the page's own
    token); out-of-range choices and students' reveals are refused; the reveal brings the counts per
    choice and the core's truth (attention_core.attention recomputed here)."""
    import json

    from app.room_socket import Connection, RoomHub
    from attention_core import PRESETS, attention

    hub = RoomHub(make_rooms())
    sent = {name: [] for name in ("lecturer", "a", "b", "a again")}
    pages = {name: Connection(send=box.append) for name, box in sent.items()}
    say = lambda page, **message: hub.receive(pages[page], json.dumps(message))  # noqa: E731
    say("lecturer", type="open")
    code, secret = sent["lecturer"][-1]["code"], sent["lecturer"][-1]["secret"]
    say("a", type="join", code=code, student="a1" * 8)
    say("b", type="join", code=code)
    preset = PRESETS["meet-friend"]
    for causal in (False, True):
        view = {**VIEW, "heads": 1, "causal": causal}
        say("lecturer", type="drive", code=code, secret=secret, view=view)
        say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
        asked = sent["a"][-1]
        assert asked["type"] == "poll" and "truth" not in asked["poll"] and "histogram" not in asked["poll"]
        number = asked["poll"]["number"]
        say("a", type="answer", code=code, number=number, choice=0)
        say("a", type="answer", code=code, number=number, choice=3)  # changed: still one answer
        say("b", type="answer", code=code, number=number, choice=3)
        assert sent["lecturer"][-1] == {"type": "answers", "number": number, "count": 2}
        say("b", type="answer", code=code, number=number, choice=5)
        assert sent["b"][-1]["code"] == "bad_answer"
        say("b", type="reveal", code=code, secret="guessed")
        assert sent["b"][-1]["code"] == "not_lecturer"
        say("a again", type="join", code=code, student="a1" * 8)  # a reloads: its answer is still there
        assert sent["a again"][-1]["answer"] == 3 and sent["a again"][-1]["poll"]["number"] == number
        say("lecturer", type="reveal", code=code, secret=secret)
        revealed = sent["b"][-1]["poll"]
        truth = int(attention(preset.q, preset.k, preset.v, heads=1, causal=causal).weights[0][4].argmax())
        assert revealed["truth"] == truth and revealed["histogram"] == [0, 0, 0, 2, 0]
        say("a", type="answer", code=code, number=number, choice=1)  # too late
        assert sent["a"][-1]["code"] == "no_poll"
    # several heads at once: the question would not say which head
    say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 2, "head_view": -1})
    say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
    assert sent["lecturer"][-1]["code"] == "poll_one_head"


def test_what_if_says_whether_the_heaviest_key_changes_or_its_weight_grows_shrinks_or_stays():
    """what_if_outcome on rows made by hand, and for every preset, head count, head shown, query and
    switch (√d, the mask, the next head count that splits the head: its first piece), the
    question's truth and the numbers its reveal shows against attention recomputed here, read at
    three decimals; a query whose largest weight is shared at three decimals, or no more heads to
    go to, is refused."""
    from app.constants import WHAT_IF
    from app.questions import make_question, what_if_outcome
    from attention_core import PRESETS, attention

    assert what_if_outcome(np.array([0.5, 0.3, 0.2]), np.array([0.3, 0.5, 0.2])) == "top_changes"
    assert what_if_outcome(np.array([0.5, 0.3, 0.2]), np.array([0.6, 0.3, 0.1])) == "sharper"
    assert what_if_outcome(np.array([0.5, 0.3, 0.2]), np.array([0.4, 0.35, 0.25])) == "flatter"
    assert what_if_outcome(np.array([0.5, 0.3, 0.2]), np.array([0.5004, 0.2998, 0.1998])) == "same"
    # still among the heaviest when the row flattens to a tie: flatter, not "another key"
    assert what_if_outcome(np.array([0.932, 0.034, 0.034]), np.full(3, 1 / 3)) == "flatter"
    seen, refused = set(), set()
    for preset in PRESETS.values():
        for heads in preset.offered_heads():
            more = [count for count in preset.offered_heads() if count > heads and count % heads == 0]
            for head_view, query, change, scale, causal in itertools.product(
                    range(heads), range(len(preset.tokens)), ("scale", "causal", "heads"), (True, False), (True, False)):
                view = {**VIEW, "source": {"kind": "preset", "name": preset.name}, "heads": heads, "head_view": head_view,
                        "query": query, "scale": scale, "causal": causal}
                before = attention(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal).weights[head_view][query]
                tied = np.sum(before >= before.max() - 0.0005) > 1
                if tied or (change == "heads" and not more):
                    with pytest.raises(RoomError) as error:
                        make_question(view, "what_if", change)
                    refused.add(error.value.code)
                    assert error.value.code == ("poll_tie" if tied else "poll_no_more_heads")
                    continue
                asked = make_question(view, "what_if", change)
                flipped = {"scale": scale, "causal": causal, "heads": heads,
                           change: more[0] if change == "heads" else not view[change]}
                piece = head_view * more[0] // heads if change == "heads" else head_view
                assert (asked.to, asked.piece) == (flipped[change], piece)
                after = attention(preset.q, preset.k, preset.v, **flipped).weights[piece][query]
                answer, detail, top = WHAT_IF[asked.truth], asked.detail, int(before.argmax())
                assert (detail["top_before"], detail["top_after"]) == (top, after.argmax())
                assert detail["before"] == round(before[top], 3) and detail["after"] == round(after[top], 3)
                assert (answer == "top_changes") == (after[top] < after.max() - 0.0005)
                if answer == "same":
                    assert np.abs(after - before).max() < 0.0005
                if answer in ("sharper", "flatter"):
                    assert (after[top] > before[top]) == (answer == "sharper")
                seen.add(answer)
    assert seen == set(WHAT_IF) and refused == {"poll_tie", "poll_no_more_heads"}  # every answer is the truth somewhere


def test_an_output_question_counts_the_class_s_slips_by_name_and_each_student_sees_their_own_verdict(make_rooms):
    """Type the output of 어제 (query 1, √d on, the mask on, one head): honest students
    with several rounding habits are counted right (exact or rounded); students who forgot √d or the
    mask are counted by those slips (attention_core.answer's checker); text that is not numbers is
    refused and changes nothing; before the reveal a student sees only their own text back; at the
    reveal each sees the checker's verdict on it and everyone the counts and the true output."""
    import json

    from app.constants import OUTCOMES
    from app.room_socket import Connection, RoomHub
    from attention_core import PRESETS, attention
    from hand_work import typed

    preset = PRESETS["meet-friend"]
    view = {**VIEW, "heads": 1, "head_view": -1, "query": 1, "scale": True, "causal": True}
    output = lambda **switches: attention(preset.q, preset.k, preset.v, heads=1, **{"scale": True, "causal": True, **switches}).output[0][1]  # noqa: E731
    typed_by = {"exact": typed(output()), "three": typed(np.round(output(), 3)), "two": typed(np.round(output(), 2)),
                "no_scale": typed(np.round(output(scale=False), 3)), "no_scale_2": typed(np.round(output(scale=False), 4)),
                "no_mask": typed(np.round(output(causal=False), 3))}
    hub = RoomHub(make_rooms())
    sent = {name: [] for name in ("lecturer", *typed_by)}
    pages = {name: Connection(send=box.append) for name, box in sent.items()}
    say = lambda page, **message: hub.receive(pages[page], json.dumps(message))  # noqa: E731
    say("lecturer", type="open")
    code, secret = sent["lecturer"][-1]["code"], sent["lecturer"][-1]["secret"]
    for name in typed_by:
        say(name, type="join", code=code)
    say("lecturer", type="drive", code=code, secret=secret, view=view)
    say("lecturer", type="ask", code=code, secret=secret, kind="output")
    number = sent["exact"][-1]["poll"]["number"]
    say("exact", type="answer", code=code, number=number, text="영점 삼")
    assert sent["exact"][-1] == {"type": "error", "code": "bad_numbers", "values": {"problem": "not_number"}}
    for name, text in typed_by.items():
        say(name, type="answer", code=code, number=number, text=text)
        assert sent[name][-1] == {"type": "answered", "number": number, "answer": {"text": text}}  # no verdict yet
    assert sent["lecturer"][-1] == {"type": "answers", "number": number, "count": len(typed_by)}
    say("lecturer", type="reveal", code=code, secret=secret)
    revealed = sent["exact"][-1]["poll"]
    counts = dict(zip(OUTCOMES, revealed["histogram"]))
    assert counts["correct"] + counts["rounded"] == 3 and counts["forgot_scale"] == 2 and counts["forgot_mask"] == 1
    assert sum(counts.values()) == len(typed_by) and revealed["truth"] == 0
    np.testing.assert_allclose(revealed["detail"]["exact"], np.round(output(), 3))
    mine = {name: sent[name][-1]["answer"] for name in typed_by}
    assert mine["exact"]["status"] == "correct" and mine["two"]["status"] in ("correct", "rounded")
    assert mine["no_scale"]["status"] == "wrong" and mine["no_scale"]["key"] == "hint_forgot_scale"
    assert mine["no_mask"]["key"] == "hint_forgot_mask" and mine["no_mask"]["text"] == typed_by["no_mask"]
    assert "answer" not in sent["lecturer"][-1]  # the projector gets the counts, not anyone's answer


def test_a_student_s_second_tab_of_the_same_token_keeps_them_in_when_one_closes(make_rooms):
    """A duplicated tab (sessionStorage copied) or a reload whose new socket joins before the old one
    closes: two connections of one token are one student, who stays until the last closes."""
    import json

    from app.room_socket import Connection, RoomHub

    hub = RoomHub(make_rooms())
    assert type(hub.rooms) is type(make_rooms())  # the rules under test, not a fallback
    sent = {name: [] for name in ("lecturer", "tab", "copy")}
    pages = {name: Connection(send=box.append) for name, box in sent.items()}
    say = lambda page, **message: hub.receive(pages[page], json.dumps(message))  # noqa: E731
    say("lecturer", type="open")
    code, secret = sent["lecturer"][-1]["code"], sent["lecturer"][-1]["secret"]
    for page in ("tab", "copy"):
        say(page, type="join", code=code, student="ab" * 8)
    assert counted(sent["lecturer"]) == 1
    hub.closed(pages["tab"])
    assert hub.rooms.count(code) == 1
    say("lecturer", type="drive", code=code, secret=secret, view={**VIEW, "heads": 1})
    say("lecturer", type="ask", code=code, secret=secret, kind="top_key")
    say("copy", type="answer", code=code, number=1, choice=2)
    assert sent["copy"][-1] == {"type": "answered", "number": 1, "answer": 2}
    hub.closed(pages["copy"])
    assert hub.rooms.count(code) == 0 and counted(sent["lecturer"]) == 0


def test_two_processes_answering_at_once_count_both_answers(redis_url):
    """Two processes on one Redis (two RedisRooms): while one judges its student's answer, the other
    stores another's; the count each reports once its own is in includes both (the largest count
    is what the lecturer's page keeps)."""
    from app.questions import answer_value, make_question
    from app.redis_rooms import RedisRooms, connect

    client = connect(redis_url)
    client.flushdb()
    first, second = RedisRooms(client), RedisRooms(connect(redis_url))
    code, secret = first.open()
    for student in ("a", "b"):
        second.join(code, student)
    first.drive(code, secret, {**VIEW, "heads": 1})
    number = first.ask(code, secret, lambda view: make_question(view, "top_key")).number

    def meanwhile(poll, value):  # the other process's student answers while this one is judged
        assert len(second.answer(code, "b", number, 2, answer_value).answers) == 1
        return answer_value(poll, value)

    assert len(first.answer(code, "a", number, 1, meanwhile).answers) == 2
    assert first.poll(code).histogram() == [0, 1, 1, 0, 0]


def test_a_question_is_refused_where_its_answer_would_be_a_tie_or_its_view_does_not_exist():
    """Which key gets the most weight, when two share it at three decimals: no fair answer, so the
    lecturer is told (poll_tie); a head count the sentence does not offer, or a head past it, is a
    bad view (a link can carry one), not a crash."""
    from app.questions import make_question
    from attention_core import PRESETS, attention

    preset, tied = next((preset, (heads, head, query, scale, causal)) for preset in PRESETS.values()
                        for heads in preset.offered_heads() for head in range(heads) for query in range(len(preset.tokens))
                        for scale, causal in itertools.product((True, False), repeat=2)
                        if np.sum((row := attention(preset.q, preset.k, preset.v, heads=heads, scale=scale,
                                                    causal=causal).weights[head][query]) >= row.max() - 0.0005) > 1)
    heads, head, query, scale, causal = tied
    view = {**VIEW, "source": {"kind": "preset", "name": preset.name}, "heads": heads, "head_view": head, "query": query,
            "scale": scale, "causal": causal}
    for kind in ("top_key", "what_if"):
        with pytest.raises(RoomError) as refused:
            make_question(view, kind, "scale")
        assert refused.value.code == "poll_tie"
    assert make_question(view, "output").kind == "output"  # an output has one right answer still
    cat_fish = {"kind": "preset", "name": "cat-fish"}  # d_model 2: one head or two
    for bad, field in (({"heads": 1, "head_view": 1}, "head_view"), ({"source": cat_fish, "heads": 4, "head_view": 0}, "heads")):
        with pytest.raises(RoomError) as refused:
            make_question({**VIEW, "query": 0, **bad}, "top_key")
        assert refused.value.code == "bad_view" and refused.value.values == {"field": field}


def test_an_answer_judged_while_the_next_question_is_asked_stays_with_its_own_question(redis_url):
    """Two processes on one Redis: a student's answer to an output question is being judged when the
    lecturer, on the other process, asks which key: the answer is kept with the question it answers,
    the new question's counts stay empty and its reveal works (an outcome index of the first is not
    a choice of the second)."""
    from app.questions import answer_value, make_question
    from app.redis_rooms import RedisRooms, connect

    client = connect(redis_url)
    client.flushdb()
    first, second = RedisRooms(client), RedisRooms(connect(redis_url))
    code, secret = first.open()
    first.join(code, "a")
    first.drive(code, secret, {**VIEW, "heads": 1, "query": 1, "causal": True})
    number = first.ask(code, secret, lambda view: make_question(view, "output")).number

    def meanwhile(poll, value):
        second.ask(code, secret, lambda view: make_question(view, "top_key"))
        return answer_value(poll, value)

    first.answer(code, "a", number, "0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5", meanwhile)
    asked = first.poll(code)
    assert asked.number == number + 1 and asked.answers == {}
    assert second.reveal(code, secret).histogram() == [0] * 5
    assert list(client.hgetall(f"ae:room:{code}:answers:{number}")) == ["a"]


def test_the_redis_bus_delivers_again_after_its_connection_is_cut(redis_url, caplog):
    """Redis restarts or the network drops the subscription: the listening thread says so and
    subscribes again, and the room's messages reach the pages again."""
    import asyncio

    from app.redis_rooms import RedisBus, connect

    client = connect(redis_url)
    bus, heard = RedisBus(client), []
    bus.deliver = lambda code, to, message: heard.append((code, to, message))

    async def run():
        bus.publish("ABCDEF", "students", {"type": "view", "n": 1})
        await asyncio.sleep(0.3)
        client.client_kill_filter(_type="pubsub")  # the subscription's connection cut
        for _ in range(40):  # listening again within a few seconds
            await asyncio.sleep(0.1)
            bus.publish("ABCDEF", "students", {"type": "view", "n": 2})
            if len(heard) > 1:
                break

    try:
        asyncio.run(run())
    finally:
        bus.close()
    assert heard[0] == ("ABCDEF", "students", {"type": "view", "n": 1}) and heard[-1][2]["n"] == 2
    assert "Redis's messages stopped" in caplog.text  # it was cut, and said so


def test_a_student_with_tabs_on_two_processes_stays_until_the_last_closes(redis_url):
    """Two processes' hubs on one Redis, one student's token in a tab on each (a duplicated tab
    that --num-procs sent elsewhere): closing one keeps the student in the room, closing both
    takes them out."""
    import json

    from app.redis_rooms import RedisRooms, connect
    from app.room_socket import Connection, RoomHub

    client = connect(redis_url)
    client.flushdb()
    hubs = [RoomHub(RedisRooms(connect(redis_url))) for _ in range(2)]
    lecturer, tabs = Connection(send=[].append), [Connection(send=[].append) for _ in hubs]
    sent = []
    lecturer.send = sent.append
    hubs[0].receive(lecturer, json.dumps({"type": "open"}))
    code = sent[-1]["code"]
    for hub, tab in zip(hubs, tabs):
        hub.receive(tab, json.dumps({"type": "join", "code": code, "student": "cd" * 8}))
        hub.receive(tab, json.dumps({"type": "join", "code": code, "student": "cd" * 8}))  # the same page again
    assert hubs[0].rooms.count(code) == 1
    hubs[0].closed(tabs[0])
    assert hubs[1].rooms.count(code) == 1
    hubs[1].closed(tabs[1])
    assert hubs[0].rooms.count(code) == 0


def test_a_question_on_a_served_model_s_head_is_answered_by_its_weights_as_the_page_shows_them(tmp_path):
    """A tiny GPT-2 served to every page: which key, on its sub-word tokens (every step) and on
    어절 (the weights alone, grouped), and what if √d were off, each against the head's weights
    recomputed here; the output and more heads are for the book's sentences; a sentence not served
    to every page (typed in one) cannot be asked about."""
    from app.constants import WHAT_IF
    from app.questions import make_question
    from attention_core.checkpoint import load_checkpoint, run_checkpoint
    from attention_core.heads import from_run, group_labels, grouped_weights, token_groups
    from tiny_models import write_gpt2

    aset = from_run("gpt2", *run_checkpoint(load_checkpoint(write_gpt2(tmp_path / "gpt2")), "나는 어제 학교에서 친구를 만났다"))
    models = {"model-1": (aset, {})}.get
    base = {**VIEW, "source": {"kind": "model", "name": "model-1"}, "layer": 1, "head": 0, "causal": True, "heads": 1}
    asked = 0
    for merge in (False, True):
        groups = token_groups(aset, merge, True)
        shown = grouped_weights(aset.head_weights(1, 0), groups)
        for query in range(len(groups)):
            view = {**base, "merge": merge, "special": True, "query": query}
            row = shown[query]
            if np.sum(row >= row.max() - 0.0005) > 1:
                continue
            question = make_question(view, "top_key", None, models)
            assert question.truth == int(row.argmax()) and question.tokens == group_labels(aset, groups, merge)
            asked += 1
            if merge:
                with pytest.raises(RoomError) as refused:
                    make_question(view, "what_if", "scale", models)
                assert refused.value.code == "poll_model_switches"
            else:
                flipped = aset.head_attention(1, 0, scale=False, causal=True).weights[0][query]
                what_if = make_question(view, "what_if", "scale", models)
                assert what_if.detail["after"] == round(flipped[row.argmax()], 3) and WHAT_IF[what_if.truth] in WHAT_IF
    assert asked > 10
    for kind, change, code in (("output", None, "poll_model_kind"), ("what_if", "heads", "poll_model_kind")):
        with pytest.raises(RoomError) as refused:
            make_question({**base, "merge": False, "special": True, "query": 2}, kind, change, models)
        assert refused.value.code == code
    with pytest.raises(RoomError) as refused:
        make_question({**base, "source": {"kind": "model", "name": "model-own"}, "query": 0}, "top_key", None, models)
    assert refused.value.code == "poll_presets"
    with pytest.raises(RoomError) as refused:
        make_question({**base, "merge": False, "special": True, "layer": 7, "query": 0}, "top_key", None, models)
    assert refused.value.code == "bad_view" and refused.value.values == {"field": "layer"}
