"""What a sandboxed bot may use: memory, address space, CPU time, processes, open files, file size, scratch."""

from __future__ import annotations

import resource
from dataclasses import dataclass

from referee.errors import ConfigError

MIB = 1024 * 1024
#: A gRPC bot crashes (instead of failing cleanly) below this address-space limit.
MIN_ADDRESS_SPACE_MB = 128


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps for one bot process tree. Defaults suit a Python or Node bot playing a long game."""

    memory_mb: int = 512           #: resident memory (cgroup memory controller), scratch files included
    address_space_mb: int = 2048   #: RLIMIT_AS per process (Node reserves ~1 GiB of address space)
    cpu_seconds: int = 600         #: RLIMIT_CPU per process: SIGXCPU at the cap, SIGKILL one second later
    processes: int = 128           #: tasks (processes and threads): cgroup pids controller and RLIMIT_NPROC
    open_files: int = 256          #: RLIMIT_NOFILE
    file_mb: int = 16              #: RLIMIT_FSIZE: the largest file the bot may write; also caps its stdout/stderr logs
    scratch_mb: int = 64           #: size of the private writable scratch directory (strict)

    def __post_init__(self) -> None:
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ConfigError(f"sandbox limit {name} must be a positive integer, not {value!r}")
        if self.address_space_mb < MIN_ADDRESS_SPACE_MB:
            raise ConfigError(
                f"sandbox limit address_space_mb must be at least {MIN_ADDRESS_SPACE_MB} (a gRPC bot crashes below it), "
                f"not {self.address_space_mb}"
            )

    def rlimits(self, processes: int | None) -> dict[int, tuple[int, int]]:
        """The resource limits to set on the bot's first process; RLIMIT_NPROC = `processes` unless None."""
        limits = {
            resource.RLIMIT_AS: (self.address_space_mb * MIB, self.address_space_mb * MIB),
            resource.RLIMIT_CPU: (self.cpu_seconds, self.cpu_seconds + 1),
            resource.RLIMIT_NOFILE: (self.open_files, self.open_files),
            resource.RLIMIT_FSIZE: (self.file_mb * MIB, self.file_mb * MIB),
            resource.RLIMIT_CORE: (0, 0),
        }
        if processes is not None:
            limits[resource.RLIMIT_NPROC] = (processes, processes)
        return limits


def apply_rlimits(pid: int, limits: dict[int, tuple[int, int]]) -> None:
    """Set resource limits on a process that has not yet started the bot (prlimit(2); inherited across exec)."""
    for which, value in limits.items():
        resource.prlimit(pid, which, value)
