"""The served app: one explorer per browser session, at the root path, with defaults fit for a lecture."""
from __future__ import annotations

import gc
import os

import panel as pn

from functools import partial

from attention_core import DEFAULT_PRESET

from .explorer import AttentionView
from .kinds import MAX_NAME_CHARS
from .lesson_check import built_in_page_lesson
from .lessons import lesson_names
from .models import SharedHeads, model_params, page_sets
from .oembed import discovery_link, oembed_patterns
from .memory import MemoryReclaimer
from .room_socket import RoomHub, room_patterns
from .rooms import REPORT_DAYS, Rooms
from .strings import text

LECTURE_SECONDS = 3 * 60 * 60
#: How long a session whose websocket dropped is kept for the browser to reconnect to it.
RECONNECT_GRACE_MS = 5 * 60 * 1000
MAX_URL_BYTES = 1 << 20
#: Bokeh's bundles the page never needs. Panel's own JavaScript imports bokeh-widgets and
#: bokeh-tables when it loads (without them no Panel model registers), but nothing loads
#: bokeh-gl (WebGL glyphs; 56 kB gzipped) unless a plot draws with WebGL, and the page has no plot.
UNUSED_BUNDLES = ("bokeh-gl",)
#: the page's icon, drawn in the page (two tokens' columns and the lines between them): no request,
#: where Panel's favicon.ico is 15.6 kB and a page that writes its URL fetched it twice
ICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
        "%3Cpath d='M4 3L12 3M4 3L12 8M4 8L12 13' stroke='%231f6fb2' stroke-width='2'/%3E"
        "%3Ccircle cx='3' cy='3' r='2' fill='%23333'/%3E%3Ccircle cx='3' cy='8' r='2' fill='%23333'/%3E"
        "%3Ccircle cx='13' cy='13' r='2' fill='%23333'/%3E%3C/svg%3E")
#: Panel's page with a viewport (without it a phone lays the page out 980 px wide and shrinks it),
#: the page's own icon, and its script tags less those of UNUSED_BUNDLES.
PAGE_TEMPLATE = """{% block preamble %}
<link rel="icon" href="ICON">
<meta name="viewport" content="width=device-width, initial-scale=1">
{% endblock %}
{% block js_resources %}{% for tag in bokeh_js.split('</script>') %}{% if not (UNUSED | select('in', tag) | list) %}{{ tag }}{{ '</script>' if not loop.last }}{% endif %}{% endfor %}{% endblock %}
{% block contents %}<main>{{ super() }}</main>{% endblock %}
""".replace("UNUSED", repr(list(UNUSED_BUNDLES))).replace("ICON", ICON)
#: permessage-deflate for the websocket (when the browser offers it, as every current one does):
#: the document a session opens with is mostly text (the client's module, the string table, CSS).
#: Level 3, zlib's fastest strategy still: a session's first frame 26.1 kB against 27.7 at level 1
#: (level 6: 24.1 kB for about four times the CPU), ~0.7 ms more a session (bench/first_load.py,
#: bench/session_open.py).
WEBSOCKET_COMPRESSION_LEVEL = 3
#: zlib's memory level for each websocket's compressor: 2**(mem_level + 9) bytes for its hash table
#: per open session, against 128 kB at zlib's default 8.
WEBSOCKET_COMPRESSION_MEM_LEVEL = 5


def page_template(document) -> str:
    """PAGE_TEMPLATE with the page's oEmbed discovery link (app/oembed.py) for the URL it was asked
    for (its request's; none where the session has no request, as in a test's document)."""
    context = getattr(document, "session_context", None)
    request = getattr(context, "request", None) if context is not None else None
    if request is None or not getattr(request, "host", None):
        return PAGE_TEMPLATE
    url = f"{request.protocol}://{request.host}{request.uri}"
    return PAGE_TEMPLATE.replace("{% endblock %}", discovery_link(url) + "\n{% endblock %}", 1)


def create_app():
    """Build one session's page. Everything here is per session; only preset cubes are shared.
    Of the presets and models, only the one the link opens (and the default) travel whole."""
    return AttentionView(url_sync=True, numbers_for=linked_name(pn.state.session_args or {}))


def linked_lesson(arguments: dict, default: dict | None = None) -> dict | None:
    """The lesson a page's link opens (its lesson=, a built-in's name: a link never reads a file on
    the server), else `default` (serve --lesson's); None for a name there is none of (the page
    names the lessons there are)."""
    asked = (arguments.get("lesson") or [b""])[0]
    asked = asked.decode("utf-8", "replace") if isinstance(asked, bytes) else str(asked)
    if not asked:
        return default
    return built_in_page_lesson(asked) if asked in lesson_names() else None


def linked_name(arguments: dict) -> str:
    """The name a page's link opens (its preset=, as the request's arguments hold it: name → list
    of bytes), else the default preset's."""
    asked = (arguments.get("preset") or [b""])[0]
    asked = asked.decode("utf-8", "replace") if isinstance(asked, bytes) else str(asked)
    return asked[:MAX_NAME_CHARS] or DEFAULT_PRESET


