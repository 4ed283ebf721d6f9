"""The DEEP DIVE heuristic bot against random bots (seats rotated).

Multiplayer figures in docs/bots.md: python -m bots.evaluate deep_dive --games 200 --players <n>;
against the solo AI:                python -m tests.games.deep_dive.test_bot <games>
"""

from __future__ import annotations

import sys

from bots.evaluate import evaluate
from bots.heuristic.deep_dive import HeuristicBot
from bots.random_bot import RandomBot
from referee.games.deep_dive.state import AI
from referee.local import play_local, request_for
from sdk import Bot, GameOverInfo, Request
from tests.games.deep_dive.helpers import acquire, begin_turn, decide, new_game, place_available


class _Recording(Bot):
    """Plays as `inner` and keeps the `game_end` event data it is sent at the end."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.game_end: dict = {}

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        return self.inner.choose(request)

    def on_game_over(self, over: GameOverInfo) -> None:
        for event in over.events:
            if event.kind == "game_end":
                self.game_end = dict(event.data)


def versus_ai(inner: Bot, difficulty: str, games: int, first_seed: int = 0) -> tuple[float, float, float]:
    """Solo games against the engine's AI: (share won or shared, mean score, mean AI score)."""
    won = score = ai_points = 0.0
    for game in range(games):
        seat = _Recording(inner)
        report = play_local("deep_dive", [seat], seed=first_seed + game, variants={"ai_difficulty": difficulty})
        won += seat.game_end["solo_rank"] == 1
        score += report.scores[0]
        ai_points += seat.game_end["ai_score"]
    return won / games, score / games, ai_points / games


def test_heuristic_beats_random_at_2_and_4_players() -> None:
    two = evaluate("deep_dive", 24, players=2)
    four = evaluate("deep_dive", 16, players=4)
    # fair shares 0.5 and 0.25; the 200-game runs in docs/bots.md give about 0.85 and 0.70
    assert two.win_rate >= 0.65 and two.mean_score_margin > 0, two
    assert four.win_rate >= 0.4, four


def test_bot_takes_a_row_completing_tile_rather_than_diving_into_predators() -> None:
    state = new_game(2)
    acquire(state, 0, ["D1-01", "D1-08"])  # pink 1, green 1
    place_available(state, "D2-12")  # yellow 4 completes the row
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-25")
    assert HeuristicBot().choose(request_for(state, 0)) == "take:D2-12"


def test_bot_swallows_a_rock_to_reach_a_rich_depth() -> None:
    state = new_game(2)
    acquire(state, 0, ["D1-22", "D1-01", "D1-08"])
    place_available(state, "D4-06")  # yellow 7 completes a row at depth 4
    begin_turn(state, 0)
    assert HeuristicBot().choose(request_for(state, 0)) == "rock:4"


def test_bot_gives_the_solo_ai_the_tile_it_wants_least_itself() -> None:
    state = new_game(1)
    state.ai_position = 3
    acquire(state, 0, ["D1-01", "D1-08"])  # the human holds pink 1, green 1: yellow would complete a row
    place_available(state, "D3-04", "D3-07")  # green 4, yellow 4; the AI holds nothing: a tie between colours
    begin_turn(state, AI)
    state.apply_chance("D3-16")
    assert [o.id for o in state.legal_options(0)] == ["ai_give:D3-04", "ai_give:D3-07"]
    assert HeuristicBot().choose(request_for(state, 0)) == "ai_give:D3-04"


def test_heuristic_scores_more_than_random_against_the_solo_ai() -> None:
    heuristic = versus_ai(HeuristicBot(), "easy", 6, first_seed=30_000)
    random_play = versus_ai(RandomBot(seed=1), "easy", 6, first_seed=30_000)
    assert heuristic[1] > random_play[1], (heuristic, random_play)
    assert 0.0 <= heuristic[0] <= 1.0 and heuristic[2] > 0


if __name__ == "__main__":
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for level in ("easy", "medium", "hard"):
        for label, player in (("heuristic", HeuristicBot()), ("random", RandomBot(seed=1))):
            share, mine, theirs = versus_ai(player, level, total)
            print(f"deep_dive solo vs {level} AI, {total} games: {label} wins {share:.3f}, "
                  f"mean score {mine:.1f} vs AI {theirs:.1f}")
