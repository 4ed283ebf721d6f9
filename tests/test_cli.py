"""The b99 command line: happy paths and one-line errors for bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main


@pytest.fixture(autouse=True)
def in_scratch_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Default replays go to ./runs; keep them out of the checkout."""
    monkeypatch.chdir(tmp_path)


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args))


def test_games_lists_underground_dice() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert "underground_dice" in result.output


def test_match_in_process_and_replay_verify(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "7", "--replay", str(replay))
    assert result.exit_code == 0, result.output
    assert "rank" in result.output
    verified = invoke("replay", "verify", str(replay))
    assert verified.exit_code == 0, verified.output
    assert "re-simulates exactly" in verified.output
    shown = invoke("replay", "show", str(replay), "--seat", "1")
    assert shown.exit_code == 0
    assert "chance" not in shown.output
    # Rows are numbered by step (as `replay position --step` and the viewer count), each decision with the
    # options offered and the think time.
    from referee.replay import read_replay
    from referee.replay_steps import walk

    first = next(w for w in walk(read_replay(replay)) if w.record["type"] == "decision" and "1" in w.record["choices"] and w.before is not None)
    offered = [o.id for o in first.before.legal_options(1)]
    option = first.record["choices"]["1"]
    row = next(line for line in shown.output.splitlines() if f"seat 1: {option}" in line)
    assert row.split("│")[1].strip() == str(first.number + 1)
    assert f"of {len(offered)}: {offered[0]}" in row and " ms " in row


def test_match_json_report_and_default_replay(tmp_path: Path) -> None:
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert sorted(report["ranks"]) in ([1, 1], [1, 2])
    assert Path(report["replay_path"]).parent == Path("runs")
    assert invoke("replay", "verify", report["replay_path"]).exit_code == 0


def test_unknown_game_is_one_line_error() -> None:
    result = invoke("match", "chess", "--bot", "random", "--bot", "random")
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    assert "Traceback" not in result.output


def test_bad_variant_value_is_one_line_error() -> None:
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--variant", "stake_cap=lots")
    assert result.exit_code == 2
    assert "stake_cap" in result.output and "Traceback" not in result.output
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--variant", "nonsense")
    assert result.exit_code == 2
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--variant", "no_flag=1")
    assert result.exit_code == 2 and "no flag 'no_flag'" in result.output


def test_wrong_player_count_is_one_line_error() -> None:
    result = invoke("match", "underground_dice", "--bot", "random")
    assert result.exit_code == 2 and "players" in result.output


def test_bot_command_that_does_not_exist() -> None:
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "/no/such/bot --fast")
    assert result.exit_code == 2
    assert "/no/such/bot" in result.output and "Traceback" not in result.output


def test_bot_script_that_does_not_exist_is_named_as_typed(tmp_path: Path) -> None:
    """Measured: `--bot "python pybott/bot.py"` (a typo) faulted with `can't open file
    '/tmp/../pybott/bot.py'`, a path in the sandbox's scratch directory. Now a one-line error names
    the path as typed and where it was looked for, before any process starts."""
    result = invoke("match", "underground_dice", "--bot", "python pybott/bot.py", "--bot", "random")
    assert result.exit_code == 2, result.output
    assert f"its script 'pybott/bot.py' does not exist (looked in {tmp_path})" in result.output
    bridged = invoke("match", "underground_dice", "--bot", "b99 bridge -- node gone.js", "--bot", "random")
    assert bridged.exit_code == 2 and "'gone.js' does not exist" in bridged.output


