"""The Magnificent: perform (spec §4.6): move a hat to a show space, complete posters, pay extra gems, rearrange."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

from referee.engine import Option
from referee.games.magnificent import options as opt
from referee.games.magnificent.data import COLOUR_INDEX, COLOURS
from referee.games.magnificent.model import FIRST_SHOW, IN_HAND, Player, show_position


if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState, Step


def _occupied(state: MagnificentState) -> set[int]:
    return {hat for p in state.players_state for hat in p.hats if hat >= FIRST_SHOW}


def moving_hat(state: MagnificentState, seat: int) -> int:
    hats = state.players_state[seat].hats
    for i, hat in enumerate(hats):
        if 0 <= hat < FIRST_SHOW:
            return i
    for i, hat in enumerate(hats):
        if hat == IN_HAND:
            return i
    return 0 if hats[0] < hats[1] else 1


def show_spaces(state: MagnificentState) -> list[int]:
    power = state._power()
    occupied = _occupied(state)
    return [s.space for s in state.c.show_spaces if s.power <= power and show_position(s.space) not in occupied]


def step_perform(state: MagnificentState) -> None:
    turn = state.turn
    assert turn is not None
    if show_spaces(state):
        turn.hat = moving_hat(state, turn.seat)
        state.turn_token = object()
        state._ask("PD1", turn.seat)
    else:
        state.emit("no_show", seat=turn.seat)


def options_pd1(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.space(m, state.c.show_spaces[m - 1].shows) for m in show_spaces(state)]


def apply_pd1(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    space = option.payload["space"]
    state.players_state[seat].hats[turn.hat] = show_position(space)
    turn.shows = state.c.show_spaces[space - 1].shows + turn.extra_show
    state.turn_token = state.player_tokens[seat] = object()
    state.emit("hat_moved", seat=seat, space=space, shows=turn.shows)
    state._ask("PD2", seat)


def completable(state: MagnificentState, player: Player, slots: Sequence[int], tiles: Mapping[str, int]) -> bool:
    need: dict[str, int] = {}
    required = [0, 0, 0]
    extra = 0
    for slot in slots:
        poster = state.c.posters[player.posters[slot]]  # type: ignore[index]
        for tile in poster.tiles:
            need[tile] = need.get(tile, 0) + 1
        for i in range(3):
            required[i] += poster.gems[i]
        extra += state.c.tents[player.tents[slot]].extra_gems  # type: ignore[index]
    for tile, count in need.items():
        if tiles.get(tile, 0) < count:
            return False
    gems = player.gems
    shortfall = sum(max(0, required[i] - gems[i]) for i in range(3))
    return shortfall <= gems[3] and sum(required) + extra <= sum(gems)


def poster_sets(state: MagnificentState, seat: int) -> list[tuple[int, ...]]:
    turn = state.turn
    assert turn is not None
    player = state.players_state[seat]
    tiles = player.tile_counts()
    candidates = [s for s in range(5) if player.posters[s] is not None and player.tents[s] is not None]
    sets: list[tuple[int, ...]] = [()]
    for size in range(1, min(turn.shows, len(candidates)) + 1):
        for combo in combinations(candidates, size):
            if completable(state, player, combo, tiles):
                sets.append(combo)
    return sorted(sets)


def options_pd2(state: MagnificentState, seat: int) -> list[Option]:
    player = state.players_state[seat]
    options = []
    for combo in poster_sets(state, seat):
        slots = [s + 1 for s in combo]
        text = ",".join(str(s) for s in slots) or "-"
        names = ", ".join(str(player.posters[s]) for s in combo) or "no poster"
        options.append(Option(f"posters:{text}", f"complete {names}", {"kind": "posters", "slots": slots}))
    return options


def apply_pd2(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    player = state.players_state[seat]
    turn.chosen = [s - 1 for s in option.payload["slots"]]
    required = [0, 0, 0]
    extra = 0
    for slot in turn.chosen:
        poster = state.c.posters[player.posters[slot]]  # type: ignore[index]
        for i in range(3):
            required[i] += poster.gems[i]
        extra += state.c.tents[player.tents[slot]].extra_gems  # type: ignore[index]
    paid = [0, 0, 0, 0]
    for i in range(3):
        own = min(required[i], player.gems[i])
        paid[i] += own
        paid[3] += required[i] - own
    for i in range(4):
        player.gems[i] -= paid[i]
    state.turn_token = state.player_tokens[seat] = object()  # the slots chosen, the gems paid
    state.emit(
        "posters_chosen",
        seat=seat,
        slots=[s + 1 for s in turn.chosen],
        paid={c: paid[i] for i, c in enumerate(COLOURS)},
    )
    turn.extra_gems_due = extra
    steps: list[Step] = [("extra_gem",)] if extra else []
    state._schedule(*steps, ("perform_gain",), ("arrange",))


def step_extra_gem(state: MagnificentState) -> None:
    assert state.turn is not None
    state._ask("PD3", state.turn.seat)


def options_pd3(state: MagnificentState, seat: int) -> list[Option]:
    gems = state.players_state[seat].gems
    return [opt.pay(c) for c in COLOURS if gems[COLOUR_INDEX[c]]]


def apply_pd3(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    colour = option.payload["colour"]
    state.players_state[seat].gems[COLOUR_INDEX[colour]] -= 1
    turn.extra_gems_due -= 1
    state.turn_token = state.player_tokens[seat] = object()
    state.emit("extra_gem_paid", seat=seat, colour=colour)
    if turn.extra_gems_due:
        state._schedule(("extra_gem",))


def step_perform_gain(state: MagnificentState) -> None:
    turn = state.turn
    assert turn is not None
    player = state.players_state[turn.seat]
    points = coins = 0
    done = []
    for slot in turn.chosen:
        poster = state.c.posters[player.posters[slot]]  # type: ignore[index]
        tent = state.c.tents[player.tents[slot]]  # type: ignore[index]
        points += poster.points + tent.points + turn.points_per_show
        coins += poster.coins + tent.coins
        done.append(poster.id)
        player.completed.append(poster.id)
        player.posters[slot] = None
    player.points += points
    player.coins += coins
    state.player_tokens[turn.seat] = object()
    state.emit("posters_completed", seat=turn.seat, posters=done, points=points, coins=coins)


def step_arrange(state: MagnificentState) -> None:
    turn = state.turn
    assert turn is not None
    posters = state.players_state[turn.seat].posters
    if None in posters and any(p is not None for p in posters):
        state._ask("PD4", turn.seat)


def options_pd4(state: MagnificentState, seat: int) -> list[Option]:
    count = sum(1 for p in state.players_state[seat].posters if p is not None)
    return list(opt.arrangements(count))


def apply_pd4(state: MagnificentState, seat: int, option: Option) -> None:
    player = state.players_state[seat]
    posters = [p for p in player.posters if p is not None]
    arranged: list[str | None] = [None] * 5
    for poster, slot in zip(posters, option.payload["slots"]):
        arranged[slot - 1] = poster
    player.posters = arranged
    state.player_tokens[seat] = object()
    state.emit("posters_arranged", seat=seat, posters=[p or "" for p in arranged])
