"""A leak check that does not trust `determinize`: alternative true states are dealt differently, not redrawn.

For every game, variant and player count (solo included) one seat is the observer. A true game is
played with random legal options and chance outcomes; beside it, in lockstep, an alternative game
takes the same steps except that, at every deal the observer is not told about (the public view and
every event the observer may see come out the same), it is dealt a different outcome where one
exists: another seat's private card, tile or die, or a different draw from an undealt deck. Other
seats' later choices are matched by their public effect. Every byte the observer then receives, in
the referee's own wire encoding (decision requests with the view, the options and the events with
their sequence numbers, then the game-over message), must be identical in both games.

The one thing taken from the engine is who is told about each deal (the audience of its events): an
event that wrongly names the observer in its audience is not caught here.

Worlds: at points where the two games differ in another seat's secrets, worlds are drawn for the
observer from both. Another seat's private view must match the true one no more often in worlds
drawn from the true game than in worlds drawn from the alternative (one-sided Fisher exact test at
ALPHA per comparison; with at most MAX_COMPARISONS comparisons the whole run raises a false alarm
with probability below MAX_COMPARISONS * ALPHA = 0.1%).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

import b99.arena_pb2 as arena_pb2
from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.engine import Game, GameConfig, GameState, Seat
from referee.errors import ArenaError
from referee.match import _Seat
from referee.registry import all_games
from referee.wire import GameWire, get_wire

MAX_STEPS = 400
#: Requests compared after the two games stopped differing before the pair is left (nothing more to learn).
SAME_REQUESTS = 12
ALPHA = 1e-5
MAX_COMPARISONS = 100
WORLD_SAMPLES = 24
WORLD_POINTS_PER_RUN = 1
CANDIDATES = 12
CLOCK = SeatClock.start(TimeControl())


class Leak(AssertionError):
    """The observer received different bytes from two games that differ only in what it may not know."""


def configs(game: Game) -> list[GameConfig]:
    """Every test variant at the solo count (if any), two players and the most players."""
    counts = sorted({game.min_players, max(game.min_players, 2), game.max_players})
    return [game.make_config(n, variant) for variant in getattr(game, "test_variants", ({},)) for n in counts]


def public_step(state: GameState, start: int) -> tuple[Any, ...]:
    """What everyone sees of a state: its public view, the public events since `start`, and its shape."""
    return (
        state.public_view(),
        [(event.kind, event.data) for event in state.events.since(start) if event.audience is None],
        state.is_terminal(),
        state.is_chance_node(),
        tuple(state.deciding_seats()) if not state.is_terminal() else (),
    )


def told(state: GameState, seat: Seat, start: int) -> list[tuple[str, Any]]:
    """The events since `start` that `seat` may see."""
    return [(event.kind, event.data) for event in state.events.since(start) if event.visible_to(seat)]


def secrets_differ(first: GameState, second: GameState, observer: Seat, wire: GameWire) -> bool:
    """True if some other seat's private view differs between the two states."""
    return any(
        wire.pack_view(first.private_view(seat)) != wire.pack_view(second.private_view(seat))
        for seat in range(first.players)
        if seat != observer
    )


@dataclass
class SeatLine:
    """The bytes one seat receives, numbered as the referee numbers them for that seat (request ids and event
    sequence numbers of its own)."""

    seat: Seat
    wire: GameWire
    cursor: int = 0
    next_request: int = 1
    events_sent: int = 0
    sent: list[bytes] = field(default_factory=list)

    def numbered_events(self, state: GameState) -> list[tuple[int, Any]]:
        """The events since the last message, in the seat's own numbering (the referee's own code does it)."""
        events = _Seat.number_events(self, messages.seat_events(state, self.seat, self.cursor))  # type: ignore[arg-type]
        self.cursor = len(state.events)
        return events

    def request(self, state: GameState) -> bytes:
        events = self.numbered_events(state)
        options = list(state.legal_options(self.seat))
        request = messages.decision_request(self.wire, self.next_request, state, self.seat, options, events, CLOCK)
        self.next_request += 1
        data = arena_pb2.RefereeMessage(decision_request=request).SerializeToString(deterministic=True)
        self.sent.append(data)
        return data

    def game_over(self, state: GameState) -> bytes:
        result = state.result()
        events = self.numbered_events(state)
        message = messages.game_over(self.wire, result, list(result.ranks), events, "")
        return message.SerializeToString(deterministic=True)


@dataclass
class RunStats:
    compared: int = 0          #: requests compared in lockstep
    compared_differing: int = 0  #: of which the two games differed in another seat's secrets
    redealt: int = 0           #: deals where the alternative took another outcome
    world_tests: int = 0


def fisher_one_sided(hits_true: int, hits_alt: int, samples: int) -> float:
    """P(at least `hits_true` of the matches fall in the first group), both groups of `samples`, under no difference."""
    total = hits_true + hits_alt
    denominator = math.comb(2 * samples, samples)
    return sum(math.comb(total, k) * math.comb(2 * samples - total, samples - k) for k in range(hits_true, total + 1)) / denominator


