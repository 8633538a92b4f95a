"""The head colours (static/explorer/dom.js PALETTE) stay apart for people with the common
colour-vision deficiencies, measured: the smallest CIEDE2000 difference between any two heads shown,
for normal vision and simulated protanopia and deuteranopia, at 2, 4 and 8 heads."""
import itertools
import re
from pathlib import Path

import pytest

from colour_vision import ciede2000, contrast_on_white, seen, SIMULATIONS

DOM = Path(__file__).resolve().parents[2] / "static" / "explorer" / "dom.js"
PALETTE = re.findall(r"#[0-9A-Fa-f]{6}", re.search(r"const PALETTE = \[(.*?)\];", DOM.read_text()).group(1))
#: heads shown → the smallest difference allowed (the measured figure, rounded down): a ΔE2000 of
#: about 10 reads as another colour at a glance; the book's two-head views get far more
SMALLEST = {2: 45, 4: 18, 8: 12}


def smallest_difference(heads: int) -> tuple[float, str, int, int]:
    return min((ciede2000(seen(PALETTE[i], vision), seen(PALETTE[j], vision)), vision, i + 1, j + 1)
               for vision in SIMULATIONS for i, j in itertools.combinations(range(heads), 2))


@pytest.mark.parametrize("heads", SMALLEST)
def test_heads_stay_apart_with_normal_vision_protanopia_and_deuteranopia(heads):
    difference, vision, first, second = smallest_difference(heads)
    print(f"\n{heads} heads: smallest CIEDE2000 {difference:.1f} (heads {first} and {second}, {vision})")
    assert difference >= SMALLEST[heads], (difference, vision, first, second)


def test_the_first_four_heads_have_3_to_1_contrast_on_white():
    """Lines and bars are graphics on white: WCAG asks 3:1 of them (the 4-head view, the most used)."""
    assert len(PALETTE) == 8
    assert min(contrast_on_white(colour) for colour in PALETTE[:4]) >= 3
