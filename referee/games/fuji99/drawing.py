"""A picture of a Fuji 99 table drawn from one view; the engine never imports it.

Shows the 99-space path with every piece and the movement piece, the yellow spaces, the pagoda, the current
draw and red area, each seat's bag counts, hand (each card's name, danger, cost and cubes on it, with the
hand's total danger) and omen area, the deck and the discard.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.fuji99.data import load_data
from referee.viewer.svg import INK, MUTED, Svg, panel, seat_colour

COLS = 10
CELL = 46
PATH_X = 16
PATH_Y = 64
CUBE = {"clear": "#e8f4fb", "yellow": "#f5d33f", "red": "#d83a3a"}
WIDTH = 1180
SEATS_X = 500  # the seats' panels start here; the words below the path stop short of them


def _space_xy(space: int) -> tuple[float, float]:
    """Where space 0..99 sits on the serpentine path (row 0 at the bottom, the goal at the top)."""
    row, col = divmod(space, COLS)
    if row % 2 == 1:
        col = COLS - 1 - col
    return PATH_X + col * CELL, PATH_Y + (9 - row) * CELL


def _cubes(svg: Svg, x: float, y: float, counts: Mapping[str, int], size: float = 10) -> float:
    """A row of small cubes by colour; returns the x after the last one."""
    for colour in ("clear", "yellow", "red"):
        count = int(counts.get(colour, 0))
        svg.rect(x, y, size, size, fill=CUBE[colour], stroke=INK, stroke_width=0.6)
        svg.text(x + size + 2, y + size - 1, count, size=size)
        x += size + 8 + 7 * len(str(count))
    return x


def draw(view: Mapping[str, Any]) -> str:
    """The SVG picture of the table described by `view`."""
    data = load_data()
    seats = view.get("seats", [])
    height = max(PATH_Y + 10 * CELL + 120, 64 + len(seats) * 150 + 10)
    svg = Svg(WIDTH, height, "Fuji 99")
    viewer = view.get("seat")
    status = f"Fuji 99 · round {view.get('round', 0)} of at most {view.get('max_rounds')} · seat {view.get('active')} to play · {str(view.get('phase', '')).replace('_', ' ')}"
    if view.get("over"):
        status = f"Fuji 99 · game over" + (f" · seat {view['winner']} reached the top" if "winner" in view else "")
    svg.text(16, 30, status, size=18, font_weight="bold")
    svg.text(WIDTH - 16, 30, "view: " + ("spectator" if viewer is None else f"seat {viewer}"), size=13, anchor="end", fill=MUTED)
    _path(svg, view, data)
    _centre(svg, view, data, PATH_X, PATH_Y + 10 * CELL + 12)
    for index, seat in enumerate(seats):
        _seat(svg, SEATS_X, 64 + index * 150, seat, view, data)
    return svg.document()


def _path(svg: Svg, view: Mapping[str, Any], data: Any) -> None:  # noqa: ANN401 - the game's data
    svg.open(data_area="path")
    yellow = {20: view.get("yellow_on_20", 0), 50: view.get("yellow_on_50", 0)}
    for space in range(100):
        x, y = _space_xy(space)
        fill = "#f3efe2" if space not in yellow else "#fbe89a"
        if space == 99:
            fill = "#ffffff"
        svg.rect(x + 1, y + 1, CELL - 2, CELL - 2, fill=fill, stroke="#b9ad8f", rx=4)
        svg.text(x + 4, y + 13, space, size=11, fill=MUTED)
        if space in yellow:
            svg.text(x + CELL - 3, y + 13, f"{yellow[space]}y", size=11, anchor="end", fill="#8a6d00")
    gx, gy = _space_xy(99)
    svg.text(gx + CELL / 2, gy + 40, "top", size=11, anchor="middle", font_weight="bold")
    mx, my = _space_xy(min(99, int(view.get("movement", 0))))
    svg.polygon([(mx + CELL - 14, my + CELL - 4), (mx + CELL - 4, my + CELL - 4), (mx + CELL - 9, my + CELL - 18)], fill="#222", stroke=None)
    by_space: dict[int, list[int]] = {}
    for seat in view.get("seats", []):
        by_space.setdefault(min(99, _shown_space(view, seat)), []).append(int(seat["seat"]))
    for space, seats in by_space.items():
        x, y = _space_xy(space)
        for index, seat in enumerate(seats):
            svg.open(data_piece=seat)
            svg.tip(f"seat {seat} on space {space}")
            svg.circle(x + 11 + (index % 3) * 12, y + 24 + (index // 3) * 12, 6, fill=seat_colour(seat), stroke=INK)
            svg.close()
    svg.close()


def _shown_space(view: Mapping[str, Any], seat: Mapping[str, Any]) -> int:
    """Where a seat's piece is drawn: its space, or the top for the seat whose movement piece reached it."""
    if view.get("over") and view.get("winner") == seat["seat"]:
        return max(int(seat["position"]), int(view.get("movement", 0)))
    return int(seat["position"])


