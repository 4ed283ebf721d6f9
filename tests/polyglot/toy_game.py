"""A tiny game with every feature a searching bot must handle: a hidden deal (chance), a secret
per seat, and one simultaneous decision. Each seat is dealt a card 1-3 it alone sees; then all
seats at once either `play` or `fold`. Players who play compare cards: highest wins; folding
seats rank below every player; all folding is a tie. Here `play` with the top card can never lose,
and folding it can never win."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Self

from referee.chance import uniform_outcomes
from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, JsonValue, Option, Seat
from referee.ranking import competition_ranks

CARDS = ("1", "2", "3")


class HighCardGame(Game):
    id = "high_card"
    name = "High Card"
    min_players = 1
    max_players = 4
    default_players = 2

    def new_initial_state(self, config: GameConfig) -> HighCardState:
        return HighCardState(self, config)


class HighCardState(GameState):
    def __init__(self, game: Game, config: GameConfig) -> None:
        super().__init__(game, config)
        self.cards: list[int] = []
        self.moves: dict[Seat, str] = {}

    def is_terminal(self) -> bool:
        return len(self.moves) == self.players

    def is_chance_node(self) -> bool:
        return len(self.cards) < self.players

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        return uniform_outcomes(CARDS)

    def deciding_seats(self) -> tuple[Seat, ...]:
        if self.is_chance_node() or self.is_terminal():
            return ()
        return tuple(range(self.players))

    def decision_name(self, seat: Seat) -> str:
        return "play_or_fold"

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        return (Option("fold", "Fold", {}), Option("play", "Play", {}))

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        self.cards.append(int(outcome.id))
        self.emit("dealt", to=len(self.cards) - 1, card=int(outcome.id))

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        self.moves = {seat: option.id for seat, option in chosen.items()}
        self.emit("shown", moves=[self.moves[seat] for seat in range(self.players)])

    def private_view(self, seat: Seat) -> dict[str, JsonValue]:
        return {"card": self.cards[seat]} if seat < len(self.cards) else {}

    def public_view(self) -> dict[str, JsonValue]:
        return {}

    def result(self) -> GameResult:
        self.require_over()
        keys = [self.cards[seat] if self.moves[seat] == "play" else 0 for seat in range(self.players)]
        if self.players == 1:
            return GameResult((1,), (float(keys[0]),))
        return GameResult(tuple(competition_ranks(keys)), tuple(float(key) for key in keys))

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.game, twin.config, twin.events = self.game, self.config, self.events.copy()
        twin.cards, twin.moves = list(self.cards), dict(self.moves)
        return twin

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        twin = self.clone()
        twin.cards = [card if index == seat else rng.randint(1, 3) for index, card in enumerate(self.cards)]
        return twin


GAME = HighCardGame()


def dealt(players: int, cards: Sequence[int]) -> HighCardState:
    """A state right after the deal."""
    state = GAME.new_initial_state(GAME.make_config(players))
    for card in cards:
        state.apply_chance(str(card))
    return state
