"""The Magnificent: round end (spec §4.10) and the end of the game (§6): payment, hats and pairs, master scoring, next round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from referee.engine import Option, Seat
from referee.games.magnificent import scoring, setup
from referee.games.magnificent.model import FIRST_SHOW, IN_HAND

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState, Step


def step_round_end(state: MagnificentState) -> None:
    penalty = state.c.penalty[state.round]
    for seat, player in enumerate(state.players_state):
        due = scoring.payment_due(player)
        paid = min(player.coins, due)
        missing = due - paid
        player.coins -= paid
        player.points -= missing * penalty
        state.player_tokens[seat] = object()
        state.emit("payment", seat=seat, due=due, paid=paid, penalty=missing * penalty)
    for seat, player in enumerate(state.players_state):
        if player.hats[0] >= FIRST_SHOW and player.hats[1] >= FIRST_SHOW:
            lower = 0 if player.hats[0] < player.hats[1] else 1
            state.emit("hat_returned", seat=seat, position=player.hats[lower] - FIRST_SHOW + 1)
            player.hats[lower] = IN_HAND
    order = sorted(range(state.players), key=lambda s: -max(state.players_state[s].hats))
    steps: list[Step] = [("pair", seat) for seat in order]
    steps.append(("score_masters",))
    steps.append(("round_prep",) if state.round < 3 else ("game_end",))
    state._schedule(*steps)


def step_pair(state: MagnificentState, seat: int) -> None:
    if any(m is not None or t is not None for m, t in state.display):
        state._ask("RD1", seat)


def options_rd1(state: MagnificentState, seat: int) -> list[Option]:
    return [
        Option(f"pair:{i + 1}", f"take {m} and {t}", {"kind": "pair", "slot": i + 1, "card": m or "", "trainer": t or ""})
        for i, (m, t) in enumerate(state.display)
        if m is not None or t is not None
    ]


def apply_rd1(state: MagnificentState, seat: int, option: Option) -> None:
    slot = option.payload["slot"]
    card, tile = state.display[slot - 1]
    state.display[slot - 1] = [None, None]
    state.display_token = state.player_tokens[seat] = object()
    player = state.players_state[seat]
    if card is not None:
        player.masters.append(card)
        player.masters.sort(key=lambda m: state.c.masters[m].order)
    if tile is not None:
        setup.add_trainer(state, seat, tile)
    state.emit("pair_taken", seat=seat, slot=slot, card=card or "", tile=tile or "")


def step_score_masters(state: MagnificentState) -> None:
    state.pending = ("RD2", -1)


def options_rd2(state: MagnificentState, seat: int) -> list[Option]:
    player = state.players_state[seat]
    return [
        Option(
            f"score:{card}",
            f"score {card} for {scoring.master_value(state.c, state.c.masters[card], player)}",
            {"kind": "score", "card": card},
        )
        for card in player.masters
    ]


def apply_rd2(state: MagnificentState, chosen: Mapping[Seat, Option]) -> None:
    for seat in sorted(chosen):
        card = chosen[seat].payload["card"]
        player = state.players_state[seat]
        value = scoring.master_value(state.c, state.c.masters[card], player)
        player.points += value
        player.masters.remove(card)
        state.player_tokens[seat] = object()
        state.emit("master_scored", seat=seat, card=card, points=value)


def step_round_prep(state: MagnificentState) -> None:
    for player in state.players_state:
        player.markers += player.spent
        player.spent = 0
    leftovers = [x for pair in state.display for x in pair if x is not None]
    if leftovers:
        state.emit("display_cleared", removed=leftovers)
    state.display = [[None, None] for _ in range(state.pairs)]
    hats = sorted(
        ((hat, seat, i) for seat, p in enumerate(state.players_state) for i, hat in enumerate(p.hats) if hat != IN_HAND)
    )
    for position, (_, seat, i) in enumerate(hats):
        state.players_state[seat].hats[i] = position
    state.start_player = hats[0][1]
    for player in state.players_state:
        player.dice = {}
    state.main_tent = {}
    state.player_tokens = [object() for _ in state.players_state]  # markers, hats, dice
    state.display_token = state.tent_token = object()
    state.emit("hats_reset", order=[seat for _, seat, _ in hats])
    steps: list[Step] = [("chance", "master_display", i) for i in range(state.pairs)]
    steps += [("chance", "trainer_display", i) for i in range(state.pairs)]
    steps += setup.roll_steps(state)
    steps.append(("round_start",))
    state._schedule(*steps)


def step_game_end(state: MagnificentState) -> None:
    state.final = [scoring.final_breakdown(state.c, p) for p in state.players_state]
    state.over = True
    state.turn = None
    state.turn_token = object()
    scores = [entry["total"] for entry in state.final]
    ranks = scoring.final_ranks(scores, state.players_state)
    state.emit("game_end", scores=scores, ranks=list(ranks))
