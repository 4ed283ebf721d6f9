"""The conformance suite every game runs: the engine contract checked by random legal play.

- random legal play to the end (options well-formed, chance well-formed, result well-formed);
- replay equality (config + the recorded chance outcomes and decisions give the same game);
- views, events and legal options of a seat unchanged when everything that seat does not know
  is redrawn (`determinize`), and encodable as the game's typed messages;
- determinize consistent with the seat's view and diverse across samples (games with secrets);
- clone independence.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format

from referee import playout
from referee.chance import sample_outcome
from referee.engine import Game, GameConfig, GameState, Seat
from referee.errors import ArenaError
from referee.wire import get_wire

MAX_STEPS = 200_000


class ConformanceFailure(AssertionError):
    """A game broke the engine contract; the message names the game, config, seed and step."""


@dataclass
class PlayRecord:
    """One random game: its config, seed, every step taken, and the final result."""

    config: GameConfig
    seed: int
    steps: list[tuple[str, Any]] = field(default_factory=list)


def config_for(game: Game, seed: int) -> GameConfig:
    """Spread seeds over every player count and every test variant the game declares."""
    counts = list(range(game.min_players, game.max_players + 1))
    variants = list(getattr(game, "test_variants", ({},)))
    players = counts[seed % len(counts)]
    variant = variants[(seed // len(counts)) % len(variants)]
    return game.make_config(players, variant)


def fail(state: GameState, record: PlayRecord, message: str) -> ConformanceFailure:
    return ConformanceFailure(
        f"{state.game.id} players={record.config.players} variants={dict(record.config.variants)} "
        f"seed={record.seed} step={len(record.steps)}: {message}"
    )


def check_node(state: GameState, record: PlayRecord) -> None:
    """The current node is exactly one kind and well-formed."""
    terminal = state.is_terminal()
    chance = state.is_chance_node()
    deciding = state.deciding_seats()
    if terminal and (chance or deciding):
        raise fail(state, record, "terminal state also has a chance node or deciding seats")
    if chance and deciding:
        raise fail(state, record, "chance node with deciding seats")
    if not terminal and not chance and not deciding:
        raise fail(state, record, "a non-terminal state with no chance node and no deciding seat")
    if chance:
        outcomes = state.chance_outcomes()
        if not outcomes:
            raise fail(state, record, "chance node without outcomes")
        ids = [outcome.id for outcome in outcomes]
        if len(set(ids)) != len(ids):
            raise fail(state, record, f"duplicate chance outcome ids {ids}")
        total = sum(outcome.probability for outcome in outcomes)
        if abs(total - 1.0) > 1e-9 or any(outcome.probability <= 0 for outcome in outcomes):
            raise fail(state, record, f"chance probabilities sum to {total}")
    if deciding:
        if list(deciding) != sorted(set(deciding)) or any(not 0 <= s < state.players for s in deciding):
            raise fail(state, record, f"deciding seats {deciding} not ascending seats")
        for seat in deciding:
            options = state.legal_options(seat)
            if not options:
                raise fail(state, record, f"seat {seat} is deciding with no legal option")
            ids = [option.id for option in options]
            if len(set(ids)) != len(ids):
                raise fail(state, record, f"duplicate option ids for seat {seat}: {ids}")
            if not isinstance(state.decision_name(seat), str) or not state.decision_name(seat):
                raise fail(state, record, f"seat {seat} has no decision name")


def check_result(state: GameState, record: PlayRecord) -> None:
    result = state.result()
    players = state.players
    if len(result.ranks) != players or len(result.scores) != players:
        raise fail(state, record, f"result has {len(result.ranks)} ranks and {len(result.scores)} scores")
    if players == 1 and getattr(state.game, "solo_opponent", False):
        if result.ranks not in ((1,), (2,)):
            raise fail(state, record, f"solo rank against the engine's opponent must be 1 or 2, not {result.ranks}")
        return
    for rank in result.ranks:
        if not 1 <= rank <= players:
            raise fail(state, record, f"rank {rank} out of range")
        better = sum(1 for other in result.ranks if other < rank)
        if better != rank - 1:
            raise fail(state, record, f"ranks {result.ranks} are not competition ranks")


def random_game(game: Game, seed: int, config: GameConfig | None = None) -> tuple[GameState, PlayRecord]:
    """Play one game with random legal options and seeded chance, checking every node."""
    config = config or config_for(game, seed)
    rng = random.Random(seed)
    state = game.new_initial_state(config)
    record = PlayRecord(config, seed)
    while True:
        check_node(state, record)
        if state.is_terminal():
            break
        if len(record.steps) > MAX_STEPS:
            raise fail(state, record, "the game did not end")
        if state.is_chance_node():
            outcome = sample_outcome(state.chance_outcomes(), rng)
            state.apply_chance(outcome.id)
            record.steps.append(("chance", outcome.id))
        else:
            choices = {}
            for seat in state.deciding_seats():
                options = state.legal_options(seat)
                choices[seat] = options[rng.randrange(len(options))].id
            state.apply_decisions(choices)
            record.steps.append(("decide", choices))
    check_result(state, record)
    return state, record


def replay(game: Game, record: PlayRecord) -> GameState:
    state = game.new_initial_state(record.config)
    for kind, value in record.steps:
        if kind == "chance":
            state.apply_chance(value)
        else:
            state.apply_decisions(value)
    return state


def fingerprint(state: GameState) -> tuple[Any, ...]:
    """Everything observable about a state: every seat's view, events and options, and the public view.

    Plain tuples and lists compared with ==, which short-cuts on shared (identical) event objects.
    """
    return (
        state.public_view(),
        state.is_terminal(),
        tuple(seat_observation(state, seat) for seat in range(state.players)),
    )


def seat_observation(state: GameState, seat: Seat) -> tuple[Any, ...]:
    """What `seat` observes: its view, its events, whether and what it decides now."""
    deciding = seat in state.deciding_seats()
    options = [(o.id, o.label, dict(o.payload)) for o in state.legal_options(seat)] if deciding else None
    return (
        state.private_view(seat),
        [(e.kind, e.data) for e in state.events_for(seat)],
        tuple(state.deciding_seats()),
        state.decision_name(seat) if deciding else None,
        options,
        state.is_chance_node(),
        state.is_terminal(),
    )


def check_wire(state: GameState) -> None:
    """Every view, option payload and event encodes strictly as the game's typed messages, exactly as ParseDict would."""
    wire = get_wire(state.game.id)

    def same(dict_value: Mapping[str, Any], encoded: Any) -> None:
        reference = json_format.ParseDict(dict_value, type(encoded)(), ignore_unknown_fields=False)
        if encoded != reference:
            raise ConformanceFailure(f"{state.game.id}: fast encoding differs from ParseDict for {dict_value}")

    same(state.public_view(), wire.view_message(state.public_view()))
    for seat in range(state.players):
        same(state.private_view(seat), wire.view_message(state.private_view(seat)))
        if seat in state.deciding_seats():
            for option in state.legal_options(seat):
                same(option.payload, wire.option_message(option.payload))
    for event in state.events:
        same({event.kind: event.data}, wire.event_message(event))


