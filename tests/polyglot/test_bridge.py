"""The stdio bridge: bots in any language play over JSON lines on stdin and stdout."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import b99.arena_pb2 as arena_pb2
from referee.bridge import bridge_command, message_json, parse_reply
from referee.faults import FaultKind
from referee.match import BotSpec, MatchSpec, run_match
from tests.polyglot.helpers import PROCESS_CLOCK, ROOT, assert_clean, python_bot, test_game

BOTS = Path(__file__).resolve().parent / "bots"


def bridged(name: str, *command: str) -> BotSpec:
    return BotSpec(name=name, command=(sys.executable, "-m", "referee.bridge", "--", *command))


def test_reply_may_be_a_decision_without_request_id() -> None:
    message, problem = parse_reply('{"option_id": "stake:3"}', 7)
    assert problem is None
    assert message.decision.request_id == 7 and message.decision.option_id == "stake:3"


def test_reply_may_be_an_index_or_a_whole_bot_message() -> None:
    message, problem = parse_reply('{"request_id": 4, "option_index": 0}', 4)
    assert problem is None and message.decision.WhichOneof("choice") == "option_index"
    message, problem = parse_reply('{"decision": {"request_id": "9", "option_id": "guess:7"}}', 9)
    assert problem is None and message.decision.option_id == "guess:7" and message.decision.request_id == 9


@pytest.mark.parametrize("line", ["stake everything", "[1, 2]", '{"option_name": "x"}'])
def test_a_bad_reply_names_no_option_and_says_why(line: str) -> None:
    message, problem = parse_reply(line, 3)
    assert problem
    assert message.decision.request_id == 3 and message.decision.WhichOneof("choice") is None


def test_messages_are_one_json_line_with_proto_field_names_and_numbers() -> None:
    message = arena_pb2.RefereeMessage(decision_request=arena_pb2.DecisionRequest(request_id=12, decision="stake"))
    line = message_json(message)
    assert "\n" not in line
    data = json.loads(line)
    assert data["decision_request"]["request_id"] == 12
    assert data["decision_request"]["options"] == []  # fields without presence are always there


def test_a_bash_bot_plays_a_whole_game_through_the_bridge() -> None:
    game = test_game()
    report = run_match(
        MatchSpec(
            game=game,
            bots=[bridged("first-option.sh", "bash", str(BOTS / "first_option.sh")), python_bot("random", "bots", "random")],
            seed=6,
            time_control=PROCESS_CLOCK,
        )
    )
    assert_clean(report)


def test_the_node_example_plays_a_whole_game_through_the_bridge() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    game = test_game()
    report = run_match(
        MatchSpec(
            game=game,
            bots=[python_bot("random", "bots", "random"), bridged("random_bot.js", node, str(ROOT / "sdk" / "bridge" / "random_bot.js"))],
            seed=7,
            time_control=PROCESS_CLOCK,
        )
    )
    assert_clean(report)
    assert f"playing {game} as seat 1" in report.seats[1].stderr_tail


def test_garbage_from_a_bridged_bot_is_a_fault_and_the_table_plays_on() -> None:
    report = run_match(
        MatchSpec(
            game=test_game(),
            bots=[bridged("garbage.sh", "bash", str(BOTS / "garbage.sh")), python_bot("random", "bots", "random")],
            seed=8,
            time_control=PROCESS_CLOCK,
        )
    )
    seat = report.seats[0]
    assert seat.replaced and seat.faults[0].kind == FaultKind.PROTOCOL_ERROR
    assert "your bot printed a line that is not JSON: " in seat.stderr_tail
    from referee.fault_text import fault_reason

    assert fault_reason(seat.faults[0], seat.stderr_tail).startswith("your bot printed a line that is not JSON: ")
    assert report.ranks[0] == 2


def test_bridge_without_referee_settings_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("B99_ARENA_ADDRESS", raising=False)
    monkeypatch.delenv("B99_SEAT_TOKEN", raising=False)
    result = CliRunner().invoke(bridge_command, ["--", "bash", "-c", "true"])
    assert result.exit_code == 2
    assert "B99_ARENA_ADDRESS" in result.output and "Traceback" not in result.output


def test_bridge_with_a_command_that_does_not_exist_is_a_startup_fault() -> None:
    report = run_match(
        MatchSpec(
            game=test_game(),
            bots=[bridged("nothing", "/nonexistent/bot"), python_bot("random", "bots", "random")],
            seed=9,
            time_control=PROCESS_CLOCK,
        )
    )
    seat = report.seats[0]
    assert seat.replaced and seat.faults and "does not start" in seat.stderr_tail
