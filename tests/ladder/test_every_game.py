"""The ladder and the tournament work for every registered game, whatever its player count."""

from __future__ import annotations

import functools
import sys

import pytest

from bots.registry import make_bot
from ladder import queries
from ladder.execute import execute_match
from ladder.matches import schedule_match
from ladder.recompute import recompute
from ladder.registry import add_bot
from ladder.settings import LadderSettings
from ladder.tournament import run_tournament
from referee.match import BotSpec
from referee.registry import game_ids, get_game


@pytest.mark.parametrize("game", game_ids())
def test_ladder_match_and_tournament(game: str, sqlite_settings: LadderSettings) -> None:
    players = get_game(game).default_players
    ids = [add_bot(sqlite_settings, f"r{i}", game, command=[sys.executable, "-m", "bots", "random"]).id for i in range(players)]
    match_id = schedule_match(sqlite_settings, game, ids, seed=11)  # type: ignore[arg-type]
    assert execute_match(sqlite_settings, match_id) == "done"
    row = queries.match(sqlite_settings, match_id)
    assert row is not None and row.status == "done" and all(not seat.faults for seat in row.seats)
    assert recompute(sqlite_settings, game) == []
    bots = [BotSpec(name="random", factory=functools.partial(make_bot, "random")) for _ in range(players)]
    result = run_tournament(game, bots, games_per_table=1, players=players, seed=2)
    assert len(result.reports) == 1 and sum(line.games for line in result.standings) == players
