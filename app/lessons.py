"""Lessons (docs/lessons.md): a lecturer's file of stops, each a view of the page with a note, and
optionally speaker notes, a question for the class and claims about its numbers.

The file is Markdown a person edits happily:

    # 손으로 계산하는 어텐션            the lesson's title, then its fields
    title_en: Attention by hand

    ## 스코어                            a stop: its title, then its fields
    title_en: Scores
    view: preset=cat-fish&query=2       the view, as the page's link writes it
    ask: top_key                        a question (app/questions.py QUESTIONS: kind [change])
    recall: yes                         the question asks what an earlier stop showed, on purpose
    claim: top 생선을                    a claim about the stop's numbers, checked
    note: "먹었다"의 점수는 …            the note shown with the view (Korean), and in English
    note_en: The scores of …
    speaker: …                          what the lecturer alone sees

A field's value runs on over the lines that follow it until a blank line or the next field.
parse_lesson() reads the text into a Lesson or raises LessonError naming the line; app.lesson_check
checks every stop against the core. Nothing a lesson says ever becomes HTML: its text is shown as text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

#: the most a lesson file may hold: a lecture, not a book
MAX_LESSON_CHARS = 200_000
MAX_STOPS = 200
#: the fields of the lesson and of each stop
LESSON_FIELDS = ("title_en",)
STOP_FIELDS = ("title_en", "view", "card", "ask", "recall", "claim", "note", "note_en", "speaker", "speaker_en")
#: the cards a stop may bring into view (static/explorer/layout.js VIEWS' names)
CARDS = ("calculation", "weights", "heatmap", "qkvOrigin", "whyScale", "order", "polysemy", "concatWo", "lenses")
#: fields a stop may give more than once
REPEATED = ("claim",)
_FIELD = re.compile(r"^([a-z_]+):(?:\s|$)(.*)$")


class LessonError(ValueError):
    """What is wrong with a lesson file, and where: a UI string code (err_lesson_<code>), its values
    (line: from 1; stop: from 1, where the problem is in a stop)."""

    def __init__(self, code: str, message: str, **values):
        super().__init__(message)
        self.code = code
        self.values = values

    def page_values(self) -> dict:
        """The problem as the page words it (err_lesson_<reason>, or a question's room refusal
        err_room_<room>): its code as `reason`, and its values as strings."""
        return {"reason": self.code, **{key: str(value)[:200] for key, value in self.values.items()}}

    def words(self, lang: str) -> str:
        """The problem in `lang`, as the page says it (its catalog's err_lesson_<code>, or a question's
        room refusal err_room_<room>), after where it is (stop, line)."""
        from .strings import text

        values = self.page_values()
        reason, stop, line, room = (values.pop(name, None) for name in ("reason", "stop", "line", "room"))
        said = text(f"err_room_{room}" if room else f"err_lesson_{reason}", lang, **values)
        where = text("lesson_where_stop", lang, stop=stop, line=line) if stop else (
            text("lesson_where_line", lang, line=line) if line else "")
        return f"{where}{said}"

    def __str__(self) -> str:
        where = []
        if self.values.get("stop"):
            where.append(f"stop {self.values['stop']}")
        if self.values.get("line"):
            where.append(f"line {self.values['line']}")
        return f"{', '.join(where)}: {self.args[0]}" if where else self.args[0]


@dataclass
class Stop:
    """One stop of a lesson: its title, its view (a query string the page's link reads), the card
    to bring into view, its question (kind, change), its claims, its notes; `line`: where it starts."""

    title: str
    line: int
    title_en: str = ""
    view: str = ""
    card: str = ""
    ask: str = ""
    recall: str = ""  # any value: the question asks again what an earlier stop showed, on purpose
    claim: list = field(default_factory=list)
    note: str = ""
    note_en: str = ""
    speaker: str = ""
    speaker_en: str = ""
    lines: dict = field(default_factory=dict)  # field → the line it starts on

    def question(self) -> tuple[str, str | None] | None:
        """(kind, change) of the stop's question, or None."""
        if not self.ask:
            return None
        kind, _, change = self.ask.partition(" ")
        return kind, change.strip() or None

    def as_dict(self) -> dict:
        """What the page receives: everything but where it was written."""
        return {"title": self.title, "title_en": self.title_en, "view": self.view, "card": self.card,
                "ask": list(self.question()) if self.question() else None, "claims": [claim for claim, _ in self.claim],
                "note": self.note, "note_en": self.note_en,
                "speaker": self.speaker, "speaker_en": self.speaker_en}


def lesson_language(title: str) -> str:
    """The language a lesson is written in, from its title: Korean where it has Hangul."""
    from attention_core.hangul import is_syllable

    return "ko" if any(is_syllable(ch) for ch in title or "") else "en"


@dataclass
class Lesson:
    """A lesson: its name (the built-in's, or the file's stem), title, and stops in order."""

    name: str
    title: str
    title_en: str = ""
    stops: list = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "title_en": self.title_en,
                "stops": [stop.as_dict() for stop in self.stops]}


