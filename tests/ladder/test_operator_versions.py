"""The operator's `b99 ladder add-bot NAME --version N`: a new version of a bot the ladder has, that
takes the name in rated play once admitted (the version playing retires), as an account's submission does."""

from __future__ import annotations

from click.testing import CliRunner

from ladder.cli import ladder as ladder_cli
from ladder.models import BotStatus
from ladder.registry import get_bot
from ladder.settings import LadderSettings
from tests.ladder.conftest import GAME


def _add_bot(settings: LadderSettings, *arguments: str) -> tuple[int, str]:
    result = CliRunner().invoke(ladder_cli, ["--home", str(settings.home), "--db", settings.db_url, "add-bot", *arguments])
    return result.exit_code, result.output


def test_add_bot_with_a_version_makes_a_new_version_of_the_operators_bot(settings: LadderSettings) -> None:
    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "random", "--no-validation")
    assert code == 0, output
    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "heuristic")
    assert code != 0 and "a bot named 'house' already exists; `--version N` registers a new version of it" in output

    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "heuristic", "--version", "2")
    assert code == 0, output
    assert "version 2 of house: it takes the name in rated play once admitted" in output
    waiting = get_bot(settings, "house@2")
    assert (waiting.status, waiting.family, get_bot(settings, "house").status) == (BotStatus.VALIDATING, "house", BotStatus.ACTIVE)

    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "heuristic", "--version", "2")
    assert code != 0 and "house has a version 2 already" in output
    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "heuristic", "--version", "two words")
    assert code != 0 and "bad version 'two words'" in output

    # without validation the new version takes the name at once, and the one playing retires
    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "random", "--version", "3", "--no-validation")
    assert code == 0, output
    playing = get_bot(settings, "house")
    assert (playing.version, playing.status) == ("3", BotStatus.ACTIVE)
    first = get_bot(settings, "house@1")
    assert (first.status, first.paused_reason) == (BotStatus.RETIRED, "replaced by version 3")


def test_a_version_of_another_game_or_a_reference_bot_is_refused(settings: LadderSettings) -> None:
    code, output = _add_bot(settings, "house", "--game", GAME, "--command", "random", "--no-validation")
    assert code == 0, output
    code, output = _add_bot(settings, "house", "--game", "fuji99", "--command", "random", "--version", "2")
    assert code != 0 and "house plays underground_dice, not fuji99: a new game needs a new name" in output
