"""The Magnificent views as first written (one builder per part, nothing kept between views): the reference the faster builder must equal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.games.magnificent import draft
from referee.games.magnificent.data import HEIGHT, TILE_TYPES, WIDTH
from referee.games.magnificent.model import Player, position_label

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


def _camp_rows(state: MagnificentState, player: Player) -> list[str]:
    grid = [["."] * WIDTH for _ in range(HEIGHT)]
    for tile_type, k, x, y in player.tiles:
        cells = state.c.tile_types[tile_type].orientations[k]
        ref_x, ref_y = cells[0]
        for cx, cy in cells:
            grid[y + cy - ref_y][x + cx - ref_x] = tile_type[0]
    return ["".join(row) for row in grid]


def _player_view(state: MagnificentState, seat: int, player: Player) -> dict[str, Any]:
    masters = []
    for card in player.masters:
        entry: dict[str, Any] = {"card": card}
        if card in player.dice:
            colour, value = player.dice[card]
            entry["die"] = {"colour": colour, "value": value}
        masters.append(entry)
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
        "camp": _camp_rows(state, player),
        "posters": [p or "" for p in player.posters],
        "tents": [t or "" for t in player.tents],
        "completed": list(player.completed),
        "hats": [position_label(h) for h in player.hats],
        "turns_taken": len(player.dice),
    }


def _turn_view(state: MagnificentState) -> dict[str, Any]:
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
    if state.decision_code() == "VD2":
        colour, index = turn.tent_space
        view["tent"] = state.track_tents[colour][index] or ""
    return view


def _track_view(state: MagnificentState, colour: str) -> dict[str, Any]:
    spaces = []
    for index, gem in enumerate(state.c.track_spaces[colour]):
        if gem is not None:
            spaces.append(f"gem:{gem}")
        else:
            tent = state.track_tents[colour][index]
            spaces.append(f"tent:{tent}" if tent else "poster")
    return {"colour": colour, "wagon": state.wagons[colour], "spaces": spaces}


def build_view(state: MagnificentState, seat: int | None) -> dict[str, Any]:
    """The view of `seat` (None = a spectator); identical apart from `seat`, as nothing is private."""
    view: dict[str, Any] = {}
    if seat is not None:
        view["seat"] = seat
    view.update(
        {
            "round": state.round,
            "start_player": state.start_player,
            "turn_count": state.turn_count,
            "decision": state.decision_code(),
            "deciding": list(state.deciding_seats()),
            "main_tent": [
                {"colour": key[0], "value": int(key[2]), "count": count}
                for key, count in sorted(state.main_tent.items(), key=lambda kv: ("OGPC".index(kv[0][0]), kv[0]))
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
            "tracks": [_track_view(state, colour) for colour in state.track_tents],
            "supply": [{"tile_type": t, "count": state.supply[t]} for t in TILE_TYPES],
            "players": [_player_view(state, s, p) for s, p in enumerate(state.players_state)],
            "poster_in_hand": state.poster_in_hand,
            "side_b": state.side_b,
            "game_over": state.over,
            "final_scores": [
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
            ],
        }
    )
    if state.turn is not None:
        view["turn"] = _turn_view(state)
    view["draft_master_cards"] = state.draft
    if state.draft:
        view["draft_round"] = state.draft_round
        if seat is not None:
            # a seat sees only the hand it holds now, its own picks and the card it removed last
            if state.draft_round < 4:
                view["draft_hand"] = list(state.draft_hands[draft.held_hand(state, seat)])
            view["draft_picks"] = list(state.draft_picks[seat])
            removed = draft.removed_by(state, seat)
            if removed:
                view["draft_removed"] = removed
    return view
