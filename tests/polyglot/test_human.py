"""`b99 play`: a person plays one seat in the terminal and sees only that seat's view and options."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.random_bot import RandomBot
from referee.human import HumanBot, play_command, render_view
from referee.local import play_local
from referee.replay import verify_replay
from sdk import Bot, Request
from tests.polyglot.helpers import assert_clean, test_game


class Recorder(Bot):
    """Wraps a HumanBot and keeps the requests it was shown."""

    def __init__(self, human: HumanBot) -> None:
        self.human = human
        self.requests: list[Request] = []

    def on_game_start(self, start):  # type: ignore[no-untyped-def]
        self.human.on_game_start(start)

    def choose(self, request: Request) -> str:
        self.requests.append(request)
        return self.human.choose(request)

    def on_game_over(self, over):  # type: ignore[no-untyped-def]
        self.human.on_game_over(over)


def test_render_view_shows_nested_records_one_per_line() -> None:
    lines = render_view({"phase": "stake", "hands": [{"bills": 30}, {"bills": 28}], "hit": True, "pot": 0})
    assert lines == ["  phase: stake", "  hands:", "    0: {bills: 30}", "    1: {bills: 28}", "  hit: yes", "  pot: 0"]


def test_a_person_plays_a_whole_game_by_number_and_by_id() -> None:
    answers = "\n".join(["0", "x", "1"] + ["1"] * 2000) + "\n"
    screen = io.StringIO()
    human = Recorder(HumanBot(stdin=io.StringIO(answers), stdout=screen))
    report = play_local(test_game(), [RandomBot(1), human], seed=3)
    assert_clean(report)
    text = screen.getvalue()
    assert "you are seat 1 of 2" in text
    assert "type a number from 1 to" in text  # "0" and "x" were refused
    assert "Game over." in text and "(you)" in text
    # Every request shown: its view line by line and every option's label and id, nothing else asked.
    for request in human.requests:
        for line in render_view(request.view):
            assert line in text
        for option in request.options:
            assert f"{option.label}  [{option.id}]" in text
    assert text.count("seat 1 > ") >= len(human.requests)


def test_play_command_quits_on_q(tmp_path: Path) -> None:
    result = CliRunner().invoke(play_command, [test_game(), "--bot", "random", "--seed", "2", "--replay", str(tmp_path / "q.jsonl")], input="q\n")
    assert result.exit_code == 1
    assert "you left the game" in result.output
    assert "Your view (seat 0)" in result.output


def test_play_command_seats_the_person_where_asked() -> None:
    result = CliRunner().invoke(play_command, [test_game(), "--bot", "random", "--seat", "1", "--seed", "2"], input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "you are seat 1" in result.output and "Game over." in result.output


def test_play_command_rejects_a_bad_seat_and_an_unknown_game() -> None:
    bad_seat = CliRunner().invoke(play_command, [test_game(), "--bot", "random", "--seat", "5"])
    assert bad_seat.exit_code == 2 and "seat must be between 0 and 1" in bad_seat.output
    unknown = CliRunner().invoke(play_command, ["no_such_game", "--bot", "random"])
    assert unknown.exit_code == 2 and "unknown game" in unknown.output


def test_ctrl_c_at_the_prompt_ends_the_game_cleanly_with_a_replay(tmp_path: Path) -> None:
    """A real terminal session: SIGINT while `b99 play` waits for the person; the fallback finishes the game."""
    replay = tmp_path / "left.jsonl"
    b99 = str(Path(sys.executable).with_name("b99"))
    process = subprocess.Popen(
        [b99, "play", test_game(), "--bot", "random", "--seed", "2", "--replay", str(replay)],
        cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert process.stdout is not None
    seen = ""
    deadline = time.monotonic() + 60
    while "seat 0 > " not in seen and time.monotonic() < deadline:
        seen += process.stdout.read(1)
    process.send_signal(signal.SIGINT)
    # stdin stays open until the end, as a terminal's does: closed early, it could end the input first.
    process.wait(timeout=60)
    output = seen + process.stdout.read()
    assert process.stdin is not None
    process.stdin.close()
    assert process.returncode == 1, output
    assert "you left the game (Ctrl-C); the fallback policy played your seat to the end" in output
    assert "Traceback" not in output
    assert replay.is_file() and verify_replay(replay).state.is_terminal()


def test_play_without_replay_option_writes_one_under_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(play_command, [test_game(), "--bot", "random", "--seed", "2"], input="q\n")
    assert result.exit_code == 1 and "replay written to runs/" in result.output
    assert len(list((tmp_path / "runs").glob("*.jsonl"))) == 1


def test_ctrl_c_that_lands_on_another_thread_still_stops_the_prompt() -> None:
    """The kernel may hand SIGINT to any thread (gRPC has several): the prompt still stops, without waiting for Enter."""
    read_end, write_end = os.pipe()
    bot = HumanBot(stdin=os.fdopen(read_end, "r"), stdout=io.StringIO())
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)

    def interrupt_from_here() -> None:
        time.sleep(0.3)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        time.sleep(10)
        os.close(write_end)  # ends the input, for a prompt that missed Ctrl-C

    threading.Thread(target=interrupt_from_here, daemon=True).start()
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            bot.next_line()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - began < 5, "Ctrl-C was seen only when the input ended"
