"""What a bot sees: typed, read-only records of a game start, a decision request and a game over.

Views, option payloads and event data are dicts keyed by the game's proto field names, with every
non-optional field present (optional fields appear only when set). The typed protobuf messages are
there too (`view_message`, `payload_message`, `data_message`) for bots that prefer them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from google.protobuf.message import Message

Value = TypeVar("Value")


class read_once(Generic[Value]):  # noqa: N801 - used as a decorator, like functools.cached_property
    """A property computed on first read and then kept in the instance (a plain attribute from then on).

    functools.cached_property without its lock (Python 3.11 takes one at every first read): a record is
    read by one thread, and a field computed twice by a race would be the same value anyway.
    """

    def __init__(self, compute: Callable[[Any], Value]) -> None:
        self.compute = compute
        self.name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Value:  # noqa: ANN401
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


Unpacker = Callable[[Any], Message | None]
Decoder = Callable[[Message | None], dict[str, Any]]


def _no_unpacker(packed: Any) -> Message | None:
    return None


def _no_decoder(message: Message | None) -> dict[str, Any]:
    return {}


@dataclass(eq=False)
class Packed:
    """A typed message still in its wire form, unpacked and decoded only when first asked for."""

    packed: Any = None
    unpacker: Unpacker = field(default=_no_unpacker, repr=False)
    decoder: Decoder = field(default=_no_decoder, repr=False)

    @read_once
    def message(self) -> Message | None:
        return self.unpacker(self.packed)

    @read_once
    def as_dict(self) -> dict[str, Any]:
        return self.decoder(self.message)


@dataclass(eq=False)
class OptionInfo:
    """One legal option of a request: answer with its `id` (or its `index`). `payload` is decoded on first use."""

    index: int
    id: str
    label: str
    packed_payload: Packed = field(default_factory=Packed, repr=False)

    @property
    def payload(self) -> Mapping[str, Any]:
        return self.packed_payload.as_dict

    @property
    def payload_message(self) -> Message | None:
        return self.packed_payload.message


@dataclass(eq=False)
class EventInfo:
    """One event this seat may see. `data` (the event's own fields) is decoded on first use."""

    sequence: int
    kind: str
    packed_data: Packed = field(default_factory=Packed, repr=False)

    @property
    def data(self) -> Mapping[str, Any]:
        return self.packed_data.as_dict.get(self.kind, {})

    @property
    def data_message(self) -> Message | None:
        return self.packed_data.message


@dataclass(frozen=True, slots=True)
class ClockInfo:
    """The seat's clock when the request was sent."""

    per_decision_seconds: float
    bank_remaining_seconds: float
    strikes: int = 0
    strikes_allowed: int = 0


@dataclass(frozen=True, slots=True)
class GameStartInfo:
    match_id: str
    game: str
    seat: int
    players: int
    variants: Mapping[str, Any]
    events: Sequence[EventInfo] = ()
    #: The hash of the match's secret seed; GameOverInfo.seed reveals it (`sdk.seed_was_committed`).
    seed_commitment: str = ""


@dataclass(eq=False)
class Request:
    """One decision to make: the seat's private view, its legal options and what happened since last time.

    `view` is the typed `view_message` as a dict, decoded on first use (bots that only read the
    options pay nothing for it). A request from the referee is decoded the same way field by field
    (sdk.decode.WireRequest): a bot pays only for what it reads.
    """

    request_id: int
    game: str
    seat: int
    players: int
    variants: Mapping[str, Any]
    decision: str
    options: Sequence[OptionInfo]
    events: Sequence[EventInfo]
    clock: ClockInfo
    packed_view: Packed = field(default_factory=Packed, repr=False)
    packed_world: bytes = field(default=b"", repr=False)
    #: An information set handed over directly by an in-process referee (no pickling).
    local_world: Any = field(default=None, repr=False)

    @property
    def view(self) -> Mapping[str, Any]:
        return self.packed_view.as_dict

    @read_once
    def world(self) -> Any:  # noqa: ANN401 - sdk.forward.InformationSet, imported lazily (it needs the engines)
        """The seat's information set (sdk.forward.InformationSet) if the bot asked for worlds, else None."""
        if self.local_world is not None:
            return self.local_world
        if not self.packed_world:
            return None
        from sdk.forward import InformationSet, decode_world

        return InformationSet(self.seat, decode_world(self.packed_world))

    @property
    def view_message(self) -> Message | None:
        return self.packed_view.message

    def option(self, option_id: str) -> OptionInfo:
        """The option with this id (KeyError if there is none)."""
        for option in self.options:
            if option.id == option_id:
                return option
        raise KeyError(option_id)


@dataclass(frozen=True, slots=True)
class GameOverInfo:
    ranks: Sequence[int]
    scores: Sequence[float]
    events: Sequence[EventInfo] = ()
    summary: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: The match's seed, secret until now (0 when the referee did not send it).
    seed: int = 0
