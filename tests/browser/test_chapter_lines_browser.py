"""Each chapter view shows, beside it, the book's own sentence it illustrates, in the page's language."""
from playwright.sync_api import expect

from app.strings import text

#: the view's test id → its chapter line's string, opened by (preset, the view's own switch)
VIEWS = {"order": ("chapter_order", "cat-fish"), "poly": ("chapter_polysemy", "cat-fish"),
         "why-scale": ("chapter_why_scale", "why-scale"), "qkv": ("chapter_qkv", "cat-fish"),
         "concat": ("chapter_concat", "meet-friend")}


def test_each_chapter_view_shows_the_books_sentence_beside_it(in_file):
    for lang in ("ko", "en"):
        for testid, (key, preset) in VIEWS.items():
            in_file.open(preset=preset, lang=lang)
            line = in_file.page.locator(f"[data-testid={testid}-chapter]")
            expect(line).to_have_count(1)
            expect(line).to_have_text(text(key, lang))
