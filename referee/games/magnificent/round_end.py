"""The Magnificent: round end (spec §4.10) and the end of the game (§6): payment, hats and pairs, master scoring, next round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from referee.engine import Option, Seat
from referee.games.magnificent import scoring
from referee.games.magnificent.model import FIRST_SHOW, IN_HAND

if TYPE_CHECKING:
    from referee.games.magnificent.state import Step


class RoundEndMixin:
    """Round end (spec §4.10) and the end of the game (§6) steps, options and applications, mixed into the game state."""

    def _step_round_end(self) -> None:
        penalty = self.c.penalty[self.round]
        for seat, player in enumerate(self.players_state):
            due = scoring.payment_due(player)
            paid = min(player.coins, due)
            missing = due - paid
            player.coins -= paid
            player.points -= missing * penalty
            self.emit("payment", seat=seat, due=due, paid=paid, penalty=missing * penalty)
        for seat, player in enumerate(self.players_state):
            if player.hats[0] >= FIRST_SHOW and player.hats[1] >= FIRST_SHOW:
                lower = 0 if player.hats[0] < player.hats[1] else 1
                self.emit("hat_returned", seat=seat, position=player.hats[lower] - FIRST_SHOW + 1)
                player.hats[lower] = IN_HAND
        order = sorted(range(self.players), key=lambda s: -max(self.players_state[s].hats))
        steps: list[Step] = [("pair", seat) for seat in order]
        steps.append(("score_masters",))
        steps.append(("round_prep",) if self.round < 3 else ("game_end",))
        self._schedule(*steps)

    def _step_pair(self, seat: int) -> None:
        if any(m is not None or t is not None for m, t in self.display):
            self._ask("RD1", seat)

    def _options_rd1(self, seat: int) -> list[Option]:
        return [
            Option(f"pair:{i + 1}", f"take {m} and {t}", {"kind": "pair", "slot": i + 1, "card": m or "", "trainer": t or ""})
            for i, (m, t) in enumerate(self.display)
            if m is not None or t is not None
        ]

    def _apply_rd1(self, seat: int, option: Option) -> None:
        slot = option.payload["slot"]
        card, tile = self.display[slot - 1]
        self.display[slot - 1] = [None, None]
        player = self.players_state[seat]
        if card is not None:
            player.masters.append(card)
            player.masters.sort(key=lambda m: self.c.masters[m].order)
        if tile is not None:
            self._add_trainer(seat, tile)
        self.emit("pair_taken", seat=seat, slot=slot, card=card or "", tile=tile or "")

    def _step_score_masters(self) -> None:
        self.pending = ("RD2", -1)

    def _options_rd2(self, seat: int) -> list[Option]:
        player = self.players_state[seat]
        return [
            Option(
                f"score:{card}",
                f"score {card} for {scoring.master_value(self.c, self.c.masters[card], player)}",
                {"kind": "score", "card": card},
            )
            for card in player.masters
        ]

    def _apply_rd2(self, chosen: Mapping[Seat, Option]) -> None:
        for seat in sorted(chosen):
            card = chosen[seat].payload["card"]
            player = self.players_state[seat]
            value = scoring.master_value(self.c, self.c.masters[card], player)
            player.points += value
            player.masters.remove(card)
            self.emit("master_scored", seat=seat, card=card, points=value)

    def _step_round_prep(self) -> None:
        for player in self.players_state:
            player.markers += player.spent
            player.spent = 0
        leftovers = [x for pair in self.display for x in pair if x is not None]
        if leftovers:
            self.emit("display_cleared", removed=leftovers)
        self.display = [[None, None] for _ in range(self.pairs)]
        hats = sorted(
            ((hat, seat, i) for seat, p in enumerate(self.players_state) for i, hat in enumerate(p.hats) if hat != IN_HAND)
        )
        for position, (_, seat, i) in enumerate(hats):
            self.players_state[seat].hats[i] = position
        self.start_player = hats[0][1]
        for player in self.players_state:
            player.dice = {}
        self.main_tent = {}
        self.emit("hats_reset", order=[seat for _, seat, _ in hats])
        steps: list[Step] = [("chance", "master_display", i) for i in range(self.pairs)]
        steps += [("chance", "trainer_display", i) for i in range(self.pairs)]
        steps += self._roll_steps()
        steps.append(("round_start",))
        self._schedule(*steps)

    def _step_game_end(self) -> None:
        self.final = [scoring.final_breakdown(self.c, p) for p in self.players_state]
        self.over = True
        self.turn = None
        scores = [entry["total"] for entry in self.final]
        ranks = scoring.final_ranks(scores, self.players_state)
        self.emit("game_end", scores=scores, ranks=list(ranks))
