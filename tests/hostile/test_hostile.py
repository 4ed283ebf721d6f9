"""The hostile-bot suite: bots that attack the referee, the host and each other, each under a strict sandbox.

For each: the match finishes (and its replay verifies), the other seat is unaffected, the report names
the fault (or, for an escape attempt the sandbox contains, the bot's own log shows every attempt
failing), and nothing outside the sandbox changed (no file written, no process or cgroup left).
"""

from __future__ import annotations

import json
import platform
import socket
import sys
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.clock import TimeControl
from referee.match import BotSpec, MatchReport, MatchSpec, SeatReport, run_match
from referee.replay import read_replay, verify_replay
from referee.sandbox import Limits, machine_support
from referee.sandbox import cgroups
from referee.sandbox.users import processes_of

pytestmark = pytest.mark.skipif(
    not machine_support().available("strict"), reason=f"no strict sandbox here: {machine_support().missing.get('strict')}"
)

GAME = "underground_dice"
BOTS = Path(__file__).parent / "bots"
FAST = TimeControl(per_decision_seconds=1.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)
#: For bots that die of a cap mid-decision: time enough to reach the cap even on a loaded machine.
ROOMY = TimeControl(per_decision_seconds=10.0, bank_seconds=0.0, startup_seconds=20.0, tolerance_seconds=0.05)


def good_bot(level: str = "strict", delay: float = 0.0) -> BotSpec:
    """The well-behaved seat; `delay` seconds before it starts (the hostile seat has the referee to itself)."""
    command: tuple[str, ...] = (sys.executable, "-m", "bots", "random")
    if delay:
        late = f"import runpy, sys, time; time.sleep({delay}); sys.argv = ['bots', 'random']; runpy.run_module('bots', run_name='__main__')"
        command = (sys.executable, "-c", late)
    # A seeded random bot: the same game every run, so a hostile seat meets the same requests.
    return BotSpec(name="good", command=command, sandbox=level, env={"B99_BOT_SEED": "1"})


def hostile_bot(name: str, *args: str, level: str = "strict", limits: Limits | None = None) -> BotSpec:
    return BotSpec(
        name=name,
        command=(sys.executable, str(BOTS / f"{name}.py"), *args),
        cwd=str(BOTS),
        sandbox=level,
        limits=limits or Limits(),
    )


def bot_files() -> set[str]:
    return {str(path.relative_to(BOTS)) for path in BOTS.rglob("*")}


def assert_nothing_left(seat: SeatReport) -> None:
    """No process runs as the seat's uid and none of its cgroups remain (once their background removal is done)."""
    uid = seat.sandbox["uid"]
    assert processes_of(uid) == [], f"processes of uid {uid} survived the match"
    assert cgroups.drain_removals(10.0), "a bot's cgroup could not be removed"
    usable, _ = cgroups.detect()
    for hierarchy in usable.values():
        assert not list(hierarchy.parent.glob(f"b99-seat*-{uid}")), "a cgroup of the bot survived"


def play(
    tmp_path: Path,
    bot: BotSpec,
    time_control: TimeControl = FAST,
    good_level: str = "strict",
    hostile_seat: int = 1,
    good_delay: float = 0.0,
) -> tuple[SeatReport, SeatReport, MatchReport]:
    """Good bot in the other seat, `bot` in `hostile_seat` (1 unless told); checks the match finished,
    replays, and left nothing behind."""
    before = bot_files()
    replay = tmp_path / "r.jsonl"
    good_spec = good_bot(good_level, good_delay)
    bots = [good_spec, bot] if hostile_seat == 1 else [bot, good_spec]
    report = run_match(MatchSpec(GAME, bots, seed=3, replay_path=str(replay), time_control=time_control))
    verify_replay(replay)
    good, bad = (report.seats[1 - hostile_seat], report.seats[hostile_seat])
    assert report.decisions > 0
    assert not good.faults and not good.replaced, good.faults
    assert good.sandbox["level"] == good_level
    assert bad.sandbox["level"] == bot.sandbox
    assert_nothing_left(good)
    assert_nothing_left(bad)
    assert bot_files() == before, "a bot changed its own (read-only) directory"
    return good, bad, report


