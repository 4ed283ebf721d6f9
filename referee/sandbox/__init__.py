"""Confining bot processes: sandbox levels none, basic and strict (see docs/security.md).

`spawn` starts a bot under a level; `machine_support` says which levels this machine provides;
`Limits` are the caps; a `Confinement` records what was in force and cleans up after the bot.
"""

from referee.sandbox.confine import Confinement, SandboxRequest, spawn, unavailable
from referee.sandbox.limits import Limits
from referee.sandbox.probe import LEVELS, describe_machine, machine_support

__all__ = ["LEVELS", "Confinement", "Limits", "SandboxRequest", "describe_machine", "machine_support", "spawn", "unavailable"]
