"""A request's frame: options and lists of options found by identity in slots picked from their addresses, clocks the
same way, and lengths and field heads from tables filled as met. However many objects take turns in one slot, in
whatever order, every request carries protobuf's bytes for its own options and clock."""

from __future__ import annotations

import random

import b99.arena_pb2 as arena_pb2
from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.engine import Option
from referee.registry import get_game
from referee.wire import OPTION_SLOTS, GameWire, fill, get_wire
from tests.test_wire_encoding import packed


def _option_bytes(wire: GameWire, options: list[Option]) -> bytes:
    return arena_pb2.DecisionRequest(
        options=[
            arena_pb2.Option(id=o.id, label=o.label, payload=packed(fill(wire.option(), o.payload))) for o in options
        ]
    ).SerializeToString()


def test_options_and_lists_sharing_slots_are_each_written_as_their_own() -> None:
    """More live options and lists than slots (so that many share one), asked for in random order, each with its own
    bytes; an option of the same id made anew with another payload never takes a kept option's bytes."""
    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    rng = random.Random(3)
    options = [
        Option(f"draw:{n % 7}", f"draw {n % 5}", {"action": "draw", "count": n % 7}) for n in range(3 * OPTION_SLOTS)
    ]
    for _ in range(4 * OPTION_SLOTS):
        option = rng.choice(options)
        assert wire.option_field(option) == _option_bytes(wire, [option])
    lists = [rng.sample(options, rng.randint(1, 5)) for _ in range(2 * OPTION_SLOTS)]
    for _ in range(3 * OPTION_SLOTS):
        offered = rng.choice(lists)
        sent = offered if rng.random() < 0.5 else tuple(offered)
        assert wire.options_fields(sent) == _option_bytes(wire, offered)
    changed = Option("draw:3", "draw 3", {"action": "draw", "count": 4})
    assert wire.option_field(changed) == _option_bytes(wire, [changed])


def test_lists_less_one_option_carry_their_own_bytes() -> None:
    """Lists made as a recent list less one option (a draft hand passed on less a tile), at every position, beside
    lists that differ otherwise (another option in its place, one more, the same options reordered), each with its
    own bytes."""
    shared_wire = get_wire("fuji99")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    rng = random.Random(5)
    options = [Option(f"draw:{n}", f"draw {n}", {"action": "draw", "count": n}) for n in range(40)]
    for _ in range(400):
        hands = [rng.sample(options, rng.randint(1, 9)) for _ in range(4)]
        while any(hands):
            for index, hand in enumerate(hands):
                if not hand:
                    continue
                sent = list(hand) if rng.random() < 0.5 else tuple(hand)
                assert wire.options_fields(sent) == _option_bytes(wire, hand)
                roll = rng.random()
                position = rng.randrange(len(hand))
                if roll < 0.7:
                    del hand[position]
                elif roll < 0.8:
                    hand[position] = rng.choice(options)
                elif roll < 0.9:
                    hand.insert(position, rng.choice(options))
                else:
                    rng.shuffle(hand)
            hands = hands[1:] + hands[:1]


def test_clocks_sharing_slots_carry_their_own_bank_and_strikes() -> None:
    """More live clocks than the clocks' slots, each changed between requests at random: every request's clock
    field is its own clock's as it is now."""
    game = get_game("underground_dice")
    wire = get_wire("underground_dice")
    state = game.new_initial_state(game.make_config(2))
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
    seat = state.deciding_seats()[0]
    options = list(state.legal_options(seat))
    controls = [TimeControl(), TimeControl(strikes_allowed=2)]
    clocks = [SeatClock.start(rng.choice(controls)) for _ in range(3 * messages.CLOCK_SLOTS)]
    for _ in range(6 * messages.CLOCK_SLOTS):
        clock = rng.choice(clocks)
        if rng.random() < 0.3:
            clock.bank_remaining, clock.strikes = rng.choice([0.0, 2.5, 30.0]), rng.randint(0, 2)
        request = messages.outgoing_request(wire, 1, state, seat, options, [], clock).decision_request
        assert (request.clock.bank_remaining_seconds, request.clock.strikes) == (clock.bank_remaining, clock.strikes)
        assert request.clock.strikes_allowed == clock.control.strikes_allowed
        assert request.clock.per_decision_seconds == clock.control.per_decision_seconds


def test_frame_at_every_request_id_decision_and_view_size() -> None:
    """A request's id (none, kept, above the kept ones), decision name (none too) and view size (empty, one-, two- and
    three-byte lengths, above the kept sizes), each met twice (written, then found): the request is protobuf's
    serialization of what it holds, and the RefereeMessage's head is right at every size."""
    base = get_wire("underground_dice")
    view: list[bytes] = []

    def view_parts(state: object, seat: int, shared: object, parts: list[bytes]) -> int:
        parts.append(view[0])
        return len(view[0])

    # the decision name is handed over as the "state" (a decision_of that says it)
    wire = GameWire(base.view, base.option, base.event, decision_of=lambda name, seat: name, view_parts=view_parts)
    options = [Option("a", "A", {})]
    clock = SeatClock.start(TimeControl())
    type_url = "type.googleapis.com/" + base.view.DESCRIPTOR.full_name
    sizes = [0, 1, 127, 128, 200, 16383, 16384, messages.VIEW_SIZES - 1, messages.VIEW_SIZES, 1 << 17]
    for request_id in [0, 1, 2, messages._KEPT_REQUEST_IDS - 1, messages._KEPT_REQUEST_IDS, 5000]:
        for decision in ["", "play", "a decision named at some length"]:
            for size in sizes * 2:
                view[:] = [bytes([size % 251]) * size]
                written = messages.outgoing_request(wire, request_id, decision, 0, options, [], clock)
                message = arena_pb2.RefereeMessage.FromString(written.message_bytes())
                assert message.SerializeToString() == written.message_bytes()
                request = message.decision_request
                assert (request.request_id, request.decision) == (request_id, decision)
                assert (request.view.type_url, request.view.value) == (type_url, view[0])
                assert written.request_bytes() == request.SerializeToString()
                assert [option.id for option in request.options] == ["a"]


def test_options_made_anew_carry_their_own_bytes_whatever_their_id_label_and_lists() -> None:
    """Options made anew at every request (no slot hit, found or written by content), where one id stands for other
    labels and payloads from one request to the next, one label for other ids, and payloads hold lists (changed in
    place after they were offered): each request carries protobuf's bytes for the options as they are when written."""
    shared_wire = get_wire("magnificent")
    wire = GameWire(shared_wire.view, shared_wire.option, shared_wire.event)
    rng = random.Random(7)
    slots = [1, 2]
    for _ in range(400):
        made = [
            Option(
                rng.choice(["master", "master:P", "arrange:5"]),
                rng.choice(["MI-3: coins", "MII-2: coins", "posters to slots 5"]),
                rng.choice([{"kind": "master", "card": rng.choice(["MI-3", "MII-2"])}, {"kind": "arrange", "slots": slots}]),
            )
            for _ in range(rng.randint(1, 4))
        ]
        assert wire.options_fields(made) == _option_bytes(wire, made)
        for option in made:
            assert wire.option_field(option) == _option_bytes(wire, [option])
        if rng.random() < 0.5 and len(slots) < 5:
            slots.append(rng.randint(0, 6))  # the list the next options' payloads hold, changed in place
        else:
            slots.clear()
