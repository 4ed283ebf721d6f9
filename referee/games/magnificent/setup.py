"""The Magnificent: setup (spec §3): the draws in order, start resources, hats, the starting trainer draft (SD1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Option
from referee.games.magnificent import draft
from referee.games.magnificent.data import COLOURS, DIE_COLOURS
from referee.games.magnificent.model import IN_HAND

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState, Step


def chance_start(state: MagnificentState, outcome: str) -> None:
    n = state.players
    start = int(outcome.split(":")[1])
    state.start_player = start
    state.emit("start_player", seat=start)
    seats = state._seats_from(start)
    steps: list[Step] = [("chance", "board", seat) for seat in seats]
    steps.append(("setup_masters",))
    steps += [("chance", "master_display", i) for i in range(state.pairs)]
    steps += [("chance", "trainer_display", i) for i in range(state.pairs)]
    steps += [("chance", "trainer_pool")] * state.c.starting_trainer_draw
    steps += [("chance", "tent", colour, index) for colour in DIE_COLOURS for index in state.c.tent_spaces]
    steps += [("chance", "start_poster", seat) for seat in seats]
    steps.append(("refill",))
    steps.append(("setup_players",))
    steps += roll_steps(state)
    steps += [("draft", seat) for seat in [(start - 1 - i) % n for i in range(n)]]
    steps.append(("draft_end",))
    steps.append(("round_start",))
    state._schedule(*steps)


def roll_steps(state: MagnificentState) -> list[Step]:
    counts = state.c.dice[state.players]
    return [("chance", "dice", colour, count) for colour, count in zip(COLOURS, counts) if count]


def chance_board(state: MagnificentState, outcome: str, seat: int) -> None:
    state.boards_left.remove(outcome)
    state.players_state[seat].board = outcome
    state.player_tokens[seat] = object()
    state.emit("board_dealt", seat=seat, board=outcome)


def step_setup_masters(state: MagnificentState) -> None:
    if state.draft:
        draft.draft_start(state)
        return
    used = {p.board for p in state.players_state}
    for player in state.players_state:
        player.masters = [m for m in state.c.starting_masters if state.c.masters[m].board == player.board]
    unused = [m for m in state.c.starting_masters if state.c.masters[m].board not in used]
    state.master_deck = list(state.c.regular_masters) + unused
    state.player_tokens = [object() for _ in state.players_state]
    state.deck_token = object()


def chance_master_display(state: MagnificentState, outcome: str, slot: int) -> None:
    state.master_deck.remove(outcome)
    state.display[slot][0] = outcome
    state.deck_token = state.display_token = object()
    state.emit("display_card", slot=slot + 1, card=outcome)


def chance_trainer_display(state: MagnificentState, outcome: str, slot: int) -> None:
    state.trainer_deck.remove(outcome)
    state.display[slot][1] = outcome
    state.deck_token = state.display_token = object()
    state.emit("display_trainer", slot=slot + 1, tile=outcome)


def chance_trainer_pool(state: MagnificentState, outcome: str) -> None:
    state.trainer_deck.remove(outcome)
    state.draft_pool.append(outcome)
    state.draft_pool.sort()
    state.deck_token = object()
    state.emit("draft_pool_tile", tile=outcome)


def chance_tent(state: MagnificentState, outcome: str, colour: str, index: int) -> None:
    state.tents_left.remove(outcome)
    state.track_tents[colour][index] = outcome
    state.track_token = object()
    state.emit("tent_set", colour=colour, index=index, tent=outcome)


def chance_start_poster(state: MagnificentState, outcome: str, seat: int) -> None:
    state.start_posters_left.remove(outcome)
    state.players_state[seat].posters[0] = outcome
    state.player_tokens[seat] = object()
    state.emit("start_poster", seat=seat, poster=outcome)


def step_setup_players(state: MagnificentState) -> None:
    n = state.players
    for seat, player in enumerate(state.players_state):
        board = state.c.boards[player.board]
        coins, markers, gems = board.start_b if state.side_b else board.start_a
        player.coins = coins
        player.markers = markers
        player.gems = list(gems)
        player.tents[0] = state.c.printed_tent
    for offset, seat in enumerate(state._seats_from(state.start_player)):
        state.players_state[seat].hats = [offset, IN_HAND]
    state.player_tokens = [object() for _ in state.players_state]
    if n >= 2:
        giver = state.start_player
        receiver = (giver - 1) % n
        state.players_state[giver].coins -= state.c.coin_transfer
        state.players_state[receiver].coins += state.c.coin_transfer
        state.emit("coin_handed", giver=giver, receiver=receiver, coins=state.c.coin_transfer)


def chance_dice(state: MagnificentState, outcome: str, colour: str, count: int) -> None:
    values = [int(v) for v in outcome[2:].split(",")]
    for value in values:
        key = f"{colour}:{value}"
        state.main_tent[key] = state.main_tent.get(key, 0) + 1
    state.tent_token = object()
    state.emit("dice_rolled", colour=colour, values=values)


def step_draft(state: MagnificentState, seat: int) -> None:
    if state.draft_pool:
        state._ask("SD1", seat)


def options_sd1(state: MagnificentState, seat: int) -> list[Option]:
    return [
        Option(f"trainer:{t}", f"take {state.c.trainers[t].name} ({t})", {"kind": "trainer", "trainer": t})
        for t in state.draft_pool
    ]


def apply_sd1(state: MagnificentState, seat: int, option: Option) -> None:
    tile = option.payload["trainer"]
    state.draft_pool.remove(tile)
    state.deck_token = object()
    add_trainer(state, seat, tile)
    state.emit("trainer_drafted", seat=seat, tile=tile)


def add_trainer(state: MagnificentState, seat: int, tile: str) -> None:
    trainers = state.players_state[seat].trainers
    trainers.append(tile)
    trainers.sort()
    state.player_tokens[seat] = object()


def step_draft_end(state: MagnificentState) -> None:
    state.removed_trainers.extend(state.draft_pool)
    if state.draft_pool:
        state.emit("draft_leftovers", tiles=list(state.draft_pool))
    state.draft_pool = []
    state.deck_token = object()
