"""The Magnificent's mutable state records: one per player, one for the turn in progress."""

from __future__ import annotations

from dataclasses import dataclass, field

IN_HAND = -1
FIRST_SHOW = 4  # hat positions 0..3 are start spaces #1..#4, FIRST_SHOW + m - 1 is show space m


def show_position(space: int) -> int:
    return FIRST_SHOW + space - 1


def position_label(position: int) -> str:
    """'#k' for a start space, the show space number otherwise, '' for a hat in hand."""
    if position == IN_HAND:
        return ""
    if position < FIRST_SHOW:
        return f"#{position + 1}"
    return str(position - FIRST_SHOW + 1)


@dataclass(slots=True)
class Player:
    """Everything one player owns; every field is public (spec §5)."""

    board: str = ""
    points: int = 0
    coins: int = 0
    gems: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # O, G, P, C
    markers: int = 0  # available
    spent: int = 0  # in the main tent until the next round
    masters: list[str] = field(default_factory=list)  # in §2.8 table order
    dice: dict[str, tuple[str, int]] = field(default_factory=dict)  # card -> (physical colour, value)
    trainers: list[str] = field(default_factory=list)  # sorted by id
    camp: int = 0  # bit y*8+x set when covered by a camp tile
    tiles: list[tuple[str, int, int, int]] = field(default_factory=list)  # type, k, anchor x, anchor y
    posters: list[str | None] = field(default_factory=lambda: [None] * 5)
    tents: list[str | None] = field(default_factory=lambda: ["T00", None, None, None, None])
    completed: list[str] = field(default_factory=list)
    hats: list[int] = field(default_factory=lambda: [IN_HAND, IN_HAND])

    def copy(self) -> Player:
        return Player(
            self.board,
            self.points,
            self.coins,
            self.gems.copy(),
            self.markers,
            self.spent,
            self.masters.copy(),
            self.dice.copy(),
            self.trainers.copy(),
            self.camp,
            self.tiles.copy(),
            self.posters.copy(),
            self.tents.copy(),
            self.completed.copy(),
            self.hats.copy(),
        )

    def tile_counts(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for tile_type, _, _, _ in self.tiles:
            counts[tile_type] = counts.get(tile_type, 0) + 1
        return counts


@dataclass(slots=True)
class Turn:
    """The turn in progress: this turn's die, the action and every effect remembered until its end."""

    seat: int
    die_colour: str = ""
    die_value: int = 0
    card: str = ""
    acting: str = ""
    action: str = ""
    power_bonus: int = 0  # 2 per gem_power plus POWER bonuses
    gems_spent: int = 0
    master_used: bool = False
    trainers_used: list[str] = field(default_factory=list)
    extra_small: int = 0
    extra_show: int = 0
    points_per_show: int = 0
    build_colour: str = ""
    wagon_colour: str = ""
    resolved: bool = False
    pending_tiles: list[str] = field(default_factory=list)
    tile: str = ""
    anchor: tuple[int, int] = (-1, -1)
    tent_space: tuple[str, int] = ("", -1)
    hat: int = -1
    shows: int = 0
    chosen: list[int] = field(default_factory=list)  # poster slots (0-based) being completed
    extra_gems_due: int = 0

    def copy(self) -> Turn:
        return Turn(
            self.seat,
            self.die_colour,
            self.die_value,
            self.card,
            self.acting,
            self.action,
            self.power_bonus,
            self.gems_spent,
            self.master_used,
            self.trainers_used.copy(),
            self.extra_small,
            self.extra_show,
            self.points_per_show,
            self.build_colour,
            self.wagon_colour,
            self.resolved,
            self.pending_tiles.copy(),
            self.tile,
            self.anchor,
            self.tent_space,
            self.hat,
            self.shows,
            self.chosen.copy(),
            self.extra_gems_due,
        )
