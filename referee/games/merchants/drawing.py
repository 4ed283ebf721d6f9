"""A picture of a Merchants of B99 table drawn from one view; the engine never imports it.

Shows the trend-card layout (each card's face by name, the grey kind cards once revealed), every shop grid
with its tiles (colour, kind, attribute and magic-circle halves as rotated), discards, chips and scores, and
on the owner's picture the draft hand, reputation cards (name, condition, stars, hearts) and pending choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.merchants.data import load_data
from referee.viewer.svg import INK, MUTED, Svg, panel, seat_colour

TILE_FILL = {"red": "#e27a6e", "blue": "#7aa5e2", "yellow": "#ecd36a"}
KIND_MARK = {"sword": "⚔ sword", "staff": "✦ staff", "shield": "⛨ shield", "armor": "⛊ armor"}
ATTRIBUTE_MARK = {"fire": "fire", "ice": "ice", "thunder": "thunder"}
CELL = 46
WIDTH = 1180


def _tile(svg: Svg, x: float, y: float, tile_id: str, rotation: int = 0, size: float = CELL, keys: str = "", ring: str = "") -> None:
    """One equipment tile: its colour, kind, attribute and the magic-circle halves on its edges."""
    tile = load_data().tiles.get(tile_id)
    svg.open(data_keys=keys or None, data_tile=tile_id)
    if tile is None:
        svg.rect(x, y, size, size, fill="#ccc", rx=3)
        svg.text(x + 3, y + 14, tile_id, size=11, class_="glyph")
        svg.close()
        return
    svg.tip(f"{tile_id}: {tile.colour} {tile.kind}, {tile.attribute}" + (f", circle halves {', '.join(sorted(tile.halves))}" if tile.halves else ""))
    svg.rect(x, y, size, size, fill=TILE_FILL.get(tile.colour, "#ccc"), stroke=ring or INK, stroke_width=3 if ring else 1, rx=3)
    svg.text(x + size / 2, y + size * 0.42, tile.kind, size=size * 0.22, anchor="middle", font_weight="bold", class_="glyph")
    svg.text(x + size / 2, y + size * 0.68, tile.attribute, size=size * 0.2, anchor="middle", class_="glyph")
    svg.text(x + 2, y + size - 3, tile_id, size=size * 0.16, fill="#333", class_="glyph")
    halves = tile.rotated_halves[(rotation // 90) % 4]
    for edge in halves:
        cx, cy = {"N": (x + size / 2, y), "S": (x + size / 2, y + size), "E": (x + size, y + size / 2), "W": (x, y + size / 2)}[edge]
        svg.circle(cx, cy, size * 0.16, fill="#fff", stroke="#5b2a86", stroke_width=2)
    svg.close()


def _layout(svg: Svg, view: Mapping[str, Any], x: float, y: float) -> None:
    data = load_data()
    svg.open(data_area="layout")
    svg.rect(x, y, WIDTH - 2 * x, 118, fill="#f6f1e4", stroke=INK, rx=6)
    svg.text(x + 8, y + 16, "trend cards (score at the end of each round)", size=12, font_weight="bold")
    for index, row in enumerate(view.get("layout", [])):
        rx = x + 8 + index * 330
        svg.text(rx, y + 36, str(row.get("dungeon", "")).upper(), size=12, font_weight="bold")
        lines = []
        for key in ("a", "b"):
            card_id = str(row.get(f"{key}_card", ""))
            card = data.ab_cards.get(card_id) or data.floor99_cards.get(card_id)
            face = card.faces.get(row.get(f"{key}_face", "")) if card else None
            floor = " (99th floor)" if card_id in data.floor99_cards else ""
            lines.append(f"{key.upper()} {card_id}{row.get(f'{key}_face', '')}{floor}: {face.name if face else '?'}")
        if "c_card" in row:
            card = data.c_cards.get(row["c_card"])
            lines.append(f"C {row['c_card']} ({row.get('c_kind')}): {card.face.name if card else '?'}")
        else:
            lines.append("C: face down until round 2")
        for number, text in enumerate(lines):
            svg.text(rx, y + 54 + number * 16, text, size=11)
    if "d_card" in view:
        card = data.d_cards.get(view["d_card"])
        svg.text(x + 8, y + 110, f"D {view['d_card']} ({view.get('d_kind')}): {card.face.name if card else '?'}", size=11)
    svg.close()


def _shop(svg: Svg, x: float, y: float, seat: Mapping[str, Any], view: Mapping[str, Any], width: float) -> None:
    number = int(seat["seat"])
    me = view.get("seat") == number
    final = seat.get("final")
    if isinstance(final, Mapping):
        score = f" · total {final.get('total', 0)}" + (f" · rank {final['rank']}" if "rank" in final else "")
    else:
        score = f" · trend points {seat.get('score', 0)}"
    heading = f"seat {number}" + (" (you)" if me else "") + score
    panel(svg, x, y, width, 300, heading, seat_colour(number), data_seat_area=number)
    placed = {(int(t["row"]), int(t["col"])): t for t in seat.get("shop", [])}
    rows = [r for r, _ in placed] or [0]
    cols = [c for _, c in placed] or [0]
    top, left = min(rows) - 1, min(cols) - 1
    span_r, span_c = max(rows) + 1 - top + 1, max(cols) + 1 - left + 1
    span_r, span_c = min(span_r, 6), min(span_c, 6)
    gx, gy = x + 10, y + 28
    pending = view.get("pending_target") if me else None
    for r in range(span_r):
        for c in range(span_c):
            row, col = top + r, left + c
            cx, cy = gx + c * CELL, gy + r * CELL
            if (row, col) in placed:
                tile = placed[(row, col)]
                ring = "#ffd400" if pending and (pending["row"], pending["col"]) == (row, col) else ""
                _tile(svg, cx, cy, tile["tile"], int(tile.get("rotation", 0)), keys=f"replace:{row},{col}", ring=ring)
            else:
                svg.rect(cx + 2, cy + 2, CELL - 4, CELL - 4, fill="transparent", stroke="#c9bfa6", stroke_dasharray="3 3",
                         data_keys=f"place:{row},{col}", data_cell=f"{row},{col}")
    info_x = gx + 6 * CELL + 8
    chips = seat.get("chips", [])
    line = y + 40
    svg.text(info_x, line, "chips:" + ("" if chips else " none"), size=11)
    for chip in chips:
        svg.text(info_x + 44, line, f"round {chip['round']} {chip['dungeon']} {chip['points']}p" + (" thumb" if chip.get("thumb") else ""), size=11)
        line += 14
    line = max(line, y + 54)
    svg.text(info_x, line + 2, "unused: " + (", ".join(seat.get("unused_chips", [])) or "none"), size=11, fill=MUTED)
    svg.text(info_x, line + 18, f"hand: {seat.get('hand_size', 0)} tiles · reputation: {seat.get('reputation_count', 0)}", size=11)
    discards = seat.get("discards", [])
    svg.text(info_x, line + 36, f"discards ({len(discards)}):", size=11)
    for index, tile in enumerate(discards[:8]):
        _tile(svg, info_x + (index % 4) * 30, line + 42 + (index // 4) * 30, tile, size=28)
    if isinstance(final, Mapping):
        for number_line, text in enumerate(_final_lines(final)):
            svg.text(info_x, y + 214 + number_line * 15, text, size=11)
    svg.close()


def _final_lines(final: Mapping[str, Any]) -> list[str]:
    """A seat's final scoring as a few short lines (the parts that add up to its total)."""
    achieved = [card["card"] for card in final.get("reputation", []) if isinstance(card, Mapping) and card.get("achieved")]
    return [
        f"trend cards {final.get('trend_points', 0)} · thumbs {final.get('thumb_points', 0)}",
        f"attribute sets {final.get('attribute_sets', 0)}: {final.get('attribute_points', 0)}",
        f"magic circles {final.get('circles', 0)}: {final.get('circle_points', 0)}",
        f"stars {final.get('stars', 0)}: {final.get('star_points', 0)} · reputation " + (", ".join(achieved) or "none"),
        f"total {final.get('total', 0)}",
    ]


