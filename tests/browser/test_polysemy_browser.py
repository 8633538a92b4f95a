"""The same word in two sentences, on the page (served and exported, Korean and English): its
weights, outputs, cosines and picture are attention_core.polysemy's."""
import pytest
from playwright.sync_api import expect

from app.constants import CONSTANTS
from app.strings import text
from explorer_page import ExplorerPage

pytestmark = pytest.mark.browser
DATA = CONSTANTS["polysemy"]


def vector(values, digits) -> str:
    return "(" + ", ".join(f"{x:.{digits}f}" for x in values) + ")"


@pytest.mark.parametrize("where, lang", [("served", "ko"), ("exported", "en")])
def test_the_card_shows_the_cores_weights_outputs_and_cosines(page, served_app, exported, console_errors, where, lang):
    base = served_app if where == "served" else exported.as_uri()
    ExplorerPage(page, base).open(preset="meet-friend", lang=lang)
    for n, sentence in enumerate(DATA["sentences"]):
        rows = page.locator(f"[data-testid=poly-weights-{n}] tbody tr")
        shown = [rows.nth(j).locator("th, td").all_inner_texts() for j in range(rows.count())]
        assert shown == [[token, f"{w:.3f}"] for token, w in zip(sentence["tokens"], sentence["weights"])]
        expect(page.locator(f"[data-testid=poly-output-{n}]")).to_have_text(text(
            "poly_output", lang, word=DATA["word"], input=vector(sentence["input"], 1), output=vector(sentence["output"], 3)))
    c = DATA["cosines"]
    expect(page.locator("[data-testid=poly-cosines]")).to_have_text(text(
        "poly_cosines", lang, word=DATA["word"], before_after_0=f"{c['before_after'][0]:.3f}",
        before_after_1=f"{c['before_after'][1]:.3f}", after_after=f"{c['after_after']:.3f}",
        context_0=DATA["sentences"][0]["tokens"][0], before_context_0=f"{c['before_context'][0]:.3f}",
        after_context_0=f"{c['after_context'][0]:.3f}", context_1=DATA["sentences"][1]["tokens"][0],
        before_context_1=f"{c['before_context'][1]:.3f}", after_context_1=f"{c['after_context'][1]:.3f}"))
    labels = page.locator("[data-testid=poly-plot] text")
    assert labels.count() == len(DATA["points"])
    expect(page.locator("[data-testid=poly-plot] figcaption")).to_have_text(
        text("poly_projection", lang, share=f"{100 * DATA['share']:.0f}"))
    # every label inside the picture
    box = page.locator("[data-testid=poly-plot] svg").bounding_box()
    for i in range(labels.count()):
        label = labels.nth(i).bounding_box()
        assert box["x"] <= label["x"] and label["x"] + label["width"] <= box["x"] + box["width"] + 1, labels.nth(i).inner_text()
    assert console_errors == []
