"""A picture of a The Magnificent table drawn from one view; the engine never imports it.

Shows the main tent's dice, the display of master cards and trainers, the poster display, the three travel
tracks with their wagons, gems and tents, the tile supply and decks, the turn in progress, and for each seat
its camp grid (tiles by colour, bonus squares), points, coins, gems, markers, master cards with their dice,
trainers, poster and tent slots and hats; in the draft, the hand on its owner's picture.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.magnificent.data import HEIGHT, WIDTH, components
from referee.viewer.svg import INK, MUTED, Svg, panel, seat_colour

COLOUR = {"O": "#f08a24", "G": "#4caf50", "P": "#9c5fc9", "C": "#d8e6ee"}
COLOUR_NAME = {"O": "orange", "G": "green", "P": "purple", "C": "clear"}
PAGE_W = 1280
CAMP = 24
#: A seat's panel height (its camp, and up to four master cards, three trainers and five poster slots in words).
PLAYER_H = 345
#: Where words in the common area end (its frame's right edge less a margin).
COMMON_RIGHT = PAGE_W - 24


def _words(code: str) -> str:
    return code.lower().replace("_", " ")


def _master_text(card_id: str) -> str:
    card = components().masters.get(card_id)
    if card is None:
        return card_id
    return f"{card_id}: +{card.bonus_value} {_words(card.bonus)} / {card.scoring_value} {_words(card.scoring)}"


def _poster_text(poster_id: str) -> str:
    poster = components().posters.get(poster_id)
    if poster is None:
        return poster_id
    gems = " ".join(f"{n}{c}" for n, c in zip(poster.gems, "OGP") if n)
    return f"{poster_id}: tiles {'+'.join(poster.tiles)}" + (f", gems {gems}" if gems else "") + f" → {poster.points}p {poster.coins}c"


def _tent_text(tent_id: str) -> str:
    tent = components().tents.get(tent_id)
    if tent is None:
        return tent_id
    return f"{tent_id} {tent.points}p {tent.coins}c" + (f" +{tent.extra_gems} gems" if tent.extra_gems else "")


def _trainer_text(trainer_id: str) -> str:
    trainer = components().trainers.get(trainer_id)
    if trainer is None:
        return trainer_id
    return f"{trainer_id} {trainer.name} (cost {trainer.cost}, {_words(trainer.timing)}: {_words(trainer.effect)} {trainer.value})"


def _common(svg: Svg, view: Mapping[str, Any]) -> None:
    svg.open(data_area="common")
    svg.rect(16, 58, PAGE_W - 32, 300, fill="#f6f1e4", stroke=INK, rx=6)
    # main tent dice
    svg.text(26, 78, "main tent (dice to take)", size=12, font_weight="bold")
    x, y = 26, 86
    for entry in view.get("main_tent", []):
        colour, value = entry["colour"], int(entry["value"])
        for copy in range(int(entry.get("count", 1))):
            svg.die(x, y, 26, value, fill=COLOUR.get(colour, "#fff"), data_keys=f"die:{colour}:{value}")
            x += 30
            if x > 300:
                x, y = 26, y + 30
    # display of master cards with trainers
    svg.text(330, 78, "display (master card + trainer)", size=12, font_weight="bold")
    for index, slot in enumerate(view.get("display", [])):
        sy = 98 + index * 35
        svg.open(data_keys=f"card:{slot['card']} pair:{slot['slot']} display:{slot['slot']} trainer:{slot['trainer']}" if slot.get("card") else None)
        svg.rect(330, sy - 13, 400, 32, fill="#fff", stroke="#bbb", rx=4)
        svg.text_fit(336, sy, f"{slot['slot']}. " + (_master_text(slot["card"]) if slot.get("card") else "(empty)"), 388, size=11)
        svg.text_fit(350, sy + 14, _trainer_text(slot["trainer"]) if slot.get("trainer") else "", 374, size=11, fill=MUTED)
        svg.close()
    # posters
    svg.text(750, 78, f"poster display (deck {view.get('poster_deck_size', 0)}, discard {len(view.get('poster_discard', []))})", size=12, font_weight="bold")
    for index, poster in enumerate(view.get("poster_display", [])):
        svg.text_fit(750, 96 + index * 16, f"{index + 1}. " + (_poster_text(poster) if poster else "(empty)"), COMMON_RIGHT - 750, size=11, data_keys=f"display:{index + 1}")
    svg.text(750, 166, f"master deck {view.get('master_deck_size', 0)} · trainer deck {view.get('trainer_deck_size', 0)}", size=11, fill=MUTED)
    supply = ", ".join(f"{s['tile_type']} {s['count']}" for s in view.get("supply", []))
    svg.text_fit(750, 182, f"tile supply: {supply}", COMMON_RIGHT - 750, size=11)
    for index, s in enumerate(view.get("supply", [])):
        svg.rect(750 + index * 70, 188, 62, 16, fill=COLOUR.get(s["tile_type"][0], "#ddd"), stroke=INK, rx=3, data_keys=f"tile:{s['tile_type']}")
        svg.text(781 + index * 70, 201, f"{'large' if s['tile_type'][1] == 'l' else 'small'} {s['count']}", size=11, anchor="middle")
    # travel tracks
    for row, track in enumerate(view.get("tracks", [])):
        ty = 240 + row * 38
        colour = track["colour"]
        svg.text(26, ty + 18, f"{COLOUR_NAME.get(colour, colour)} track", size=11, font_weight="bold")
        for index, space in enumerate(track.get("spaces", [])):
            sx = 120 + index * 58
            kind, _, what = space.partition(":")
            fill = COLOUR.get(what, "#fff") if kind == "gem" else ("#fff6d6" if kind == "tent" else "#eee")
            svg.open()
            label = f"gem {what}" if kind == "gem" else (_tent_text(what) if kind == "tent" else "poster")
            svg.tip(label)
            svg.rect(sx, ty, 54, 30, fill=fill, stroke=INK, rx=3)
            svg.text(sx + 27, ty + 19, label if len(label) < 8 else label.split(" ")[0], size=11, anchor="middle")
            svg.close()
        wagon = int(track.get("wagon", 0))
        wx = 120 + wagon * 58 + 27
        svg.polygon([(wx - 9, ty - 2), (wx + 9, ty - 2), (wx + 6, ty - 10), (wx - 6, ty - 10)], fill=COLOUR.get(colour, "#888"), stroke=INK)
        svg.circle(wx - 5, ty - 1, 2.5, fill=INK, stroke=None)
        svg.circle(wx + 5, ty - 1, 2.5, fill=INK, stroke=None)
    svg.close()


def _turn(svg: Svg, view: Mapping[str, Any]) -> None:
    turn = view.get("turn")
    y = 50
    if not turn:
        return
    parts = [f"turn of seat {turn['seat']}"]
    if turn.get("card"):
        parts.append(f"card {turn['card']}")
    if turn.get("die"):
        parts.append(f"die {COLOUR_NAME.get(turn['die']['colour'], '')} {turn['die']['value']}")
    if turn.get("acting_colour"):
        parts.append(f"acting {COLOUR_NAME.get(turn['acting_colour'], turn['acting_colour'])}")
    if turn.get("action"):
        parts.append(_words(turn["action"]))
    parts.append(f"power {turn.get('power', 0)}")
    if turn.get("tile_type"):
        parts.append(f"tile {turn['tile_type']}")
    if turn.get("pending_tiles"):
        parts.append("tiles to place " + ", ".join(turn["pending_tiles"]))
    svg.text_fit(16, y, " · ".join(parts), PAGE_W - 32, size=11, fill="#5a3d00")


def _tile_cells(tile: Mapping[str, Any]) -> list[tuple[int, int]]:
    """The camp cells a placed tile covers (its orientation's cells, anchored as the engine anchors them)."""
    kind = components().tile_types.get(tile.get("tile_type", ""))
    if kind is None:
        return []
    cells = kind.orientations[int(tile.get("orientation", 0))]
    ref_x, ref_y = cells[0]
    x, y = int(tile.get("x", 0)), int(tile.get("y", 0))
    return [(x + cx - ref_x, y + cy - ref_y) for cx, cy in cells]


def _camp(svg: Svg, x: float, y: float, player: Mapping[str, Any], clickable: bool) -> None:
    """The camp grid: bonus squares, each placed tile in its colour with its outline, and (on the owner's
    picture) one target per cell for placing."""
    bonus = components().boards.get(player.get("board", ""))
    squares = bonus.bonus_squares if bonus is not None else {}
    svg.rect(x, y, WIDTH * CAMP, HEIGHT * CAMP, fill="#fffdf6", stroke="#cfc6b0")
    grid = [f"M{x + cx * CAMP:g} {y:g}v{HEIGHT * CAMP}" for cx in range(1, WIDTH)]
    grid += [f"M{x:g} {y + cy * CAMP:g}h{WIDTH * CAMP}" for cy in range(1, HEIGHT)]
    svg.path("".join(grid), stroke="#e0d8c4")
    covered: set[tuple[int, int]] = set()
    for tile in player.get("tiles", []):
        cells = _tile_cells(tile)
        mine = set(cells)
        covered |= mine
        fill = COLOUR.get(str(tile.get("tile_type", "?"))[0], "#ccc")
        svg.open(data_tile=tile.get("tile_type"))
        for cx, cy in cells:
            svg.rect(x + cx * CAMP, y + cy * CAMP, CAMP, CAMP, fill=fill, stroke=None)
        edges = []
        for cx, cy in cells:
            left, top = x + cx * CAMP, y + cy * CAMP
            if (cx, cy - 1) not in mine:
                edges.append(f"M{left:g} {top:g}h{CAMP}")
            if (cx, cy + 1) not in mine:
                edges.append(f"M{left:g} {top + CAMP:g}h{CAMP}")
            if (cx - 1, cy) not in mine:
                edges.append(f"M{left:g} {top:g}v{CAMP}")
            if (cx + 1, cy) not in mine:
                edges.append(f"M{left + CAMP:g} {top:g}v{CAMP}")
        svg.path("".join(edges), stroke=INK, stroke_width=1.5)
        svg.close()
    for index, b in squares.items():
        cy, cx = divmod(index, WIDTH)
        if (cx, cy) in covered:
            continue
        label = "".join(
            text
            for text in (
                f"{b.points}p" if b.points else "",
                f"{b.coins}c" if b.coins else "",
                f"g{b.gem}" if b.gem else "",
                "m" if b.marker else "",
                "P" if b.poster else "",
            )
        )
        # A square's bonus in the camp's miniature (a glyph, not a sentence): its tooltip reads in full.
        svg.text(x + cx * CAMP + CAMP / 2, y + cy * CAMP + 15, label, size=8, anchor="middle", fill=MUTED, class_="glyph")
    if clickable:
        for cy in range(HEIGHT):
            for cx in range(WIDTH):
                svg.rect(x + cx * CAMP, y + cy * CAMP, CAMP, CAMP, fill="transparent", stroke=None, data_keys=f"cell:{cx},{cy}")


def _player(svg: Svg, x: float, y: float, player: Mapping[str, Any], view: Mapping[str, Any], width: float) -> None:
    seat = int(player["seat"])
    me = view.get("seat") == seat
    deciding = seat in view.get("deciding", [])
    heading = f"seat {seat}" + (" (you)" if me else "") + f" · board {player.get('board')} · {player.get('points', 0)} points" + (" · deciding" if deciding else "")
    panel(svg, x, y, width, PLAYER_H, heading, seat_colour(seat), data_seat_area=seat)
    _camp(svg, x + 10, y + 28, player, me)
    ix = x + 10 + WIDTH * CAMP + 12
    room = x + width - 8 - ix
    gems = player.get("gems", [0, 0, 0, 0])
    svg.text_fit(ix, y + 38, f"coins {player.get('coins', 0)} · markers {player.get('markers', 0)} (spent {player.get('spent_markers', 0)})", room, size=11)
    gx = ix
    for colour, count in zip("OGPC", gems):
        svg.polygon([(gx + 6, y + 44), (gx + 12, y + 50), (gx + 6, y + 56), (gx, y + 50)], fill=COLOUR[colour], stroke=INK)
        svg.text(gx + 15, y + 55, count, size=11)
        gx += 36
    hats = [h for h in player.get("hats", []) if h]
    svg.text_fit(gx + 6, y + 55, "hats: " + (", ".join(hats) or "none"), x + width - 8 - gx - 6, size=11)
    svg.text(ix, y + 74, "master cards:", size=11, font_weight="bold")
    line = y + 89
    for master in player.get("masters", []):
        die = master.get("die")
        if die:
            svg.die(ix, line - 10, 13, int(die["value"]), fill=COLOUR.get(die["colour"], "#fff"))
        svg.text_fit(ix + 17, line, _master_text(master["card"]), room - 17, size=11, data_keys=f"card:{master['card']} master:{master['card']}")
        line += 15
    trainers = player.get("trainers", [])
    svg.text(ix, line + 4, "trainers:", size=11, font_weight="bold")
    line += 19
    for trainer in trainers:
        svg.text_fit(ix, line, _trainer_text(trainer), room, size=11, data_keys=f"trainer:{trainer}")
        line += 15
    svg.text(ix, line + 4, "poster slots:", size=11, font_weight="bold")
    line += 19
    posters = player.get("posters", [])
    tents = player.get("tents", [])
    completed = set(player.get("completed", []))
    slots = max(len(posters), len(tents))
    for index in range(slots):
        poster = posters[index] if index < len(posters) else ""
        tent = tents[index] if index < len(tents) else ""
        text = f"{index + 1}. " + (_poster_text(poster) if poster else "empty") + (" ✓" if poster and poster in completed else "")
        text += f" · tent {_tent_text(tent)}" if tent else ""
        # A long slot takes a second line while the frame still has room for every slot after it.
        spare = int((y + PLAYER_H - 8 - line) // 15) + 1 - (slots - index - 1)
        line = svg.text_lines(ix, line, text, room, max(1, min(2, spare)), size=11, leading=15, data_keys=f"slot:{index + 1} replace:{index + 1}")
    svg.text(x + 10, y + 28 + HEIGHT * CAMP + 17, f"turns this round {player.get('turns_taken', 0)}", size=11, fill=MUTED)
    # Under the camp, as wide as the camp (the right-hand column's words run beside it), down to the frame's foot.
    below = y + 28 + HEIGHT * CAMP + 32
    svg.text_lines(x + 10, below, "completed: " + (", ".join(player.get("completed", [])) or "none"), WIDTH * CAMP, int((y + PLAYER_H - 6 - below) // 14) + 1, size=11, leading=14, fill=MUTED)
    svg.close()


def _draft(svg: Svg, view: Mapping[str, Any], y: float) -> float:
    if not view.get("draft_master_cards"):
        return y
    seat = view.get("seat")
    lines = [f"master card draft, round {view.get('draft_round', 0)}" + (f" · pool: {', '.join(view.get('draft_pool', []))}" if view.get("draft_pool") else "")]
    keyed: list[tuple[str, str]] = []
    if seat is not None:
        for card in view.get("draft_hand", []):
            keyed.append((f"draft:{card}", "hand: " + _master_text(card)))
        if view.get("draft_picks"):
            lines.append("your picks: " + ", ".join(view["draft_picks"]))
        if view.get("draft_removed"):
            lines.append(f"you removed: {view['draft_removed']}")
    height = 24 + 14 * (len(lines) + len(keyed))
    svg.open(data_area="draft")
    svg.rect(16, y, PAGE_W - 32, height, fill="#fff", stroke=INK, rx=6)
    line = y + 16
    for text in lines:
        svg.text_fit(26, line, text, PAGE_W - 52, size=11)
        line += 14
    for keys, text in keyed:
        svg.text_fit(26, line, text, PAGE_W - 52, size=11, data_keys=keys)
        line += 14
    svg.close()
    return y + height + 8


def draw(view: Mapping[str, Any]) -> str:
    """The SVG picture of the table described by `view`."""
    players = view.get("players", [])
    columns = 2 if len(players) > 1 else 1
    width = (PAGE_W - 32 - 12) / 2
    top = 366
    draft_extra = 0 if not view.get("draft_master_cards") else 30 + 14 * (2 + len(view.get("draft_hand", [])))
    height = top + draft_extra + ((len(players) + columns - 1) // columns) * (PLAYER_H + 10) + 20 + 16 * ((len(view.get("final_scores", [])) - 1) // 2)
    svg = Svg(PAGE_W, height, "The Magnificent")
    status = f"The Magnificent · round {view.get('round', 0)} · start player seat {view.get('start_player')} · decision {view.get('decision')}"
    if view.get("deciding"):
        status += " · deciding: " + ", ".join(f"seat {s}" for s in view["deciding"])
    if view.get("game_over"):
        status = "The Magnificent · game over"
    svg.text(16, 30, status, size=18, font_weight="bold")
    viewer = view.get("seat")
    svg.text(PAGE_W - 16, 30, "view: " + ("spectator" if viewer is None else f"seat {viewer}") + (" · side B" if view.get("side_b") else ""), size=13, anchor="end", fill=MUTED)
    _turn(svg, view)
    _common(svg, view)
    y = _draft(svg, view, top)
    for index, player in enumerate(players):
        _player(svg, 16 + (index % columns) * (width + 12), y + (index // columns) * (PLAYER_H + 10), player, view, width)
    finals = view.get("final_scores", [])
    for index in range(0, len(finals), 2):
        text = " · ".join(f"seat {f['seat']}: {f['total']} (track {f['track']}, masters {f['masters']}, coins {f['coins']}, areas {f['areas']})" for f in finals[index : index + 2])
        svg.text_fit(16, height - 6 - 16 * ((len(finals) - 1) // 2 - index // 2), text, PAGE_W - 32, size=11, font_weight="bold")
    return svg.document()


def glossary() -> dict[str, str]:
    """What each master card, poster, tent, trainer and tile type id is."""
    c = components()
    entries: dict[str, str] = {}
    for source, describe in ((c.masters, _master_text), (c.posters, _poster_text), (c.tents, _tent_text), (c.trainers, _trainer_text)):
        for key in source:
            entries[key] = describe(key).split(" ", 1)[1].lstrip(": ")
    for key, kind in c.tile_types.items():
        entries[key] = f"{'large' if kind.large else 'small'} {COLOUR_NAME.get(kind.colour, kind.colour)} tile"
    return entries