def _condition(condition: Mapping[str, Any]) -> str:
    kind = str(condition.get("type", "")).replace("_", " ")
    rest = ", ".join(f"{k} {v if not isinstance(v, Mapping) else ' '.join(map(str, v.values()))}" for k, v in condition.items() if k != "type")
    return kind + (f" ({rest})" if rest else "")


def _private(svg: Svg, view: Mapping[str, Any], x: float, y: float) -> None:
    data = load_data()
    seat = int(view["seat"])
    panel(svg, x, y, WIDTH - 2 * x, 112, f"seat {seat}'s hand (only this seat sees it)", seat_colour(seat), data_private=seat)
    hand = view.get("hand", [])
    svg.text(x + 10, y + 36, f"draft hand ({len(hand)}):", size=11)
    for index, tile in enumerate(hand):
        ring = "#ffd400" if view.get("pending_tile") == tile else ""
        _tile(svg, x + 10 + index * 50, y + 44, tile, keys=f"tile:{tile}", ring=ring)
    rx = x + 420
    svg.text(rx, y + 36, "reputation cards:", size=11)
    for index, card_id in enumerate(view.get("reputation_hand", [])):
        card = data.reputation.get(card_id)
        line = f"{card_id} {card.name}: {_condition(card.condition)} · {card.stars}★ {card.hearts}♥" if card else card_id
        svg.text(rx, y + 54 + index * 16, line, size=11, data_keys=f"return:{card_id}")
    returned = view.get("returned_reputation", [])
    if returned:
        svg.text(rx + 130, y + 36, "returned: " + ", ".join(returned), size=11, fill=MUTED)
    svg.close()


