"""The `attention-viz` command: serve the explorer, export it as one HTML file, write a figure or a worksheet."""
from __future__ import annotations

import argparse
import os
import sys

from .constants import LANGUAGES, PRACTICE_BANK
from .rooms import REPORT_DAYS
from .models import EXPORT_BUDGET, STEPS_MAX



def _refused_flags(args, flags: tuple[str, ...], what: str) -> bool:
    """Whether export was given any of `flags`, which `what` cannot take: then it is said in one line."""
    given = [flag for flag in flags if getattr(args, flag[2:].replace("-", "_"))]
    if given:
        print(f"attention-viz export: error: {what}: drop {', '.join(given)}", file=sys.stderr)
    return bool(given)


def _bank(practice: int | None) -> int:
    """The practice problems a file carries: --practice, or the whole bank when it is not given."""
    return PRACTICE_BANK if practice is None else practice

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="attention-viz", description="Attention Explorer")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the explorer for a class")
    serve.add_argument("--port", type=int, default=5006)
    serve.add_argument("--address", default="127.0.0.1")
    serve.add_argument("--num-procs", type=int, default=1, help="worker processes (0 = one per core)")
    serve.add_argument("--allow-websocket-origin", action="append", default=[], metavar="HOST[:PORT]",
                       help="a host allowed to embed or proxy the app (repeatable)")
    serve.add_argument("--show", action="store_true", help="open a browser")
    serve.add_argument("--dev", action="store_true",
                       help="reload the browser code when a file in static/ changes (needs the dev extra: watchfiles)")
    serve.add_argument("--model", metavar="DIR", help="a Hugging Face checkpoint folder (config.json, model.safetensors, "
                       "tokenizer.json; BERT or GPT-2), run here in NumPy")
    serve.add_argument("--compare", metavar="DIR", help="a second checkpoint folder with the same tokenizer and shape: "
                       "each head shows A1 - A2 against it")
    serve.add_argument("--attentions", metavar="FILE.npz", help="attention weights computed elsewhere (tokens, attentions)")
    serve.add_argument("--sentence", action="append", default=[], metavar="TEXT",
                       help="a sentence for --model (repeatable; default: the book's)")
    serve.add_argument("--rooms", metavar="redis://HOST:PORT/DB",
                       help="keep the rooms (a lecturer's class, live) in Redis, shared by every process of the "
                            "app: needed with --num-procs above 1 or several servers behind one proxy")
    serve.add_argument("--lecturer-key", metavar="KEY", default=None,
                       help="opening a room asks for this key (default: the AE_LECTURER_KEY environment variable; "
                            "without either, anyone who reaches the server may open a room)")
    serve.add_argument("--report-days", type=float, default=REPORT_DAYS, metavar="DAYS",
                       help=f"keep a closed room's report (the class's answers, anonymous) this many days for its "
                            f"lecturer (default {REPORT_DAYS}; in Redis with --rooms, else in the server's memory)")
    serve.add_argument("--lesson", metavar="FILE|NAME", help="the lesson a page opens when its link names none: a "
                       "lesson file (docs/lessons.md) or a built-in's name; a lesson with a problem is refused, named")
    serve.add_argument("--unused-session-lifetime", type=int, default=None, metavar="MS",
                       help="keep a disconnected session this long for reconnects (default 300000)")
    export = commands.add_parser("export", help="write one self-contained HTML file")
    export.add_argument("out", metavar="OUT.html")
    export.add_argument("--preset", action="append", default=[], metavar="NAME",
                        help="a preset to include (repeatable; default: all)")
    export.add_argument("--sentence", action="append", default=[], metavar="TEXT",
                        help="an extra sentence with toy Q/K/V, or with --model run through the model (repeatable)")
    export.add_argument("--model", metavar="DIR", help="a Hugging Face checkpoint folder (BERT or GPT-2): every layer "
                        f"and head in the file (every step up to {STEPS_MAX} tokens, the weights beyond; the views that "
                        f"fit in {EXPORT_BUDGET / 1e6:.0f} MB)")
    export.add_argument("--compare", metavar="DIR", help="a second checkpoint folder with the same tokenizer and shape: "
                        "each head shows A1 - A2 against it")
    export.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0])
    export.add_argument("--resources", choices=["inline", "cdn"], default="inline",
                        help="inline: the standalone page, about 0.29 MB, works offline from file:// (default); cdn: the "
                             "Panel page itself, loading Bokeh/Panel from CDNs (about 0.9 MB, and needs the network)")
    export.add_argument("--csp-safe", action="store_true", help="the script as a plain inline module (about 90 kB "
                        "larger), for a site whose Content-Security-Policy allows script-src 'unsafe-inline' but not "
                        "blob: (README: Embed in a course website)")
    export.add_argument("--practice", type=int, default=None, metavar="COUNT",
                        help=f"practice problems 1 to COUNT carried in the file (default {PRACTICE_BANK}; 0 for none); "
                             "with --scorm, the problems graded (default: none beside --lesson, 5 alone; at most 10)")
    export.add_argument("--lesson", metavar="FILE|NAME", help="a lesson the file opens (docs/lessons.md): a lesson file "
                        "or a built-in's name; a lesson with a problem is refused, named")
    export.add_argument("--scorm", action="store_true", help="write OUT.zip, a SCORM 1.2 package of --lesson and/or "
                        "--practice problems for a course's LMS (Moodle, Canvas, …): graded by the fair checker, progress "
                        "kept by the LMS; docs/lms.md")
    export.add_argument("--mastery", type=float, default=None, metavar="PERCENT",
                        help="with --scorm: the score that passes (0-100); without it the package reports completed")
    export.add_argument("--moodle-xml", action="store_true", help="write practice problems 1 to --practice as a Moodle "
                        "question bank (OUT.xml, Moodle XML: one Cloze question each, graded as our checker grades; "
                        "docs/lms.md) instead of a page")
    imported = commands.add_parser("import", help="write one HTML file of attention weights computed elsewhere (.npz)")
    imported.add_argument("file", metavar="FILE.npz", help="tokens (n) and attentions (layers, heads, n, n); q, k, v optional")
    imported.add_argument("--out", metavar="OUT.html", help="default: FILE.html beside it")
    imported.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0])
    worksheet = commands.add_parser("worksheet", help="write a print-ready worksheet of practice problems, with an answer key")
    worksheet.add_argument("out", metavar="OUT.html")
    worksheet.add_argument("--count", type=int, default=10, help="how many problems (default 10)")
    worksheet.add_argument("--seed", type=int, default=1, help="which problems: the same seed gives the same sheet")
    worksheet.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0])
    worksheet.add_argument("--every-problem", action="store_true",
                           help="draw from all 9,999 problems (only the served explorer checks those past 100; "
                                "by default every number can be checked in the exported file too)")
    figure = commands.add_parser("figure", help="write the lines-and-bars figure of one view, for a slide")
    figure.add_argument("out", metavar="OUT.svg|OUT.png", help="SVG (text as text) or PNG (twice the size)")
    figure.add_argument("--preset", default="meet-friend", metavar="NAME")
    figure.add_argument("--query", type=int, default=None, help="the query token's index (default: the preset's)")
    figure.add_argument("--heads", type=int, default=1)
    figure.add_argument("--scale", type=int, choices=[0, 1], default=1, help="divide by √d_k")
    figure.add_argument("--causal", type=int, choices=[0, 1], default=0, help="the causal mask")
    figure.add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0])
    ahead = commands.add_parser("next", help="what a causal checkpoint (GPT-2, Llama, Qwen2, Mistral) says next, "
                                "and with --lens where in its layers that guess formed")
    ahead.add_argument("--model", required=True, metavar="DIR", help="a Hugging Face checkpoint folder")
    ahead.add_argument("--text", required=True, metavar="TEXT", help="the words the model goes on from")
    ahead.add_argument("--top-k", type=int, default=10, metavar="K", help="how many next tokens (1 to 100; default 10)")
    ahead.add_argument("--temperature", type=float, default=1.0, metavar="T", help="softmax(z / T) (0.05 to 10; default 1)")
    ahead.add_argument("--lens", action="store_true", help="also each layer's guess at the last token (the logit lens)")
    ahead.add_argument("--json", action="store_true", help="print JSON: tokens, top [{token, id, probability}], lens")
    lesson = commands.add_parser("lesson", help="lessons: check a lesson file against the numbers it shows")
    lesson_commands = lesson.add_subparsers(dest="lesson_command", required=True)
    check = lesson_commands.add_parser("check", help="say OK, or name the stop and line of each problem (exit status 2)")
    check.add_argument("files", nargs="+", metavar="FILE|NAME", help="a lesson file (docs/lessons.md), or a built-in's name")
    check.add_argument("--shows", action="store_true", help="for a good lesson, each question's stop: what it shows "
                       "before the answer, held (projector, deck, walked alone, SCORM, assigned link) and on the "
                       "lecturer's laptop; a room's poll holds the whole row (app/stop_shows.py)")
    check.add_argument("--lang", choices=("ko", "en"), help="the language of what it says (default: the lesson's own, "
                       "Korean for a lesson with a Korean title)")
    return parser


