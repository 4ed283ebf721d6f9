"""The ladder's main loop: keep every game's matches flowing, requeue lost attempts, dispatch work."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from datetime import timedelta

from sqlalchemy import func
from sqlmodel import col, select

from ladder.db import is_unavailable, read_session, write_session
from ladder.execute import LEASE_SECONDS
from ladder.executors import Executor
from ladder.game_settings import GamesFile, games_file
from ladder.ladder_config import LadderConfig
from ladder.matches import schedule_match
from ladder.reconciler import DISPATCH_LEASE_SECONDS, Reconciler
from ladder.matchmaking import Candidate, pick_table
from ladder.models import Match, MatchKind, MatchStatus, utcnow
from ladder.scheduler_memory import RECENT_MATCHES, REFRESH_SECONDS, SchedulerMemory
from ladder.settings import LadderSettings
from referee.errors import ArenaError
from referee.registry import get_game

log = logging.getLogger(__name__)

__all__ = ["RECENT_MATCHES", "Ladder", "SchedulerOptions", "redispatch_lost_queued"]


@dataclass
class SchedulerOptions:
    """How the ladder schedules: which games, how many matches in flight, self-play, a seed."""

    games: Sequence[str] = ()  # empty: every game that has bots
    concurrency: int = 2  # matches queued or running at once (per ladder)
    allow_self_play: bool = False
    seed: int | None = None
    players: dict[str, int] = field(default_factory=dict)  # per game, overrides the games file's counts
    games_file: Path | None = None  # per-game settings (TOML); default: <home>/games.toml
    max_matches: int | None = None  # stop scheduling after this many (tests, benchmarks)
    lease_seconds: float = LEASE_SECONDS
    tick_seconds: float = 0.2
    #: How often leases are reaped and validation and challenge games queued (a tick only schedules and
    #: dispatches rated play): a few queries a second, not a few per match.
    maintenance_seconds: float = 1.0
    dispatch_lease_seconds: float = DISPATCH_LEASE_SECONDS
    #: How often the scheduler's memory of bots, ratings, recent seats and open matches is read whole again
    #: (a safety net: changes reach it as they happen; ladder.scheduler_memory).
    refresh_seconds: float = REFRESH_SECONDS


class Ladder:
    """Schedules, dispatches and reaps until stopped. Safe to kill and restart at any moment."""

    def __init__(
        self,
        settings: LadderSettings,
        executor: Executor,
        options: SchedulerOptions | None = None,
        online: Any = None,
    ) -> None:
        self.settings = settings
        self.executor = executor
        self.options = options or SchedulerOptions()
        # Without a seed, match seeds come from the OS's CSPRNG: a Mersenne Twister's future outputs follow from revealed ones.
        self.rng = random.Random(self.options.seed) if self.options.seed is not None else random.SystemRandom()
        self.scheduled = 0
        self.stopping = threading.Event()
        self.remote_ids: set[int | None] = set()
        self.online = online  # a ladder.remote.Presence shared with the Arena gateway; None: no remote bots
        self.games_file = GamesFile(self.options.games_file or games_file(settings.home))
        self.reconciler = Reconciler(settings, executor, self.options.lease_seconds, self.options.dispatch_lease_seconds)
        from ladder.scheduler_lease import SchedulerLease

        self.lease = SchedulerLease(settings)  # one scheduler per database: the others stand by
        self.standing_by = False
        self.unplayable_logged: set[str] = set()  # games whose settings their bots cannot meet, said once
        self.last_good_config = LadderConfig()  # ladder.toml's last readable version (`ladder serve` checks it at start)
        self.config_error: str | None = None
        self.next_maintenance = 0.0
        #: Set when a match ends (executors that can tell), so the next one is scheduled at once, not a tick later.
        self.wake = threading.Event()
        #: Bots, ratings, recent seats and open matches, kept in step with the database instead of read per match.
        self.memory = SchedulerMemory(settings, self.options.refresh_seconds)
        listen = getattr(executor, "listen", None)
        self.event_driven = callable(listen)
        self.woken = True
        if callable(listen):
            listen(self._matches_ended)

    def _matches_ended(self, match_ids: Sequence[int]) -> None:
        """The executor's word that matches ended (its thread): read back before the next pick, which starts now."""
        self.memory.ended(match_ids)
        self.wake.set()

    def recover(self) -> None:
        """After a restart: dispatch again what was queued but never sent to an executor. A local
        executor's processes died with the previous service, so everything it had been sent is
        sent again too (its running attempts are failed when their processes are found gone)."""
        if self.executor.name == "local":
            redispatch_lost_queued(self.settings, 0.0)
        self.dispatch()

    def step(self) -> None:
        """One round: schedule new matches and dispatch the queued ones; at most every maintenance_seconds
        also reap expired leases and queue validation and challenge games."""
        now = time.monotonic()
        maintain = now >= self.next_maintenance
        if maintain:
            self.reconciler.settings = self.settings
            self.reconciler.reap()
            from ladder.validation import schedule_validations

            validations = schedule_validations(self.settings, dict(self.options.players), self.rng, games_file=self.games_file,
                                               online=self.online)
            if self.memory.loaded_at is not None:
                # The reaper and the validation queue change the open matches; new validation games the recent seats.
                self.memory.read_open()
                if validations:
                    self.memory.forget_recent()
        if maintain or self.woken or not self.event_driven:
            # With an executor that says when a match ends, a tick in between has nothing to fill.
            self.schedule()  # rated matches are sent as they are queued
        self.woken = False
        if maintain:
            if self.schedule_challenges():
                self.memory.forget_recent()
            self.next_maintenance = now + self.options.maintenance_seconds
            # Validation and challenge games, requeued attempts and lost dispatches go out here.
            self.dispatch()

    def schedule_challenges(self) -> list[int]:
        """Queue challenge games within their own share of the workers (on top of rated play); their ids."""
        from ladder.challenges import schedule_challenges

        return schedule_challenges(self.settings, self.ladder_config().challenge_slots(self.options.concurrency), self.rng)

    def ladder_config(self) -> LadderConfig:
        """ladder.toml as it is now; while an edit has broken it, the last good one (the error logged once
        per broken version), so a typo never stops the scheduler or rated play."""
        from ladder.ladder_config import LadderConfigError, load_config

        try:
            self.last_good_config = load_config(self.settings.home)
            self.config_error = None
        except LadderConfigError as error:
            if str(error) != self.config_error:
                self.config_error = str(error)
                log.error("%s; keeping the previous settings", error)
        return self.last_good_config

    def open_matches(self, challenges: bool = True) -> int:
        """Matches queued or running (without `challenges`: rated and validation ones only)."""
        query = select(func.count()).select_from(Match).where(col(Match.status).in_(MatchStatus.OPEN))
        if not challenges:
            query = query.where(Match.kind != MatchKind.CHALLENGE)
        with read_session(self.settings.db_url) as session:
            return session.exec(query).one()

    def schedule(self) -> None:
        """Queue new matches until `concurrency` are open."""
        self.memory.refresh(poll=not self.event_driven)
        games = list(self.options.games) or self.memory.games()
        if not games:
            return
        missing = self.options.concurrency - self.memory.open_count()  # challenges have their own share
        attempts = 0
        while missing > 0 and attempts < 4 * len(games):
            if self.options.max_matches is not None and self.scheduled >= self.options.max_matches:
                return
            attempts += 1
            game = games[(self.scheduled + attempts) % len(games)]
            if attempts > 1:
                # What ended or changed meanwhile counts for the next pick (an executor may play a match as it is sent).
                self.memory.refresh(poll=not self.event_driven)
            try:
                scheduled = self.schedule_one(game)
            except ArenaError as error:  # a game whose engine is gone: its bots wait
                log.warning("cannot schedule %s: %s", game, error, extra={"game": game, "event": "unschedulable"})
                continue
            if scheduled is not None:
                missing -= 1

    def games_with_bots(self) -> list[str]:
        """The games that have active bots (as the scheduler's memory knows them)."""
        self.memory.refresh()
        return self.memory.games()

    def candidates(self, game: str) -> list[Candidate]:
        """The active bots of `game` (remote ones only while connected), with rating and recent load."""
        self.remote_ids = self.memory.remote_ids(game)
        return self.memory.candidates(game, self.online)

    def schedule_one(self, game: str) -> int | None:
        """Queue one match of `game` if matchmaking finds a table; returns its id."""
        get_game(game)
        game_settings = self.games_file.get(game)
        candidates = self.candidates(game)
        if game in self.options.players:
            players: int | None = self.options.players[game]
        else:
            available = len(candidates) if not self.options.allow_self_play or not candidates else 1 << 30
            players = game_settings.pick_players(self.rng, available)
        if players is None:
            self._unplayable(game, game_settings, len(candidates))
            return None
        self.unplayable_logged.discard(game)
        table = pick_table(candidates, players, self.rng, self.options.allow_self_play)
        if table is None:
            return None
        # Leased to the executor as it is queued, and sent at once: no second transaction to dispatch it.
        match_id = schedule_match(self.settings, game, table, seed=self.rng.getrandbits(63),
                                  variants=dict(game_settings.variants), time_control=dict(game_settings.time_control),
                                  dispatch_lease_seconds=self.options.dispatch_lease_seconds)
        self.memory.queued(match_id, game, table)
        if self.online is not None:
            for bot_id in table:
                if bot_id in self.remote_ids:
                    self.online.reserve(bot_id)
        self.send(match_id)
        self.scheduled += 1
        log.info("match %s scheduled: %s, %d players", match_id, game, len(table),
                 extra={"match_id": match_id, "game": game, "bots": list(table), "event": "scheduled"})
        return match_id

    def _unplayable(self, game: str, game_settings: Any, available: int) -> None:
        """Say once (until it can play again) that a game's settings cannot be met by its bots."""
        from ladder.status import unplayable

        if game in self.unplayable_logged:
            return
        self.unplayable_logged.add(game)
        flagged = unplayable(game_settings, available)
        if flagged is not None:
            log.warning("cannot schedule matches: %s", flagged.reason, extra={"game": game, "event": "unplayable"})

    def send(self, match_id: int) -> None:
        """Hand a match leased at scheduling to the executor; if the executor refuses, the next dispatch sends it."""
        try:
            self.executor.submit(self.settings, match_id)
        except Exception as error:  # noqa: BLE001 - the broker is away: hand it back to the dispatcher
            log.warning("match %s: could not dispatch (%s: %s); trying again", match_id, type(error).__name__, error)
            from ladder.matches import undispatch

            undispatch(self.settings, match_id)

    def dispatch(self) -> None:
        """Send every queued match that was never sent, or whose dispatch lease ran out."""
        self.reconciler.settings = self.settings
        self.reconciler.dispatch()

    def run(self, until_idle: bool = False) -> None:
        """Loop until stopped (or, with `until_idle`, until max_matches are scheduled and all closed)."""
        recovered = False
        try:
            self._run(until_idle, recovered)
        finally:
            try:
                self.lease.release()
            except Exception as error:  # noqa: BLE001 - the lease runs out by itself if the database is away
                log.warning("scheduler lease not released: %s", error)

    def _run(self, until_idle: bool, recovered: bool) -> None:
        while not self.stopping.is_set():
            try:
                if not self.has_lease():
                    self.stopping.wait(max(1.0, self.options.tick_seconds))
                    continue
                if not recovered:
                    self.recover()
                    recovered = True
                self.step()
            except Exception as error:  # noqa: BLE001 - a database or broker hiccup must not stop the ladder
                if is_unavailable(error):
                    self.reconciler.database_failed()
                    log.warning("the database is unavailable (%s); retrying", type(error).__name__)
                else:
                    log.exception("ladder step failed; retrying")
                self.stopping.wait(max(1.0, self.options.tick_seconds))
                continue
            if until_idle and self.options.max_matches is not None and self.scheduled >= self.options.max_matches:
                from ladder.challenges import pending_games

                if self.open_matches() == 0 and pending_games(self.settings) == 0:
                    return
            wait = self.options.tick_seconds
            if self.event_driven:
                # A match's end wakes the loop: between ends, only the next maintenance has work to do.
                wait = max(wait, self.next_maintenance - time.monotonic())
            self.woken = self.wake.wait(wait)
            self.wake.clear()

    def has_lease(self) -> bool:
        """Whether this ladder is the database's scheduler now (taking the lease when it is free);
        logs once when it starts or stops standing by for another scheduler."""
        from ladder.scheduler_lease import current_holder

        held = self.lease.hold()
        if not held and not self.standing_by:
            holder = current_holder(self.settings)
            log.warning("another scheduler (%s) runs on this database: this one schedules nothing and takes over "
                        "when it stops", holder.host_and_pid if holder else "?", extra={"event": "standby"})
        elif held and self.standing_by:
            log.warning("this ladder is the database's scheduler now", extra={"event": "scheduler"})
        self.standing_by = not held
        return held

    def stop(self) -> None:
        self.stopping.set()
        self.wake.set()


def redispatch_lost_queued(settings: LadderSettings, older_than_seconds: float) -> int:
    """Mark queued matches dispatched long ago as undispatched (their task was lost with a broker)."""
    cutoff = utcnow() - timedelta(seconds=older_than_seconds)
    with write_session(settings.db_url) as session:
        matches = session.exec(
            select(Match).where(Match.status == MatchStatus.QUEUED, col(Match.dispatched_at) < cutoff)
        ).all()
        for match in matches:
            match.dispatched_at = None
            match.lease_expires_at = None
            session.add(match)
        return len(matches)