def draw(view: Mapping[str, Any]) -> str:
    """The SVG picture of the table described by `view`."""
    seats = view.get("seats", [])
    private = "seat" in view
    columns = 2 if len(seats) > 1 else 1
    shop_w = (WIDTH - 32 - (columns - 1) * 12) / columns
    rows = (len(seats) + columns - 1) // columns
    top = 60 + 126 + (120 if private else 0)
    height = top + rows * 312
    svg = Svg(WIDTH, height, "Merchants of B99")
    status = f"Merchants of B99 · round {view.get('round', 0)} · pick {view.get('pick', 0)} · {str(view.get('phase', '')).replace('_', ' ')}"
    if view.get("pass_direction"):
        status += f" · hands pass {view['pass_direction']}"
    svg.text(16, 30, status, size=18, font_weight="bold")
    viewer = view.get("seat")
    svg.text(WIDTH - 16, 30, "view: " + ("spectator" if viewer is None else f"seat {viewer}"), size=13, anchor="end", fill=MUTED)
    svg.text(16, 48, f"supply: {view.get('supply_size', 0)} tiles · reputation deck: {view.get('reputation_deck_size', 0)}"
             + (" · solo" if view.get("solo") else "") + (" · personal boards on the back side" if view.get("personal_board_back") else ""), size=11, fill=MUTED)
    _layout(svg, view, 16, 60)
    if private:
        _private(svg, view, 16, 60 + 126)
    for index, seat in enumerate(seats):
        _shop(svg, 16 + (index % columns) * (shop_w + 12), top + (index // columns) * 312, seat, view, shop_w)
    return svg.document()


def glossary() -> dict[str, str]:
    """What each tile and card id is: tiles' colour, kind, attribute and circle halves; cards' faces and conditions."""
    data = load_data()
    entries: dict[str, str] = {}
    for tile in data.tiles.values():
        halves = f", circle halves {'/'.join(sorted(tile.halves))}" if tile.halves else ""
        entries[tile.id] = f"{tile.colour} {tile.kind}, {tile.attribute}{halves}"
    for card in data.reputation.values():
        entries[card.id] = f"{card.name}: {_condition(card.condition)}, {card.stars} stars, {card.hearts} hearts"
    for card in [*data.ab_cards.values(), *data.floor99_cards.values()]:
        entries[card.id] = f"{card.dungeon} trend card: " + ", ".join(f"{name} {face.name}" for name, face in sorted(card.faces.items()))
    for card in [*data.c_cards.values(), *data.d_cards.values()]:
        entries[card.id] = f"kind trend card: {card.face.name}"
    return entries
