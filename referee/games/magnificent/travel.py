"""The Magnificent: travel (spec §4.5): move a wagon, gain what each space gives, take a landed-on tent."""

from __future__ import annotations

from referee.engine import Option
from referee.games.magnificent import options as opt


class TravelMixin:
    """Travel (spec §4.5) steps, options and applications, mixed into the game state."""

    def _step_travel(self) -> None:
        assert self.turn is not None
        self._ask("VD1", self.turn.seat)

    def _options_vd1(self, seat: int) -> list[Option]:
        return [opt.steps(k) for k in range(1, min(self._power(), 12) + 1)]

    def _apply_vd1(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        steps = option.payload["steps"]
        colour = turn.wagon_colour or turn.acting
        start = self.wagons[colour]
        end = (start + steps) % 12
        self.wagons[colour] = end
        self.emit("wagon_moved", seat=seat, colour=colour, start=start, end=end, steps=steps)
        self._schedule(*[("space", seat, colour, (start + i) % 12, i == steps) for i in range(1, steps + 1)])

    def _step_space(self, seat: int, colour: str, index: int, landing: bool) -> None:
        gem = self.c.track_spaces[colour][index]
        if gem is not None:
            self._gain_gem(seat, gem)
            return
        tent = self.track_tents[colour][index]
        if tent is None:
            self._schedule(("gain_poster", seat))
        elif landing and None in self.players_state[seat].tents[1:]:
            assert self.turn is not None
            self.turn.tent_space = (colour, index)
            self._ask("VD2", seat)

    def _options_vd2(self, seat: int) -> list[Option]:
        assert self.turn is not None
        options = [opt.slot("tent_slot", s + 1) for s, held in enumerate(self.players_state[seat].tents) if held is None and s > 0]
        options.append(opt.simple("decline", "leave the tent on the track"))
        return options

    def _apply_vd2(self, seat: int, option: Option) -> None:
        assert self.turn is not None
        if option.payload["kind"] == "decline":
            return
        colour, index = self.turn.tent_space
        slot = option.payload["slot"]
        tent = self.track_tents[colour][index]
        self.track_tents[colour][index] = None
        self.players_state[seat].tents[slot - 1] = tent
        self.emit("tent_taken", seat=seat, tent=tent, colour=colour, index=index, slot=slot)
        self._gain_bonus(seat, self.c.tent_slot_bonus[slot], f"tent_slot:{slot}")