def parse_lesson(text, name: str = "lesson") -> Lesson:
    """The lesson `text` says. LessonError for text that is not a lesson: too long, no title, a
    field it does not know, a stop without a view, a field given twice."""
    if not isinstance(text, str):
        raise LessonError("not_text", "a lesson is text")
    if len(text) > MAX_LESSON_CHARS:
        raise LessonError("too_long", f"a lesson has at most {MAX_LESSON_CHARS} characters", limit=MAX_LESSON_CHARS)
    if "\x00" in text:
        raise LessonError("not_text", "a lesson is text, and this has bytes that are not")
    lesson, stop, current = None, None, None  # current: the field whose value the next lines continue
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        if line.startswith("## "):
            if lesson is None:
                raise LessonError("no_title", "the lesson's title (# …) comes first", line=number)
            if len(lesson.stops) >= MAX_STOPS:
                raise LessonError("too_many_stops", f"a lesson has at most {MAX_STOPS} stops", line=number, limit=MAX_STOPS)
            stop, current = Stop(title=line[3:].strip(), line=number), None
            lesson.stops.append(stop)
            continue
        if line.startswith("# "):
            if lesson is not None:
                raise LessonError("two_titles", "a lesson has one title (#); a stop starts with ##", line=number)
            lesson, current = Lesson(name=name, title=line[2:].strip()), None
            continue
        if not line.strip():
            current = None
            continue
        if lesson is None:
            raise LessonError("no_title", "the lesson's title (# …) comes first", line=number)
        found = _FIELD.match(line)
        target = stop if stop is not None else lesson
        allowed = STOP_FIELDS if stop is not None else LESSON_FIELDS
        if found and found.group(1) in allowed:
            key, value = found.group(1), found.group(2).strip()
            if key in REPEATED:
                target.claim.append((value, number))
                current = None
                continue
            if getattr(target, key):
                raise LessonError("twice", f"{key} is given twice", line=number, stop=_stop_number(lesson, stop), field=key)
            setattr(target, key, value)
            if isinstance(target, Stop):
                target.lines[key] = number
            current = key
            continue
        if found and not line.startswith(" "):
            raise LessonError("unknown_field", f"no field {found.group(1)!r} here (one of: {', '.join(allowed)})",
                              line=number, stop=_stop_number(lesson, stop), field=found.group(1), allowed=", ".join(allowed))
        if current is None:
            raise LessonError("stray_text", "text outside a field: start it with note: (or another field)",
                              line=number, stop=_stop_number(lesson, stop))
        setattr(target, current, f"{getattr(target, current)}\n{line.strip()}".strip())
    if lesson is None:
        raise LessonError("no_title", "the lesson's title (# …) comes first", line=1)
    if not lesson.stops:
        raise LessonError("no_stops", "a lesson has at least one stop (## …)")
    for index, stop in enumerate(lesson.stops, start=1):
        if not stop.view:
            raise LessonError("no_view", "every stop has a view: (its link's parameters)", line=stop.line, stop=index)
    return lesson


def _stop_number(lesson: Lesson | None, stop: Stop | None) -> int | None:
    return None if lesson is None or stop is None else lesson.stops.index(stop) + 1


#: the lessons that come with the app, one Markdown file each (docs/lessons.md)
BUILT_IN = Path(__file__).resolve().parent / "lesson_files"


def lesson_names() -> list[str]:
    """The built-in lessons' names, in order."""
    return sorted(path.stem for path in BUILT_IN.glob("*.md"))


def read_lesson(source: str) -> Lesson:
    """A built-in lesson by name, or a lesson file by path: LessonError("unknown_lesson") listing the
    lessons there are for a name that is neither; ("not_text") for a file that is not UTF-8 text."""
    if source in lesson_names():
        path = BUILT_IN / f"{source}.md"
    else:
        path = Path(source)
        if not path.is_file():
            raise LessonError("unknown_lesson", f"no lesson {source!r}: the lessons are {', '.join(lesson_names())}, "
                                                f"or a lesson file's path", value=source, names=", ".join(lesson_names()))
    data = path.read_bytes()
    if len(data) > MAX_LESSON_CHARS * 4:
        raise LessonError("too_long", f"a lesson has at most {MAX_LESSON_CHARS} characters", limit=MAX_LESSON_CHARS)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LessonError("not_text", f"a lesson is UTF-8 text; byte {error.start} is not") from None
    return parse_lesson(text, name=path.stem)
