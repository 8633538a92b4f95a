"""Colour science for the palette test: sRGB to CIELAB, the CIEDE2000 difference, and colour-vision
deficiency simulated with Machado, Oliveira & Fernandes (2009) at full severity, in linear RGB."""
from __future__ import annotations

import math

import numpy as np

#: Machado et al. 2009, severity 1.0 (linear RGB → linear RGB as the viewer sees it)
SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}
_XYZ = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
_WHITE = np.array([0.95047, 1.0, 1.08883])


def linear(hex_colour: str) -> np.ndarray:
    """#RRGGBB → linear RGB (3,) in 0..1."""
    c = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(rgb: np.ndarray) -> np.ndarray:
    """Linear RGB (3,) → CIELAB (3,), D65."""
    t = _XYZ @ np.clip(rgb, 0, 1) / _WHITE
    f = np.where(t > 216 / 24389, np.cbrt(t), (24389 / 27 * t + 16) / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(hex_colour: str, vision: str) -> np.ndarray:
    """CIELAB of a colour as a viewer with `vision` (a SIMULATIONS key) sees it."""
    return lab(SIMULATIONS[vision] @ linear(hex_colour))


def contrast_on_white(hex_colour: str) -> float:
    """WCAG contrast ratio of a colour against white."""
    return 1.05 / (float(np.array([0.2126, 0.7152, 0.0722]) @ linear(hex_colour)) + 0.05)


def ciede2000(lab1, lab2) -> float:
    """The CIEDE2000 colour difference (Sharma, Wu & Dalal 2005)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = math.degrees(math.atan2(b1, a1p)) % 360, math.degrees(math.atan2(b2, a2p)) % 360
    dh = 0.0 if c1p * c2p == 0 else h2p - h1p - 360 * ((h2p - h1p > 180) - (h2p - h1p < -180))
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * cp_bar, 1 + 0.015 * cp_bar * t
    r_t = (-2 * math.sqrt(cp_bar ** 7 / (cp_bar ** 7 + 25 ** 7))
           * math.sin(math.radians(60 * math.exp(-(((h_bar - 275) / 25) ** 2)))))
    dl, dc, dh_ = (l2 - l1) / s_l, (c2p - c1p) / s_c, d_big_h / s_h
    return math.sqrt(dl ** 2 + dc ** 2 + dh_ ** 2 + r_t * dc * dh_)
