"""What the referee pays per decision and per match, beside the engine's own step, by game and player count.

Per decision (anchor: the engine's step for the same decision, measured in the same loop):
- step: `apply_decisions` for the decision;
- request: building every deciding seat's DecisionRequest (its view, options and new events as
  typed messages) the way the runner does (one `shared` dict a decision; each seat's new events numbered in
  its own sequence by `messages.seat_numbered`, its own request ids and its own clock), through to the
  bytes that go on a bot's stream: `messages.outgoing_request` then `message_bytes()`, which the Arena stream's
  serializer passes through as they are (until 2026-11-27 the runner parsed the bytes into a
  RefereeMessage that gRPC serialized again, and this row timed that parse and serialization; until 22:40 that
  day this row sent events under their log positions, which no runner does: see docs/benchmarks.md's notes).
Per match: the CPU time of a whole in-process match of random bots through `run_match` (replay
recorded in memory), against the CPU time of the same game's engine alone (the same seeds, no
referee), with the game's length in decisions.

    python -m benchmarks.bench_decision_cost [--quick]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
from dataclasses import dataclass

from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.registry import all_games, get_game
from referee.wire import SharedParts, get_wire

#: Player counts measured per game (within each game's range).
PLAYER_COUNTS = (1, 2, 3, 4, 5, 6)
TARGET_RATIO = 2.0
#: decisions of the round `--requests-only` plays, untimed, before each row
WARM_UP_DECISIONS = 200


@dataclass
class DecisionCost:
    """Mean microseconds per decision of the engine's step and of the requests built for it."""

    game: str
    players: int
    decisions: int
    step_us: float
    request_us: float
    request_bytes: float

    @property
    def ratio(self) -> float:
        return self.request_us / self.step_us if self.step_us else float("inf")


def decision_cost(game_id: str, players: int, decisions: int, seed: int = 1) -> DecisionCost:
    """Random play; at each decision, time the requests of every deciding seat, then the step."""
    game = get_game(game_id)
    wire = get_wire(game_id)
    rng = random.Random(seed)
    clocks = [SeatClock.start(TimeControl()) for _ in range(players)]
    step = build = 0.0
    size = 0
    counted = 0
    # CPU time of this process: preemption by other load on a shared machine is left out.
    perf = time.process_time
    while counted < decisions:
        state = game.new_initial_state(game.make_config(players))
        cursors = [0] * players
        sent = [0] * players
        request_ids = [1] * players
        while not state.is_terminal() and counted < decisions:
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            deciding = state.deciding_seats()
            options = {seat: list(state.legal_options(seat)) for seat in deciding}
            began = perf()
            shared: SharedParts = {}
            for seat in deciding:
                # as the runner does (`_Match.decide`): the seat's new events in its own numbering, its request id
                events = messages.seat_numbered(messages.seat_events(state, seat, cursors[seat]), sent[seat])
                sent[seat] += len(events)
                cursors[seat] = len(state.events)
                request = messages.outgoing_request(wire, request_ids[seat], state, seat, options[seat], events,
                                                    clocks[seat], shared)
                request_ids[seat] += 1
                size += len(request.message_bytes())  # what RemoteSeat.send puts on the stream
            built = perf()
            choices = {seat: rng.choice(options[seat]).id for seat in deciding}
            stepped = perf()
            state.apply_decisions(choices)
            done = perf()
            build += built - began
            step += done - stepped
            counted += 1
    return DecisionCost(game_id, players, counted, step / counted * 1e6, build / counted * 1e6, size / counted)


@dataclass
class MatchCost:
    """CPU milliseconds of an in-process match and of the same games' engine alone."""

    game: str
    players: int
    matches: int
    decisions: float
    match_ms: float
    engine_ms: float


def _engine_game(game_id: str, players: int, seed: int) -> int:
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new_initial_state(game.make_config(players))
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
        decisions += 1
    return decisions


def match_cost(game_id: str, players: int, matches: int) -> MatchCost:
    """Alternate one in-process match and one engine-only game per seed, CPU time of this process; the median match
    and the median game. A discarded match and a full collection come first: a collection the earlier rows' objects
    have made due would otherwise land in one match of this row (a 4-player Merchants of B99 row once read 29 ms a
    match against 5-8 ms)."""
    from bots.random_bot import RandomBot
    from referee.local import play_local

    play_local(game_id, [RandomBot(seat) for seat in range(players)], seed=0)
    gc.collect()
    match_cpu: list[float] = []
    engine_cpu: list[float] = []
    decisions = 0
    for seed in range(1, matches + 1):
        began = time.process_time()
        report = play_local(game_id, [RandomBot(seed * 10 + seat) for seat in range(players)], seed=seed)
        match_cpu.append(time.process_time() - began)
        decisions += report.decisions
        began = time.process_time()
        _engine_game(game_id, players, seed)
        engine_cpu.append(time.process_time() - began)
    return MatchCost(
        game_id, players, matches, decisions / matches, statistics.median(match_cpu) * 1e3, statistics.median(engine_cpu) * 1e3
    )


