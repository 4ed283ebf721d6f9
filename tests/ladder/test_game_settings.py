"""Per-game settings: parsed and checked against the game, set from the CLI or a TOML file, used by the
matchmaker for every new match (player-count mix, variants, time control) and by the worker's referee."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import ladder as ladder_cli
from ladder.execute import build_spec
from ladder.game_settings import GameSettings, GameSettingsError, GamesFile, load_games, make_settings, parse_players
from ladder.matches import claim_match
from ladder.queries import match as match_row
from ladder.registry import add_bot
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings
from referee.errors import ArenaError

RANDOM = [sys.executable, "-m", "bots", "random"]


@pytest.mark.parametrize(("text", "counts"), [
    (3, {3: 1.0}), ([2, 4], {2: 1.0, 4: 1.0}), ({"2": 1, "4": 3}, {2: 1.0, 4: 3.0}), ("2,3", {2: 1.0, 3: 1.0}),
    ("2:1, 4:2", {2: 1.0, 4: 2.0}),
])
def test_player_counts_fixed_or_mixed(text: object, counts: dict[int, float]) -> None:
    assert parse_players("fuji99", text) == counts


@pytest.mark.parametrize(("table", "message"), [
    ({"players": 7}, "fuji99 is played by 2 to 4 players, not 7"),
    ({"players": "2:0"}, "weight of 2 players must be above 0"),
    ({"players": "two"}, "bad player count 'two'"),
    ({"players": []}, "players must be"),
    ({"variants": {"no_such_flag": True}}, "has no flag 'no_such_flag'"),
    ({"time_per_decision": -1}, "per_decision_seconds must be a number >= 0"),
    ({"time_bank": "lots"}, "time_bank must be a number"),
    ({"colour": "red"}, "unknown setting 'colour'"),
])
def test_bad_settings_are_refused_with_the_reason(table: dict[str, object], message: str) -> None:
    with pytest.raises(ArenaError, match=message):
        make_settings("fuji99", table)


def test_a_games_file_is_read_and_reread_when_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "games.toml"
    path.write_text('[games.fuji99]\nplayers = { 2 = 1, 4 = 3 }\ntime_per_decision = 1.5\n')
    games = GamesFile(path)
    assert games.get("fuji99").players == {2: 1.0, 4: 3.0} and games.get("fuji99").time_control == {"per_decision_seconds": 1.5}
    assert games.get("merchants") == GameSettings("merchants")
    path.write_text('[games.fuji99]\nplayers = 3\n')
    assert games.get("fuji99").players == {3: 1.0}
    path.write_text('[games.fuji99]\nplayers = 9\n')  # a bad edit: the last good settings stay
    assert games.get("fuji99").players == {3: 1.0}
    with pytest.raises(GameSettingsError, match="games.toml: fuji99 is played by 2 to 4 players, not 9"):
        load_games(path)
    path.write_text("[games.fuji99\n")
    with pytest.raises(GameSettingsError, match="not valid TOML"):
        load_games(path)


def test_the_matchmaker_mixes_player_counts_and_applies_variants_and_time_control(sqlite_settings: LadderSettings) -> None:
    settings = sqlite_settings
    for name in "abcde":
        add_bot(settings, name, "fuji99", command=RANDOM)
    runner = CliRunner()
    base = ["--home", str(settings.home), "--db", settings.db_url, "settings", "fuji99"]
    done = runner.invoke(ladder_cli, [*base, "--players", "2:1,4:1", "--time-per-decision", "0.75", "--time-bank", "4"])
    assert done.exit_code == 0 and "players 2 (50%), 4 (50%)" in done.output, done.output
    bad = runner.invoke(ladder_cli, [*base, "--players", "5"])
    assert bad.exit_code == 1 and bad.output == "Error: fuji99 is played by 2 to 4 players, not 5\n"
    assert runner.invoke(ladder_cli, ["--home", str(settings.home), "settings", "--players", "2"]).exit_code == 1

    ladder = Ladder(settings, executor=None, options=SchedulerOptions(seed=3))  # type: ignore[arg-type]
    ladder.rng = random.Random(3)
    ids = [ladder.schedule_one("fuji99") for _ in range(40)]
    players = Counter(len(match_row(settings, match_id).seats) for match_id in ids if match_id)  # type: ignore[union-attr]
    assert set(players) == {2, 4} and min(players.values()) >= 10
    job = claim_match(settings, ids[0], "w", 60)  # type: ignore[arg-type]
    assert not isinstance(job, str)
    spec = build_spec(settings, job)
    assert spec.time_control.per_decision_seconds == 0.75 and spec.time_control.bank_seconds == 4.0

    runner.invoke(ladder_cli, [*base, "--players", "3", "--reset"])
    assert Ladder(settings, executor=None).games_file.get("fuji99") == GameSettings("fuji99")  # type: ignore[arg-type]
    runner.invoke(ladder_cli, ["--home", str(settings.home), "--db", settings.db_url, "settings", "underground_dice",
                               "--variant", "counterfeit=true"])
    add_bot(settings, "x", "underground_dice", command=RANDOM)
    add_bot(settings, "y", "underground_dice", command=RANDOM)
    ladder = Ladder(settings, executor=None)  # type: ignore[arg-type]
    row = match_row(settings, ladder.schedule_one("underground_dice"))  # type: ignore[arg-type]
    assert row is not None and row.config["variants"] == {"counterfeit": True} and "time_control" not in row.config
