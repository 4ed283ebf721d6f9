"""Running a ladder: backup and restore across SQLite and PostgreSQL, token rotation and revocation on
the command line, Prometheus metrics, JSON logs, and the servers started together."""

from __future__ import annotations

import re

import json
import logging
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import MetaData, select

from ladder.backup import SKIPPED_TABLES, backup, restore
from ladder.cli import ladder as ladder_cli
from ladder.db import get_engine, migrate, sqlite_url
from ladder.execute import execute_match
from ladder.game_settings import make_settings, save_games
from ladder.matches import schedule_match
from ladder.metrics import ladder_registry
from ladder.recompute import recompute
from ladder.registry import LadderError, add_bot, bot_for_token, issue_token
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME
from tests.ladder.test_api import play_one

RANDOM = [sys.executable, "-m", "bots", "random"]
CRASH = [sys.executable, "-c", "import sys; sys.exit(3)"]


def populate(settings: LadderSettings) -> dict[str, int]:
    """Bots, a token, three rated matches with replays, one with a crash fault, one queued, a games file."""
    ids = {name: add_bot(settings, name, GAME, command=RANDOM, owner=f"{name}@example.org").id or 0 for name in ("ann", "ben")}
    ids["crashy"] = add_bot(settings, "crashy", GAME, command=CRASH).id or 0
    add_bot(settings, "far", GAME, remote=True)
    issue_token(settings, "far")
    for seed in range(3):
        play_one(settings, [ids["ann"], ids["ben"]][:: 1 if seed % 2 else -1], seed)
    ids["faulty"] = schedule_match(settings, GAME, [ids["crashy"], ids["ann"]], seed=9)
    assert execute_match(settings, ids["faulty"]) == "done"
    ids["queued"] = schedule_match(settings, GAME, [ids["ann"], ids["ben"]], seed=10, time_control={"per_decision_seconds": 2.0})
    save_games(settings.home / "games.toml", {GAME: make_settings(GAME, {"players": 2, "time_per_decision": 2.0})})
    return ids