def model_app(model=None, attentions=None, sentences=(), compare=None):
    """The page factory of `serve --model DIR` or `serve --attentions FILE.npz`: the sentences are
    run once, here; each session gets its own view of them. ModelError (a ValueError) names
    what is wrong with the folder, file or sentence."""
    sets, checkpoint = page_sets(model, attentions, sentences, compare)
    # made once for every session: the overviews, and each head when a first student opens it
    params = model_params(sets, checkpoint=checkpoint)
    factory = partial(_model_page, params, SharedHeads(sets))
    factory.attention_sets = params["attention_sets"]  # what a room's questions read
    return factory


def _model_page(params: dict, shared: SharedHeads):
    own = {**params, "models": list(params["models"]), "attention_sets": dict(params["attention_sets"])}
    return AttentionView(url_sync=True, shared_heads=shared, **own)


def served_models(app):
    """name → (AttentionSet, titles) of the models every page of `app` is served, or None: a
    model app's (model_app), else the model trained here (the default app's)."""
    sets = getattr(app, "attention_sets", None)
    if sets is not None:
        return sets.get

    def trained(name: str):
        from .trained_model import default_training_entries

        return default_training_entries()[1].get(name)
    return trained


def room_hub(rooms: str | None, num_procs: int, models=None, lecturer_key: str | None = None,
             report_days: float = REPORT_DAYS) -> RoomHub:
    """The rooms' hub: kept in Redis at the URL `rooms` (an asyncio client, which connects when
    first used, after the processes have forked), else in this process's memory; models: the
    served models' sets by name (served_models), for questions on their heads; lecturer_key: what
    opening a room asks for; report_days: how long a closed room's report is kept for its lecturer."""
    report_seconds = report_days * 24 * 60 * 60
    if not rooms:
        return RoomHub(Rooms(report_seconds=report_seconds), needs_redis=num_procs > 1, models=models,
                       lecturer_key=lecturer_key)
    from .redis_rooms import RedisBus, RedisRooms, async_client, connect

    connect(rooms).close()  # a Redis that does not answer stops the server here, named
    client = async_client(rooms)
    return RoomHub(RedisRooms(client, report_seconds=report_seconds), RedisBus(client), models=models,
                   lecturer_key=lecturer_key)


def serve(port: int = 5006, address: str = "127.0.0.1", num_procs: int = 1, allow_websocket_origin=None,
          show: bool = False, app=create_app, unused_session_lifetime_ms: int | None = None, dev: bool = False,
          rooms: str | None = None, lecturer_key: str | None = None, lesson: dict | None = None,
          report_days: float = REPORT_DAYS):
    """Serve the explorer until interrupted.

    num_procs=0 starts one process per core. Sessions reconnect after a dropped connection
    (the browser retries; the server keeps the session for RECONNECT_GRACE_MS), and session
    tokens stay valid for a three-hour lecture. dev=True reloads the browser code in open
    pages when a file of static/ changes (Panel's autoreload; needs watchfiles). rooms: a Redis URL
    where the rooms live, shared by every process (app.redis_rooms); without it one process keeps
    them in memory, and several refuse to open one (a room would live in one process only).
    lecturer_key: what a lecturer types to open a room (None: anyone who reaches the server may).
    lesson: the lesson a page opens when its link names none (serve --lesson; app.lessons, checked).
    report_days: how long a closed room's report is kept for its lecturer (serve --report-days).
    """
    if num_procs == 0:
        num_procs = os.cpu_count() or 1
    origins = list(allow_websocket_origin or [])
    origins += [f"localhost:{port}", f"127.0.0.1:{port}", f"{address}:{port}"]
    pn.config.reconnect = True
    pn.config.autoreload = dev  # what `panel serve --dev` sets: components watch their _esm_path
    reclaimer = MemoryReclaimer()

    def session():
        pn.state.on_session_destroyed(reclaimer.session_destroyed)
        if pn.state.curdoc is not None:
            pn.state.curdoc.template = page_template(pn.state.curdoc)
        view = app()
        view.lesson = linked_lesson(pn.state.session_args or {}, lesson)
        return view

    hub = room_hub(rooms, num_procs, served_models(app), lecturer_key, report_days)
    # what is made so far (the libraries, the models' sentences) lives as long as the server: out of
    # the collector's full passes, which otherwise stall a room's fan-out by ~100 ms now and then
    # (bench/README §14); and shared, unwritten, by forked processes
    gc.collect()
    gc.freeze()
    pn.serve(
        {"/": session}, port=port, address=address, num_procs=num_procs,
        websocket_origin=sorted(set(origins)), show=show, title=text("app_title", "ko"),
        start=True, threaded=False,
        session_token_expiration=LECTURE_SECONDS,
        unused_session_lifetime_milliseconds=unused_session_lifetime_ms or RECONNECT_GRACE_MS,
        check_unused_sessions_milliseconds=min(17_000, unused_session_lifetime_ms or 17_000),
        # a link with a long text= must reach the page, which then explains the length limit
        http_server_kwargs={"max_header_size": MAX_URL_BYTES},
        compress_response=True,  # Bokeh's and Panel's JavaScript, gzipped when the browser accepts it
        websocket_compression_level=WEBSOCKET_COMPRESSION_LEVEL,
        websocket_compression_mem_level=WEBSOCKET_COMPRESSION_MEM_LEVEL,
        # the rooms' small JSON (app/room_socket.py): in Redis, or in one process's memory
        extra_patterns=room_patterns(hub) + oembed_patterns(),
    )
