"""attention-viz serve's lecture defaults, checked by catching what it hands to Panel."""
import panel as pn
import pytest

from app import AttentionView, server
from attention_core import PRESETS


@pytest.fixture
def served(monkeypatch):
    calls = {}
    monkeypatch.setattr(pn, "serve", lambda apps, **kwargs: calls.update(apps=apps, **kwargs))
    monkeypatch.setattr(pn.config, "reconnect", False)
    return calls


def test_serve_defaults_outlast_a_lecture_and_reconnect(served):
    import gc

    gc.unfreeze()
    server.serve(port=6001)
    # what exists before serving (libraries, models) is out of the collector's full passes (bench/README §14)
    assert gc.get_freeze_count() > 10_000
    gc.unfreeze()
    assert pn.config.reconnect is True
    assert served["session_token_expiration"] >= 2 * 60 * 60
    assert served["unused_session_lifetime_milliseconds"] >= 60_000
    assert list(served["apps"]) == ["/"]
    assert {"localhost:6001", "127.0.0.1:6001"} <= set(served["websocket_origin"])
    assert served["http_server_kwargs"]["max_header_size"] >= 200_000  # room for a long text= link


def test_num_procs_zero_means_one_per_core(served, monkeypatch):
    monkeypatch.setattr(server.os, "cpu_count", lambda: 2)
    server.serve(port=6002, num_procs=0, allow_websocket_origin=["course.example.edu"])
    assert served["num_procs"] == 2
    assert "course.example.edu" in served["websocket_origin"]


