"""The sandbox itself: language runtimes run inside it, what it binds, levels that cannot run fail loudly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.clock import TimeControl
from referee.errors import BotLaunchError, ConfigError
from referee.launcher import BotProcess, launch
from referee.match import BotSpec, MatchSpec, run_match
from referee.sandbox import Limits, SandboxRequest, machine_support
from referee.sandbox import probe
from referee.sandbox.binds import bot_paths, interpreter_paths, read_only_paths

STRICT = machine_support().available("strict")
needs_strict = pytest.mark.skipif(not STRICT, reason=f"no strict sandbox here: {machine_support().missing.get('strict')}")
ROOT = Path(__file__).resolve().parent.parent
FAST = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0)


def run_confined(tmp_path: Path, command: tuple[str, ...], level: str = "strict", cwd: str | None = None) -> tuple[int | None, str, BotProcess]:
    process = launch(0, command, {"B99_PROBE": "1"}, tmp_path / "seat0", cwd, SandboxRequest(level, Limits()))
    code = process.wait(30)
    process.stop()
    return code, process.stdout_tail() + process.stderr_tail(), process


PROBE = (
    "import os, socket, sys; "
    "print('uid', os.getuid(), 'env', sorted(os.environ)); "
    "print('net', [line.split(':')[0].strip() for line in open('/proc/net/dev').read().splitlines()[2:]]); "
    "print('tests visible', os.path.exists(sys.argv[1]))"
)


@needs_strict
def test_venv_python_runs_strict_as_its_own_user_with_no_network(tmp_path: Path) -> None:
    code, output, process = run_confined(tmp_path, (sys.executable, "-c", "import grpc, b99.arena_pb2; " + PROBE, str(ROOT / "tests")))
    assert code == 0, output
    uid = process.sandbox_report()["uid"]
    assert f"uid {uid} " in output and uid != 0
    assert "env ['B99_PROBE', 'HOME', 'LANG', 'PATH', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'TMPDIR']" in output
    assert "net ['lo']" in output
    assert "tests visible False" in output


@needs_strict
def test_system_python_runs_strict(tmp_path: Path) -> None:
    if not Path("/usr/bin/python3").exists():
        pytest.skip("no system python3")
    code, output, _ = run_confined(tmp_path, ("python3", "-c", "import sys; print(sys.executable)"))
    assert code == 0, output
    assert "/usr/bin/python3" in output


@needs_strict
def test_node_runs_strict(tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    code, output, _ = run_confined(tmp_path, ("node", "-e", "console.log('node ok', process.getuid())"))
    assert code == 0, output
    assert "node ok" in output


@needs_strict
def test_compiled_binary_runs_strict_from_its_own_directory(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler")
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.c").write_text(
        "#include <stdio.h>\n#include <unistd.h>\n"
        'int main(void) { FILE *f = fopen("/tmp/scratch-works", "w"); printf("binary ok %d %d\\n", (int)getuid(), f != NULL); return 0; }\n'
    )
    subprocess.run([compiler, "-O1", "-o", str(bot / "bot"), str(bot / "bot.c")], check=True)
    code, output, _ = run_confined(tmp_path, ("./bot",), cwd=str(bot))
    assert code == 0, output
    assert "binary ok" in output
    assert output.split("binary ok")[1].split()[1] == "1", "the scratch /tmp must stay writable when the bot lives under /tmp"


@needs_strict
def test_scratch_is_capped_and_private(tmp_path: Path) -> None:
    write = "import os; f = open('/tmp/big', 'wb'); [f.write(b'x' * 1048576) for _ in range(100)]"
    process = launch(0, (sys.executable, "-c", write), {}, tmp_path / "seat0", None, SandboxRequest("strict", Limits(scratch_mb=4, file_mb=64)))
    code = process.wait(30)
    process.stop()
    assert code == 1
    assert "No space left on device" in process.stderr_tail()


def test_editable_packages_and_the_venv_base_are_bound() -> None:
    paths = interpreter_paths(sys.executable)
    assert sys.prefix in paths or any(sys.prefix.startswith(path + "/") for path in paths)
    assert any(str(ROOT / "referee").startswith(path) for path in paths)
    assert str(ROOT / "tests") not in paths


def test_only_the_bot_directory_or_its_script_is_bound(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("")
    secret = tmp_path / "elsewhere" / "secret"
    secret.parent.mkdir()
    secret.write_text("x")
    assert bot_paths(("python3", str(script), str(secret)), None) == [str(tmp_path)]
    assert bot_paths(("python3", str(script), str(secret)), "/srv/bot") == ["/srv/bot"]
    assert str(secret.parent) not in read_only_paths("/usr/bin/python3", ("python3", str(script), str(secret)), None)


def test_limits_are_validated() -> None:
    with pytest.raises(ConfigError):
        Limits(address_space_mb=64)
    with pytest.raises(ConfigError):
        Limits(processes=0)


def test_unavailable_strict_fails_loudly_and_never_runs_unsandboxed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    support = probe.MachineSupport(None, "", None, {"none": "", "basic": "no setpriv", "strict": "bubblewrap is not installed"})
    monkeypatch.setattr("referee.sandbox.confine.machine_support", lambda: support)
    marker = tmp_path / "ran"
    with pytest.raises(BotLaunchError, match="sandbox strict is not available on this machine: bubblewrap is not installed"):
        launch(0, ("/bin/touch", str(marker)), {}, tmp_path / "seat0", None, SandboxRequest("strict"))
    assert not marker.exists()
    report = run_match(
        MatchSpec("underground_dice", [BotSpec("x", command=("/bin/touch", str(marker)), sandbox="strict"), BotSpec("y", command=("/bin/true",))], seed=1, time_control=FAST)
    )
    assert report.seats[0].faults[0].kind == "startup"
    assert "bubblewrap is not installed" in report.seats[0].faults[0].detail
    assert not marker.exists()


@needs_strict
def test_strict_over_tcp_is_refused() -> None:
    report = run_match(
        MatchSpec(
            "underground_dice",
            [BotSpec("a", command=(sys.executable, "-m", "bots", "random"), sandbox="strict"), BotSpec("b", command=(sys.executable, "-m", "bots", "random"))],
            seed=1,
            time_control=FAST,
            transport="tcp",
        )
    )
    assert report.seats[0].faults[0].kind == "startup"
    assert "no network" in report.seats[0].faults[0].detail
    assert not report.seats[1].faults


@needs_strict
def test_report_says_which_caps_were_in_force() -> None:
    report = run_match(
        MatchSpec(
            "underground_dice",
            [BotSpec("a", command=(sys.executable, "-m", "bots", "random"), sandbox="strict"), BotSpec("b", command=(sys.executable, "-m", "bots", "random"))],
            seed=2,
            time_control=FAST,
        )
    )
    strict, unconfined = (seat["sandbox"] for seat in report.to_json()["seats"])
    assert strict["level"] == "strict" and strict["uid"] >= 2_000_000
    for cap in ("isolation", "memory", "address_space", "cpu", "processes", "open_files", "file_size", "scratch"):
        assert cap in strict
    assert unconfined["level"] == "none" and "trusted" in unconfined["isolation"]


def test_machine_description_names_every_level() -> None:
    lines = probe.describe_machine()
    assert set(probe.LEVELS) <= set(lines)
    assert "cgroup memory" in lines and "cgroup pids" in lines


def test_cli_defaults_to_strict_or_says_why_not(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from referee.cli import default_sandbox_level, main

    assert default_sandbox_level() == ("strict" if STRICT else "none")
    support = probe.MachineSupport(None, "", None, {"none": "", "basic": "", "strict": "bubblewrap is not installed"})
    monkeypatch.setattr("referee.sandbox.machine_support", lambda: support)
    result = CliRunner().invoke(main, ["match", "underground_dice", "--bot", "random", "--bot", "random", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "note: bots run unsandboxed (--sandbox none): no strict sandbox here (bubblewrap is not installed)" in result.output


def test_an_in_process_match_never_probes_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    """No bot process, no sandbox: `b99 match --in-process` does not run the trial sandbox (nor say anything of it)."""
    from click.testing import CliRunner

    from referee.cli import main

    def probed() -> probe.MachineSupport:
        raise AssertionError("the machine was probed for an in-process match")

    monkeypatch.setattr("referee.sandbox.machine_support", probed)
    result = CliRunner().invoke(main, ["match", "underground_dice", "--bot", "random", "--bot", "random", "--in-process", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "unsandboxed" not in result.output


def test_the_trial_sandbox_runs_once_per_boot_and_leaves_no_child(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The trial's outcome is kept under its key (boot, user, bwrap); a kept outcome is not run again; no zombie stays."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        pytest.skip("bubblewrap is not installed")
    cache_file = tmp_path / "probe.json"
    monkeypatch.setenv(probe.PROBE_CACHE_VARIABLE, str(cache_file))
    before = set(child_processes())
    first = probe.cached_trial(bwrap)
    kept = json.loads(cache_file.read_text(encoding="utf-8"))
    assert kept["key"] == probe._trial_key(bwrap) and (kept["version"], kept["error"]) == first
    assert set(child_processes()) <= before  # the trial's bwrap was reaped: no zombie left
    runs: list[str] = []
    monkeypatch.setattr(probe, "_trial", lambda path: runs.append(path) or ("bubblewrap 9", "fresh"))
    assert probe.cached_trial(bwrap) == first and runs == []
    kept["key"]["boot"] = "another boot"
    cache_file.write_text(json.dumps(kept), encoding="utf-8")
    assert probe.cached_trial(bwrap) == ("bubblewrap 9", "fresh") and runs == [bwrap]


def child_processes() -> list[str]:
    """The state and name of every child process of this one (a zombie shows as state Z)."""
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                children.append(f"{entry.name} {fields[0]} {(entry / 'comm').read_text().strip()}")
    return children


def test_cli_default_over_tcp_is_none_with_a_note() -> None:
    from click.testing import CliRunner

    from referee.cli import main

    result = CliRunner().invoke(main, ["match", "underground_dice", "--bot", "random", "--bot", "random", "--tcp", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert "a strict sandbox has no network, so not with --tcp" in result.output


def test_destroying_a_bots_groups_kills_at_once_and_removes_them_in_the_background() -> None:
    """cleanup never waits for the kernel to let go of a group: its processes die now, the group goes soon after."""
    from referee.sandbox import cgroups
    from referee.sandbox.users import allocate_uid, processes_of

    usable, _ = cgroups.detect()
    setpriv = machine_support().setpriv
    if not usable or os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root, setpriv and a usable cgroup controller")
    uid = allocate_uid()
    group = cgroups.BotGroups.create(f"b99-seat0-{uid}", 64 * 1024 * 1024, 8)
    sleeper = subprocess.Popen([setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "sleep", "600"], start_new_session=True)
    group.attach(sleeper.pid)
    group.destroy()
    assert sleeper.wait(10) == -9, "destroy left the bot's process running"
    assert cgroups.drain_removals(10.0), "a destroyed group was never removed"
    assert all(not Path(path).exists() for path in group.paths())
    assert processes_of(uid) == []


@pytest.mark.parametrize("level", ["strict", "basic"])
def test_every_process_of_a_bot_is_born_in_its_cgroups(tmp_path: Path, level: str) -> None:
    """The launcher enters the bot's cgroups before it executes anything, so the bot never runs outside them."""
    from referee.sandbox import cgroups, spawn
    from referee.sandbox.users import processes_of

    if not machine_support().available(level) or not cgroups.detect()[0]:
        pytest.skip(f"needs the {level} sandbox and a usable cgroup controller")
    workdir = tmp_path / "seat"
    workdir.mkdir()
    with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        process, confinement = spawn(0, ["/bin/sh", "-c", "sleep 30 & sleep 30"], {}, out, err, None, SandboxRequest(level, Limits()), workdir)
    try:
        assert confinement.groups is not None and confinement.uid is not None
        for _ in range(500):
            bot = processes_of(confinement.uid)
            if len(bot) >= 3:
                break
            time.sleep(0.01)
        assert len(bot) >= 3, f"the bot's processes did not start: {(tmp_path / 'err').read_text()}"
        members = set(confinement.groups.pids())
        assert process.pid in members
        assert set(bot) <= members, f"bot processes {set(bot) - members} run outside the bot's cgroups"
        for controller, (_, path) in confinement.groups.groups.items():
            assert {int(pid) for pid in (path / "cgroup.procs").read_text().split()} >= set(bot), controller
    finally:
        process.kill()
        process.wait()
        confinement.cleanup()


def test_a_file_of_a_kernel_file_system_on_the_command_line_is_never_a_bot_file() -> None:
    """/proc files claim a size of 0: staging /proc/PID as a private bot directory would copy without end."""
    assert bot_paths(["/bin/cat", "/proc/self/status"], None) == []
    assert bot_paths(["/bin/cat", "/sys/kernel/mm/transparent_hugepage/enabled"], None) == []



def test_a_private_bot_directory_holding_a_fifo_is_refused_not_copied(tmp_path: Path) -> None:
    from referee.sandbox.binds import StagingError, stage_private

    bot = tmp_path / "bot"
    bot.mkdir(mode=0o700)
    (bot / "main.py").write_text("print('hi')\n")
    os.mkfifo(bot / "pipe")
    with pytest.raises(StagingError, match="not a regular file"):
        stage_private(str(bot), tmp_path / "staging")
    assert not (tmp_path / "staging").exists() or not any((tmp_path / "staging").iterdir())
