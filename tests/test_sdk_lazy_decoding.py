"""The SDK decodes a decision request lazily: every field reads the same as decoding it all at once.

Random games of every game, in process (the seat decodes each request exactly as a bot process does);
at every request a checking bot reads the lazy record's fields in a random order and compares them with
an eager decoding of the same message.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import b99.arena_pb2 as arena_pb2
from referee.local import play_local
from referee.registry import game_ids
from sdk import Bot, ClockInfo, OptionInfo, Request
from sdk.decode import WireRequest, event_info, message_dict, request_info, unpack

#: Requests compared per seat and game (the rest of the game is played at random).
CHECKED_PER_SEAT = 25


def eager(request: arena_pb2.DecisionRequest) -> dict[str, Any]:
    """Every field a bot can read, decoded at once from the message (the reference)."""
    clock = request.clock
    return {
        "request_id": request.request_id,
        "decision": request.decision,
        "options": [(index, o.id, o.label, message_dict(unpack(o.payload))) for index, o in enumerate(request.options)],
        "events": [(e.sequence, e.kind, dict(info.data)) for e, info in ((e, event_info(e)) for e in request.events)],
        "clock": ClockInfo(clock.per_decision_seconds, clock.bank_remaining_seconds, clock.strikes, clock.strikes_allowed),
        "view": message_dict(unpack(request.view)),
        "packed_world": request.world,
    }


def lazy(info: Request, rng: random.Random) -> dict[str, Any]:
    """The same fields read from the lazy record, in a random order, some of them twice."""
    readers = {
        "request_id": lambda: info.request_id,
        "decision": lambda: info.decision,
        "options": lambda: [(o.index, o.id, o.label, dict(o.payload)) for o in rng.sample(list(info.options), len(info.options))],
        "events": lambda: [(e.sequence, e.kind, dict(e.data)) for e in info.events],
        "clock": lambda: info.clock,
        "view": lambda: dict(info.view),
        "packed_world": lambda: info.packed_world,
    }
    names = list(readers)
    rng.shuffle(names)
    read = {name: readers[name]() for name in names + rng.sample(names, 3)}
    read["options"] = sorted(read["options"])
    return read


class CheckingBot(Bot):
    """Compares the lazy record with an eager decoding for its first requests, then plays at random."""

    name = "checking"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.checked = 0
        self.mismatches: list[str] = []

    def choose(self, request: Request) -> OptionInfo:
        if self.checked < CHECKED_PER_SEAT:
            self.checked += 1
            if not isinstance(request, WireRequest):
                self.mismatches.append(f"not decoded lazily: {type(request).__name__}")
            else:
                expected = eager(request._wire)  # the message this record reads
                got = lazy(request, self.rng)
                for key, value in expected.items():
                    if got[key] != value:
                        self.mismatches.append(f"request {request.request_id} {key}: {got[key]!r} != {value!r}")
                if request.options[0].payload_message != unpack(request._wire.options[0].payload):
                    self.mismatches.append(f"request {request.request_id}: payload message differs")
        return self.rng.choice(list(request.options))


@pytest.mark.parametrize("game_id", game_ids())
def test_lazy_request_reads_as_eager_decoding(game_id: str) -> None:
    from referee.registry import get_game

    players = get_game(game_id).default_players
    bots = [CheckingBot(seed) for seed in range(players)]
    play_local(game_id, bots, seed=11)
    assert sum(bot.checked for bot in bots) > 0
    assert [m for bot in bots for m in bot.mismatches] == []


def test_lazy_request_is_a_request() -> None:
    """Copied with dataclasses.replace, printed, and its fields set: as any Request."""
    from benchmarks.run import sample_request
    from sdk.decode import game_start_info

    start = game_start_info(arena_pb2.GameStart(game="underground_dice", seat=1, players=2))
    message = sample_request()
    info = request_info(start, message)
    assert isinstance(info, Request)
    assert (info.game, info.seat, info.players) == ("underground_dice", 1, 2)
    copy = dataclasses.replace(info, clock=ClockInfo(9.0, 1.0))
    assert copy.clock == ClockInfo(9.0, 1.0)
    assert [o.id for o in copy.options] == [o.id for o in message.options]
    assert copy.view == info.view and copy.decision == message.decision
    option = dataclasses.replace(info.options[1], label="renamed")
    assert (option.index, option.id, option.label) == (1, message.options[1].id, "renamed")
    assert "request_id=1" in repr(info) and message.options[0].id in repr(info)
    info.local_world = "set by an in-process referee"
    assert info.world == "set by an in-process referee"
    assert info.option(message.options[2].id) is info.options[2]
