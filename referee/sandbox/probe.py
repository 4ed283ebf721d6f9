"""What this machine can provide: which sandbox levels work here, and which caps would be in force.

The trial bubblewrap sandbox (a few hundred milliseconds on a loaded machine) is run once per boot:
its outcome is kept in the user's cache directory (B99_SANDBOX_PROBE_CACHE names another file, an
empty value turns the cache off), keyed by the boot, the user and the bwrap binary, so a new boot,
another bwrap or another user runs it again.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

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
        version, error = cached_trial(bwrap)
        if error:
            strict.append(f"bubblewrap cannot make a sandbox here: {error}")
    try:
        seccomp.filter_program()
    except seccomp.SeccompUnavailable as error:
        strict.append(str(error))
    missing["strict"] = "; ".join(strict)
    return MachineSupport(bwrap, version, setpriv, missing)


PROBE_CACHE_VARIABLE = "B99_SANDBOX_PROBE_CACHE"


def probe_cache_path() -> Path | None:
    """Where the trial's outcome is kept (None: not kept)."""
    configured = os.environ.get(PROBE_CACHE_VARIABLE)
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "b99" / "sandbox-probe.json"


def _trial_key(bwrap: str) -> dict[str, Any]:
    """What the trial's outcome depends on: this boot, this user, this bwrap binary."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text(encoding="ascii").strip()
    except OSError:
        boot = ""
    stat = os.stat(bwrap)
    return {"boot": boot, "euid": os.geteuid(), "bwrap": bwrap, "mtime_ns": stat.st_mtime_ns, "size": stat.st_size}


def cached_trial(bwrap: str) -> tuple[str, str]:
    """`_trial(bwrap)`, run once per boot: read from the probe cache when its key still holds."""
    path = probe_cache_path()
    try:
        key = _trial_key(bwrap)
    except OSError:
        return _trial(bwrap)
    if path is not None:
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
            if kept.get("key") == key and key["boot"]:
                return str(kept["version"]), str(kept["error"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
    version, error = _trial(bwrap)
    if path is not None and key["boot"]:
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            scratch = path.with_name(f".{path.name}.{os.getpid()}")
            scratch.write_text(json.dumps({"key": key, "version": version, "error": error}), encoding="utf-8")
            os.replace(scratch, path)
        except OSError:
            pass  # an unwritable cache only means the trial runs again next time
    return version, error


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
