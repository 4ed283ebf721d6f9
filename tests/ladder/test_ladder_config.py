"""The operator's ladder.toml when it is wrong: one line naming the problem, at start and while serving."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.cli import ladder
from ladder.executors import LocalExecutor
from ladder.ladder_config import LadderConfigError, load_config
from ladder.service import Ladder, SchedulerOptions
from ladder.settings import LadderSettings


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00", "not UTF-8 text"),
        (b'registration = "open"\n', "unknown table(s) registration (tables: accounts, quotas, challenges; registration goes under [accounts])"),
        (b"[challenges]\nworker_shar = 0.5\n", "unknown key(s) worker_shar in [challenges] (known: worker_share)"),
        (b"quotas = 3\n", "quotas must be a table ([quotas]), not 3"),
        (b'[accounts]\nregistration = "open\n', "Illegal character"),
        (b"[quotas]\nnosuch = 1\n", "unknown quota 'nosuch'"),
    ],
    ids=["binary", "key-outside-its-table", "misspelt-key", "value-for-a-table", "bad-toml", "unknown-quota"],
)
def test_a_bad_ladder_toml_is_refused_in_one_line(tmp_path: Path, content: bytes, message: str) -> None:
    (tmp_path / "ladder.toml").write_bytes(content)
    with pytest.raises(LadderConfigError) as refused:
        load_config(tmp_path)
    assert message in str(refused.value) and "\n" not in str(refused.value)


def test_serve_refuses_a_bad_ladder_toml_before_scheduling(tmp_path: Path) -> None:
    """`ladder serve` stops at start with the reason (as for a bad games file), not a traceback a second."""
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()
    assert runner.invoke(ladder, [*home, "init"]).exit_code == 0
    (tmp_path / "home" / "ladder.toml").write_text("[quotas]\nnosuch = 1\n")
    result = runner.invoke(ladder, [*home, "serve", "--max-matches", "1"])
    assert result.exit_code != 0 and "unknown quota 'nosuch'" in result.output, result.output
    assert "Traceback" not in result.output and "scheduled" not in result.output


def test_a_ladder_toml_broken_while_serving_keeps_the_last_good_settings(
    sqlite_settings: LadderSettings, caplog: pytest.LogCaptureFixture
) -> None:
    """An edit that breaks the file is logged once; the scheduler keeps the previous challenge share."""
    path = sqlite_settings.home / "ladder.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[challenges]\nworker_share = 1.0\n")
    executor = LocalExecutor(1)
    try:
        service = Ladder(sqlite_settings, executor, SchedulerOptions(concurrency=4, seed=1))
        assert service.ladder_config().challenge_slots(4) == 4
        path.write_text("[challenges]\nworker_share = 7\n")
        with caplog.at_level(logging.ERROR, logger="ladder.service"):
            for _ in range(3):
                service.schedule_challenges()
                assert service.ladder_config().challenge_slots(4) == 4
        assert [record.getMessage().count("worker_share") for record in caplog.records] == [1]
        path.write_text("[challenges]\nworker_share = 0.25\n")
        assert service.ladder_config().challenge_slots(4) == 1
    finally:
        executor.shutdown()


