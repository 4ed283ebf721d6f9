"""The Magnificent: travel (spec §4.5): move a wagon, gain what each space gives, take a landed-on tent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Option
from referee.games.magnificent import options as opt

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


def step_travel(state: MagnificentState) -> None:
    assert state.turn is not None
    state._ask("VD1", state.turn.seat)


def options_vd1(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.steps(k) for k in range(1, min(state._power(), 12) + 1)]


def apply_vd1(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    steps = option.payload["steps"]
    colour = turn.wagon_colour or turn.acting
    start = state.wagons[colour]
    end = (start + steps) % 12
    state.wagons[colour] = end
    state.track_token = object()
    state.emit("wagon_moved", seat=seat, colour=colour, start=start, end=end, steps=steps)
    state._schedule(*[("space", seat, colour, (start + i) % 12, i == steps) for i in range(1, steps + 1)])


def step_space(state: MagnificentState, seat: int, colour: str, index: int, landing: bool) -> None:
    gem = state.c.track_spaces[colour][index]
    if gem is not None:
        state._gain_gem(seat, gem)
        return
    tent = state.track_tents[colour][index]
    if tent is None:
        state._schedule(("gain_poster", seat))
    elif landing and None in state.players_state[seat].tents[1:]:
        assert state.turn is not None
        state.turn.tent_space = (colour, index)
        state.turn_token = object()
        state._ask("VD2", seat)


def options_vd2(state: MagnificentState, seat: int) -> list[Option]:
    assert state.turn is not None
    options = [opt.slot("tent_slot", s + 1) for s, held in enumerate(state.players_state[seat].tents) if held is None and s > 0]
    options.append(opt.simple("decline", "leave the tent on the track"))
    return options


def apply_vd2(state: MagnificentState, seat: int, option: Option) -> None:
    assert state.turn is not None
    if option.payload["kind"] == "decline":
        return
    colour, index = state.turn.tent_space
    slot = option.payload["slot"]
    tent = state.track_tents[colour][index]
    state.track_tents[colour][index] = None
    state.players_state[seat].tents[slot - 1] = tent
    state.track_token = state.player_tokens[seat] = object()
    state.emit("tent_taken", seat=seat, tent=tent, colour=colour, index=index, slot=slot)
    state._gain_bonus(seat, state.c.tent_slot_bonus[slot], f"tent_slot:{slot}")
