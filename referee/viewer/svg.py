"""A small SVG writer shared by the games' drawings: deterministic text, escaped, no dependencies."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

#: The colours every drawing uses for seats, in seat order.
SEAT_COLOURS = ("#d64545", "#3a6fd8", "#2f9e57", "#c99a16", "#8a4fc7", "#1f9aa3")
INK = "#222"
#: The smallest words in a picture: 11 px when the picture is shown at 1:1.
MIN_TEXT = 11
MUTED = "#777"
PAPER = "#fbf8f1"
FELT = "#e9e3d3"


def seat_colour(seat: int) -> str:
    """The colour of a seat's pieces and frame."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


_NAMES: dict[str, str] = {}
_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})


def _value(value: Any) -> str:  # noqa: ANN401 - numbers and text
    kind = type(value)
    if kind is int:
        return str(value)
    if kind is str:
        return value.translate(_SPECIAL) if ("&" in value or "<" in value or ">" in value or '"' in value) else value
    if kind is float:
        return str(int(value)) if value.is_integer() else f"{value:.1f}".rstrip("0").rstrip(".")
    return str(value).translate(_SPECIAL)


def _attributes(values: Mapping[str, Any]) -> str:
    """Attributes as text, in the order given; None and False leave an attribute out (names: a_b -> a-b)."""
    parts = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = _NAMES.get(key)
        if name is None:
            name = _NAMES[key] = key.rstrip("_").replace("_", "-")
        parts.append(f' {name}="{_value(value)}"')
    return "".join(parts)


class Svg:
    """Collects SVG elements as text; `document()` wraps them in an <svg> of the size given."""

    def __init__(self, width: float, height: float, title: str = "") -> None:
        self.width = width
        self.height = height
        self.title = title
        self.parts: list[str] = []

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = INK, **extra: Any) -> None:
        stroke_text = f' stroke="{stroke}"' if stroke else ""
        more = _attributes(extra) if extra else ""
        self.parts.append(f'<rect x="{_value(x)}" y="{_value(y)}" width="{_value(w)}" height="{_value(h)}" fill="{fill}"{stroke_text}{more}/>')

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: str | None = INK, **extra: Any) -> None:
        self.parts.append(f"<circle{_attributes({'cx': cx, 'cy': cy, 'r': r, 'fill': fill, 'stroke': stroke, **extra})}/>")

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK, **extra: Any) -> None:
        more = _attributes(extra) if extra else ""
        self.parts.append(f'<line x1="{_value(x1)}" y1="{_value(y1)}" x2="{_value(x2)}" y2="{_value(y2)}" stroke="{stroke}"{more}/>')

    def path(self, d: str, fill: str = "none", stroke: str | None = INK, **extra: Any) -> None:
        """A path from its `d` commands (numbers only, so nothing to escape)."""
        self.parts.append(f"<path{_attributes({'d': d, 'fill': fill, 'stroke': stroke, **extra})}/>")

    def polygon(self, points: list[tuple[float, float]], fill: str = "none", stroke: str | None = INK, **extra: Any) -> None:
        text = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.parts.append(f"<polygon{_attributes({'points': text, 'fill': fill, 'stroke': stroke, **extra})}/>")

    def text(self, x: float, y: float, content: Any, size: float = 12, fill: str = INK, anchor: str = "start", **extra: Any) -> None:  # noqa: ANN401 - anything printable
        """Words at (x, y): at least MIN_TEXT units tall, except a component's own marks (class_="glyph": a
        tile's id, a die's face), which scale with the miniature they sit in."""
        anchor_text = f' text-anchor="{anchor}"' if anchor != "start" else ""
        more = _attributes(extra) if extra else ""
        self.parts.append(
            f'<text x="{_value(x)}" y="{_value(y)}" font-size="{_value(size)}" fill="{fill}"{anchor_text}{more}>{_value(str(content))}</text>'
        )

    def text_fit(self, x: float, y: float, content: Any, width: float, size: float = 12, **extra: Any) -> None:  # noqa: ANN401
        """Words at (x, y) cut to `width` units with an ellipsis; a cut line carries its full words as a tooltip."""
        full = str(content)
        shown = fit(full, width, size, bold=extra.get("font_weight") == "bold")
        self.text(x, y, shown, size=size, **extra)
        if shown != full:
            self.parts[-1] = self.parts[-1].replace("</text>", f"<title>{escape(full, quote=False)}</title></text>")

    def text_lines(self, x: float, y: float, content: Any, width: float, lines: int, size: float = 12, leading: float | None = None, **extra: Any) -> float:  # noqa: ANN401
        """Words from (x, y) wrapped to `width` units in at most `lines` lines (the last cut with an ellipsis);
        returns the baseline after the last line written."""
        step = leading if leading is not None else size + 3
        for row in wrap(str(content), width, size, lines, bold=extra.get("font_weight") == "bold"):
            self.text(x, y, row, size=size, **extra)
            y += step
        return y

    def open(self, **extra: Any) -> None:
        """Start a group (<g>) carrying the attributes given (data-* keys, classes, transforms)."""
        self.parts.append(f"<g{_attributes(extra)}>")

    def close(self) -> None:
        self.parts.append("</g>")

    def tip(self, content: str) -> None:
        """A hover tooltip for the enclosing group."""
        self.parts.append(f"<title>{escape(content, quote=False)}</title>")

    def die(self, x: float, y: float, size: float, value: Any, fill: str = "#fff", ink: str = INK, **extra: Any) -> None:  # noqa: ANN401
        """A die showing `value` as pips (1-6) or as text."""
        self.open(**extra)
        self.rect(x, y, size, size, fill=fill, stroke=INK, rx=size * 0.18)
        if isinstance(value, int) and 1 <= value <= 6:
            for px, py in PIPS[value]:
                self.circle(x + px * size, y + py * size, size * 0.09, fill=ink, stroke=None)
        else:
            self.text(x + size / 2, y + size * 0.68, value, size=size * 0.5, anchor="middle", fill=ink, class_="glyph")
        self.close()

    def document(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width:g} {self.height:g}" '
            f'width="{self.width:g}" height="{self.height:g}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">'
        )
        title = f"<title>{escape(self.title, quote=False)}</title>" if self.title else ""
        return head + title + f'<rect width="{self.width:g}" height="{self.height:g}" fill="{FELT}"/>' + "".join(self.parts) + "</svg>"


