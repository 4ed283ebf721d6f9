"""Per-game ladder settings: player counts (one, or a weighted mix), time control and variants.

They live in a TOML file (`<home>/games.toml` unless told otherwise), written by
`b99 ladder settings` or by hand, read by the matchmaker for every new match and by the game's page:

    [games.fuji99]
    players = { 2 = 1, 3 = 1, 4 = 2 }   # or players = 3, or players = [2, 3, 4] (equal weights)
    time_per_decision = 2.0
    time_bank = 20.0
    increment = 0.5
    variants = { some_flag = true }

Every value is checked against the game (player range, flag names and values, time control) when
read or written, so a bad file is a one-line error naming the game and the value.
"""

from __future__ import annotations

import logging
import os
import random
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import ArenaError, ConfigError

#: The time-control keys of a game's table, and the TimeControl field each one sets.
TIME_KEYS = {
    "time_per_decision": "per_decision_seconds",
    "time_bank": "bank_seconds",
    "increment": "increment_seconds",
    "startup_time": "startup_seconds",
    "strikes": "strikes_allowed",
}
KNOWN_KEYS = {"players", "variants", *TIME_KEYS}
log = logging.getLogger(__name__)


class GameSettingsError(ConfigError):
    """A games file or a setting the ladder refuses, with the game and the value."""


@dataclass(frozen=True)
class GameSettings:
    """How the ladder plays one game: player counts with weights, time control, variants."""

    game: str
    players: Mapping[int, float] = field(default_factory=dict)  # empty: the game's default count
    time_control: Mapping[str, float] = field(default_factory=dict)  # TimeControl field -> value
    variants: Mapping[str, Any] = field(default_factory=dict)

    def player_counts(self) -> dict[int, float]:
        """The counts to mix, with weights (the game's default count if none are set)."""
        from referee.registry import get_game

        return dict(self.players) or {get_game(self.game).default_players: 1.0}

    def pick_players(self, rng: random.Random, available: int) -> int | None:
        """A player count for the next match, drawn by weight among those `available` bots can fill."""
        counts = {count: weight for count, weight in self.player_counts().items() if count <= available and weight > 0}
        if not counts:
            return None
        ordered = sorted(counts)
        if len(ordered) == 1:  # a fixed count draws nothing (the matchmaker's draws stay as they were)
            return ordered[0]
        return rng.choices(ordered, weights=[counts[count] for count in ordered])[0]

    def describe_players(self) -> str:
        """"2", or "2 (1/4), 3 (1/4), 4 (1/2)" for a mix."""
        counts = self.player_counts()
        if len(counts) == 1:
            return str(next(iter(counts)))
        total = sum(counts.values())
        return ", ".join(f"{count} ({weight / total:.0%})" for count, weight in sorted(counts.items()))

    def to_toml(self) -> dict[str, Any]:
        """This game's table in the games file."""
        table: dict[str, Any] = {}
        if self.players:
            table["players"] = {str(count): weight for count, weight in sorted(self.players.items())}
        for key, name in TIME_KEYS.items():
            if name in self.time_control:
                table[key] = self.time_control[name]
        if self.variants:
            table["variants"] = dict(self.variants)
        return table


def parse_players(game: str, value: Any) -> dict[int, float]:
    """`3`, `[2, 3]`, `{ "2" = 1, "4" = 2 }`, or the CLI's "2,3" / "2:1,4:2": counts with weights."""
    if isinstance(value, str):
        pairs: dict[str, Any] = {}
        for part in filter(None, (piece.strip() for piece in value.split(","))):
            count, _, weight = part.partition(":")
            pairs[count] = weight or 1
        value = pairs
    if isinstance(value, int) and not isinstance(value, bool):
        value = {value: 1}
    elif isinstance(value, list):
        value = {count: 1 for count in value}
    if not isinstance(value, dict) or not value:
        raise GameSettingsError(f"{game}: players must be a count, a list of counts or a table count = weight, not {value!r}")
    counts: dict[int, float] = {}
    for count, weight in value.items():
        try:
            number, share = int(str(count)), float(weight)
        except ValueError:
            raise GameSettingsError(f"{game}: bad player count {count!r} (weight {weight!r})") from None
        if share <= 0:
            raise GameSettingsError(f"{game}: the weight of {number} players must be above 0, not {weight!r}")
        counts[number] = share
    return counts


def make_settings(game: str, table: Mapping[str, Any]) -> GameSettings:
    """Check one game's table against the game and the referee's time control."""
    from referee.clock import TimeControl
    from referee.registry import get_game

    engine = get_game(game)
    unknown = set(table) - KNOWN_KEYS
    if unknown:
        raise GameSettingsError(f"{game}: unknown setting {sorted(unknown)[0]!r} (known: {', '.join(sorted(KNOWN_KEYS))})")
    players = parse_players(game, table["players"]) if "players" in table else {}
    variants = table.get("variants") or {}
    if not isinstance(variants, Mapping):
        raise GameSettingsError(f"{game}: variants must be a table of flag = value, not {variants!r}")
    for count in players or {engine.default_players: 1.0}:
        engine.make_config(count, variants)  # ConfigError names the bad count or flag
    time_control: dict[str, float] = {}
    for key, name in TIME_KEYS.items():
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise GameSettingsError(f"{game}: {key} must be a number, not {value!r}")
            time_control[name] = int(value) if name == "strikes_allowed" else float(value)
    TimeControl(**time_control)  # ConfigError for a negative or empty clock
    return GameSettings(game, players, time_control, dict(variants))


def games_file(home: Path) -> Path:
    """Where a ladder's game settings live: $B99_LADDER_GAMES, else `<home>/games.toml`."""
    return Path(os.environ.get("B99_LADDER_GAMES") or home / "games.toml")


def load_games(path: Path) -> dict[str, GameSettings]:
    """Every game's settings in a games file (none if it does not exist)."""
    if not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise GameSettingsError(f"{path}: not valid TOML: {error}") from None
    games = data.get("games", {})
    unknown = set(data) - {"games"}
    if unknown or not isinstance(games, dict):
        raise GameSettingsError(f"{path}: expected only [games.<id>] tables")
    result = {}
    for game, table in games.items():
        if not isinstance(table, dict):
            raise GameSettingsError(f"{path}: games.{game} must be a table")
        try:
            result[game] = make_settings(game, table)
        except ArenaError as error:
            raise GameSettingsError(f"{path}: {error}") from None
    return result


def save_games(path: Path, games: Mapping[str, GameSettings]) -> None:
    """Write a games file (atomically: a reader sees the old file or the new one)."""
    import tomli_w

    text = tomli_w.dumps({"games": {game: settings.to_toml() for game, settings in sorted(games.items())}})
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_suffix(".toml.tmp")
    scratch.write_text(text)
    scratch.replace(path)


class GamesFile:
    """A games file read again whenever it changes (the scheduler asks before every match)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int] | None = None
        self._games: dict[str, GameSettings] = {}

    def get(self, game: str) -> GameSettings:
        """The settings of `game` (defaults if the file says nothing about it)."""
        return self.all().get(game) or GameSettings(game)

    def all(self) -> dict[str, GameSettings]:
        try:
            info = self.path.stat()
            stamp = (info.st_mtime_ns, info.st_size)
        except FileNotFoundError:
            stamp = None
        if stamp != self._stamp:
            self._stamp = stamp
            try:
                self._games = load_games(self.path) if stamp is not None else {}
            except GameSettingsError as error:  # keep playing with the last good settings
                log.error("%s; keeping the previous settings", error)
        return self._games
