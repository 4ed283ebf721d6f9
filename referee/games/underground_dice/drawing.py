"""A picture of an Underground Dice table drawn from one view (a seat's or a spectator's); the engine never imports it.

Shows the dice still in the cup and those used, the parent's set dice (only on the parent's own picture),
the announcement, stake, guess and the round's outcome, both hands of bills (the counterfeit split only on
the owner's picture), the pot and the bills changing hands. On the picture of the seat that decides, a
strip under the table holds one tile per choice of the guess, the 4-5-6 faces and accept or accuse (the
browser seat binds each tile to its option).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.underground_dice.data import components
from referee.viewer.svg import INK, MUTED, Svg, panel, seat_colour

WIDTH = 820
HEIGHT = 440
PIN_FILL = "#f3e2b3"
SHIGORO_FILL = "#ffffff"


def _role(view: Mapping[str, Any], seat: int) -> str:
    if view.get("parent") == seat:
        return "parent"
    if view.get("child") == seat:
        return "child"
    return ""


def _count(count: object, word: str) -> str:
    """`1 bill`, `2 bills`: a number and its noun in the right number."""
    return f"{count} {word}" + ("" if str(count) == "1" else "s")


def _bills(svg: Svg, x: float, y: float, count: int, colour: str, keyed: bool = False) -> None:
    """A stack of bills: one thin note per bill, in rows of 20; on the owner's picture the n-th bill stands
    for staking n bills (or putting n counterfeits in the stake)."""
    for index in range(count):
        row, col = divmod(index, 20)
        keys = f"stake:{index + 1} fakes:{index + 1}" if keyed else None
        svg.rect(x + col * 9, y + row * 12, 8, 11, fill="#cfe3c0", stroke=colour, stroke_width=0.7, data_keys=keys)


def _hand(svg: Svg, view: Mapping[str, Any], seat: int, x: float) -> None:
    hand = view["hands"][seat]
    colour = seat_colour(seat)
    me = view.get("seat") == seat
    role = _role(view, seat)
    heading = f"seat {seat}" + (" (you)" if me else "") + (f" · {role}" if role else "")
    panel(svg, x, 60, 240, 330, heading, colour, data_seat_area=seat)
    svg.text(x + 12, 100, _count(hand["bills"], "bill"), size=22, font_weight="bold")
    _bills(svg, x + 12, 112, int(hand["bills"]), colour, keyed=me)
    line = 112 + 12 * ((int(hand["bills"]) + 19) // 20) + 22
    if "genuine" in hand:
        svg.text(x + 12, line, f"genuine {hand['genuine']} · counterfeit {hand['counterfeit']}", size=13, fill="#a33")
        svg.text(x + 12, line + 16, "(only you see this split)", size=11, fill=MUTED)
        line += 36
    turns = view.get("completed_parent_turns", [0, 0])
    svg.text(x + 12, line, f"parent turns played: {turns[seat]}", size=13)
    svg.close()


def draw(view: Mapping[str, Any]) -> str:
    """The SVG picture of the table described by `view`."""
    data = components()
    svg = Svg(WIDTH, HEIGHT, "Underground Dice")
    viewer = view.get("seat")
    title = f"Underground Dice · parent turn {view.get('parent_turn_number', 0)} · {str(view.get('phase', '')).replace('_', ' ')}"
    svg.text(16, 30, title, size=18, font_weight="bold")
    who = "spectator" if viewer is None else f"seat {viewer}"
    svg.text(WIDTH - 16, 30, f"view: {who}", size=13, anchor="end", fill=MUTED)
    rules = []
    if view.get("counterfeit_rule"):
        rules.append("counterfeit bills")
    rules.append("until bankruptcy" if view.get("until_bankruptcy") else f"at most {view.get('max_parent_turns')} parent turns")
    svg.text(16, 48, " · ".join(rules), size=11, fill=MUTED)
    _hand(svg, view, 0, 16)
    _hand(svg, view, 1, WIDTH - 256)
    _centre(svg, view, data)
    _choices(svg, view, data)
    return svg.document()


def _centre(svg: Svg, view: Mapping[str, Any], data: Any) -> None:  # noqa: ANN401 - the game's Components
    x0, width = 272, 276
    svg.open(data_area="table", data_frame=1)
    svg.rect(x0, 60, width, 330, fill="#2e6b45", stroke=INK, rx=8)
    pins, shigoro = int(view.get("unused_pins", 0)), int(view.get("unused_shigoro", 0))
    if "set_pins" in view:
        # The parent's own picture: the dice it set behind the screen are drawn below, not in the cup too.
        faces = view.get("set_faces")
        pins -= int(view["set_pins"] or 0)
        shigoro -= len(str(faces)) if faces and faces != "none" else 0
        svg.text(x0 + 10, 80, "the cup (dice not set)", size=12, fill="#fff")
    else:
        svg.text(x0 + 10, 80, "the cup (unused dice)", size=12, fill="#fff")
    x = x0 + 10
    for index in range(pins):
        # The n-th pin die stands for setting n pin dice (the parent's choice of pins).
        svg.die(x, 88, 30, data.pin_value, fill=PIN_FILL, data_keys=f"pins:{index + 1}")
        x += 36
    for index in range(shigoro):
        svg.die(x, 88, 30, "456", fill=SHIGORO_FILL)
        x += 36
    if not pins and not shigoro:
        svg.text(x0 + 10, 108, "empty", size=12, fill="#cfe")
    svg.text(x0 + 10, 138, "pin dice show 1 · 4-5-6 dice: 4, 5 or 6", size=11, fill="#cfe")
    svg.text(x0 + 10, 160, "used dice", size=12, fill="#fff")
    x = x0 + 10
    for die in view.get("used_dice", []):
        svg.die(x, 168, 26, die["face"], fill=PIN_FILL if die["type"] == "pin" else SHIGORO_FILL)
        x += 31
    if not view.get("used_dice"):
        svg.text(x0 + 10, 186, "none yet", size=12, fill="#cfe")
    y = 220
    if "set_pins" in view:
        faces = view.get("set_faces")
        shown = [data.pin_value] * int(view["set_pins"]) + ([int(c) for c in faces] if faces and faces != "none" else [])
        svg.text(x0 + 10, y, "your set dice (hidden from the child)", size=12, fill="#ffd966")
        x = x0 + 10
        for value in shown:
            svg.die(x, y + 6, 24, value, fill="#fff8d0")
            x += 28
        y += 44
    lines = []
    if "announced_dice" in view:
        count = int(view["announced_dice"])
        lines.append(f"announced: {count} {'die' if count == 1 else 'dice'}")
    if "stake_cap" in view:
        lines.append(f"stake cap: {view['stake_cap']}")
    if "stake" in view:
        lines.append(f"stake: {_count(view['stake'], 'bill')}")
    if "guess" in view:
        lines.append(f"guess: total {view['guess']}")
    if "revealed_total" in view:
        lines.append(f"revealed total {view['revealed_total']}")
        lines.append("HIT: the child wins" if view.get("hit") else "miss: the parent wins")
    for text in lines:
        svg.text(x0 + 10, y, text, size=14, fill="#fff", font_weight="bold")
        y += 20
    pot = int(view.get("pot", 0))
    svg.text(x0 + 10, 352, f"pot: {_count(pot, 'bill')}" + (f" ({view['pot_fakes']} counterfeit)" if "pot_fakes" in view else ""), size=14, fill="#fff")
    transfer = view.get("transfer")
    if transfer:
        source = "from the stake" if transfer.get("from_stake") else "from the hand"
        svg.text(x0 + 10, 374, f"seat {transfer['giver']} pays seat {transfer['receiver']} {_count(transfer['amount'], 'bill')} ({source})", size=12, fill="#ffd966")
    if "bankrupt" in view:
        svg.text(x0 + 10, 374, f"seat {view['bankrupt']} is bankrupt", size=13, fill="#ff9090", font_weight="bold")
    svg.close()


def _choice_tiles(view: Mapping[str, Any], data: Any) -> tuple[str, list[tuple[str, str]]]:  # noqa: ANN401
    """The strip's label and its tiles (option id, words) for the seat whose picture this is, when that seat
    decides a guess, the 4-5-6 faces or accept/accuse now; none otherwise (a spectator's picture too)."""
    seat, phase = view.get("seat"), view.get("phase")
    if seat is None:
        return "", []
    pins, shigoro = int(view.get("unused_pins", 0)), int(view.get("unused_shigoro", 0))
    if phase == "guess" and seat == view.get("child"):
        sums = data.possible_sums.get((pins, shigoro, int(view.get("announced_dice", 0))), ())
        return "guess", [(f"guess:{total}", str(total)) for total in sums]
    if phase == "set_faces" and seat == view.get("parent"):
        have_pins = int(view.get("set_pins") or 0) > 0
        faces = [option for option in data.face_options if option.dice <= shigoro and (option.dice > 0 or have_pins)]
        return "faces", [(f"faces:{option.name}", "".join(map(str, option.faces)) or "none") for option in faces]
    if phase == "accept_or_accuse" and seat == (view.get("transfer") or {}).get("receiver"):
        return "", [("accept", "accept the bills"), ("accuse", "accuse: examine them")]
    return "", []


def _choices(svg: Svg, view: Mapping[str, Any], data: Any) -> None:  # noqa: ANN401 - the game's Components
    label, tiles = _choice_tiles(view, data)
    if not tiles:
        return
    svg.open(data_area="choices", data_frame=1, data_seat_area=view["seat"])
    svg.rect(16, 396, WIDTH - 32, 40, fill="#fffdf4", stroke=seat_colour(int(view["seat"])), rx=6)
    x = 24.0
    if label:
        svg.text(x, 421, label, size=12, fill=MUTED)
        x += 40
    width = min(120.0, (WIDTH - 24 - x) / len(tiles) - 2) if len(tiles) > 2 else 180.0
    for option_id, words in tiles:
        svg.open(data_keys=option_id)
        svg.rect(x, 402, width, 28, fill="#f3e2b3", stroke=INK, rx=4)
        svg.text(x + width / 2, 421, words, size=12 if len(words) > 3 else 13, anchor="middle")
        svg.close()
        x += width + 2
    svg.close()


def glossary() -> dict[str, str]:
    """Underground Dice has no component ids to explain (dice and bills are counted, not named)."""
    return {}
