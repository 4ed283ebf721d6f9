"""The Magnificent: a turn (spec §4.3, §4.9): take and place a die, the action, windows A and B with master bonuses and trainer tiles."""

from __future__ import annotations

from referee.engine import Option
from referee.errors import RuleError
from referee.games.magnificent import options as opt
from referee.games.magnificent.data import COLOUR_INDEX, COLOURS, DIE_COLOURS
from referee.games.magnificent.model import Turn

ACTIONS = ("BUILD", "TRAVEL", "PERFORM")
DIE_KEYS = tuple(f"{c}:{v}" for c in COLOURS for v in range(1, 7))
WINDOW_B_MASTER = ("COINS", "POINTS", "GEM_ANY", "GEM_ACTING", "POSTER")


class TurnMixin:
    """A turn (spec §4.3, §4.9) steps, options and applications, mixed into the game state."""

    def _step_round_start(self) -> None:
        self.round += 1
        self.turn_count = 0
        self.emit("round_start", round=self.round, start_player=self.start_player)
        self._schedule(("turn",))

    def _step_turn(self) -> None:
        if self.turn_count >= 4 * self.players:
            self._schedule(("round_end",))
            return
        seat = (self.start_player + self.turn_count) % self.players
        self.turn = Turn(seat)
        self._ask("TD1", seat)

    def _options_td1(self, seat: int) -> list[Option]:
        tent = self.main_tent
        return [opt.die(key[0], int(key[2])) for key in DIE_KEYS if key in tent]

    def _apply_td1(self, seat: int, option: Option) -> None:
        colour, value = option.payload["colour"], option.payload["value"]
        key = f"{colour}:{value}"
        self.main_tent[key] -= 1
        if not self.main_tent[key]:
            del self.main_tent[key]
        turn = self.turn
        assert turn is not None
        turn.die_colour, turn.die_value = colour, value
        self.emit("die_taken", seat=seat, colour=colour, value=value)
        self._ask("TD2", seat)

    def _options_td2(self, seat: int) -> list[Option]:
        player = self.players_state[seat]
        return [opt.card(card) for card in player.masters if card not in player.dice]

    def _apply_td2(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.card = option.payload["card"]
        self.players_state[seat].dice[turn.card] = (turn.die_colour, turn.die_value)
        self.emit("die_placed", seat=seat, card=turn.card)
        if turn.die_colour == "C":
            self._ask("TD3", seat)
        else:
            turn.acting = turn.die_colour
            self._ask("TD4", seat)

    def _options_td3(self, seat: int) -> list[Option]:
        return [opt.colour(c) for c in DIE_COLOURS]

    def _apply_td3(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.acting = option.payload["colour"]
        self.emit("clear_colour", seat=seat, colour=turn.acting)
        self._ask("TD4", seat)

    def _options_td4(self, seat: int) -> list[Option]:
        return [opt.action(a) for a in ACTIONS]

    def _apply_td4(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        turn.action = option.payload["action"]
        self.emit("action_chosen", seat=seat, action=turn.action)
        self._schedule(("window", "A"))

    def _step_window(self, window: str) -> None:
        assert self.turn is not None
        self._ask("TD5" if window == "A" else "TD6", self.turn.seat)

    def _usable_trainers(self, seat: int, window: str) -> list[str]:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        display = sorted(t for _, t in self.display if t is not None)
        usable = []
        for tile_id in player.trainers + display:
            tile = self.c.trainers[tile_id]
            if tile_id in turn.trainers_used or tile.cost > player.markers:
                continue
            if window == "A":
                if tile.timing not in ("ANY", "BEFORE", turn.action):
                    continue
            elif tile.timing != "ANY":
                continue
            usable.append(tile_id)
        return usable

    def _master_options(self, seat: int, window: str) -> list[Option]:
        turn = self.turn
        assert turn is not None
        if turn.master_used:
            return []
        card = self.c.masters[turn.card]
        kind = card.bonus
        if window == "B" and kind not in WINDOW_B_MASTER:
            return []
        if kind == "DIE_SHIFT":
            options = []
            if turn.die_value > 1:
                options.append(opt.master(card.id, kind, "-1"))
            if turn.die_value < 6:
                options.append(opt.master(card.id, kind, "+1"))
            return options
        if kind == "GEM_ANY":
            return [opt.master(card.id, kind, c) for c in COLOURS]
        return [opt.master(card.id, kind)]

    def _trainer_options(self, seat: int, window: str) -> list[Option]:
        turn = self.turn
        assert turn is not None
        options = []
        for tile_id in self._usable_trainers(seat, window):
            tile = self.c.trainers[tile_id]
            if tile.effect in ("BUILD_COLOUR", "WAGON_COLOUR"):
                used = any(self.c.trainers[t].effect == tile.effect for t in turn.trainers_used)
                if not used:
                    options += [opt.trainer(tile_id, tile.name, c) for c in DIE_COLOURS]
            elif tile.effect == "DIE_SET":
                options += [opt.trainer(tile_id, tile.name, str(v)) for v in range(1, 7) if v != turn.die_value]
            else:
                options.append(opt.trainer(tile_id, tile.name))
        return options

    def _options_td5(self, seat: int) -> list[Option]:
        turn = self.turn
        assert turn is not None
        player = self.players_state[seat]
        options = [opt.gem_power(c) for c in (turn.acting, "C") if player.gems[COLOUR_INDEX[c]] > 0]
        options += self._master_options(seat, "A")
        options += self._trainer_options(seat, "A")
        options.append(opt.simple("resolve", "resolve the action"))
        return options

    def _options_td6(self, seat: int) -> list[Option]:
        options = self._master_options(seat, "B") + self._trainer_options(seat, "B")
        options.append(opt.simple("end", "end the turn"))
        return options

    def _apply_td5(self, seat: int, option: Option) -> None:
        turn = self.turn
        assert turn is not None
        kind = option.payload["kind"]
        if kind == "resolve":
            turn.resolved = True
            self._schedule((turn.action.lower(),), ("window", "B"))
            return
        self._schedule(("window", "A"))
        if kind == "gem_power":
            colour = option.payload["colour"]
            self.players_state[seat].gems[COLOUR_INDEX[colour]] -= 1
            turn.power_bonus += 2
            turn.gems_spent += 1
            self.emit("gem_power", seat=seat, colour=colour)
        else:
            self._use_effect(seat, option)

    def _apply_td6(self, seat: int, option: Option) -> None:
        if option.payload["kind"] == "end":
            self._schedule(("end_turn",))
            return
        self._schedule(("window", "B"))
        self._use_effect(seat, option)

    def _use_effect(self, seat: int, option: Option) -> None:
        """A master bonus or a trainer tile chosen in window A or B; poster gains run before the window returns."""
        turn = self.turn
        assert turn is not None
        payload = option.payload
        player = self.players_state[seat]
        if payload["kind"] == "master":
            turn.master_used = True
            card = self.c.masters[turn.card]
            kind, n = card.bonus, card.bonus_value
            reason = f"master:{card.id}"
            self.emit("master_bonus", seat=seat, card=card.id, choice=option.id)
        else:
            tile = self.c.trainers[payload["trainer"]]
            turn.trainers_used.append(tile.id)
            player.markers -= tile.cost
            player.spent += tile.cost
            kind, n = tile.effect, tile.value
            reason = f"trainer:{tile.id}"
            self.emit("trainer_used", seat=seat, tile=tile.id, choice=option.id)
        if kind == "POWER":
            turn.power_bonus += n
        elif kind == "DIE_SHIFT":
            self._set_die_value(turn.die_value + payload["delta"])
        elif kind == "DIE_FLIP":
            self._set_die_value(7 - turn.die_value)
        elif kind == "DIE_SET":
            self._set_die_value(payload["value"])
        elif kind == "COINS":
            self._gain(seat, reason, coins=n)
        elif kind == "POINTS":
            self._gain(seat, reason, points=n)
        elif kind == "GEM_ANY":
            self._gain_gem(seat, payload["colour"])
        elif kind == "GEM_ACTING":
            for _ in range(max(n, 1)):
                self._gain_gem(seat, turn.acting)
        elif kind == "POSTER":
            self._schedule(("gain_poster", seat))
        elif kind == "EXTRA_SMALL_TILE":
            turn.extra_small += 1
        elif kind == "EXTRA_SHOW":
            turn.extra_show += 1
        elif kind == "POINTS_PER_SHOW":
            turn.points_per_show += n
        elif kind == "BUILD_COLOUR":
            turn.build_colour = payload["colour"]
        elif kind == "WAGON_COLOUR":
            turn.wagon_colour = payload["colour"]
        else:
            raise RuleError(f"magnificent: unknown effect {kind!r}")

    def _step_end_turn(self) -> None:
        assert self.turn is not None
        self.turn = None
        self.turn_count += 1
        self._schedule(("turn",))