def test_python_and_node_in_a_bot_command_mean_the_runtimes_with_the_sdk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`python`/`python3` are the referee's own Python and `node` the Node its PATH finds, made absolute,
    so a sandbox (whose PATH is the system's) or a worker with another PATH runs the same programs."""
    import os
    import sys

    from referee.bot_resolution import own_program

    assert own_program(["python", "bot.py"]) == (sys.executable, "bot.py")
    assert own_program(["python3", "-m", "bots", "random"]) == (sys.executable, "-m", "bots", "random")
    node = tmp_path / "node"
    node.write_text("#!/bin/sh\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    assert own_program(["node", "bot.js"]) == (str(node), "bot.js")
    assert own_program(["build/bot", "--fast"]) == ("build/bot", "--fast")


def test_bot_that_starts_then_dies_exits_nonzero() -> None:
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "false", "--startup-time", "5")
    assert result.exit_code == 1
    assert "did not start" in result.output


def test_corrupt_replays_are_one_line_errors(tmp_path: Path) -> None:
    missing = invoke("replay", "verify", str(tmp_path / "missing.jsonl"))
    assert missing.exit_code == 2 and "does not exist" in missing.output
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is not json\n")
    result = invoke("replay", "verify", str(garbage))
    assert result.exit_code == 2 and "line 1" in result.output
    replay = tmp_path / "r.jsonl"
    invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "9", "--replay", str(replay))
    lines = replay.read_text().splitlines()
    tampered = tmp_path / "tampered.jsonl"
    decision_index = next(i for i, line in enumerate(lines) if '"type":"decision"' in line and "stake:" in line)
    record = json.loads(lines[decision_index])
    seat = next(iter(record["choices"]))
    record["choices"][seat] = "stake:999"
    lines[decision_index] = json.dumps(record)
    tampered.write_text("\n".join(lines) + "\n")
    result = invoke("replay", "verify", str(tampered))
    assert result.exit_code == 2 and "stake:999" in result.output
    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    result = invoke("replay", "verify", str(truncated))
    assert result.exit_code == 2 and "Traceback" not in result.output


@pytest.mark.parametrize("command", ["match", "play"])
def test_a_variant_that_is_not_key_value_is_one_line_naming_the_option(command: str) -> None:
    """`match` and `play` read --variant with the same option: the same error for the same mistake."""
    bots = ["--bot", "random", "--bot", "random"] if command == "match" else ["--bot", "random"]
    result = invoke(command, "fuji99", *bots, "--variant", "max_rounds")
    assert result.exit_code == 2
    assert "Invalid value for '--variant': 'max_rounds' is not key=value" in result.output


def test_help_lists_plugged_in_commands_by_their_own_help_without_importing_them() -> None:
    """`b99 --help` uses the summaries kept in referee.cli: each is its command's one-line help."""
    import importlib

    from referee.cli import PLUGIN_SUMMARIES, VIEWER_SUMMARIES
    from referee.dist_info import entry_points

    plugged = entry_points("b99.commands")
    assert set(PLUGIN_SUMMARIES) <= set(plugged)
    lazy = {name: target for name, target in plugged.items() if name in PLUGIN_SUMMARIES}
    lazy |= {"render": "referee.viewer.commands:replay_render", "view": "referee.viewer.commands:replay_view"}
    for name, target in lazy.items():
        module, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        assert (PLUGIN_SUMMARIES | VIEWER_SUMMARIES)[name] == command.get_short_help_str(10_000), name


def test_version_and_help_import_no_referee_machinery() -> None:
    """`b99 --version` and `b99 --help` load click and the CLI only (start-up cost: docs/benchmarks.md)."""
    import subprocess
    import sys

    probe = (
        "import sys\nfrom referee.cli import main\n"
        "for args in (['--version'], ['--help'], ['replay', '--help']):\n"
        "    try:\n        main(args)\n    except SystemExit:\n        pass\n"
        "heavy = [m for m in ('grpc', 'rich', 'referee.match', 'ladder.cli', 'importlib.metadata', 'google.protobuf') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60).stdout
    assert "HEAVY []" in output, output
    assert "version" in output and "ladder" in output and "render" in output


def test_a_position_file_that_is_not_text_is_a_one_line_error(tmp_path: Path) -> None:
    """`position check` and `match --from` refuse a binary file in one line, never a traceback."""
    path = tmp_path / "position.json"
    path.write_bytes(b"\x00\xff\xfe binary")
    for args in (("position", "check", str(path)), ("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--from", str(path))):
        result = invoke(*args)
        assert result.exit_code == 2, (args, result.output)
        assert f"position file {path} is not JSON: not UTF-8 text" in result.output, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output


def test_replay_show_refuses_a_seat_the_game_does_not_have(tmp_path: Path) -> None:
    """`--seat 9` of a 2-player replay is an error as in `replay render`, not a silent spectator's timeline."""
    replay = tmp_path / "r.jsonl"
    invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "3", "--replay", str(replay))
    for extra in ((), ("--json",)):
        result = invoke("replay", "show", str(replay), "--seat", "9", *extra)
        assert result.exit_code == 2 and "no seat 9 in a 2-player game (seats 0 to 1)" in result.output, result.output