def dump(settings: LadderSettings) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows, comparable across databases (paths made relative to the home)."""
    engine = get_engine(settings.db_url)
    metadata = MetaData()
    with engine.connect() as connection:
        metadata.reflect(bind=connection)
        tables = {}
        for table in metadata.sorted_tables:
            if table.name in SKIPPED_TABLES:  # the schema's revision, the scheduler's change counts
                continue
            rows = []
            for row in connection.execute(select(table).order_by(*table.primary_key.columns)):
                values = {}
                for key, value in row._mapping.items():
                    if isinstance(value, str) and value.startswith(str(settings.home)):
                        value = "<home>" + value[len(str(settings.home)):]
                    elif hasattr(value, "replace") and hasattr(value, "isoformat"):
                        value = value.replace(tzinfo=None).isoformat()
                    values[key] = value
                rows.append(values)
            tables[table.name] = rows
    return tables


def test_backup_round_trips_sqlite_to_postgresql_and_back(tmp_path: Path, postgres) -> None:  # type: ignore[no-untyped-def]
    first = LadderSettings(home=tmp_path / "first", db_url=sqlite_url(tmp_path / "first" / "ladder.db"))
    migrate(first.db_url)
    ids = populate(first)
    original = dump(first)
    assert len(original["match"]) == 5 and original["bottoken"]

    archive = tmp_path / "ladder.tar.gz"
    summary = backup(first, archive)
    # Three replay files written beside their results, the games file; the worker's replay is a row.
    assert summary.rows["match"] == 5 and summary.files >= 4 and summary.rows["replayblob"] == 1

    second = LadderSettings(home=tmp_path / "second", db_url=postgres.new_database())
    restore(second, archive)
    assert dump(second) == original
    assert recompute(second, GAME, write=False) == []
    replay = dump(second)["match"][0]["replay_path"].replace("<home>", str(second.home))
    assert Path(replay).is_file() and (second.home / "games.toml").is_file()
    assert add_bot(second, "newcomer", GAME, command=RANDOM).id == max(ids[n] for n in ("ann", "ben", "crashy")) + 2  # sequences moved on
    with pytest.raises(LadderError, match="empty ladder"):
        restore(second, archive)

    back = tmp_path / "back.tar.gz"
    backup(second, back)
    third = LadderSettings(home=tmp_path / "third", db_url=sqlite_url(tmp_path / "third" / "ladder.db"))
    restore(third, back)
    third_rows = dump(third)
    assert third_rows["bot"][-1]["name"] == "newcomer"
    third_rows["bot"].pop()
    third_rows["rating"].pop()
    assert third_rows == original
    assert bot_for_token(third, "b99_not-a-token") is None


def test_backup_and_restore_on_the_command_line(tmp_path: Path, sqlite_settings: LadderSettings) -> None:
    play_one(sqlite_settings, [add_bot(sqlite_settings, n, GAME, command=RANDOM).id or 0 for n in ("a", "b")], 1)
    runner = CliRunner()
    archive = tmp_path / "b.tar.gz"
    done = runner.invoke(ladder_cli, ["--home", str(sqlite_settings.home), "--db", sqlite_settings.db_url, "backup", str(archive)])
    assert done.exit_code == 0 and "match 1" in done.output, done.output
    target = tmp_path / "restored"
    done = runner.invoke(ladder_cli, ["--home", str(target), "restore", str(archive)])
    assert done.exit_code == 0 and "match 1" in done.output, done.output
    again = runner.invoke(ladder_cli, ["--home", str(target), "restore", str(archive)])
    assert again.exit_code == 1 and re.fullmatch(r"Error: restore needs an empty ladder: table '\w+' has rows", again.output.strip())
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(b"not an archive")
    bad = runner.invoke(ladder_cli, ["--home", str(tmp_path / "other"), "restore", str(junk)])
    assert bad.exit_code == 1 and bad.output.startswith("Error: ") and bad.output.count("\n") == 1


def test_tokens_are_rotated_and_revoked_on_the_command_line(sqlite_settings: LadderSettings) -> None:
    add_bot(sqlite_settings, "far", GAME, remote=True)
    runner = CliRunner()
    base = ["--home", str(sqlite_settings.home), "--db", sqlite_settings.db_url, "token", "far"]
    first = runner.invoke(ladder_cli, base).output.strip()
    second = runner.invoke(ladder_cli, [*base, "--rotate"]).output.strip()
    assert bot_for_token(sqlite_settings, first) is None and bot_for_token(sqlite_settings, second).name == "far"  # type: ignore[union-attr]
    third = runner.invoke(ladder_cli, base).output.strip()
    revoked = runner.invoke(ladder_cli, [*base, "--revoke", "--token", third])
    assert revoked.exit_code == 0 and "1 token revoked" in revoked.output
    assert bot_for_token(sqlite_settings, third) is None and bot_for_token(sqlite_settings, second) is not None
    everything = runner.invoke(ladder_cli, [*base, "--revoke"])
    assert "1 token revoked" in everything.output and bot_for_token(sqlite_settings, second) is None
    wrong = runner.invoke(ladder_cli, [*base, "--revoke", "--token", "b99_nope"])
    assert wrong.exit_code == 1 and wrong.output == "Error: bot 'far' has no live token like that\n"
    assert runner.invoke(ladder_cli, [*base, "--rotate", "--revoke"]).exit_code == 1


def scrape(text: str) -> dict[str, float]:
    """Prometheus text format as {'name{labels}': value}."""
    values = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return values


def test_metrics_count_what_the_database_holds(sqlite_settings: LadderSettings) -> None:
    from prometheus_client import generate_latest

    registry = ladder_registry(sqlite_settings)
    assert scrape(generate_latest(registry).decode())["b99_ladder_database_up"] == 1  # starts counting here
    ids = populate(sqlite_settings)
    schedule_match(sqlite_settings, GAME, [ids["ann"], ids["ben"]], seed=11)
    values = scrape(generate_latest(registry).decode())
    assert values[f'b99_ladder_matches_total{{game="{GAME}",status="done"}}'] == 4
    assert values[f'b99_ladder_queue_depth{{game="{GAME}"}}'] == 2
    assert values[f'b99_ladder_matches_per_minute{{game="{GAME}"}}'] == 4
    assert values[f'b99_ladder_match_duration_seconds_count{{game="{GAME}"}}'] == 4
    crash_kinds = [name for name in values if name.startswith("b99_ladder_faults_total") and values[name] >= 1]
    assert crash_kinds and all(f'game="{GAME}"' in name for name in crash_kinds)


def test_the_servers_start_together_with_metrics_on_both_ports(sqlite_settings: LadderSettings) -> None:
    from ladder.executors import LocalExecutor
    from ladder.server import LadderServer
    from ladder.service import SchedulerOptions

    populate(sqlite_settings)
    server = LadderServer(sqlite_settings, SchedulerOptions(), workers=1, grpc_address="127.0.0.1:0",
                          http_address="127.0.0.1:0", metrics_address="127.0.0.1:0")
    assert isinstance(server.executor, LocalExecutor)
    server.start()
    try:
        for port in (server.http_port, server.metrics_port):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
                assert response.headers["Content-Type"].startswith("text/plain")
                assert f'b99_ladder_matches_total{{game="{GAME}",status="done"}} 4.0' in response.read().decode()
        with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}/games/{GAME}", timeout=10) as response:
            assert "per decision seconds 2.0" in response.read().decode()
        assert any("metrics on port" in line for line in server.describe())
    finally:
        server.stop()


def test_json_logs_carry_the_fields_of_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    from ladder.logs import configure_logging

    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        configure_logging("json")
        logging.getLogger("ladder.service").warning("match %s: attempt lost", 7, extra={"match_id": 7, "event": "reaped"})
        line = capsys.readouterr().err.strip().splitlines()[-1]
        record = json.loads(line)
        assert record["message"] == "match 7: attempt lost" and record["match_id"] == 7 and record["level"] == "WARNING"
        assert record["logger"] == "ladder.service" and record["time"].startswith("20")
        with pytest.raises(ValueError, match="log format"):
            configure_logging("xml")
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
