"""The Magnificent: setup (spec §3): the draws in order, start resources, hats, the starting trainer draft (SD1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Option
from referee.games.magnificent.data import COLOURS, DIE_COLOURS
from referee.games.magnificent.model import IN_HAND

if TYPE_CHECKING:
    from referee.games.magnificent.state import Step


class SetupMixin:
    """Setup (spec §3) steps, options and applications, mixed into the game state."""

    def _chance_start(self, outcome: str) -> None:
        n = self.players
        start = int(outcome.split(":")[1])
        self.start_player = start
        self.emit("start_player", seat=start)
        seats = self._seats_from(start)
        steps: list[Step] = [("chance", "board", seat) for seat in seats]
        steps.append(("setup_masters",))
        steps += [("chance", "master_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_pool")] * self.c.starting_trainer_draw
        steps += [("chance", "tent", colour, index) for colour in DIE_COLOURS for index in self.c.tent_spaces]
        steps += [("chance", "start_poster", seat) for seat in seats]
        steps.append(("refill",))
        steps.append(("setup_players",))
        steps += self._roll_steps()
        steps += [("draft", seat) for seat in [(start - 1 - i) % n for i in range(n)]]
        steps.append(("draft_end",))
        steps.append(("round_start",))
        self._schedule(*steps)

    def _roll_steps(self) -> list[Step]:
        counts = self.c.dice[self.players]
        return [("chance", "dice", colour, count) for colour, count in zip(COLOURS, counts) if count]

    def _chance_board(self, outcome: str, seat: int) -> None:
        self.boards_left.remove(outcome)
        self.players_state[seat].board = outcome
        self.emit("board_dealt", seat=seat, board=outcome)

    def _step_setup_masters(self) -> None:
        if self.draft:
            self._draft_start()
            return
        used = {p.board for p in self.players_state}
        for player in self.players_state:
            player.masters = [m for m in self.c.starting_masters if self.c.masters[m].board == player.board]
        unused = [m for m in self.c.starting_masters if self.c.masters[m].board not in used]
        self.master_deck = list(self.c.regular_masters) + unused

    def _chance_master_display(self, outcome: str, slot: int) -> None:
        self.master_deck.remove(outcome)
        self.display[slot][0] = outcome
        self.emit("display_card", slot=slot + 1, card=outcome)

    def _chance_trainer_display(self, outcome: str, slot: int) -> None:
        self.trainer_deck.remove(outcome)
        self.display[slot][1] = outcome
        self.emit("display_trainer", slot=slot + 1, tile=outcome)

    def _chance_trainer_pool(self, outcome: str) -> None:
        self.trainer_deck.remove(outcome)
        self.draft_pool.append(outcome)
        self.draft_pool.sort()
        self.emit("draft_pool_tile", tile=outcome)

    def _chance_tent(self, outcome: str, colour: str, index: int) -> None:
        self.tents_left.remove(outcome)
        self.track_tents[colour][index] = outcome
        self.emit("tent_set", colour=colour, index=index, tent=outcome)

    def _chance_start_poster(self, outcome: str, seat: int) -> None:
        self.start_posters_left.remove(outcome)
        self.players_state[seat].posters[0] = outcome
        self.emit("start_poster", seat=seat, poster=outcome)

    def _step_setup_players(self) -> None:
        n = self.players
        for seat, player in enumerate(self.players_state):
            board = self.c.boards[player.board]
            coins, markers, gems = board.start_b if self.side_b else board.start_a
            player.coins = coins
            player.markers = markers
            player.gems = list(gems)
            player.tents[0] = self.c.printed_tent
        for offset, seat in enumerate(self._seats_from(self.start_player)):
            self.players_state[seat].hats = [offset, IN_HAND]
        if n >= 2:
            giver = self.start_player
            receiver = (giver - 1) % n
            self.players_state[giver].coins -= self.c.coin_transfer
            self.players_state[receiver].coins += self.c.coin_transfer
            self.emit("coin_handed", giver=giver, receiver=receiver, coins=self.c.coin_transfer)

    def _chance_dice(self, outcome: str, colour: str, count: int) -> None:
        values = [int(v) for v in outcome[2:].split(",")]
        for value in values:
            key = f"{colour}:{value}"
            self.main_tent[key] = self.main_tent.get(key, 0) + 1
        self.emit("dice_rolled", colour=colour, values=values)

    def _step_draft(self, seat: int) -> None:
        if self.draft_pool:
            self._ask("SD1", seat)

    def _options_sd1(self, seat: int) -> list[Option]:
        return [
            Option(f"trainer:{t}", f"take {self.c.trainers[t].name} ({t})", {"kind": "trainer", "trainer": t})
            for t in self.draft_pool
        ]

    def _apply_sd1(self, seat: int, option: Option) -> None:
        tile = option.payload["trainer"]
        self.draft_pool.remove(tile)
        self._add_trainer(seat, tile)
        self.emit("trainer_drafted", seat=seat, tile=tile)

    def _add_trainer(self, seat: int, tile: str) -> None:
        trainers = self.players_state[seat].trainers
        trainers.append(tile)
        trainers.sort()

    def _step_draft_end(self) -> None:
        self.removed_trainers.extend(self.draft_pool)
        if self.draft_pool:
            self.emit("draft_leftovers", tiles=list(self.draft_pool))
        self.draft_pool = []