def assert_fault(good: SeatReport, bad: SeatReport, kind: str, *details: str) -> None:
    assert bad.replaced, bad
    assert bad.faults and bad.faults[0].kind == kind, bad.faults
    for detail in details:
        assert detail in bad.faults[0].detail, bad.faults[0].detail
    assert bad.rank == 2 and good.rank == 1


@pytest.mark.parametrize("hostile_seat", [0, 1])
def test_idle_streams_cannot_starve_the_other_seat(tmp_path: Path, hostile_seat: int) -> None:
    # More idle streams than the server's cap on streams waiting for a hello, opened at once.
    good, bad, report = play(tmp_path, hostile_bot("idle_streams", "100"), hostile_seat=hostile_seat)
    assert "idle streams: opened 100" in bad.stderr_tail
    assert not good.faults and not good.replaced
    # its idle streams fill its own listener (SEAT_CONNECTIONS): at worst it shut itself out
    assert not bad.faults or bad.faults[0].kind == "startup", bad.faults


@pytest.mark.parametrize("hostile_seat", [0, 1, 2])
def test_a_connection_flood_cannot_shut_out_either_other_seat_of_three(
    tmp_path: Path, hostile_seat: int, systemd_open_files: None
) -> None:
    """The review's 3-player Fuji 99, where one seat was shut out: the flooder in each seat position."""
    flooder = hostile_bot("connection_flood", "5", "230")
    bots = [good_bot(delay=2.0) for _ in range(3)]
    bots[hostile_seat] = flooder
    replay = tmp_path / "r.jsonl"
    report = run_match(MatchSpec("fuji99", bots, seed=5, replay_path=str(replay), time_control=FAST))
    verify_replay(replay)
    for seat in report.seats:
        assert not seat.faults and not seat.replaced, (seat.seat, seat.faults)
    assert "connection flood: played my own seat" in report.seats[hostile_seat].stderr_tail


@pytest.fixture
def systemd_open_files(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The referee (this process) held at systemd's default of 1,024 open files (it cannot raise them)."""
    import resource

    from referee import arena_server

    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, before[1]))
    monkeypatch.setattr(arena_server, "raise_descriptor_limit", lambda: 1024, raising=False)
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, before)


@pytest.mark.parametrize("hostile_seat", [0, 1])
def test_a_connection_flood_after_claiming_a_seat_cannot_shut_out_the_other(
    tmp_path: Path, hostile_seat: int, systemd_open_files: None
) -> None:
    # 5 processes x 230 idle connections, opened after its own hello and before the other seat's, against
    # a referee at 1,024 open files; each seat has a listener of its own that holds at most
    # SEAT_CONNECTIONS connections, so the flood costs the referee a handful of descriptors.
    good, bad, _ = play(tmp_path, hostile_bot("connection_flood", "5", "230"),
                        hostile_seat=hostile_seat, good_delay=2.0)
    assert "connection flood: opened 5 x 230 connections" in bad.stderr_tail
    assert not good.faults and not good.replaced
    assert not bad.faults, bad.faults  # its own seat, claimed before the flood, played on
    assert "connection flood: played my own seat" in bad.stderr_tail


def test_fork_bomb_hits_the_process_cap(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("fork_bomb", limits=Limits(processes=48)))
    assert bad.faults and bad.faults[0].kind in ("crash", "timeout"), bad.faults
    assert_fault(good, bad, bad.faults[0].kind, "process cap of 48")


def test_memory_hog_is_killed_at_its_memory_cap(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("memory_hog", limits=Limits(memory_mb=200)), time_control=ROOMY)
    assert_fault(good, bad, "memory")
    assert "memory hog: allocating" in bad.stderr_tail


