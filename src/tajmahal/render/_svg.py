"""The look of the pictures (colours, sizes, text widths) and small SVG helpers."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

from tajmahal.rules.components import BonusKind, Commodity

Point = tuple[float, float]
#: An axis-aligned box: (left, top, right, bottom).
Box = tuple[float, float, float, float]
#: A convex polygon as (vertex, label of the edge from it to the next vertex).
Cell = list[tuple[Point, str]]
#: XML attributes of an element.
Attrs = dict[str, str | float]

# ----------------------------------------------------------------- appearance

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
TITLE_FONT = "DejaVu Serif, Georgia, serif"
BACKGROUND = "#f3ead3"
INK = "#2f2419"
ROAD_COLOR = "#8c6239"
BORDER_COLOR = "#8a7456"
CITY_FILL = "#fffaf0"
TAJ_FILL = "#f4cf57"
TILE_FILL = "#fffdf6"
CITY_RADIUS = 7.0
FORTRESS_HALF = 8.5
#: Room kept free around every city for its marker and the palaces drawn on it.
MARKER_CLEAR = 13.0
#: Room around the cities' bounding box (the picture's margin).
MARGIN = 48.0
#: Least room between two labels.
LABEL_GAP = 3.0
CITY_FONT = 11.5
PROVINCE_FONT = 13.0
PROVINCE_SPACING = 2.0
TILE_SIZE = 20.0
CHIP_FONT = 8.5
BONUS_FONT = 9.0
BONUS_HEIGHT = 14.0
LEGEND_WIDTH = 196.0

#: Province fills; each province takes one its neighbours have not taken.
PROVINCE_PALETTE = (
    "#ecd3a4",
    "#cfe4c2",
    "#f1c3b3",
    "#c9dcee",
    "#e3d0ea",
    "#f5e6a6",
    "#c8e6df",
)
COMMODITY_FILL = {
    Commodity.RICE: "#f7f3e3",
    Commodity.TEA: "#b7dc9c",
    Commodity.SPICES: "#f4a876",
    Commodity.JEWELS: "#a8c2f2",
}
BONUS_FILL = {
    BonusKind.TAJ_MAHAL: TAJ_FILL,
    BonusKind.POINTS: "#fff1b8",
    BonusKind.CARD: "#e2d7f3",
}
#: Palace colours by seat (cycled for more seats).
SEAT_COLORS = ("#d1495b", "#2e86ab", "#3a9d23", "#f0a202", "#7b4fa0")
#: The outline of the province visited now.
HIGHLIGHT = "#c8102e"


def seat_color(seat: int) -> str:
    """The colour of ``seat``'s palaces and of its row in the key."""
    return SEAT_COLORS[seat % len(SEAT_COLORS)]


# DejaVu Sans advance widths in 1/2048 em; other characters count as 0.62 em.
_LOWER = (
    "1255 1300 1126 1300 1260 721 1300 1298 569 569 1186 569 1995 "
    "1298 1253 1300 1300 842 1067 803 1298 1212 1675 1212 1212 1075"
)
_UPPER = (
    "1401 1405 1430 1577 1294 1178 1587 1540 604 604 1343 1141 1767 "
    "1532 1612 1235 1612 1423 1300 1251 1499 1401 2025 1403 1251 1403"
)
_WIDTHS: dict[str, int] = {
    **dict(zip("abcdefghijklmnopqrstuvwxyz", map(int, _LOWER.split()), strict=True)),
    **dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", map(int, _UPPER.split()), strict=True)),
    **dict.fromkeys("0123456789", 1303),
    **dict(zip(" .,-+'():/", (651, 651, 651, 739, 1716, 563, 799, 799, 690, 690), strict=True)),
}


def _text_width(text: str, size: float, *, bold: bool = False, spacing: float = 0.0) -> float:
    """Estimated advance width of ``text`` (slightly generous)."""
    em = sum(_WIDTHS.get(ch, 1270) for ch in text) / 2048
    return em * size * (1.15 if bold else 1.0) * 1.03 + spacing * max(len(text) - 1, 0)


def _fmt(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attrs(attrs: Mapping[str, str | float]) -> str:
    """XML attributes; numbers are written with one decimal at most."""
    return "".join(
        f' {k}="{escape(v, {chr(34): "&quot;"}) if isinstance(v, str) else _fmt(v)}"'
        for k, v in attrs.items()
    )


def _el(tag: str, attrs: Mapping[str, str | float], body: str | None = None) -> str:
    """One SVG element, empty or with ``body`` (already XML) inside."""
    if body is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{body}</{tag}>"


def _open(tag: str, attrs: Mapping[str, str | float]) -> str:
    """The start tag of an element whose content follows."""
    return f"<{tag}{_attrs(attrs)}>"


def _title(text: str) -> str:
    return f"<title>{escape(text)}</title>"


def _shade(color: str, factor: float) -> str:
    """``color`` (#rrggbb) darkened by ``factor`` (0 black .. 1 unchanged)."""
    rgb = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{max(0, min(255, round(c * factor))):02x}" for c in rgb)


def _points(points: Iterable[Point]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