def player_counts(game_id: str) -> list[int]:
    game = get_game(game_id)
    return [players for players in PLAYER_COUNTS if game.min_players <= players <= game.max_players]


def run(quick: bool = False) -> str:
    """The markdown section for docs/benchmarks.md."""
    measured_at = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    load = os.getloadavg()[0]
    decisions = 300 if quick else 2000
    matches = 2 if quick else 6
    rounds = 1 if quick else 5
    rows: list[DecisionCost] = []
    match_rows: list[MatchCost] = []
    for game in all_games():
        for players in player_counts(game.id):
            # A discarded round and a full collection first, as `--requests-only` does (see there); then the fastest
            # of a few rounds: a shared machine's load only ever adds time.
            decision_cost(game.id, players, WARM_UP_DECISIONS, seed=0)
            gc.collect()
            runs = [decision_cost(game.id, players, decisions, seed) for seed in range(1, rounds + 1)]
            rows.append(
                DecisionCost(
                    game.id,
                    players,
                    decisions,
                    min(run.step_us for run in runs),
                    min(run.request_us for run in runs),
                    statistics.mean(run.request_bytes for run in runs),
                )
            )
            match_rows.append(match_cost(game.id, players, matches))
    within = [row for row in rows if row.ratio <= TARGET_RATIO]
    lines = [
        "## Per decision: building the requests against the engine's step",
        "",
        f"Measured {measured_at} UTC, load average {load:.1f} at the start (`python -m benchmarks.bench_decision_cost`).",
        f"Random play, {decisions} decisions per game and player count, the fastest of {rounds} rounds (seeds) of each,",
        "after a discarded round and a full collection;",
        "both columns are timed in the same loop, decision by decision, in CPU time of this process, so load hits both alike.",
        "Step: `apply_decisions`. Requests: every deciding seat's DecisionRequest (view, options, new events,",
        "clock), built as the runner builds it (`messages.outgoing_request`: written as protobuf bytes, what all",
        "seats' views show alike written once a decision; each seat's events numbered in its own sequence by",
        "`messages.seat_numbered`, its own request ids and clock), through to the bytes the Arena stream sends as they are.",
        "Bytes: the serialized requests of one decision.",
        f"Target: requests at most {TARGET_RATIO:g}x the step.",
        "",
        "| game | players | step µs | requests µs | ratio | bytes |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.players} | {row.step_us:,.1f} | {row.request_us:,.1f} | {row.ratio:,.1f}x | {row.request_bytes:,.0f} |"
        )
    lines += [
        "",
        f"Within {TARGET_RATIO:g}x: {len(within)} of {len(rows)} rows; ratios from {min(row.ratio for row in rows):,.1f}x "
        f"to {max(row.ratio for row in rows):,.1f}x. What is left and what would close it: \"Where the request goal",
        "stands\" in the notes below.",
    ]
    lines += [
        "",
        "## Per match: an in-process match against the engine alone",
        "",
        f"{matches} matches of random bots per row through `run_match` (in-process seats, replay recorded in memory),",
        "each followed by the engine alone playing a random game of the same seed; CPU time of this process, the median",
        "match and the median engine game of each row (after a discarded match and a full collection).",
        "Decisions: the game's length (mean decisions a match). Per decision: the referee's whole cost over the",
        "match divided by its decisions, the bots' random choices included.",
        "",
        "| game | players | decisions | match ms | engine ms | referee ms | per decision µs |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for row in match_rows:
        overhead = row.match_ms - row.engine_ms
        lines.append(
            f"| {row.game} | {row.players} | {row.decisions:,.0f} | {row.match_ms:,.1f} | {row.engine_ms:,.1f} | "
            f"{overhead:,.1f} | {row.match_ms / row.decisions * 1e3 if row.decisions else 0:,.0f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--requests-only", action="store_true", help="Only the per-decision table.")
    args = parser.parse_args()
    if args.requests_only:
        for game in all_games():
            for players in player_counts(game.id):
                # A round discarded first (another seed), so that every row is measured warm, as the full run's
                # fastest of three rounds is: the process's first requests of a game pay its one-time costs (the
                # writers' tables, protobuf's descriptors), which the first row would otherwise carry alone.
                decision_cost(game.id, players, WARM_UP_DECISIONS, seed=0)
                # and a full collection: every row starts from a collected heap, so that a full collection the earlier
                # rows' objects have made due does not land in one row's timing (up to 30 µs a decision otherwise)
                gc.collect()
                row = decision_cost(game.id, players, 300 if args.quick else 1000)
                print(f"{row.game:18s} {row.players}  step {row.step_us:7.1f} µs  requests {row.request_us:7.1f} µs  {row.ratio:5.1f}x")
        return
    print(run(quick=args.quick))


if __name__ == "__main__":
    main()