def test_rooms_go_in_redis_when_given_and_a_redis_that_does_not_answer_stops_serve_named(served, redis_url):
    """serve(rooms=URL) gives the rooms' websocket a hub on Redis; the command line refuses a URL
    that is not Redis's, or a Redis that does not answer, with a message and exit status 2."""
    import subprocess
    import sys

    from app.redis_rooms import RedisBus, RedisRooms
    from support import ROOT, cli_command

    server.serve(port=6003, num_procs=2, rooms=redis_url)
    routes = dict(served["extra_patterns"])
    assert set(routes) == {"/room", "/oembed"}
    hub = server.room_hub(redis_url, 2, report_days=7)
    assert isinstance(hub.rooms, RedisRooms) and isinstance(hub.bus, RedisBus) and not hub.needs_redis
    assert hub.rooms.report_seconds == 7 * 24 * 60 * 60  # serve --report-days
    assert server.room_hub(None, 2).needs_redis and not server.room_hub(None, 1).needs_redis
    assert server.room_hub(None, 1, report_days=0.5).rooms.report_seconds == 12 * 60 * 60
    for url, said in (("nowhere", "--rooms takes a Redis URL such as redis://127.0.0.1:6379/0, not 'nowhere'"),
                      ("redis://127.0.0.1:1/0", "Redis at redis://127.0.0.1:1/0 does not answer")):
        done = subprocess.run(cli_command("serve", "--port", "1", "--rooms", url), cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 2 and said in done.stderr


def test_each_session_panel_opens_gets_its_own_explorer_and_gives_memory_back(served, monkeypatch):
    registered = []
    monkeypatch.setattr(pn.state, "on_session_destroyed", registered.append)
    server.serve(port=6003)
    session = served["apps"]["/"]  # what Panel calls for each browser session
    first, second = session(), session()
    assert isinstance(first, AttentionView) and isinstance(second, AttentionView) and first is not second
    assert first.url_sync and second.url_sync
    first.query = 0
    assert second.query == PRESETS[second.preset].default_query  # one student's click is not another's
    assert len(registered) == 2 and all(callable(callback) for callback in registered)


def test_dev_mode_turns_on_panels_autoreload(served, monkeypatch):
    monkeypatch.setattr(pn.config, "autoreload", False)
    server.serve(port=6004, dev=True)
    assert pn.config.autoreload is True
    server.serve(port=6005)
    assert pn.config.autoreload is False


def test_the_served_page_has_a_viewport_and_its_javascript_goes_out_gzipped(served_app):
    import gzip
    import re
    import urllib.request

    with urllib.request.urlopen(served_app) as response:
        html = response.read().decode("utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    # the page's own icon, inline: no favicon.ico request (15.6 kB from Panel)
    assert f'<link rel="icon" href="{server.ICON}">' in html and "favicon.ico" not in html
    script = re.search(r'<script type="text/javascript" src="([^"]+bokeh[^"]*\.js[^"]*)"', html).group(1)
    url = served_app.rstrip("/") + "/" + script.lstrip("./")
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        wire = response.read()
    assert len(wire) < 0.5 * len(gzip.decompress(wire))


def test_the_served_page_leaves_out_bokeh_gl_and_keeps_the_bundles_panel_imports(served_app):
    import re
    import urllib.request

    with urllib.request.urlopen(served_app) as response:
        html = response.read().decode("utf-8")
    scripts = re.findall(r'<script type="text/javascript" src="[^"]*/([\w.-]+\.js)', html)
    assert "bokeh-gl.min.js" not in scripts
    assert {"bokeh.min.js", "bokeh-widgets.min.js", "bokeh-tables.min.js", "panel.min.js"} <= set(scripts)
    assert html.count("<script") == html.count("</script>")  # no tag cut in two by the filter


def test_the_served_websocket_is_compressed_when_the_client_offers_it(served_app):
    import asyncio
    import re
    import urllib.request

    from tornado.websocket import websocket_connect

    with urllib.request.urlopen(served_app) as response:
        token = re.search(r'"token":\s*"([^"]+)"', response.read().decode("utf-8")).group(1)

    async def extensions(offer):
        ws_url = served_app.replace("http://", "ws://") + "ws"
        socket = await websocket_connect(ws_url, subprotocols=["bokeh", token], compression_options=offer)
        try:
            return socket.headers.get("Sec-WebSocket-Extensions", "")
        finally:
            socket.close()

    assert "permessage-deflate" in asyncio.run(extensions({}))
    assert "permessage-deflate" not in asyncio.run(extensions(None))  # and plain frames to a client that does not


def test_the_served_client_comes_over_http_gzipped_not_in_the_websocket(served_app):
    import gzip
    import urllib.request
    from app import client

    url = served_app.rstrip("/") + "/" + AttentionView._component_resource_path(client.BUNDLE, True)
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        wire = response.read()
    assert gzip.decompress(wire).decode("utf-8") == client.BUNDLE.read_text(encoding="utf-8")
    assert len(wire) < 0.4 * len(gzip.decompress(wire))  # compressed, not sent as it is
    # each chunk it imports on first use, at the address the import names (relative to the bundle's)
    import re
    from urllib.parse import urljoin
    named = set(re.findall(r'"(\.\./_js/AttentionView\.chunk-\w+\.js)"', "".join(
        path.read_text(encoding="utf-8") for path in [client.BUNDLE, *client.chunks()])))
    assert named and {name.rsplit("/", 1)[1] for name in named} <= {path.name for path in client.chunks()}
    from tornado.web import GZipContentEncoding
    for name in named:
        request = urllib.request.Request(urljoin(url, name), headers={"Accept-Encoding": "gzip"})
        text = client.BUNDLE.with_name(name.rsplit("/", 1)[1]).read_text(encoding="utf-8")
        with urllib.request.urlopen(request) as response:
            body, zipped = response.read(), response.headers["Content-Encoding"] == "gzip"
            # Tornado may send a short file as it is
            assert zipped or len(text.encode("utf-8")) < GZipContentEncoding.MIN_LENGTH, name
            assert (gzip.decompress(body) if zipped else body).decode("utf-8") == text
    # and so does its stylesheet, which the session's document names by address, not by text
    from panel.io.resources import component_resource_path
    url = served_app.rstrip("/") + "/" + component_resource_path(AttentionView, "_stylesheets", client.STYLESHEET)
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        assert response.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.read()).decode("utf-8") == client.STYLESHEET.read_text(encoding="utf-8")
