"""A room's rules (app/rooms.py): only the lecturer's secret drives it, every view is checked field
by field, students join and leave anonymously up to a limit, rooms expire when idle, messages are
rate-limited, and codes are not guessable in practice (the stores and the hub: test_room_hub.py)."""
from __future__ import annotations

import itertools
import json
import re

import numpy as np
import pytest

from app.rooms import (MAX_READINGS, RATE_BURST, RATE_PER_SECOND, AddressLimits, RateLimit, RoomError, checked_view,
                       guesses_to_find_a_room)
from room_pages import VIEW


class Clock:
    """Seconds that pass only when a test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


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


def test_a_connection_s_messages_are_rate_limited_with_a_burst():
    clock = Clock()
    limit = RateLimit(clock=clock)
    assert sum(limit.allow() for _ in range(100)) == RATE_BURST
    clock.now += 1
    assert sum(limit.allow() for _ in range(100)) == int(RATE_PER_SECOND)
    clock.now += 60  # a quiet minute refills the burst, no more
    assert sum(limit.allow() for _ in range(100)) == RATE_BURST


def test_an_address_s_actions_are_limited_each_on_its_own_and_a_hall_s_joins_pass():
    clock = Clock()
    limits = AddressLimits({"open": (1 / 60, 10), "identity": (50.0, 3000)}, clock)
    assert sum(limits.allow("open", "10.0.0.1") for _ in range(30)) == 10
    assert limits.allow("open", "10.0.0.2")  # another address has its own
    assert sum(limits.allow("identity", "10.0.0.1") for _ in range(2000)) == 2000  # a hall behind one NAT
    assert limits.allow("anything else", "10.0.0.1")
    clock.now += 60
    assert limits.allow("open", "10.0.0.1") and not limits.allow("open", "10.0.0.1")


def test_guessing_a_room_s_code_at_the_rate_limit_takes_longer_than_a_lecture():
    """Codes per second one connection can try is the rate limit, each typed code read at most
    MAX_READINGS ways; with 200 rooms open (a busy store), hitting any one takes on average more
    than a day."""
    found = guesses_to_find_a_room(200)
    assert found["codes"] == 31 ** 6
    assert found["seconds"] == pytest.approx(31 ** 6 / 200 / 2 / MAX_READINGS / RATE_PER_SECOND)
    assert found["seconds"] > 24 * 3600


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


def test_each_question_kind_is_one_definition_the_room_and_the_page_read(monkeypatch):
    """app/questions.py QUESTIONS: a kind's truth, answer rule, outcomes and ask buttons in one
    entry; the page gets the table (constants.questions.kinds) and draws each kind from its
    entry in room_poll.js KINDS; every button's words exist in every language."""
    from dataclasses import replace

    from app.explorer import AttentionView
    from app.questions import QUESTIONS, Question, answer_value, make_question, question_table
    from app.rooms import Poll
    from app.strings import STRINGS
    from support import ROOT

    table = json.loads(AttentionView._rest_text)["constants"]["questions"]["kinds"]  # as the page parses it (with the rest)
    assert table == question_table() and list(table) == ["top_key", "what_if", "output"]
    assert [ask["change"] for ask in table["what_if"]["asks"]] == ["scale", "causal", "heads"] and table["output"]["typed"]
    for kind in table.values():
        for ask in kind["asks"]:
            assert all(ask["words"] in STRINGS[lang] for lang in STRINGS), ask
    card = (ROOT / "static" / "explorer" / "room_poll.js").read_text(encoding="utf-8")
    drawn = card[card.index("export const KINDS = {"):card.index("export function createPollCard")]
    assert set(re.findall(r"^  (\w+): \{", drawn, flags=re.M)) == set(QUESTIONS)
    # a kind added to the registry is asked, answered and offered with no other change
    view = {**VIEW, "heads": 1}
    always_first = replace(QUESTIONS["top_key"], make=lambda v, change, models: Question("first", 2, 0, tokens=["a", "b"]))
    monkeypatch.setitem(QUESTIONS, "first", always_first)
    asked = make_question(view, "first")
    poll = Poll.asked(1, view, asked)
    assert asked.truth == 0 and answer_value(poll, 1) == 1 and "first" in question_table()
    with pytest.raises(RoomError):
        answer_value(poll, 2)
    with pytest.raises(RoomError) as refused:
        make_question(view, "nope")
    assert refused.value.code == "bad_question"


def test_a_room_view_may_carry_a_lesson_stops_words_as_text_and_nothing_else():
    words = {"title": "스코어", "note": "<b>먹었다</b> 행은 (1, 6, 4)예요.", "title_en": "Scores", "note_en": "The row."}
    assert checked_view({**VIEW, "note": words})["note"] == words
    for bad in ({"title": 3}, {"script": "x"}, {"note": "가" * 2001}, "스코어", ["note"]):
        with pytest.raises(RoomError) as refused:
            checked_view({**VIEW, "note": bad})
        assert refused.value.values == {"field": "note"}
    assert "note" not in checked_view(VIEW)  # a view without a lesson carries none
