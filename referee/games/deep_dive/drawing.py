"""A picture of a DEEP DIVE table drawn from one view; the engine never imports it.

Shows the five depths (face-down counts, face-up tiles to take, open water and predators with the penguins
they caught), the penguin diving now, each seat's tableau by colour with its rocks, spare penguins and
score, and in solo the AI's tableau and position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.viewer.svg import INK, MUTED, Svg, panel, seat_colour

FOOD = {"pink": "#f29bc0", "green": "#7cc47f", "yellow": "#f2d35b"}
KIND_FILL = {"rock": "#9a9a9a", "predator": "#7a2630", "open_water": "#bfe3f2"}
TILE = 34
OCEAN_W = 600
ROW_H = 92
#: A seat's board: its width and the room between boards.
BOARD_W = 290
BOARD_STEP = 302


def _tile(svg: Svg, x: float, y: float, tile: Mapping[str, Any], size: float = TILE, keys: str = "", ring: str = "") -> None:
    """One tile face: food shows its colour and value, the others their kind."""
    kind = tile.get("type", "")
    fill = FOOD.get(str(tile.get("colour")), "#ddd") if kind == "food" else KIND_FILL.get(kind, "#ddd")
    svg.open(data_keys=keys or None, data_tile=tile.get("id"))
    describe = f"{tile.get('id')}: " + (f"{tile.get('colour')} {tile.get('value')}" if kind == "food" else kind.replace("_", " "))
    svg.tip(describe)
    svg.rect(x, y, size, size, fill=fill, stroke=ring or INK, stroke_width=3 if ring else 1, rx=4)
    if kind == "food":
        svg.text(x + size / 2, y + size * 0.66, tile.get("value"), size=size * 0.45, anchor="middle", font_weight="bold", class_="glyph")
    else:
        label = {"rock": "rock", "predator": "pred", "open_water": "water"}.get(kind, kind)
        svg.text(x + size / 2, y + size * 0.6, label, size=size * 0.27, anchor="middle", fill="#fff" if kind == "predator" else INK, class_="glyph")
    svg.text(x + 2, y + size - 2, tile.get("depth", ""), size=size * 0.2, fill=MUTED, class_="glyph")
    svg.close()


def _penguin(svg: Svg, x: float, y: float, seat: int | str, r: float = 9) -> None:
    colour = seat_colour(seat) if isinstance(seat, int) else "#444"
    svg.circle(x, y, r, fill=colour, stroke=INK)
    svg.circle(x, y + r * 0.25, r * 0.55, fill="#fff", stroke=None)


def draw(view: Mapping[str, Any]) -> str:
    """The SVG picture of the table described by `view`."""
    boards: Sequence[Mapping[str, Any]] = view.get("boards", [])
    solo = bool(view.get("solo"))
    areas = len(boards) + (1 if solo else 0)
    rows = (areas + 1) // 2
    height = max(80 + 5 * ROW_H + 40, 70 + rows * 212)
    width = OCEAN_W + 32 + 2 * BOARD_STEP
    svg = Svg(width, height, "DEEP DIVE")
    viewer = view.get("seat")
    decision = str(view.get("decision", "")).replace("_", " ")
    status = f"DEEP DIVE · round {view.get('round', 0)}"
    if view.get("game_over"):
        status += " · game over"
    else:
        status += (f" · {decision}" if decision else "") + (" · final round" if view.get("final_round") else " · end triggered" if view.get("end_triggered") else "")
    svg.text(16, 30, status, size=18, font_weight="bold")
    svg.text(width - 16, 30, "view: " + ("spectator" if viewer is None else f"seat {viewer}"), size=13, anchor="end", fill=MUTED)
    token = str(view.get("token", "")).replace("_", " ")
    start = view.get("start_player")
    svg.text(16, 48, f"token: {token}" + (f" · start player: seat {start}" if start is not None else ""), size=11, fill=MUTED)
    _ocean(svg, view)
    for index, board in enumerate(boards):
        _board(svg, OCEAN_W + 32 + (index % 2) * BOARD_STEP, 60 + (index // 2) * 212, board, viewer)
    if solo and "ai" in view:
        index = len(boards)
        _ai(svg, OCEAN_W + 32 + (index % 2) * BOARD_STEP, 60 + (index // 2) * 212, view["ai"], view.get("ai_difficulty"))
    return svg.document()


def _ocean(svg: Svg, view: Mapping[str, Any]) -> None:
    svg.open(data_area="ocean")
    svg.rect(16, 60, OCEAN_W, 5 * ROW_H + 10, fill="#1d4f7a", stroke=INK, rx=8)
    current = view.get("current_depth")
    active = view.get("active")
    flipped = view.get("just_flipped", {}) or {}
    for depth in view.get("depths", []):
        number = int(depth["depth"])
        y = 66 + (number - 1) * ROW_H
        svg.rect(20, y, OCEAN_W - 8, ROW_H - 4, fill="#2a6496" if number != current else "#3b82b8", stroke=None, rx=6,
                 data_keys=f"rock:{number}")
        svg.text(28, y + 18, f"depth {number}", size=13, fill="#fff", font_weight="bold")
        # the face-down stack
        svg.open(data_keys="flip" if number == current else None)
        svg.tip(f"depth {number}: {depth['face_down']} face-down tiles ({depth.get('removed', 0)} removed at setup)")
        for layer in range(min(4, int(depth["face_down"]))):
            svg.rect(28 + layer * 2, y + 28 - layer * 2, 40, 40, fill="#0f3550", stroke="#9cc", rx=4)
        svg.text(48, y + 54, depth["face_down"], size=15, anchor="middle", fill="#fff", font_weight="bold")
        svg.close()
        svg.text(26, y + 85, "face down", size=11, fill="#cde")
        if number == current and active is not None:
            _penguin(svg, 92, y + 48, int(active), 11)
        elif number == current and view.get("ai_turn"):
            _penguin(svg, 92, y + 48, "ai", 11)
        x = 112
        shown = {t["id"] for t in depth.get("available", [])} | {e["tile"]["id"] for e in depth.get("inert", [])}
        if number == current and flipped and flipped.get("id") not in shown:
            svg.text(x, y + 22, "just flipped", size=11, fill="#ffd400")
            _tile(svg, x, y + 30, flipped, keys="keep", ring="#ffd400")
            x += max(TILE + 14, 80)
        available_x = x
        for tile in depth.get("available", []):
            tile_id = tile["id"]
            ring = "#ffd400" if tile_id == flipped.get("id") else ""
            keep = " keep" if tile_id == flipped.get("id") else ""
            _tile(svg, x, y + 30, tile, keys=f"take:{tile_id} retreat_take:{tile_id} ai_give:{tile_id}{keep}", ring=ring)
            x += TILE + 4
        if depth.get("available"):
            svg.text(available_x, y + 22, "face up, to take", size=11, fill="#cde")
        x = max(x + 10, available_x + 100, 300)
        inert_x = x
        for entry in depth.get("inert", []):
            tile = entry["tile"]
            just_flipped = tile["id"] == flipped.get("id")
            _tile(svg, x, y + 30, tile, size=26, ring="#ffd400" if just_flipped else "", keys="keep" if just_flipped else "")
            if "penguin" in entry:
                _penguin(svg, x + 20, y + 30, int(entry["penguin"]), 6)
            x += 29
            if x > OCEAN_W - 20:
                break
        if depth.get("inert"):
            svg.text(inert_x, y + 22, "open water and predators" if inert_x < OCEAN_W - 180 else "open water", size=11, fill="#cde")
    discarded = view.get("discarded_rocks", [])
    svg.text(24, 66 + 5 * ROW_H + 20, f"discarded rocks: {len(discarded)}", size=11, fill=INK)
    svg.close()


def _columns(svg: Svg, x: float, y: float, board: Mapping[str, Any]) -> None:
    for column, colour in enumerate(("pink", "green", "yellow")):
        cx = x + column * 44
        svg.text(cx, y, colour, size=11, fill=MUTED)
        tiles = board.get(colour, [])
        step = min(24.0, 150 / max(1, len(tiles)))  # a long column overlaps its tiles to stay in the board
        for row, tile in enumerate(tiles):
            _tile(svg, cx, y + 4 + row * step, tile, size=22)


def _board(svg: Svg, x: float, y: float, board: Mapping[str, Any], viewer: Any) -> None:  # noqa: ANN401
    seat = int(board["seat"])
    heading = f"seat {seat}" + (" (you)" if viewer == seat else "") + f" · score {board.get('score', 0)}"
    panel(svg, x, y, BOARD_W, 204, heading, seat_colour(seat), data_seat_area=seat)
    _columns(svg, x + 10, y + 36, board)
    rx = x + 146
    svg.text(rx, y + 36, f"rows complete: {board.get('complete_rows', 0)}", size=11)
    svg.text(rx, y + 52, "rocks", size=11, fill=MUTED)
    for index, tile in enumerate(board.get("rocks", [])):
        _tile(svg, rx + (index % 4) * 22, y + 56 + (index // 4) * 22, tile, size=20)
    svg.text(rx, y + 120, f"penguins at home: {board.get('supply', 0)}", size=11)
    for index in range(int(board.get("supply", 0))):
        _penguin(svg, rx + 8 + index * 20, y + 134, seat, 7)
    captured = board.get("captured_depths", [])
    svg.text(rx, y + 160, f"captured: {len(captured)}", size=11)
    if captured:
        svg.text(rx, y + 176, "depths " + ", ".join(map(str, captured)), size=11, fill=MUTED)
    svg.close()


def _ai(svg: Svg, x: float, y: float, ai: Mapping[str, Any], difficulty: Any) -> None:  # noqa: ANN401
    panel(svg, x, y, BOARD_W, 204, f"the AI · score {ai.get('score', 0)}", "#444", data_seat_area="ai")
    _columns(svg, x + 10, y + 36, ai)
    rx = x + 146
    svg.text(rx, y + 36, f"difficulty: {difficulty}", size=11)
    svg.text(rx, y + 52, f"position: {ai.get('position')}", size=11)
    svg.text(rx, y + 68, f"rows complete: {ai.get('complete_rows', 0)}", size=11)
    svg.text(rx, y + 84, f"rocks: {len(ai.get('rocks', []))}", size=11)
    svg.text(rx, y + 100, f"open water: {len(ai.get('open_water', []))}", size=11)
    svg.close()


def glossary() -> dict[str, str]:
    """What each tile id is (colour and value, or kind), for people reading ids in options and views."""
    from referee.games.deep_dive.data import load_data

    return {tile.id: tile.describe().split(" ", 1)[1].strip("()") for tile in load_data().tiles}