def test_spinner_times_out_and_the_timeout_is_in_the_replay(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("spinner"))
    assert_fault(good, bad, "timeout")
    records = read_replay(tmp_path / "r.jsonl")
    faults = [index for index, record in enumerate(records) if record["type"] == "fault"]
    assert [records[index]["kind"] for index in faults] == ["timeout"]
    after = next(record for record in records[faults[0] :] if record["type"] == "decision")
    assert after["how"]["1"] == "fallback"
    shown = CliRunner().invoke(main, ["replay", "show", str(tmp_path / "r.jsonl"), "--seat", "1"], terminal_width=200)
    assert shown.exit_code == 0, shown.output
    assert "fault seat 1" in shown.output and "timeout: your bot did not answer within" in shown.output and "its limit was" in shown.output


def test_strikes_let_a_seat_time_out_before_it_is_replaced(tmp_path: Path) -> None:
    # 1.5 s per decision: long enough that the well-behaved seat never times out on a loaded machine.
    lenient = TimeControl(per_decision_seconds=1.5, bank_seconds=0.0, startup_seconds=20.0, strikes_allowed=1)
    good, bad, _ = play(tmp_path, hostile_bot("spinner"), time_control=lenient)
    assert [fault.kind for fault in bad.faults] == ["timeout", "timeout"], bad.faults
    assert bad.replaced and bad.rank == 2 and good.rank == 1
    records = read_replay(tmp_path / "r.jsonl")
    recorded = [(record["kind"], record["decision_index"]) for record in records if record["type"] == "fault"]
    assert recorded == [(fault.kind, fault.decision_index) for fault in bad.faults]


def test_spinner_is_killed_at_its_cpu_cap(tmp_path: Path) -> None:
    patient = TimeControl(per_decision_seconds=20.0, bank_seconds=0.0, startup_seconds=20.0)
    good, bad, _ = play(tmp_path, hostile_bot("spinner", limits=Limits(cpu_seconds=1)), time_control=patient)
    assert_fault(good, bad, "cpu", "CPU-time cap of 1 s")


def test_cpu_cap_is_recognised_when_sigxcpu_is_ignored(tmp_path: Path) -> None:
    """SIGKILL one second after the cap, and no message: the tree's CPU time says it was the cap."""
    patient = TimeControl(per_decision_seconds=20.0, bank_seconds=0.0, startup_seconds=20.0)
    good, bad, _ = play(tmp_path, hostile_bot("cpu_stealth", limits=Limits(cpu_seconds=1)), time_control=patient)
    assert_fault(good, bad, "cpu", "CPU-time cap of 1 s")
    # the kernel's SIGKILL after the ignored SIGXCPU, or the referee's own reading of the CPU time first
    assert ("SIGKILL" in bad.faults[0].detail and "of CPU used" in bad.faults[0].detail) \
        or "processes together used" in bad.faults[0].detail, bad.faults


def test_the_cpu_cap_counts_a_bot_s_children_together(tmp_path: Path) -> None:
    """4 children x 2.5 s of CPU under a 3 s cap: each process stays under RLIMIT_CPU, their cgroup's
    total does not, and the referee stops the bot with a cpu fault."""
    if "cpuacct" not in cgroups.detect()[0] and not any(h.version == 2 for h in cgroups.detect()[0].values()):
        pytest.skip("no cgroup counts CPU time on this machine: each process is capped alone (docs/security.md)")
    patient = TimeControl(per_decision_seconds=20.0, bank_seconds=0.0, startup_seconds=20.0)
    good, bad, _ = play(tmp_path, hostile_bot("cpu_children", limits=Limits(cpu_seconds=3)), time_control=patient)
    assert "cpu children: started" in bad.stderr_tail
    assert_fault(good, bad, "cpu", "processes together used", "CPU-time cap of 3 s")


