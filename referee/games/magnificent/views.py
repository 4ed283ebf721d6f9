"""Views of The Magnificent, built field by field from what is public (spec §5: everything but deck orders)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from referee.games.magnificent import draft
from referee.games.magnificent.data import HEIGHT, TILE_TYPES, WIDTH
from referee.games.magnificent.model import Player, position_label

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


class _Tables:
    """What views show of the component data, computed once per components object (it never changes)."""

    __slots__ = ("components", "track_gems", "camps", "tracks")

    def __init__(self, components: Any) -> None:
        self.components = components
        #: colour -> per track index, "gem:<colour>" for a gem space, None for a tent/poster space
        self.track_gems: dict[str, tuple[str | None, ...]] = {
            colour: tuple(None if gem is None else f"gem:{gem}" for gem in gems)
            for colour, gems in components.track_spaces.items()
        }
        #: a camp's placed tiles -> its rows (camps only grow, so most are asked for again and again)
        self.camps: dict[tuple[tuple[str, int, int, int], ...], tuple[str, ...]] = {}
        #: (colour, the track's tents) -> its spaces as views show them (a track changes a few times a game)
        self.tracks: dict[tuple[str, tuple[str | None, ...]], tuple[str, ...]] = {}


_TABLES: dict[int, _Tables] = {}
#: Camps (tracks) remembered per components object before that memory is emptied (random play makes new ones forever).
_MEMORY = 20_000
#: A hat's position as views show it ('#k', the show space, '' in hand), each computed once.
hat_label = cache(position_label)


def view_tables(state: MagnificentState) -> _Tables:
    """The view tables of the state's components (kept per components object, checked by identity)."""
    components = state.c
    tables = _TABLES.get(id(components))
    if tables is None or tables.components is not components:
        tables = _TABLES[id(components)] = _Tables(components)
    return tables


def _draw_camp(state: MagnificentState, tiles: tuple[tuple[str, int, int, int], ...]) -> tuple[str, ...]:
    grid = [["."] * WIDTH for _ in range(HEIGHT)]
    for tile_type, k, x, y in tiles:
        cells = state.c.tile_types[tile_type].orientations[k]
        ref_x, ref_y = cells[0]
        for cx, cy in cells:
            grid[y + cy - ref_y][x + cx - ref_x] = tile_type[0]
    return tuple("".join(row) for row in grid)


def camp_rows(state: MagnificentState, tables: _Tables, player: Player) -> list[str]:
    key = tuple(player.tiles)
    camps = tables.camps
    rows = camps.get(key)
    if rows is None:
        if len(camps) >= _MEMORY:
            camps.clear()
        rows = camps[key] = _draw_camp(state, key)
    return list(rows)


def player_view(state: MagnificentState, tables: _Tables, seat: int, player: Player) -> dict[str, Any]:
    masters = []
    dice = player.dice
    for card in player.masters:
        if card in dice:
            colour, value = dice[card]
            masters.append({"card": card, "die": {"colour": colour, "value": value}})
        else:
            masters.append({"card": card})
    return {
        "seat": seat,
        "board": player.board,
        "points": player.points,
        "coins": player.coins,
        "gems": list(player.gems),
        "markers": player.markers,
        "spent_markers": player.spent,
        "masters": masters,
        "trainers": list(player.trainers),
        "tiles": [{"tile_type": t, "orientation": k, "x": x, "y": y} for t, k, x, y in player.tiles],
        "camp": camp_rows(state, tables, player),
        "posters": [p or "" for p in player.posters],
        "tents": [t or "" for t in player.tents],
        "completed": list(player.completed),
        "hats": [hat_label(h) for h in player.hats],
        "turns_taken": len(dice),
    }


def turn_view(state: MagnificentState, decision: str) -> dict[str, Any]:
    turn = state.turn
    assert turn is not None
    view: dict[str, Any] = {
        "seat": turn.seat,
        "card": turn.card,
        "acting_colour": turn.acting,
        "action": turn.action,
        "power": state.power(),
        "build_colour": turn.build_colour or (turn.acting if turn.action == "BUILD" else ""),
        "wagon_colour": turn.wagon_colour or (turn.acting if turn.action == "TRAVEL" else ""),
        "master_used": turn.master_used,
        "trainers_used": list(turn.trainers_used),
        "extra_small_tiles": turn.extra_small,
        "extra_shows": turn.extra_show,
        "points_per_show": turn.points_per_show,
        "resolved": turn.resolved,
        "pending_tiles": list(turn.pending_tiles),
        "tile_type": turn.tile,
        "shows": turn.shows,
        "chosen_slots": [s + 1 for s in turn.chosen],
        "extra_gems_due": turn.extra_gems_due,
    }
    if turn.die_colour:
        view["die"] = {"colour": turn.die_colour, "value": turn.die_value}
    if turn.anchor[0] >= 0:
        view["anchor"] = {"x": turn.anchor[0], "y": turn.anchor[1]}
    if decision == "VD2":
        colour, index = turn.tent_space
        view["tent"] = state.track_tents[colour][index] or ""
    return view