PIPS: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.28, 0.28), (0.72, 0.72)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.28, 0.22), (0.72, 0.22), (0.28, 0.5), (0.72, 0.5), (0.28, 0.78), (0.72, 0.78)],
}


#: Advance widths of DejaVu Sans (the pictures' first font), in ems; other characters count as DEFAULT_EM.
_EM: dict[str, float] = {
    **dict.fromkeys("abdeghnopqu0123456789$#_?", 0.64),
    **dict.fromkeys("ckvxyzs", 0.6),
    **dict.fromkeys("ijl.,:;'|!· ", 0.34),
    **dict.fromkeys("ft()[]{}-/\\r", 0.42),
    **dict.fromkeys("mw%", 1.0),
    **dict.fromkeys("ABCDEGHKNOQRUVXZ", 0.8),
    **dict.fromkeys("FLPSTYJI", 0.66),
    **dict.fromkeys("MW+=<>→←…✓×", 1.0),
}
DEFAULT_EM = 0.8
#: Bold DejaVu Sans is about this much wider than the book weight.
BOLD_WIDER = 1.15


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide `text` prints at font `size` (rounded up a little, so a fitted line never spills)."""
    return sum(_EM.get(char, DEFAULT_EM) for char in text) * size * (BOLD_WIDER if bold else 1.0)


def fit(text: str, width: float, size: float, bold: bool = False) -> str:
    """`text` cut to `width` units at font `size`, an ellipsis marking the cut."""
    if text_width(text, size, bold) <= width:
        return text
    room = width - text_width("…", size, bold)
    used, end = 0.0, 0
    for end, char in enumerate(text):
        used += _EM.get(char, DEFAULT_EM) * size * (BOLD_WIDER if bold else 1.0)
        if used > room:
            break
    return text[:end].rstrip(" ,·:;") + "…"


def wrap(text: str, width: float, size: float, lines: int, bold: bool = False) -> list[str]:
    """`text` broken at spaces into lines at most `width` units wide, at most `lines` of them (the last one
    cut with an ellipsis when words remain); a single word too long for a line is cut too."""
    rows: list[str] = []
    words = text.split(" ")
    current = ""
    for index, word in enumerate(words):
        attempt = f"{current} {word}" if current else word
        if text_width(attempt, size, bold) <= width or not current:
            current = attempt
            continue
        if len(rows) == lines - 1:
            return [*rows, fit(" ".join([current, *words[index:]]), width, size, bold)]
        rows.append(current)
        current = word
    return [fit(row, width, size, bold) for row in [*rows, current]][:lines] if lines > 0 else []


def panel(svg: Svg, x: float, y: float, w: float, h: float, heading: str, colour: str = INK, **extra: Any) -> None:
    """A framed area with a heading bar (a seat's area, the common board); leaves a group open for its contents.

    The group is marked `data-frame`: its first rect is the frame every text inside it must stay within."""
    svg.open(data_frame=1, **extra)
    svg.rect(x, y, w, h, fill=PAPER, stroke=colour, stroke_width=2, rx=6)
    svg.rect(x, y, w, 20, fill=colour, stroke=None, rx=6)
    svg.text(x + 8, y + 14.5, heading, size=12, fill="#fff", font_weight="bold")
