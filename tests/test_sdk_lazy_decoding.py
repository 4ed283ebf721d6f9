"""The SDK decodes a decision request lazily: every field reads the same as decoding it all at once.

Random games of every game, in process (the seat decodes each request exactly as a bot process does);
at every request a checking bot reads the lazy record's fields in a random order and compares them with
an eager decoding of the same message by protobuf's json_format (views, payloads and event data: the same
dicts, keys in the same order).
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

import b99.arena_pb2 as arena_pb2
from referee.local import play_local
from referee.registry import game_ids
from sdk import Bot, ClockInfo, OptionInfo, Request
from sdk.decode import WireRequest, json_format_dict, request_info, unpack

#: Requests compared per seat and game (the rest of the game is played at random).
CHECKED_PER_SEAT = 25


def reference_dict(packed: Any) -> dict[str, Any]:  # noqa: ANN401 - an Any message
    """What protobuf's json_format makes of the message inside an Any ({} when empty)."""
    message = unpack(packed)
    return {} if message is None else json_format_dict(message)


def eager(request: arena_pb2.DecisionRequest) -> dict[str, Any]:
    """Every field a bot can read, decoded at once from the message (the reference)."""
    clock = request.clock
    return {
        "request_id": request.request_id,
        "decision": request.decision,
        "options": [(index, o.id, o.label, reference_dict(o.payload)) for index, o in enumerate(request.options)],
        "events": [(e.sequence, e.kind, reference_dict(e.data).get(e.kind, {})) for e in request.events],
        "clock": ClockInfo(clock.per_decision_seconds, clock.bank_remaining_seconds, clock.strikes, clock.strikes_allowed),
        "view": reference_dict(request.view),
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
                    same_order = key not in ("options", "events", "view") or json.dumps(got[key]) == json.dumps(value)
                    if got[key] != value or not same_order:
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


def test_every_game_message_has_its_own_dict_decoder() -> None:
    """No game's message type is left to json_format (so the games above exercise the decoders); types with
    kinds the decoders do not cover (doubles, enums) are, and read the same."""
    import importlib

    from sdk.decode import dict_decoder, message_dict

    for game_id in game_ids():
        module = importlib.import_module(f"b99.games.{game_id}_pb2")
        left = [name for name, descriptor in module.DESCRIPTOR.message_types_by_name.items() if dict_decoder(descriptor) is json_format_dict]
        assert left == [], f"{game_id}: {left}"
    clock = arena_pb2.Clock(per_decision_seconds=0.1, bank_remaining_seconds=float("inf"))
    error = arena_pb2.Error(code=arena_pb2.STALE_REQUEST, message="late")
    for message in (clock, error):
        assert dict_decoder(message.DESCRIPTOR) is json_format_dict
        assert message_dict(message) == json_format_dict(message)


def test_an_index_answer_names_the_same_option_read_or_not() -> None:
    """An index is turned into its option's id from the message while the options were not read, from
    the decoded options once they were; out of range it is a BadAnswer either way."""
    from benchmarks.run import sample_request
    from sdk.answer import BadAnswer, option_id_of
    from sdk.decode import game_start_info

    start = game_start_info(arena_pb2.GameStart(game="underground_dice", players=2))
    message = sample_request()
    ids = [option.id for option in message.options]
    for index, option_id in enumerate(ids):
        unread = request_info(start, message)
        assert option_id_of(unread, index) == option_id
        assert "options" not in vars(unread)  # answered without decoding the options
        read = request_info(start, message)
        assert [o.id for o in read.options] == ids
        assert option_id_of(read, index) == option_id
    for bad in (-1, len(ids)):
        for request in (request_info(start, message), dataclasses.replace(request_info(start, message))):
            with pytest.raises(BadAnswer, match="out of range"):
                option_id_of(request, bad)
    renamed = request_info(start, message)
    renamed.options = [OptionInfo(0, "mine", "set by the bot")]
    assert option_id_of(renamed, 0) == "mine"