def track_view(state: MagnificentState, tables: _Tables, colour: str) -> dict[str, Any]:
    tents = state.track_tents[colour]
    key = (colour, tuple(tents))
    tracks = tables.tracks
    spaces = tracks.get(key)
    if spaces is None:
        if len(tracks) >= _MEMORY:
            tracks.clear()
        spaces = tracks[key] = tuple(
            gem if gem is not None else (f"tent:{tents[index]}" if tents[index] else "poster")
            for index, gem in enumerate(tables.track_gems[colour])
        )
    return {"colour": colour, "wagon": state.wagons[colour], "spaces": list(spaces)}



def market_shown(state: MagnificentState) -> tuple[Any, ...]:
    """What the market shows (main tent to supply, and the components it is read with), as the state holds it:
    the View writer and the state encoder compare it with `market_copy` of an earlier state to reuse their part."""
    return (
        state.main_tent, state.display, state.poster_display, len(state.poster_deck), state.poster_discard,
        len(state.master_deck), len(state.trainer_deck), state.draft_pool, state.removed_trainers, state.track_tents,
        state.wagons, state.supply, state.c,
    )


def market_copy(state: MagnificentState) -> tuple[Any, ...]:
    """`market_shown` with every container copied, nested lists included: a copy compares by its contents, where
    the state's own objects would compare equal to themselves by identity."""
    return (
        state.main_tent.copy(), [slot.copy() for slot in state.display], state.poster_display.copy(),
        len(state.poster_deck), state.poster_discard.copy(), len(state.master_deck), len(state.trainer_deck),
        state.draft_pool.copy(), state.removed_trainers.copy(), {colour: tents.copy() for colour, tents in state.track_tents.items()},
        state.wagons.copy(), state.supply.copy(), state.c,
    )

def main_tent_order(key: str) -> tuple[int, str]:
    """Dice in the main tent by colour (O, G, P, C), then by key."""
    return ("OGPC".index(key[0]), key)


main_tent_order = cache(main_tent_order)


def final_scores(state: MagnificentState) -> list[dict[str, Any]]:
    """Each seat's final scoring, once the game is over (empty before)."""
    return [
        {
            "seat": s,
            "track": e["track"],
            "masters": e["masters"],
            "coins": e["coins"],
            "full_areas": e["full_areas"],
            "areas": e["areas"],
            "total": e["total"],
        }
        for s, e in enumerate(state.final)
    ]


def build_view(state: MagnificentState, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None = a spectator); identical apart from `seat`, as nothing is private."""
    tables = view_tables(state)
    main_tent = state.main_tent
    decision = state.decision_code()
    view: dict[str, Any] = {}
    if seat is not None:
        view["seat"] = seat
    view.update(
        {
            "round": state.round,
            "start_player": state.start_player,
            "turn_count": state.turn_count,
            "decision": decision,
            "deciding": list(state.deciding_seats()),
            "main_tent": [
                {"colour": key[0], "value": int(key[2]), "count": main_tent[key]}
                for key in sorted(main_tent, key=main_tent_order)
            ],
            "display": [
                {"slot": i + 1, "card": card or "", "trainer": tile or ""} for i, (card, tile) in enumerate(state.display)
            ],
            "poster_display": [p or "" for p in state.poster_display],
            "poster_deck_size": len(state.poster_deck),
            "poster_discard": list(state.poster_discard),
            "master_deck_size": len(state.master_deck),
            "trainer_deck_size": len(state.trainer_deck),
            "draft_pool": list(state.draft_pool),
            "removed_trainers": list(state.removed_trainers),
            "tracks": [track_view(state, tables, colour) for colour in state.track_tents],
            "supply": [{"tile_type": t, "count": state.supply[t]} for t in TILE_TYPES],
            "players": [player_view(state, tables, s, p) for s, p in enumerate(state.players_state)],
            "poster_in_hand": state.poster_in_hand,
            "side_b": state.side_b,
            "game_over": state.over,
            "final_scores": final_scores(state),
        }
    )
    if state.turn is not None:
        view["turn"] = turn_view(state, decision)
    view["draft_master_cards"] = state.draft
    if state.draft:
        view["draft_round"] = state.draft_round
        if seat is not None:
            view.update(own_draft(state, seat))
    return view


def own_draft(state: MagnificentState, seat: int) -> dict[str, Any]:
    """The draft as `seat` alone sees it: the hand it holds now, its own picks and the card it removed last."""
    view: dict[str, Any] = {}
    if state.draft_round < 4:
        view["draft_hand"] = list(state.draft_hands[draft.held_hand(state, seat)])
    view["draft_picks"] = list(state.draft_picks[seat])
    removed = draft.removed_by(state, seat)
    if removed:
        view["draft_removed"] = removed
    return view
