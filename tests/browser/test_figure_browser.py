"""Figures for slides: the page's "save figure" buttons (served and exported) and `attention-viz figure`
write the view on screen, with a caption that names it, and numbers that are the core's."""
import struct
from xml.etree import ElementTree

import pytest

from attention_core import PRESETS, attention
from explorer_page import ExplorerPage
from support import cli_command, run_together

pytestmark = pytest.mark.browser
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg_path, css_class: str) -> list[str]:
    root = ElementTree.parse(svg_path).getroot()
    return [el.text for el in root.iter(f"{SVG}text") if css_class in (el.get("class") or "").split()]


def png_size(path) -> tuple[int, int]:
    with open(path, "rb") as file:
        header = file.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def assert_figure_is_the_cores(svg_path, name, heads, scale, causal, query, shown_heads):
    preset = PRESETS[name]
    weights = attention(preset.q, preset.k, preset.v, heads=heads, scale=scale, causal=causal).weights[:, query, :]
    values = [v.replace("✕ ", "") for v in texts(svg_path, "ae-fig-value")]
    expected = [f"{weights[h, j]:.3f}" for j in range(len(preset.tokens)) for h in shown_heads]
    assert values == expected
    assert texts(svg_path, "ae-fig-title") == [" ".join(preset.tokens)]
    state = texts(svg_path, "ae-fig-state")[0]
    assert f"Query: {preset.tokens[query]}" in state and f"d_k = {preset.q.shape[1] // heads}" in state


@pytest.mark.parametrize("where", ["served", "exported"])
def test_the_save_buttons_write_the_view_on_screen(page, served_app, exported, tmp_path, console_errors, where):
    url = served_app if where == "served" else exported.as_uri()
    explorer = ExplorerPage(page, url).open(preset="meet-friend", heads="4", causal="1", query="3")
    files = {}
    for kind in ("svg", "png"):
        with page.expect_download() as download:
            page.locator(f"[data-testid=figure-{kind}]").click()
        files[kind] = tmp_path / download.value.suggested_filename
        download.value.save_as(files[kind])
    assert files["svg"].name == "meet-friend_q3_h4_scale1_causal1.svg"
    assert files["png"].name == "meet-friend_q3_h4_scale1_causal1.png"
    assert_figure_is_the_cores(files["svg"], "meet-friend", 4, True, True, 3, range(4))
    svg = ElementTree.parse(files["svg"]).getroot()
    assert png_size(files["png"]) == (2 * int(svg.get("width")), 2 * int(svg.get("height")))
    assert "Noto Sans CJK KR" in files["svg"].read_text(encoding="utf-8")  # Hangul in a Korean font stack
    # one head alone is named in the file and drawn alone
    explorer.page.locator("[data-testid=head-view-2]").click()
    with page.expect_download() as download:
        page.locator("[data-testid=figure-svg]").click()
    alone = tmp_path / download.value.suggested_filename
    download.value.save_as(alone)
    assert alone.name == "meet-friend_q3_h4_scale1_causal1_head3.svg"
    assert_figure_is_the_cores(alone, "meet-friend", 4, True, True, 3, [2])
    assert console_errors == []


def test_the_command_line_writes_the_same_figure_for_a_slide(tmp_path):
    out, png = tmp_path / "slide.svg", tmp_path / "slide.png"
    # the two command lines as a user types them, each its own process, run side by side
    result, png_result = run_together(
        cli_command("figure", out, "--preset", "cat-fish", "--heads", "2", "--scale", "0", "--lang", "en"),
        cli_command("figure", png, "--preset", "cat-fish"))
    assert result.returncode == 0 and "wrote" in result.stdout, result.stderr
    assert_figure_is_the_cores(out, "cat-fish", 2, False, False, 2, range(2))
    assert "divide by √d_k: off" in texts(out, "ae-fig-state")[0]
    assert png_result.returncode == 0, png_result.stderr
    width, height = png_size(png)
    assert width == 2400 and height > 400


# Every text of a saved figure and every head's colour key, as drawn: [x0, y0, x1, y1, what].
FIGURE_BOXES = """() => {
  const box = (el, what) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom, what]; };
  return [...Array.from(document.querySelectorAll('text')).filter((t) => t.textContent.trim())
            .map((t) => box(t, t.textContent.trim())),
          ...Array.from(document.querySelectorAll('.ae-fig-key')).map((r) => box(r, 'key'))];
}"""


def overlaps(boxes, slack=0.5):
    """Pairs of boxes that share area (text with text, text with a colour key)."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[4] == b[4] == "key":
                continue
            if min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack:
                found.append((a[4], b[4]))
    return found


def test_no_text_of_a_saved_figure_runs_into_another_or_into_a_colour_key(page, exported, tmp_path):
    """Every preset, 1 to 8 heads, Korean and English: the SVG as a slide program draws it, its
    boxes taken from the SVG itself (a head's caption is cut with … to its panel, whole in <title>)."""
    explorer = ExplorerPage(page, exported.as_uri())
    failures = []
    for name, preset in PRESETS.items():
        for heads in preset.offered_heads():
            for lang in ("ko", "en"):
                explorer.open(preset=name, heads=str(heads), lang=lang)
                with page.expect_download() as download:
                    page.locator("[data-testid=figure-svg]").click()
                path = tmp_path / f"{name}-{heads}-{lang}.svg"
                download.value.save_as(path)
                figure = page.context.new_page()
                figure.goto(path.as_uri())
                found = overlaps(figure.evaluate(FIGURE_BOXES))
                figure.close()
                if found:
                    failures.append(f"{name} {heads} heads {lang}: {found[:4]}")
    assert failures == [], "\n".join(failures)
