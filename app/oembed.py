"""oEmbed (https://oembed.com): a course page that understands it embeds a view or a lesson from its
link alone. The served page names its endpoint in a <link rel="alternate"
type="application/json+oembed">; `/oembed?url=LINK[&maxwidth=W][&maxheight=H][&format=json]`
answers with a "rich" embed: an iframe of that link on this server, sized as asked.

Only links to this server's explorer are embedded (another host, another path: 404, as the spec
says for a URL the provider has no embed for); only JSON is spoken (format=xml: 501). The link is
the user's text: it goes into the iframe's src attribute escaped, and nothing else of it becomes
HTML.
"""
from __future__ import annotations

import html
import json
from urllib.parse import parse_qs, quote, urlsplit

from attention_core import PRESETS

from .lessons import lesson_names, read_lesson
from .strings import text

#: the embed's size when the host asks for none: the lecture's 4:3 at the width a course page has
WIDTH, HEIGHT = 960, 720
#: the smallest embed that still shows the explorer
MIN_WIDTH, MIN_HEIGHT = 320, 480
#: the longest link read (a lesson carried in its link is a few kB)
MAX_URL_CHARS = 16_000


def discovery_link(page_url: str) -> str:
    """The page's <link> naming its oEmbed endpoint for `page_url` (the page as it was asked for):
    an absolute URL on the page's own server, as consumers expect."""
    parts = urlsplit(page_url)
    href = f"{parts.scheme}://{parts.netloc}/oembed?url=" + quote(page_url, safe="")
    return f'<link rel="alternate" type="application/json+oembed" href="{html.escape(href)}" title="{html.escape(text("app_title", "ko"))}">'


def _size(value: str | None, default: int, least: int) -> int:
    """A host's maxwidth / maxheight: the default within it, never under `least`."""
    if value is None or not value.isdigit():
        return default
    return max(least, min(default, int(value)))


def _title(url: str) -> str:
    """What the link shows, in words: its lesson's title, its sentence's, or the app's."""
    arguments = parse_qs(urlsplit(url).query)
    lang = (arguments.get("lang") or ["ko"])[0]
    lang = lang if lang in ("ko", "en") else "ko"
    lesson = (arguments.get("lesson") or [""])[0]
    if lesson in lesson_names():
        read = read_lesson(lesson)
        return (read.title_en if lang == "en" and read.title_en else read.title)[:200]
    preset = (arguments.get("preset") or [""])[0]
    if preset in PRESETS:
        return f"{text('app_title', lang)}: {getattr(PRESETS[preset], f'title_{lang}')}"
    return text("app_title", lang)


def oembed_reply(arguments: dict, origin: str) -> tuple[int, dict | None]:
    """(HTTP status, the oEmbed JSON or None) for a request's arguments (name → first value, str)
    on the server at `origin` (scheme://host[:port])."""
    url = arguments.get("url")
    if (arguments.get("format") or "json") != "json":
        return 501, None
    if not url or len(url) > MAX_URL_CHARS:
        return 404, None
    parts, home = urlsplit(url), urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.netloc != home.netloc or parts.path not in ("", "/"):
        return 404, None
    width = _size(arguments.get("maxwidth"), WIDTH, MIN_WIDTH)
    height = _size(arguments.get("maxheight"), HEIGHT, MIN_HEIGHT)
    title = _title(url)
    frame = (f'<iframe src="{html.escape(url)}" width="{width}" height="{height}" title="{html.escape(title)}" '
             f'style="border:0;max-width:100%" loading="lazy" allow="clipboard-write; fullscreen"></iframe>')
    return 200, {"version": "1.0", "type": "rich", "provider_name": text("app_title", "en"),
                 "provider_url": f"{home.scheme}://{home.netloc}/", "title": title,
                 "width": width, "height": height, "html": frame}


def oembed_patterns() -> list:
    """The Tornado route of /oembed, for pn.serve's extra_patterns."""
    from tornado.web import RequestHandler

    class OEmbed(RequestHandler):
        def get(self):
            arguments = {name: self.get_query_argument(name, None) for name in ("url", "format", "maxwidth", "maxheight")}
            status, reply = oembed_reply(arguments, f"{self.request.protocol}://{self.request.host}")
            self.set_status(status)
            if reply is None:
                self.finish()
                return
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.set_header("Access-Control-Allow-Origin", "*")  # a host's page may ask from its own origin
            self.finish(json.dumps(reply, ensure_ascii=False))

    return [("/oembed", OEmbed)]