def test_a_flood_truncated_by_its_bot_is_still_a_flood(tmp_path: Path) -> None:
    """The bot writes through a pipe the referee drains: it holds no descriptor of its log to truncate."""
    good, bad, _ = play(tmp_path, hostile_bot("truncator", limits=Limits(file_mb=2)), time_control=ROOMY)
    assert [fault.kind for fault in bad.faults] == ["output_flood"], bad.faults
    assert "stdout and stderr" in bad.faults[0].detail


def test_flood_of_stdout_and_stderr_is_cut_at_the_log_cap(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("flood", limits=Limits(file_mb=2)), time_control=ROOMY)
    assert_fault(good, bad, "output_flood", "2 MiB")
    assert len(bad.stderr_tail) <= 2000


def test_flood_that_survives_its_cap_is_reported_at_the_end(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("chatty", limits=Limits(file_mb=2)))
    assert [fault.kind for fault in bad.faults] == ["output_flood"], bad.faults
    assert "stdout" in bad.faults[0].detail and not bad.replaced


def test_exit_mid_decision_is_a_crash(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("exit_mid_decision"))
    assert_fault(good, bad, "crash", "exit code 0")
    assert "leaving" in bad.stderr_tail


@pytest.mark.parametrize("name", ["early", "other_request", "garbage_bytes"])
def test_protocol_attacks_are_protocol_errors(tmp_path: Path, name: str) -> None:
    good, bad, _ = play(tmp_path, hostile_bot(name))
    assert_fault(good, bad, "protocol_error")


def test_token_thief_cannot_take_a_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tokens: Iterator[str] = iter(f"seat-token-{index}-{uuid.uuid4().hex}" for index in range(2))
    issued: list[str] = []

    def predictable(_: int) -> str:
        issued.append(next(tokens))
        return issued[-1]

    monkeypatch.setattr("referee.match.secrets.token_urlsafe", predictable)
    victim_token = f"seat-token-0-{uuid.uuid4().hex}"
    tokens = iter([victim_token, f"seat-token-1-{uuid.uuid4().hex}"])
    good, bad, _ = play(tmp_path, hostile_bot("token_thief", victim_token))
    assert_fault(good, bad, "crash", "exit code 7")
    assert "rejected another seat's token" in bad.stderr_tail
    assert "rejected its own token" in bad.stderr_tail
    assert "LEAK" not in bad.stderr_tail


def assert_contained(bad: SeatReport, attempts: int) -> None:
    """An escape attempt the sandbox stops is no fault; the bot's own log shows each attempt failing."""
    assert not bad.faults, bad.faults
    assert "LEAK" not in bad.stderr_tail, bad.stderr_tail
    assert bad.stderr_tail.count("blocked") >= attempts, bad.stderr_tail


@pytest.fixture
def tcp_listener() -> Iterator[tuple[int, list[Any]]]:
    accepted: list[Any] = []
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("0.0.0.0", 0))
    server.listen()
    server.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join()
    server.close()


def test_tcp_connections_go_nowhere(tmp_path: Path, tcp_listener: tuple[int, list[Any]]) -> None:
    port, accepted = tcp_listener
    _, bad, _ = play(tmp_path, hostile_bot("net_tcp", str(port)))
    assert_contained(bad, 3)
    assert accepted == []


