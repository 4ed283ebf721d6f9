"""Typed errors of the platform: every rule or input problem raises one of these, never `assert`."""

from __future__ import annotations


class ArenaError(ValueError):
    """Root of every error the platform raises on bad input or a broken rule."""


class UnknownGameError(ArenaError):
    """A game id that no engine is registered under."""


class ConfigError(ArenaError):
    """A malformed match or game configuration (player count, variant flag, value)."""


class RuleError(ArenaError):
    """An engine was asked to do something its rules forbid."""


class IllegalOptionError(RuleError):
    """An option id that is not among the seat's legal options at this point."""


class NotDecidingError(RuleError):
    """A decision was given for a seat that is not deciding now (or one was missing)."""


class NotChanceNodeError(RuleError):
    """A chance outcome was applied where no chance node is pending, or an unknown outcome."""


class GameOverError(RuleError):
    """The game is over: nothing more can be applied, or the result was asked too early."""


class ComponentDataError(ArenaError):
    """A game's component data file failed validation when loaded."""


class ReplayError(ArenaError):
    """A replay file is corrupt or does not re-simulate to what it records."""


class BotLaunchError(ArenaError):
    """A bot command could not be started or never said hello."""