def check_worlds(true: GameState, alt: GameState, observer: Seat, wire: GameWire, rng: random.Random, where: str) -> None:
    """Worlds from the true state must not match the truth of another seat's secrets more often than worlds from the alternative."""
    truth = {seat: wire.pack_view(true.private_view(seat)) for seat in range(true.players) if seat != observer}
    hits = {seat: [0, 0] for seat in truth}
    for _ in range(WORLD_SAMPLES):
        for index, origin in enumerate((true, alt)):
            world = origin.determinize(observer, rng)
            for seat, secret in truth.items():
                hits[seat][index] += wire.pack_view(world.private_view(seat)) == secret
    for seat, (from_true, from_alt) in hits.items():
        p_value = fisher_one_sided(from_true, from_alt, WORLD_SAMPLES)
        if p_value < ALPHA:
            raise Leak(
                f"{where}: worlds drawn for seat {observer} match seat {seat}'s true secrets {from_true}/{WORLD_SAMPLES} times "
                f"from the true state but {from_alt}/{WORLD_SAMPLES} from an alternative it cannot tell apart (p={p_value:.2g})"
            )


def deal_block(alt: GameState, wanted: list[str], rng: random.Random) -> GameState | None:
    """A clone of `alt` after a run of chance nodes dealt `wanted` in order (an outcome not available there is
    replaced by a random one that is); None if the run ends early."""
    trial = alt.clone()
    for outcome_id in wanted:
        if not trial.is_chance_node():
            return None
        available = [outcome.id for outcome in trial.chance_outcomes()]
        trial.apply_chance(outcome_id if outcome_id in available else rng.choice(available))
    return None if trial.is_chance_node() else trial


def redeal(true: GameState, alt: GameState, dealt: list[str], observer: Seat, start: int, rng: random.Random) -> tuple[GameState, int] | None:
    """The alternative after a run of chance nodes dealt differently where the observer cannot tell: some
    outcomes swapped with each other or with what is still undealt, checked when the run is over (a deal may
    be shown to its seat only at the end of the run). Returns the new alternative and how many deals differ."""
    wanted_public = public_step(true, start)
    wanted_told = told(true, observer, start)

    def fits(trial: GameState | None) -> bool:
        return trial is not None and public_step(trial, start) == wanted_public and told(trial, observer, start) == wanted_told

    best = list(dealt)
    accepted = deal_block(alt, best, rng)
    if not fits(accepted):
        accepted = None
    for _ in range(CANDIDATES):
        proposal = list(best)
        i = rng.randrange(len(proposal))
        pool = [outcome.id for outcome in alt.chance_outcomes()] if i == 0 else []
        j = rng.randrange(len(proposal))
        if proposal[i] != proposal[j]:
            proposal[i], proposal[j] = proposal[j], proposal[i]
        elif pool:
            proposal[i] = rng.choice(pool)
        else:
            continue
        trial = deal_block(alt, proposal, rng)
        if fits(trial):
            best, accepted = proposal, trial
    if accepted is None:
        return None
    return accepted, sum(a != b for a, b in zip(best, dealt))


def match_choices(
    true: GameState, alt: GameState, choices: Mapping[Seat, str], observer: Seat, start: int, rng: random.Random
) -> dict[Seat, str] | None:
    """Choices for the alternative with the same public effect and the same events for the observer, its own
    choice unchanged, other seats' choices different wherever that stays invisible to the observer."""
    wanted = public_step(true, start)
    seen = told(true, observer, start)
    legal = {seat: [option.id for option in alt.legal_options(seat)] for seat in alt.deciding_seats()}
    picked = {seat: (choices[seat] if choices[seat] in legal[seat] else legal[seat][0]) for seat in legal}

    def fits(candidate: dict[Seat, str]) -> bool:
        trial = alt.clone()
        try:
            trial.apply_decisions(candidate)
        except ArenaError:
            return False
        return public_step(trial, start) == wanted and told(trial, observer, start) == seen

    # Another seat's secret choice (dice it sets, a card it keeps) is varied too, where the observer cannot tell.
    for seat in legal:
        if seat == observer:
            continue
        options = [option for option in legal[seat] if option != picked[seat]]
        rng.shuffle(options)
        for option in options[:CANDIDATES]:
            candidate = {**picked, seat: option}
            if fits(candidate):
                picked = candidate
                break
    return picked if fits(picked) else None


