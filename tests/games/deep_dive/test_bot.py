"""The DEEP DIVE heuristic bot: against random bots (seats rotated) and the solo AI, on constructed
positions, and in games with players, which must stay exactly as recorded.

Multiplayer figures in docs/bots.md: python -m bots.evaluate deep_dive --games 200 --players <n>;
against the solo AI:                python -m tests.games.deep_dive.test_bot <games> [<first seed>]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bots.evaluate import evaluate
from bots.heuristic import deep_dive
from bots.heuristic.deep_dive import HeuristicBot
from bots.random_bot import RandomBot
from referee.games.deep_dive.state import AI
from referee.local import play_local, request_for
from sdk import Bot, GameOverInfo, Request
from tests.games.deep_dive.helpers import acquire, ai_acquire, begin_turn, decide, new_game, place_available

#: Every choice of heuristics playing each other, recorded before the solo logic existed: "players:seed" ->
#: ["seat:option", ...]. Games with players are measured against this play, so it must not change.
RECORDED_CHOICES = Path(__file__).with_name("heuristic_choices_with_players.json")
#: Every choice of the heuristic in solo games, recorded before its valuation was made cheaper: "difficulty:seed" ->
#: ["0:option", ...]. Caching must not change a single choice.
RECORDED_SOLO_CHOICES = Path(__file__).with_name("heuristic_choices_solo.json")


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


class _Logging(Bot):
    """Plays as `inner` and writes down every choice it is asked for, as "seat:option"."""

    def __init__(self, inner: Bot, log: list[str]) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = log

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        answer = self.inner.choose(request)
        self.log.append(f"{request.seat}:{answer}")
        return answer


def heuristic_table_choices(players: int, seed: int, variants: dict[str, str] | None = None) -> list[str]:
    """Every choice of a table of heuristics in the seeded game, in order."""
    log: list[str] = []
    play_local("deep_dive", [_Logging(HeuristicBot(), log) for _ in range(players)], seed=seed, variants=variants)
    return log


@pytest.mark.parametrize("table", sorted(json.loads(RECORDED_CHOICES.read_text())))
def test_heuristic_plays_games_with_players_exactly_as_recorded(table: str) -> None:
    players, seed = (int(part) for part in table.split(":"))
    recorded = json.loads(RECORDED_CHOICES.read_text())[table]
    assert heuristic_table_choices(players, seed) == recorded


@pytest.mark.parametrize("game", sorted(json.loads(RECORDED_SOLO_CHOICES.read_text())))
def test_heuristic_plays_solo_games_exactly_as_recorded(game: str) -> None:
    difficulty, seed = game.split(":")
    recorded = json.loads(RECORDED_SOLO_CHOICES.read_text())[game]
    assert heuristic_table_choices(1, int(seed), {"ai_difficulty": difficulty}) == recorded


def _at_depth_3_with_pink_and_green_4_face_up(players: int) -> Request:
    """The diver holds two yellow 1s and reaches depth 3, where a pink 4 and a green 4 lie face-up."""
    state = new_game(players)
    if players == 1:
        state.ai_position = 3  # the AI flips at depth 3 next; on a predator it picks from this food
        ai_acquire(state, ["D1-01", "D1-17"])  # pink 1, yellow 1: a green tile completes its first row
    acquire(state, 0, ["D1-15", "D1-16"])
    place_available(state, "D3-01", "D3-04")
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-25")  # open water
    decide(state, "flip")
    state.apply_chance("D2-16")  # open water
    return request_for(state, 0)


def test_solo_bot_takes_the_tile_the_ai_would_pick_on_a_predator() -> None:
    # both tiles are worth the same to the diver; the AI would pick the green one (its fewest colour)
    # and complete a row with it; with players there is no AI and the first of equals is kept
    assert HeuristicBot().choose(_at_depth_3_with_pink_and_green_4_face_up(1)) == "take:D3-04"
    assert HeuristicBot().choose(_at_depth_3_with_pink_and_green_4_face_up(2)) == "take:D3-01"


def _flipped_a_rock_at_depth_1(players: int) -> Request:
    state = new_game(players)
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-22")
    return request_for(state, 0)


def test_solo_bot_leaves_a_rock_for_food_deeper() -> None:
    # a held rock is worth a deep start later; solo, a food tile now is worth more than that (measured)
    assert HeuristicBot().choose(_flipped_a_rock_at_depth_1(2)) == "keep"
    assert HeuristicBot().choose(_flipped_a_rock_at_depth_1(1)) == "dive_on"


def _flipped_a_green_4_at_depth_2() -> Request:
    """The solo diver holds a green 1 and a pink 2, flips open water at depth 1, then a green 4 at depth 2."""
    state = new_game(1)
    acquire(state, 0, ["D1-10", "D1-05"])
    begin_turn(state, 0)
    decide(state, "flip")
    state.apply_chance("D1-25")  # open water
    decide(state, "flip")
    state.apply_chance("D2-08")  # green 4: a second row begun
    return request_for(state, 0)


def test_solo_bot_keeps_a_tile_that_begins_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # solo, incomplete rows count at a share of 0.55 of what completing them adds (0.45 with players:
    # then diving on looks better); 70.1% of seeds 0..999 won against the medium AI instead of 67.4%
    assert HeuristicBot().choose(_flipped_a_green_4_at_depth_2()) == "keep"
    monkeypatch.setattr(deep_dive, "SOLO_SHARE", 0.45)
    assert HeuristicBot().choose(_flipped_a_green_4_at_depth_2()) == "dive_on"


def test_solo_bot_in_the_final_round_dives_for_a_win_rather_than_a_sure_loss() -> None:
    state = new_game(1)
    state.end_triggered = True  # the human starts every round: its next turn is the final round
    state.ai_position = 2
    ai_acquire(state, ["D1-02", "D1-09", "D2-13"])  # pink 1, green 1 and a rock: 1 + 3 = 4 points (medium)
    acquire(state, 0, ["D1-03", "D1-10"])  # pink 1, green 1: 1 point
    place_available(state, "D1-16")  # yellow 1 completes the row: 3 points, below the AI whatever it flips
    begin_turn(state, 0)
    assert state.final_round
    request = request_for(state, 0)
    assert [o.id for o in request.options] == ["take:D1-16", "flip"]
    assert HeuristicBot().choose(request) == "flip"


def test_heuristic_beats_the_medium_solo_ai_by_a_margin() -> None:
    # 15 of these 24 games won, +6.0 points a game (the first 12: 6 won; the heuristic before the share
    # of 0.55 won 9 of those 12, 7 before the solo logic); over 1000 held-out seeds 69% of games won
    # against 37% before the solo logic (docs/bots.md): at 70% a game, 14 of 24 fail one time in 13,
    # at 37% pass one time in 35; random play loses by far
    heuristic = versus_ai(HeuristicBot(), "medium", 24, first_seed=30_000)
    random_play = versus_ai(RandomBot(seed=1), "medium", 4, first_seed=30_000)
    assert heuristic[0] >= 14 / 24 and heuristic[1] - heuristic[2] >= 3.0, heuristic
    assert heuristic[1] > random_play[1] and heuristic[2] > 0, (heuristic, random_play)


if __name__ == "__main__":
    from benchmarks.strength import wilson

    total = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for level in ("easy", "medium", "hard"):
        for label, player in (("heuristic", HeuristicBot()), ("random", RandomBot(seed=1))):
            share, mine, theirs = versus_ai(player, level, total, first_seed=first)
            low, high = wilson(share, total)
            print(f"deep_dive solo vs {level} AI, seeds {first}..{first + total - 1}: {label} wins {share:.1%} "
                  f"({low:.1%}-{high:.1%}), mean score {mine:.1f} vs AI {theirs:.1f}")
