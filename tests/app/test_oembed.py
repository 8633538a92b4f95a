"""oEmbed (app/oembed.py): the served page names its endpoint; the endpoint embeds this server's
links as a "rich" iframe sized as the host asks, refuses others (404) and formats it does not speak
(501), and never lets a link's text become HTML."""
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

from app.oembed import HEIGHT, MIN_WIDTH, WIDTH, oembed_reply

ORIGIN = "http://class.example:5006"


def test_a_link_to_this_explorer_is_a_rich_iframe_of_it_sized_as_asked():
    status, reply = oembed_reply({"url": f"{ORIGIN}/?lesson=hand-calculation&stop=3&lang=en", "maxwidth": "640"}, ORIGIN)
    assert status == 200 and reply["type"] == "rich" and reply["version"] == "1.0"
    assert reply["title"] == "Attention by hand" and (reply["width"], reply["height"]) == (640, HEIGHT)
    src = re.search(r'<iframe src="([^"]+)"', reply["html"]).group(1)
    assert src == f"{ORIGIN}/?lesson=hand-calculation&amp;stop=3&amp;lang=en"
    assert f'width="640" height="{HEIGHT}"' in reply["html"] and reply["provider_url"] == f"{ORIGIN}/"
    _, reply = oembed_reply({"url": f"{ORIGIN}/?preset=cat-fish", "maxwidth": "10", "maxheight": "9999"}, ORIGIN)
    assert (reply["width"], reply["height"]) == (MIN_WIDTH, HEIGHT) and "고양이" in reply["title"]
    _, reply = oembed_reply({"url": f"{ORIGIN}/"}, ORIGIN)
    assert (reply["width"], reply["height"]) == (WIDTH, HEIGHT) and reply["title"] == "어텐션 탐색기"


@pytest.mark.parametrize("arguments, status", [
    ({}, 404),
    ({"url": "http://elsewhere.example/?preset=cat-fish"}, 404),  # another server's link: not ours to embed
    ({"url": f"{ORIGIN}/room?code=ABC"}, 404),  # not the explorer
    ({"url": "javascript:alert(1)"}, 404),
    ({"url": f"{ORIGIN}/?x=" + "a" * 20_000}, 404),
    ({"url": f"{ORIGIN}/", "format": "xml"}, 501),
])
def test_what_it_has_no_embed_for_is_refused_as_the_spec_says(arguments, status):
    assert oembed_reply(arguments, ORIGIN) == (status, None)


def test_a_links_text_never_becomes_html():
    _, reply = oembed_reply({"url": f'{ORIGIN}/?preset="><script>alert(1)</script>'}, ORIGIN)
    assert "<script" not in reply["html"] and reply["html"].count("<iframe") == 1


def test_the_served_page_names_its_endpoint_and_the_endpoint_answers(served_app):
    page = served_app + "?lesson=scale-mask-heads&mode=lecture"
    with urllib.request.urlopen(page) as response:
        html = response.read().decode("utf-8")
    href = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html).group(1)
    href = href.replace("&amp;", "&")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)["url"] == [page]
    with urllib.request.urlopen(href) as response:
        assert response.headers["Content-Type"].startswith("application/json")
        reply = json.loads(response.read())
    assert reply["type"] == "rich" and f'src="{page.replace("&", "&amp;")}"' in reply["html"]
    assert reply["title"] == "√d_k, 마스크, 여러 헤드"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(served_app + "oembed?url=" + urllib.parse.quote("http://elsewhere.example/"))
    assert refused.value.code == 404