def _checked_lesson(source: str):
    """(the lesson `source` names, or None; its problems: LessonErrors, empty when it is good)."""
    from .lesson_check import lesson_problems
    from .lessons import LessonError, read_lesson
    try:
        lesson = read_lesson(source)
    except LessonError as error:
        return None, [error]
    return lesson, lesson_problems(lesson)


def _page_lesson_or_none(command: str, source: str | None):
    """serve's and export's --lesson: the page's copy of the lesson (None without one), or False
    when it has a problem, each printed in lesson check's words."""
    if not source:
        return None
    from .lesson_check import page_lesson
    lesson, problems = _checked_lesson(source)
    for problem in problems:
        print(f"attention-viz {command}: error: {source}: {problem}", file=sys.stderr)
    return False if problems else page_lesson(lesson)


def _check_lessons(sources, lang: str | None = None, shows: bool = False) -> int:
    """`lesson check`: each lesson OK, or each of its problems named, in `lang` or the lesson's own
    language (English for a file that is not a lesson); 2 if any has one."""
    from .lessons import lesson_language

    status = 0
    for source in sources:
        lesson, problems = _checked_lesson(source)
        if problems:
            status = 2
            said = lang or (lesson_language(lesson.title) if lesson else "en")
            for problem in problems:
                print(f"{source}: {problem if said == 'en' else problem.words(said)}", file=sys.stderr)
        else:
            asked = sum(1 for stop in lesson.stops if stop.ask)
            print(f"{source}: OK ({len(lesson.stops)} stops, {asked} questions)")
            if shows:
                from .lesson_check import question_shows

                for row in question_shows(lesson):
                    print(f"  stop {row['stop']} ({row['ask']}): held: {', '.join(row['held']) or 'nothing of the row'}; "
                          f"laptop: {', '.join(row['open'])}")
    return status