@pytest.mark.parametrize(
    "args",
    [
        ("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--replay", "{missing}/r.jsonl"),
        ("position", "new", "fuji99", "--out", "{missing}/p.json"),
        ("replay", "position", "{replay}", "--step", "3", "--out", "{missing}/p.json"),
        ("replay", "render", "{replay}", "--out", "{missing}/x.svg"),
        ("tournament", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--games", "1", "--json", "{missing}/t.json"),
    ],
    ids=["match", "position-new", "replay-position", "replay-render", "tournament"],
)
def test_an_output_file_in_a_missing_folder_is_refused_before_any_work(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Every command that writes a file checks its folder first: a one-line reason, exit 2, no traceback."""
    replay = tmp_path / "r.jsonl"
    invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "3", "--replay", str(replay))
    missing = tmp_path / "no-such-folder"
    result = invoke(*(arg.format(missing=missing, replay=replay) for arg in args))
    assert result.exit_code == 2, result.output
    assert f"folder {missing} does not exist" in result.output, result.output
    assert not isinstance(result.exception, OSError)


def _lingering_bots() -> list[int]:
    """Process ids of live `misbehaving linger` bots (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"tests.bots.misbehaving" in command and b"linger" in command:
            found.append(int(entry.name))
    return found


def test_match_prints_the_result_before_its_bots_are_stopped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A bot that ignores game over holds only its own stopping: the table is printed while it still runs, and
    what stopping it found (SIGKILL) is said after, with the result standing."""
    import sys

    import referee.cli

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)  # `-m tests.bots.misbehaving` from the checkout
    printed_while: list[list[int]] = []
    print_report = referee.cli.print_report

    def watched(report, position_path=None):  # type: ignore[no-untyped-def]
        printed_while.append(_lingering_bots())
        print_report(report, position_path)

    monkeypatch.setattr(referee.cli, "print_report", watched)
    linger = f"{sys.executable} -m tests.bots.misbehaving linger"
    result = invoke("match", "underground_dice", "--bot", linger, "--bot", "random", "--sandbox", "none", "--seed", "4",
                    "--replay", str(tmp_path / "linger.jsonl"))
    assert result.exit_code == 0, result.output
    assert len(printed_while) == 1 and printed_while[0], "the table was printed once, while the lingering bot ran"
    table_at = result.output.index("rank")
    late = result.output.index("seat 0 (")
    assert table_at < late
    assert "its bot was stopped by signal 9 after the game (the result stands)" in " ".join(result.output.split())
    assert not set(printed_while[0]) & set(_lingering_bots())


def test_a_replay_sent_to_a_pipe_is_written_through_it_not_put_in_its_place(tmp_path: Path) -> None:
    """`--replay /dev/null` (or a pipe) must not replace the device with a file: a file target is replaced whole, a
    device or a pipe is written through (here a named pipe, read as the match writes it)."""
    import os
    import stat
    import threading

    pipe = tmp_path / "replay.pipe"
    os.mkfifo(pipe)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()), daemon=True)
    reader.start()
    result = invoke("match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "7",
                    "--replay", str(pipe))
    reader.join(30)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(pipe.stat().st_mode), "the pipe is still a pipe"
    assert received and json.loads(received[0].splitlines()[0])["type"] == "header"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["replay.pipe"]