def test_udp_datagrams_go_nowhere(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.settimeout(0.1)
        _, bad, _ = play(tmp_path, hostile_bot("net_udp", str(listener.getsockname()[1])))
        with pytest.raises(TimeoutError):
            listener.recvfrom(100)
    assert not bad.faults and "LEAK" not in bad.stderr_tail
    assert "blocked udp 8.8.8.8:53" in bad.stderr_tail


def test_names_do_not_resolve(tmp_path: Path) -> None:
    _, bad, _ = play(tmp_path, hostile_bot("net_dns"))
    assert_contained(bad, 3)


def test_writes_outside_the_scratch_directory_fail(tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    canary.mkdir()
    nonce = uuid.uuid4().hex
    _, bad, _ = play(tmp_path, hostile_bot("write_outside", str(canary), nonce))
    assert_contained(bad, 11)
    assert "wrote scratch /tmp" in bad.stderr_tail
    assert list(canary.iterdir()) == []
    for directory in ("/", "/etc", "/usr", "/usr/local", "/root", "/var/tmp", "/dev/shm", str(BOTS)):
        assert not Path(directory, f"escape-{nonce}").exists()


def test_other_seats_and_referee_files_cannot_be_read(tmp_path: Path) -> None:
    secret = tmp_path / "referee-secret.txt"
    secret.write_text("the referee's secret")
    other_seat = tmp_path / "other-seat"
    other_seat.mkdir()
    (other_seat / "bot-secret.txt").write_text("another seat's secret")
    _, bad, _ = play(tmp_path, hostile_bot("read_files", str(secret), str(other_seat / "bot-secret.txt")))
    assert_contained(bad, 5)
    assert "another seat's token" not in bad.stderr_tail


@pytest.mark.parametrize(
    ("name", "limits", "kinds", "detail"),
    [
        ("fork_bomb", Limits(processes=48), ("crash", "timeout"), "process cap of 48"),
        ("memory_hog", Limits(memory_mb=200), ("memory",), ""),
        ("flood", Limits(file_mb=2), ("output_flood",), "2 MiB"),
    ],
)
def test_basic_level_caps_hold_too(tmp_path: Path, name: str, limits: Limits, kinds: tuple[str, ...], detail: str) -> None:
    control = FAST if name == "fork_bomb" else ROOMY
    good, bad, _ = play(tmp_path, hostile_bot(name, level="basic", limits=limits), time_control=control, good_level="basic")
    assert bad.faults and bad.faults[0].kind in kinds, bad.faults
    assert_fault(good, bad, bad.faults[0].kind, detail)


def test_message_flood_is_a_flood_fault_of_its_sender(tmp_path: Path) -> None:
    # The good bot starts 2 s late: the flood fills the hostile seat's inbox before any request.
    good, bad, _ = play(tmp_path, hostile_bot("message_flood", "40"), good_delay=2.0)
    assert_fault(good, bad, "flood", "messages or")


def test_a_100_mb_message_costs_only_its_sender_its_seat(tmp_path: Path) -> None:
    good, bad, report = play(tmp_path, hostile_bot("huge_message"), time_control=ROOMY)
    # The transport refuses the message before reading it (the referee never holds it) and ends the
    # stream; that end is all the referee sees, so that is the fault: nothing of the bot's stderr (where
    # gRPC's refusal lands) names or words it.
    assert bad.replaced and bad.faults[0].kind in ("crash", "disconnect"), bad.faults
    assert "Received message larger than max" in bad.stderr_tail  # its owner still reads why
    assert all("Received message" not in fault.detail for fault in bad.faults)
    assert "huge message: sending" in bad.stderr_tail


def test_public_fault_text_never_quotes_the_bot(tmp_path: Path) -> None:
    """A bot that writes a flood's, a CPU cap's and some markup's words to stderr, then crashes, is a crash
    in the referee's words: neither its report nor the replay's public timeline carries its text."""
    from referee.replay import read_replay

    good, bad, _ = play(tmp_path, hostile_bot("liar"))
    assert_fault(good, bad, "crash", "exit code 1")
    assert "CPU time limit exceeded" in bad.stderr_tail  # its owner's, and only its owner's
    public = [json.dumps(record) for record in read_replay(tmp_path / "r.jsonl") if record.get("type") == "fault"]
    for text in [*(fault.detail for fault in bad.faults), *public]:
        for lie in ("Received message", "CPU time limit", "onerror", "evil.example"):
            assert lie not in text, text


REFEREE_RSS = """
import json, resource, sys
from referee.match import BotSpec, MatchSpec, TimeControl, run_match
control = TimeControl(per_decision_seconds=2.0, bank_seconds=0.0, startup_seconds=20.0)
bots = [BotSpec(**json.loads(text)) for text in sys.argv[1:]]
report = run_match(MatchSpec("underground_dice", bots, seed=3, time_control=control))
print(json.dumps({"faults": [[f.kind for f in seat.faults] for seat in report.seats],
                  "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""
#: What the referee process may reach while one bot floods it with 400 MB (it needs about 100 MB itself).
REFEREE_BUDGET_MB = 250


def test_a_flooding_strict_bot_cannot_grow_the_referee(tmp_path: Path) -> None:
    import json
    import subprocess

    flood = hostile_bot("message_flood", "400")
    specs = [
        {"name": "good", "command": list(good_bot(delay=2.0).command or ()), "sandbox": "strict"},
        {"name": "flood", "command": list(flood.command or ()), "cwd": flood.cwd, "sandbox": "strict"},
    ]
    run = subprocess.run(
        [sys.executable, "-c", REFEREE_RSS, *[json.dumps(spec) for spec in specs]],
        capture_output=True, text=True, timeout=120, cwd=Path(__file__).parents[2],
    )
    assert run.returncode == 0, run.stderr[-3000:]
    measured = json.loads(run.stdout.strip().splitlines()[-1])
    assert measured["faults"] == [[], ["flood"]], measured
    assert measured["max_rss_mb"] < REFEREE_BUDGET_MB, measured


def test_an_oversized_answer_is_a_flood(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("oversized"))
    assert_fault(good, bad, "flood", "1,048,5", "the limit is 262,144 bytes")


def kernel_attempts(stderr: str) -> dict[str, str]:
    """Per family the kernel_surface bot tried: 'blocked' or 'LEAK'."""
    found = {}
    for line in stderr.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("blocked", "LEAK"):
            found[rest.partition(":")[0]] = verdict
    return found


def test_seccomp_denies_every_family_a_bot_never_needs(tmp_path: Path) -> None:
    good, bad, _ = play(tmp_path, hostile_bot("kernel_surface"), time_control=ROOMY)
    assert not bad.faults and not bad.replaced, bad.faults
    assert "seccomp mode 2" in bad.stderr_tail and "fork works" in bad.stderr_tail, bad.stderr_tail
    attempts = kernel_attempts(bad.stderr_tail)
    assert len(attempts) == 25, bad.stderr_tail
    assert set(attempts.values()) == {"blocked"}, attempts
    assert "EPERM" in bad.stderr_tail and "syscalls" in bad.sandbox


MORE_FAMILIES = {"personality set", "personality high bits", "memfd_secret", "vmsplice", "mbind", "migrate_pages",
                 "move_pages", "pidfd_open", "landlock", "netlink socket", "vsock socket", "inet socket",
                 "inet6 socket", "packet socket"} | ({"modify_ldt"} if platform.machine() == "x86_64" else set())


def test_seccomp_denies_the_families_the_review_found_open(tmp_path: Path) -> None:
    """Each family the review reached from strict (personality turned address randomisation off, AF_VSOCK
    bound and listened) fails with the filter's EPERM; personality's query and AF_UNIX still work."""
    good, bad, _ = play(tmp_path, hostile_bot("kernel_surface_more"), time_control=ROOMY)
    assert not bad.faults and not bad.replaced, bad.faults
    assert "personality query works" in bad.stderr_tail and "unix socket works" in bad.stderr_tail, bad.stderr_tail
    attempts = kernel_attempts(bad.stderr_tail)
    assert set(attempts) == MORE_FAMILIES, bad.stderr_tail
    assert set(attempts.values()) == {"blocked"}, attempts


def test_without_the_filter_the_same_bot_gets_a_user_namespace(tmp_path: Path) -> None:
    """The control for the test above: at the basic level (no seccomp) the calls it makes do work."""
    good, bad, _ = play(tmp_path, hostile_bot("kernel_surface", level="basic"), time_control=ROOMY, good_level="basic")
    attempts = kernel_attempts(bad.stderr_tail)
    assert "seccomp mode 0" in bad.stderr_tail
    assert attempts["unshare user namespace"] == "LEAK" and attempts["clone new user namespace"] == "LEAK", attempts