def _centre(svg: Svg, view: Mapping[str, Any], data: Any, x: float, y: float) -> None:  # noqa: ANN401
    svg.open(data_area="common")
    svg.text(x, y + 12, f"pagoda: {view.get('pagoda', 0)} clear cubes · deck: {view.get('deck_size', 0)} cards · movement piece on {view.get('movement', 0)}", size=12)
    svg.text(x, y + 32, "current draw:", size=12)
    after = _cubes(svg, x + 90, y + 22, view.get("current_draw", {}), 12)
    if view.get("cubes_to_draw"):
        svg.text(after + 6, y + 32, f"({view['cubes_to_draw']} to draw)", size=11, fill=MUTED)
    svg.text(x, y + 52, f"red area: {view.get('red_area', 0)} red · yellow spent {view.get('spent_yellow', 0)}, available {view.get('available_yellow', 0)} · move bonus {view.get('move_bonus', 0)}", size=12)
    extra = []
    if view.get("drawing_card"):
        extra.append(f"drawing: {_card_name(data, view['drawing_card'])}")
    if view.get("resolving_echoes"):
        extra.append("echoes resolving: " + ", ".join(view["resolving_echoes"]))
    if view.get("cubes_to_place"):
        extra.append(f"cubes to place: {view['cubes_to_place']}")
    if view.get("placed_this_stop"):
        extra.append("placed: " + ", ".join(f"{p['cubes']} on {p['card']}" for p in view["placed_this_stop"]))
    room = SEATS_X - x - 10
    svg.text(x, y + 72, _fit(" · ".join(extra), room, 12) or " ", size=12)
    discard = view.get("discard", [])
    svg.text(x, y + 92, _fit(f"discard ({len(discard)}): " + ", ".join(_card_name(data, c) for c in discard[-6:]), room, 11), size=11, fill=MUTED)
    svg.close()


def _card_name(data: Any, card: str) -> str:  # noqa: ANN401
    kind = data.card_type.get(card)
    return kind.name if kind is not None else card


def _seat(svg: Svg, x: float, y: float, seat: Mapping[str, Any], view: Mapping[str, Any], data: Any) -> None:  # noqa: ANN401
    number = int(seat["seat"])
    me = view.get("seat") == number
    active = view.get("active") == number and not view.get("over")
    space = _shown_space(view, seat)
    heading = f"seat {number}" + (" (you)" if me else "") + f" · space {space}" + (" · reached the top" if space >= 99 else "") + (" · to play" if active else "")
    panel(svg, x, y, WIDTH - x - 16, 142, heading, seat_colour(number), data_seat_area=number)
    svg.text(x + 10, y + 38, "bag:", size=12)
    _cubes(svg, x + 42, y + 28, seat.get("bag", {}), 11)
    got = [f"yellow from {s}" for s, flag in ((20, seat.get("got20")), (50, seat.get("got50"))) if flag]
    svg.text(x + 240, y + 38, f"turns {seat.get('turns_taken', 0)}" + (" · took " + ", ".join(got) if got else ""), size=11, fill=MUTED)
    danger = int(seat.get("hand_danger", 0))
    limit = data.danger_bust_at
    svg.text(x + 10, y + 58, f"hand danger {danger} (bust at {limit})", size=12, fill="#b00" if danger >= limit - 2 else INK, font_weight="bold")
    hand = seat.get("hand", [])
    room = WIDTH - 16 - x - 20
    card_width = min(118.0, (room - 6 * (len(hand) - 1)) / max(1, len(hand)))
    for index, card in enumerate(hand):
        _card(svg, x + 10 + index * (card_width + 6), y + 64, card, data, keys=f"place:{card['card']} use:{card['card']}", width=card_width)
    omens = seat.get("omens", [])
    if omens:
        # On the danger line's right: the line above holds the turns and yellow cubes taken.
        text = "omens: " + ", ".join(f"{_card_name(data, o['card'])} ({'active' if o['active'] else 'waiting'})" for o in omens)
        svg.text(x + 230, y + 58, _fit(text, WIDTH - 16 - x - 240, 11), size=11, fill="#6a1b9a")
    svg.close()


def _fit(text: str, width: float, size: float) -> str:
    """`text` cut to about `width` units at font `size` (an ellipsis marks the cut)."""
    most = max(1, int(width / (size * 0.62)))
    return text if len(text) <= most else text[: most - 1] + "…"


def _card(svg: Svg, x: float, y: float, card: Mapping[str, Any], data: Any, keys: str, width: float = 118) -> None:  # noqa: ANN401
    kind = data.card_type.get(card["card"])
    svg.open(data_keys=keys, data_card=card["card"], data_frame=1)
    if kind is not None:
        svg.tip(f"{kind.name}: {kind.text}")
    svg.rect(x, y, width, 70, fill="#fff", stroke=INK, rx=5)
    inner = width - 10
    svg.text(x + 5, y + 15, _fit(kind.name if kind is not None else card["card"], inner, 11.5), size=11, font_weight="bold")
    svg.text(x + 5, y + 30, _fit(f"danger {card.get('danger', '?')}", inner, 11), size=11, fill="#b00")
    if kind is not None:
        svg.text(x + 5, y + 45, _fit(f"cost {kind.cost if kind.cost is not None else '-'} · {kind.timing}", inner, 11), size=11, fill=MUTED)
    cubes = int(card.get("cubes", 0))
    for index in range(min(cubes, max(1, int((width - 30) // 10)))):
        svg.rect(x + 5 + index * 10, y + 54, 8, 8, fill=CUBE["clear"], stroke=INK, stroke_width=0.6)
    if cubes:
        svg.text(x + width - 4, y + 66, cubes, size=11, anchor="end")
    svg.close()


def glossary() -> dict[str, str]:
    """What each Fuji card id is: its name, danger, cost, timing and text."""
    data = load_data()
    return {
        card: f"{kind.name} (danger {kind.danger if kind.danger is not None else 'X'}, cost {kind.cost if kind.cost is not None else '-'}, {kind.timing}): {kind.text}"
        for card, kind in data.card_type.items()
    }
