"""What this machine can provide: which sandbox levels work here, and which caps would be in force."""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache

from referee.sandbox import cgroups, seccomp
from referee.sandbox.bubblewrap import system_arguments

LEVELS = ("none", "basic", "strict")


@dataclass(frozen=True, slots=True)
class MachineSupport:
    """The tools found and, per level, why it cannot run here ('' when it can)."""

    bwrap: str | None
    bwrap_version: str
    setpriv: str | None
    missing: dict[str, str]

    def available(self, level: str) -> bool:
        return not self.missing.get(level)


@cache
def machine_support() -> MachineSupport:
    """Probe once per process: tools on the PATH, root, and a trial bubblewrap sandbox."""
    bwrap = shutil.which("bwrap")
    setpriv = shutil.which("setpriv")
    missing = {"none": ""}
    basic = []
    if os.geteuid() != 0:
        basic.append("the referee is not root, so it cannot run bots under user ids of their own")
    if setpriv is None:
        basic.append("setpriv (util-linux) is not installed")
    if not os.path.exists("/bin/sh") or not os.path.exists("/bin/kill"):
        basic.append("/bin/sh or /bin/kill is missing")
    missing["basic"] = "; ".join(basic)
    strict = list(basic)
    version = ""
    if bwrap is None:
        strict.append("bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)")
    elif not basic:
        version, error = _trial(bwrap)
        if error:
            strict.append(f"bubblewrap cannot make a sandbox here: {error}")
    try:
        seccomp.filter_program()
    except seccomp.SeccompUnavailable as error:
        strict.append(str(error))
    missing["strict"] = "; ".join(strict)
    return MachineSupport(bwrap, version, setpriv, missing)


def _trial(bwrap: str) -> tuple[str, str]:
    """bwrap's version and '' if a sandbox like a bot's starts, else the error it printed."""
    try:
        version = subprocess.run([bwrap, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
        trial = subprocess.run(
            [
                bwrap,
                "--unshare-ipc",
                "--unshare-pid",
                "--unshare-net",
                "--unshare-uts",
                "--unshare-cgroup-try",
                "--die-with-parent",
                *system_arguments(),
                "--size",
                "65536",
                "--tmpfs",
                "/scratch",
                "--",
                "/bin/true",
            ],
            capture_output=True,
            text=True,
            timeout=20,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return "", str(error)
    if trial.returncode != 0:
        return version, (trial.stderr.strip().splitlines() or [f"exit code {trial.returncode}"])[-1]
    return version, ""


def describe_machine() -> dict[str, str]:
    """Per level whether it runs here, and per controller where the cgroup caps come from."""
    support = machine_support()
    usable, reasons = cgroups.detect()
    lines = {level: ("available" if support.available(level) else f"unavailable: {support.missing[level]}") for level in LEVELS}
    for controller in cgroups.CONTROLLERS:
        lines[f"cgroup {controller}"] = usable[controller].describe() if controller in usable else f"none ({reasons.get(controller, '')})"
    return lines