def _write(command: str, write, describe, out) -> int:
    """Run write() (which returns the size it wrote); print what was written, or the error and 2."""
    try:
        size = write()
    except (ValueError, RuntimeError, OSError) as error:
        print(f"attention-viz {command}: error: {error}", file=sys.stderr)
        return 2
    print(f"wrote {out}: {describe(size)}")
    return 0


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from .server import create_app, model_app, serve
        app = create_app
        if args.model or args.attentions:
            try:  # run the sentences once, before any student connects: a bad folder stops here, named
                app = model_app(model=args.model, attentions=args.attentions, sentences=args.sentence, compare=args.compare)
            except ValueError as error:
                print(f"attention-viz serve: error: {error}", file=sys.stderr)
                return 2
        if args.rooms:
            from .redis_rooms import connect
            try:  # a Redis that does not answer stops here, named
                connect(args.rooms).close()
            except ValueError as error:
                print(f"attention-viz serve: error: {error}", file=sys.stderr)
                return 2
        lesson = _page_lesson_or_none("serve", args.lesson)
        if lesson is False:
            return 2
        print(f"Attention Explorer: http://{args.address}:{args.port}/", flush=True)
        serve(port=args.port, address=args.address, num_procs=args.num_procs,
              allow_websocket_origin=args.allow_websocket_origin, show=args.show, app=app,
              unused_session_lifetime_ms=args.unused_session_lifetime, dev=args.dev, rooms=args.rooms,
              report_days=args.report_days,
              lecturer_key=args.lecturer_key or os.environ.get("AE_LECTURER_KEY") or None,
              lesson=lesson)
    elif args.command == "export" and args.scorm:
        from .scorm import graded_practice, write_scorm
        if _refused_flags(args, ("--preset", "--sentence", "--model", "--compare", "--moodle-xml", "--csp-safe"),
                          "--scorm packages a lesson and practice problems"):
            return 2
        lesson = _page_lesson_or_none("export", args.lesson) if args.lesson else None
        if lesson is False:
            return 2
        try:
            graded = graded_practice(args.practice, lesson)
        except ValueError as error:
            print(f"attention-viz export: error: {error}", file=sys.stderr)
            return 2
        what = " and ".join(([lesson["name"]] if lesson else []) + ([f"practice problems 1 to {graded}"] if graded else []))
        return _write("export", lambda: write_scorm(args.out, lesson, graded, args.lang, args.mastery),
                      lambda size: f"a SCORM 1.2 package of {what}, {size:,} bytes", args.out)
    elif args.command == "export" and args.moodle_xml:
        from .moodle import write_moodle_xml
        if _refused_flags(args, ("--preset", "--sentence", "--model", "--compare", "--lesson", "--csp-safe"),
                          "--moodle-xml writes the practice problems alone"):
            return 2
        return _write("export", lambda: write_moodle_xml(args.out, _bank(args.practice), args.lang),
                      lambda size: f"{_bank(args.practice)} practice problems as Moodle XML, {size:,} bytes", args.out)
    elif args.command == "export":
        from .export import export_html
        lesson = _page_lesson_or_none("export", args.lesson)
        if lesson is False:
            return 2
        return _write("export", lambda: export_html(
            args.out, presets=args.preset or None, sentences=args.sentence, lang=args.lang,
            resources=args.resources, practice=_bank(args.practice), model=args.model, compare=args.compare,
            lesson=lesson, csp_safe=args.csp_safe),
            lambda size: f"{size:,} bytes ({size / 1e6:.2f} MB, resources={args.resources})", args.out)
    elif args.command == "import":
        from pathlib import Path

        from .export import export_html
        out = args.out or str(Path(args.file).with_suffix(".html"))
        return _write("import", lambda: export_html(out, lang=args.lang, attentions=args.file, practice=0),
                      lambda size: f"{size:,} bytes", out)
    elif args.command == "worksheet":
        from .worksheet import write_worksheet
        return _write("worksheet", lambda: write_worksheet(args.out, count=args.count, seed=args.seed, lang=args.lang,
                                                                          every=args.every_problem),
                      lambda size: f"{args.count} problems and their answer key, {size:,} bytes; print it on A4", args.out)
    elif args.command == "lesson":
        return _check_lessons(args.files, args.lang, args.shows)
    elif args.command == "next":
        from .next_token import main as next_main
        return next_main(args)
    elif args.command == "figure":
        from .figure import write_figure
        return _write("figure", lambda: write_figure(
            args.out, preset=args.preset, query=args.query, heads=args.heads, scale=bool(args.scale),
            causal=bool(args.causal), lang=args.lang), lambda size: f"{size:,} bytes", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
