"""The newcomer's traps, each as a person meets it from a plain shell: the `b99` command run without an
activated environment (PATH=/usr/bin:/bin), bots in private directories and bridged bots in the strict
sandbox, a start-up failure's cause in the default output, names with typos, a rejected token."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from referee.sandbox import machine_support
from tests.polyglot.helpers import ROOT, test_game

B99 = str(Path(sys.executable).with_name("b99"))
PLAIN_ENV = {"HOME": os.environ.get("HOME", "/root"), "PATH": "/usr/bin:/bin"}
FIRST_OPTION = ROOT / "tests" / "polyglot" / "bots" / "first_option.sh"
SDK_BOT = '''
from sdk import Bot
from sdk.run import run


class First(Bot):
    def choose(self, request):
        return request.options[0].id


run(First())
'''


def b99(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`b99 ARGS` from a plain shell: the absolute command, nothing on PATH but the system's."""
    return subprocess.run([B99, *args], cwd=cwd, env=PLAIN_ENV, capture_output=True, text=True, timeout=300)


def strict_or_skip() -> None:
    support = machine_support()
    if not support.available("strict"):
        pytest.skip(f"no strict sandbox on this machine: {support.missing['strict']}")


def match_json(*bots: str, cwd: Path, sandbox: str = "strict") -> dict:
    args = ["match", test_game(), "--seed", "2", "--sandbox", sandbox, "--json", "--replay", str(cwd / "r.jsonl")]
    for bot in bots:
        args += ["--bot", bot]
    completed = b99(*args, cwd=cwd)
    assert completed.stdout, completed.stderr
    return json.loads(completed.stdout)


def assert_no_faults(report: dict) -> None:
    for seat in report["seats"]:
        assert seat["faults"] == [], json.dumps(seat, indent=1)


def test_python_in_a_bot_command_is_the_referees_own_without_an_activated_environment(tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(SDK_BOT)
    assert_no_faults(match_json("python bot.py", "random", cwd=tmp_path, sandbox="none"))


def test_a_bot_in_a_private_directory_plays_in_the_strict_sandbox(tmp_path: Path) -> None:
    strict_or_skip()
    private = Path(tempfile.mkdtemp())  # mode 0700, as `mktemp -d` makes it
    try:
        (private / "bot.py").write_text(SDK_BOT)
        (private / "bot.py").chmod(0o600)
        assert_no_faults(match_json(f"python {private / 'bot.py'}", "random", cwd=tmp_path))
        assert oct(private.stat().st_mode & 0o777) == "0o700"  # the host's modes are left alone
    finally:
        subprocess.run(["rm", "-rf", str(private)], check=False)


def test_a_bridged_script_given_by_absolute_path_plays_in_the_strict_sandbox(tmp_path: Path) -> None:
    strict_or_skip()
    report = match_json(f"b99 bridge -- bash {FIRST_OPTION}", "random", cwd=tmp_path)
    assert_no_faults(report)


def test_a_start_up_failure_says_its_cause_in_the_default_output(tmp_path: Path) -> None:
    (tmp_path / "broken_bot.py").write_text("import no_such_module_b99\n")
    completed = b99("match", test_game(), "--bot", "python broken_bot.py", "--bot", "random", "--sandbox", "none",
                    "--replay", str(tmp_path / "r.jsonl"), cwd=tmp_path)
    assert completed.returncode == 1
    said = " ".join((completed.stdout + completed.stderr).split())
    assert "did not start" in said and "No module named 'no_such_module_b99'" in said
    # A script that is not there at all is refused before anything starts, named as typed.
    missing = b99("match", test_game(), "--bot", "python missing_bot.py", "--bot", "random", "--sandbox", "none", cwd=tmp_path)
    assert missing.returncode == 2 and "its script 'missing_bot.py' does not exist" in missing.stderr


@pytest.mark.parametrize(("args", "suggestion"), [
    (["match", "underground_dice", "--bot", "heuristc", "--bot", "random"], "did you mean 'heuristic'?"),
    (["match", "undergroud_dice", "--bot", "random", "--bot", "random"], "did you mean 'underground_dice'?"),
])
def test_misspelt_names_get_a_suggestion(tmp_path: Path, args: list[str], suggestion: str) -> None:
    completed = b99(*args, cwd=tmp_path)
    assert completed.returncode == 2 and suggestion in completed.stderr and len(completed.stderr.splitlines()) == 1


def test_a_rejected_token_exits_non_zero_with_a_clear_message_after_a_back_off(tmp_path: Path) -> None:
    from referee.match import BotSpec, MatchSpec, run_match

    impostor = (
        "import os, sys; from sdk.run import run; from bots.random_bot import RandomBot; import time;"
        "start = time.monotonic(); os.environ['B99_SEAT_TOKEN'] = 'not-a-token';"
        "code = 0\n"
        "try:\n    run(RandomBot(), backoff_seconds=0.5)\nexcept SystemExit as exit:\n    code = exit.code\n"
        "print(f'waited {time.monotonic() - start:.2f}', file=sys.stderr); sys.exit(code)"
    )
    spec = MatchSpec(
        game=test_game(),
        bots=[BotSpec(name="impostor", command=(sys.executable, "-c", impostor)), BotSpec(name="random", command=(sys.executable, "-m", "bots", "random"))],
        seed=1,
        replay_path=str(tmp_path / "r.jsonl"),
    )
    started = time.monotonic()
    report = run_match(spec)
    seat = report.seats[0]
    assert seat.faults and "exit code 3" in seat.faults[0].detail, (seat.faults, seat.stderr_tail)
    assert "rejected the seat token" in seat.stderr_tail
    waited = float(seat.stderr_tail.rsplit("waited ", 1)[1].split()[0])
    assert waited >= 0.5 and time.monotonic() - started >= 0.5