def lockstep(game: Game, config: GameConfig, observer: Seat, seed: int, stats: RunStats) -> None:
    """Play a true and an alternative game side by side; Leak if the observer's bytes ever differ."""
    rng = random.Random(seed)
    wire = get_wire(game.id)
    true, alt = game.new_initial_state(config), game.new_initial_state(config)
    lines = (SeatLine(observer, wire), SeatLine(observer, wire))
    where = f"{game.id} players={config.players} variants={dict(config.variants)} seed={seed} observer={observer}"
    worlds_left = WORLD_POINTS_PER_RUN
    same_requests = 0
    for step in range(MAX_STEPS):
        if true.is_terminal():
            if lines[0].game_over(true) != lines[1].game_over(alt):
                raise Leak(f"{where}: the game-over messages differ")
            return
        start = len(true.events)
        if len(alt.events) != start:
            raise Leak(f"{where} step {step}: the event logs have different lengths ({start} and {len(alt.events)})")
        if true.is_chance_node():
            dealt = []
            while true.is_chance_node():
                dealt.append(sample_outcome(true.chance_outcomes(), rng).id)
                true.apply_chance(dealt[-1])
            found = redeal(true, alt, dealt, observer, start, rng)
            if found is None:
                return  # no deal keeps the observer's picture the same: the games part here
            alt, changed = found
            stats.redealt += changed
            continue
        deciding = true.deciding_seats()
        if observer in deciding and len(true.legal_options(observer)) > 1:
            differing = secrets_differ(true, alt, observer, wire)
            sent = (lines[0].request(true), lines[1].request(alt))
            if sent[0] != sent[1]:
                raise Leak(f"{where} step {step}: request {lines[0].next_request - 1} to seat {observer} differs{describe(sent)}")
            stats.compared += 1
            stats.compared_differing += differing
            same_requests = 0 if differing else same_requests + 1
            if same_requests > SAME_REQUESTS:
                return
            if differing and worlds_left and getattr(game, "hidden_information", True) and stats.world_tests < MAX_COMPARISONS:
                worlds_left -= 1
                stats.world_tests += 1
                check_worlds(true, alt, observer, wire, rng, f"{where} step {step}")
        choices = {seat: rng.choice(list(true.legal_options(seat))).id for seat in deciding}
        true.apply_decisions(choices)
        matched = match_choices(true, alt, choices, observer, start, rng)
        if matched is None:
            return
        alt.apply_decisions(matched)


def describe(sent: tuple[bytes, bytes]) -> str:
    """Where two requests differ: the first differing field of the decoded messages."""
    first, second = (arena_pb2.RefereeMessage.FromString(data).decision_request for data in sent)
    for descriptor, value in first.ListFields():
        if getattr(second, descriptor.name) != value:
            return f" in {descriptor.name}"
    return ""


@pytest.mark.parametrize("game", sorted(all_games(), key=lambda g: g.id), ids=lambda g: g.id)
def test_observer_bytes_identical_across_differently_dealt_games(game: Game) -> None:
    stats = RunStats()
    hidden = getattr(game, "hidden_information", True)
    for index, config in enumerate(configs(game)):
        for run in range(4 if hidden else 1):
            observer = (index + run) % config.players
            lockstep(game, config, observer, seed=1000 * index + run, stats=stats)
    assert stats.compared > 0
    if hidden:
        # Not vacuous: the games really were dealt differently, and requests were compared while they differed.
        assert stats.redealt > 0 and stats.compared_differing > 0, stats
        assert stats.world_tests > 0, stats


def test_the_check_catches_a_view_that_shows_another_seats_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a view that leaks the opponent's private view is caught."""
    game = next(g for g in all_games() if g.id == "underground_dice")
    state_type = type(game.new_initial_state(game.make_config(2, {})))
    honest = state_type.private_view

    def leaky(self: GameState, seat: Seat) -> dict[str, Any]:
        view = honest(self, seat)
        other = honest(self, (seat + 1) % self.players)
        return {**other, "seat": view.get("seat", seat)} if "seat" in view else other

    monkeypatch.setattr(state_type, "private_view", leaky)
    # Requests write the View straight from the state: send the leaky dict view instead (a wire without a view
    # writer; GameWire may be compiled, so its methods are not patched).
    written = get_wire(game.id)
    monkeypatch.setattr(sys.modules[__name__], "get_wire", lambda game_id: GameWire(written.view, written.option, written.event))
    with pytest.raises(Leak):
        for seed in range(6):
            lockstep(game, game.make_config(2, {}), 0, seed, RunStats())


def test_fisher_test_at_the_stated_rate() -> None:
    assert fisher_one_sided(WORLD_SAMPLES, 0, WORLD_SAMPLES) < 1e-12
    assert fisher_one_sided(3, 3, WORLD_SAMPLES) > 0.5
    assert fisher_one_sided(0, 0, WORLD_SAMPLES) == 1.0


def test_the_check_catches_worlds_that_keep_the_truth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control for worlds: a determinize that hands back the true state is caught by the distribution test."""
    game = next(g for g in all_games() if g.id == "merchants")
    state_type = type(game.new_initial_state(game.make_config(2, {})))
    monkeypatch.setattr(state_type, "determinize", lambda self, seat, rng: self.clone())
    with pytest.raises(Leak, match="worlds drawn"):
        for index, config in enumerate(configs(game)):
            for run in range(4):
                lockstep(game, config, (index + run) % config.players, 1000 * index + run, RunStats())