def check_determinize_and_clone(game: Game, seed: int, samples: int = 4, probes: int = 12) -> bool:
    """Probe states along one random game; returns True if some determinization differed (diversity)."""
    final_state, record = random_game(game, seed)
    if not getattr(game, "hidden_information", True):
        samples = 1  # nothing to redraw: every determinization is the same world
    rng = random.Random(seed * 7919 + 1)
    probe_points = sorted(rng.sample(range(len(record.steps) + 1), min(probes, len(record.steps) + 1)))
    state = game.new_initial_state(record.config)
    diverse = False
    position = 0
    for point in probe_points:
        while position < point:
            kind, value = record.steps[position]
            if kind == "chance":
                state.apply_chance(value)
            else:
                state.apply_decisions(value)
            position += 1
        check_wire(state)
        before = fingerprint(state)
        twin = state.clone()
        if fingerprint(twin) != before:
            raise fail(state, record, "clone differs from the original")
        if not twin.is_terminal():
            playout.step(twin, rng)
            if fingerprint(state) != before:
                raise fail(state, record, "playing on a clone changed the original")
        if state.is_terminal():
            continue
        for seat in range(state.players):
            observed = seat_observation(state, seat)
            seen_worlds: set[str] = set()
            for _ in range(samples):
                world = state.determinize(seat, rng)
                if seat_observation(world, seat) != observed:
                    raise fail(
                        state,
                        record,
                        f"determinize({seat}) changed what seat {seat} observes "
                        "(a view, event or option shows something the seat cannot know, or determinize is wrong)",
                    )
                if fingerprint(state) != before:
                    raise fail(state, record, f"determinize({seat}) changed the original state")
                seen_worlds.add(repr(fingerprint(world)))
                _play_to_end(world, rng, state, record)
            if len(seen_worlds) > 1:
                diverse = True
    return diverse


def _play_to_end(world: GameState, rng: random.Random, origin: GameState, record: PlayRecord) -> None:
    steps = 0
    while not world.is_terminal():
        try:
            playout.step(world, rng)
        except ArenaError as error:
            raise fail(origin, record, f"a determinized world could not be played on: {error}") from error
        steps += 1
        if steps > MAX_STEPS:
            raise fail(origin, record, "a determinized world did not end")


def check_replay_equality(game: Game, seed: int) -> None:
    state, record = random_game(game, seed)
    again = replay(game, record)
    if fingerprint(again) != fingerprint(state) or again.result() != state.result():
        raise fail(state, record, "replaying the recorded steps gave a different game")


def check_config_errors(game: Game) -> None:
    """Bad configs raise ConfigError with a message, never anything else."""
    from referee.errors import ConfigError

    for players in (game.min_players - 1, game.max_players + 1):
        try:
            game.make_config(players)
        except ConfigError:
            pass
        else:
            raise ConformanceFailure(f"{game.id}: {players} players accepted")
    try:
        game.make_config(game.default_players, {"no_such_flag_anywhere": True})
    except ConfigError:
        pass
    else:
        raise ConformanceFailure(f"{game.id}: unknown flag accepted")
