"""Merchants of B99 game state: setup, simultaneous draft and placement, round and final scoring."""

from __future__ import annotations

import random
from bisect import bisect_left
from functools import cache
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Self, cast

from mypy_extensions import mypyc_attr

from referee.chance import UniformDraws
from referee.compiled import instance_fields
from referee.engine import ChanceOutcome, Event, Game, GameConfig, GameResult, GameState, Option, Seat
from referee.errors import GameOverError, RuleError
from referee.games.merchants.data import DUNGEONS, MerchantsData, load_data
from referee.games.merchants.options import (
    ROTATION_OPTIONS,
    ROTATIONS,
    dungeon_options,
    return_options,
    target_options,
    targets,
    tile_options,
)
from referee.games.merchants.patterns import CompiledFace
from referee.games.merchants.scoring import (
    face_points,
    final_parts,
    final_ranks,
    shop_board,
    solo_star_points,
    solo_title,
    star_rank_points,
)
from referee.games.merchants.shop import REPLACE, Cell, Placed
from referee.games.merchants.shop_bits import ShopBits, shop_bits

if TYPE_CHECKING:
    from referee.games.merchants.game import MerchantsGame

ROUNDS = 3
PICKS = 5
HAND_SIZE = 5
GREY_SLOTS = (*DUNGEONS, "D")

# decision names (spec 4.3)
INITIAL_ROTATION = "initial_rotation"  # DP1
RETURN_REPUTATION = "return_reputation"  # DP2
CHOOSE_TILE = "choose_tile"  # DP3
CHOOSE_TARGET = "choose_target"  # DP4
CHOOSE_ROTATION = "choose_rotation"  # DP5
CHOOSE_DUNGEON = "choose_dungeon"  # DP6
DECISIONS = (INITIAL_ROTATION, RETURN_REPUTATION, CHOOSE_TILE, CHOOSE_TARGET, CHOOSE_ROTATION, CHOOSE_DUNGEON)
CHANCE = "chance"
OVER = "over"

#: a pending chance step: (what, seat or dungeon or slot, last draw of a batch)
Step = tuple[str, Any, bool]


#: every seat of a table of each size: all of them decide at once
_SEATS = tuple(tuple(range(players)) for players in range(5))
#: the options of a DP5 rotation for every seat of a table of each size (never changed: no seat is missing)
_ROTATION_CHOICES: tuple[dict[Seat, Sequence[Option]], ...] = tuple(dict.fromkeys(range(players), ROTATION_OPTIONS) for players in range(5))
_AUDIENCES: dict[Seat, frozenset[Seat]] = {}


@cache
def _receivers(round_number: int, players: int) -> tuple[Seat, ...]:
    """Who receives each seat's hand in a round: left (next seat) in rounds 1 and 3, right in round 2."""
    step = -1 if round_number == 2 else 1
    return tuple((seat + step) % players for seat in range(players))


def _audience(seat: Seat) -> frozenset[Seat]:
    """The audience of an event only `seat` sees (one shared set per seat)."""
    audience = _AUDIENCES.get(seat)
    if audience is None:
        audience = _AUDIENCES[seat] = frozenset((seat,))
    return audience


#: an Event made without its dataclass's __init__ (`_event`): the object, then each of its three slots set
_NEW: Final[Any] = object.__new__
#: the Event class as a final name (an imported class is looked up in the module's namespace at each use)
_EVENT: Final[Any] = Event


def _event(kind: str, data: dict[str, Any], audience: frozenset[Seat] | None = None) -> Event:
    """`Event(kind, data, audience)`, made as its frozen dataclass's __init__ makes it (each slot set by
    `object.__setattr__`, past the frozen class's own) without running that interpreted __init__: the deferred events
    of the log (`EventLog.defer`) are made this way when the log is first read, for the requests of every decision of a
    draft. Compiled, `object.__setattr__` is one direct call of the generic setter (a slot's bound `__set__` was a call
    through a tuple of arguments, ~500 instructions each)."""
    event: Event = _NEW(_EVENT)
    object.__setattr__(event, "kind", kind)
    object.__setattr__(event, "data", data)
    object.__setattr__(event, "audience", audience)
    return event


def _placed_event(seat: Seat, tile: str, row: int, col: int, rotation: int, mode: str, discarded: str | None) -> Event:
    data: dict[str, Any] = {"seat": seat, "tile": tile, "row": row, "col": col, "rotation": rotation, "mode": mode}
    if discarded is not None:
        data["discarded"] = discarded
    return _event("placed", data)


#: events whose data are a few small numbers, made once each and shared by every log that holds one (an Event is
#: frozen and its data are never changed): `_hand_drawn_event` and `_hand_passed_event` by their numbers
_SMALL_EVENTS: Final[dict[int, Event]] = {}


#: `_SMALL_EVENTS` of a draft's numbers read by position (no int object made and hashed): a hand passed on by seat
#: `from_seat` < 8 to `to_seat` < 8 of `count` < 64 tiles at `from_seat << 9 | to_seat << 6 | count`, a hand drawn
#: by `seat` < 8 of `count` < 64 at 4096 + `seat << 6 | count` (None: not made yet)
_DRAFT_EVENTS: Final[list[Event | None]] = [None] * 4608


def _hand_drawn_event(seat: Seat, count: int) -> Event:
    if 0 <= seat < 8 and 0 <= count < 64:
        slot = 4096 + (seat << 6 | count)
        known = _DRAFT_EVENTS[slot]
        if known is None:
            known = _DRAFT_EVENTS[slot] = _small_event(1 << 24 | seat << 8 | count, "hand_drawn", {"seat": seat, "count": count})
        return known
    if 0 <= seat < 256 and 0 <= count < 256:
        return _small_event(1 << 24 | seat << 8 | count, "hand_drawn", {"seat": seat, "count": count})
    return _event("hand_drawn", {"seat": seat, "count": count})


def _small_event(number: int, kind: str, data: dict[str, Any]) -> Event:
    """The shared Event of `_SMALL_EVENTS` under `number`, made there first if it is not yet."""
    event = _SMALL_EVENTS.get(number)
    if event is None:
        event = _SMALL_EVENTS[number] = _event(kind, data)
    return event


def _chips_revealed_event(dungeons: tuple[str, ...]) -> Event:
    return _event("chips_revealed", {"choices": [{"seat": seat, "dungeon": dungeon} for seat, dungeon in enumerate(dungeons)]})


def _round_scored_event(
    round_number: int, scored: list[tuple[Seat, str, list[tuple[str, str, str | None]], list[int], bool, int, int]]
) -> Event:
    """Every seat's round: its dungeon, each card's points (and K), the 👍 and its points, the new score."""
    seats = []
    for seat, dungeon, round_cards, points, thumb, thumb_points, score in scored:
        cards = []
        for (card, face, kind), earned in zip(round_cards, points):
            entry: dict[str, Any] = {"card": card, "face": face, "points": earned}
            if kind is not None:
                entry["kind"] = kind
            cards.append(entry)
        seats.append(
            {"seat": seat, "dungeon": dungeon, "cards": cards, "thumb": thumb, "thumb_points": thumb_points,
             "round_points": sum(points) + thumb_points, "score": score}
        )
    return _event("round_scored", {"round": round_number, "seats": seats})


def _hand_passed_event(from_seat: Seat, to_seat: Seat, count: int) -> Event:
    if 0 <= from_seat < 8 and 0 <= to_seat < 8 and 0 <= count < 64:
        slot = from_seat << 9 | to_seat << 6 | count
        known = _DRAFT_EVENTS[slot]
        if known is None:
            known = _DRAFT_EVENTS[slot] = _small_event(
                2 << 24 | from_seat << 16 | to_seat << 8 | count, "hand_passed",
                {"from_seat": from_seat, "to_seat": to_seat, "count": count},
            )
        return known
    if 0 <= from_seat < 256 and 0 <= to_seat < 256 and 0 <= count < 256:
        return _small_event(
            2 << 24 | from_seat << 16 | to_seat << 8 | count, "hand_passed", {"from_seat": from_seat, "to_seat": to_seat, "count": count}
        )
    return _event("hand_passed", {"from_seat": from_seat, "to_seat": to_seat, "count": count})


def _hand_tiles_event(seat: Seat, from_seat: Seat | None, tiles: tuple[str, ...]) -> Event:
    """The tiles of the hand `seat` now holds, told to it alone (`from_seat` None: a hand it drew)."""
    data: dict[str, Any] = {"seat": seat, "tiles": sorted(tiles)} if from_seat is None else {
        "seat": seat, "from_seat": from_seat, "tiles": sorted(tiles)
    }
    return _event("hand_tiles", data, _ONE_SEAT[seat] if 0 <= seat < 8 else _audience(seat))


#: `_audience` of seats 0-7, read by position
_ONE_SEAT: Final = tuple(_audience(seat) for seat in range(8))

#: the builders of this module's deferred events as final names (compared by identity: no namespace lookup)
_PLACED_BUILDER: Final[object] = _placed_event
_HAND_PASSED_BUILDER: Final[object] = _hand_passed_event
_HAND_TILES_BUILDER: Final[object] = _hand_tiles_event
_HAND_DRAWN_BUILDER: Final[object] = _hand_drawn_event
_EVENT_BUILDER: Final[object] = _event
_ROUND_SCORED_BUILDER: Final[object] = _round_scored_event
_CHIPS_REVEALED_BUILDER: Final[object] = _chips_revealed_event


def build_deferred(log: Any, items: list[Any], start: int) -> list[tuple[Any, ...]]:  # noqa: ANN401 - an EventLog
    """`referee.messages._build_deferred` for this game's log, never run by the step: every deferred entry of the log,
    `(build, arguments...)`, built into its Event in place, and the entries from `start` on by position (`()` where
    none was built). This module's builders are called here directly (compiled: one call a read from the requests'
    module, where a call per entry went through the interpreter's calling protocol and parsed its arguments); any
    other builder is called as the log would."""
    size = len(items)
    built: list[tuple[Any, ...]] = [()] * (size - start) if size > start else []
    for index in range(log._built, size):
        item = items[index]
        if type(item) is tuple:
            entry: tuple[Any, ...] = item
            build = entry[0]
            count = len(entry)
            if build is _PLACED_BUILDER and count == 8:
                items[index] = _placed_event(entry[1], entry[2], entry[3], entry[4], entry[5], entry[6], entry[7])
            elif build is _HAND_TILES_BUILDER and count == 4:
                items[index] = _hand_tiles_event(entry[1], entry[2], entry[3])
            elif build is _HAND_PASSED_BUILDER and count == 4:
                items[index] = _hand_passed_event(entry[1], entry[2], entry[3])
            elif build is _EVENT_BUILDER and count == 4:
                items[index] = _event(entry[1], entry[2], entry[3])
            elif build is _HAND_DRAWN_BUILDER and count == 3:
                items[index] = _hand_drawn_event(entry[1], entry[2])
            elif build is _ROUND_SCORED_BUILDER and count == 3:
                items[index] = _round_scored_event(entry[1], entry[2])
            elif build is _CHIPS_REVEALED_BUILDER and count == 2:
                items[index] = _chips_revealed_event(entry[1])
            else:
                items[index] = build(*entry[1:])
            if index >= start:
                built[index - start] = entry
    log._built = size
    return built


def _redeal(rest: list[str], hands: Sequence[Sequence[str]], rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """New hands of the same sizes drawn at random from `rest` and the hands, and what is left, sorted.

    Draws only as many items as the hands hold (a sample, not a shuffle of everything)."""
    pool = list(rest)
    for hand in hands:
        pool.extend(hand)
    drawn = rng.sample(pool, sum(len(hand) for hand in hands))
    dealt = []
    start = 0
    for hand in hands:
        dealt.append(drawn[start:start + len(hand)])
        start += len(hand)
    taken = set(drawn)
    return dealt, sorted(item for item in pool if item not in taken)


def _fields_of(record: Any) -> tuple[Any, ...]:
    """A dataclass's field values in order: pickled as its constructor's arguments, which a compiled build
    and a pure-Python one both take (their instances' own pickled forms differ)."""
    return tuple(getattr(record, name) for name in type(record).__dataclass_fields__)


@mypyc_attr(serializable=True)  # compiled: `Bundle.__new__` makes an instance without running __init__
@dataclass(slots=True)
class Bundle:
    """A draft hand travelling round the table; `holders` are the seats that have seen its contents."""

    tiles: list[str]
    holders: set[Seat]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Bundle, _fields_of(self))

    def copy(self) -> Bundle:
        twin = Bundle.__new__(Bundle)
        twin.tiles = self.tiles.copy()
        twin.holders = self.holders.copy()
        return twin


@dataclass(slots=True)
class Chip:
    """A used dungeon chip on the personal board: its round, dungeon, 👍 and the points that round gave."""

    round: int
    dungeon: str
    thumb: bool
    points: int

    def __reduce__(self) -> tuple[Any, ...]:
        return (Chip, _fields_of(self))


@mypyc_attr(serializable=True)  # as Bundle
@dataclass(slots=True)
class PlayerState:
    """One seat's holdings: shop, discards, chips, score, reputation cards, draft hand and pending answers."""

    shop: dict[Cell, Placed] = field(default_factory=dict)
    discards: list[str] = field(default_factory=list)
    unused_chips: list[str] = field(default_factory=lambda: list(DUNGEONS))
    chips: list[Chip] = field(default_factory=list)
    score: int = 0
    reputation: list[str] = field(default_factory=list)
    returned: list[str] = field(default_factory=list)
    bundle: Bundle | None = None
    pending_tile: str | None = None
    pending_target: tuple[int, int, str] | None = None
    drawn: list[str] = field(default_factory=list)
    final: dict[str, Any] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlayerState, _fields_of(self))

    def copy(self) -> PlayerState:
        """A copy whose containers are its own (chips and the final record are never changed, so shared)."""
        twin = PlayerState.__new__(PlayerState)  # the fields set one by one: no defaults to work out
        twin.shop = self.shop.copy()
        twin.discards = self.discards.copy()
        twin.unused_chips = self.unused_chips.copy()
        twin.chips = self.chips.copy()
        twin.score = self.score
        twin.reputation = self.reputation.copy()
        twin.returned = self.returned.copy()
        twin.bundle = self.bundle
        twin.pending_tile = self.pending_tile
        twin.pending_target = self.pending_target
        twin.drawn = self.drawn.copy()
        twin.final = self.final
        return twin

    @property
    def thumbs(self) -> int:
        return sum(1 for chip in self.chips if chip.thumb)


class Tokens:
    """Where the states' tokens of what changed come from: a count in this process, so a value is handed out
    once (a state never carries one across processes: pickled states and positions get new ones)."""

    def __init__(self) -> None:
        self.last = 0

    def new(self) -> int:
        """A token no state of this process has had."""
        self.last += 1
        return self.last


TOKENS: Final = Tokens()
#: the tokens of what changed: never pickled (a pickled state gets new ones where it is loaded)
TOKEN_FIELDS = frozenset({"public_token", "layout_token", "board_tokens", "grown_at", "grown_from", "grown_cells"})
#: what a blank state is made with or given anew (`_restore_state`): everything else is pickled field by field
_MADE_FIELDS = frozenset({"game", "config", "data"}) | TOKEN_FIELDS


def _restore_state(
    cls: type[MerchantsState], game: Game, config: GameConfig, data: MerchantsData | None, fields: dict[str, Any]
) -> MerchantsState:
    """A pickled state back: its fields set on a state made without setting up a game."""
    state = cls(game, config, load_data() if data is None else data, True)
    for name, value in fields.items():
        setattr(state, name, value)
    state.board_tokens = [TOKENS.new() for _ in state.players_state]
    state.grown_from = [None] * len(state.players_state)
    state.grown_cells = [None] * len(state.players_state)
    return state


class MerchantsState(GameState):
    """A game of Merchants of B99 in progress.

    What changed is recorded for the view writer and the observation encoder (referee/games/merchants/wire.py,
    sdk/envs/state_encoders/merchants.py), which keep a part's bytes or vector block by its token instead of a
    key of its contents (a token is a new value from TOKENS): `layout_token` is replaced wherever the layout,
    the C and D cards or the grey cards change, `board_tokens[seat]` wherever that seat's public board (shop,
    discards, chips, score, final record) does, and `public_token` at every decision and chance outcome applied
    (what every seat sees may have changed; a determinized world keeps it: it redraws only what its seat cannot
    see). A decision's placements and a round's scoring also record how each seat's board grew, for the writer to
    grow the board it wrote before by that change alone: `grown_from[seat]`, the board token replaced, and
    `grown_cells[seat]`, the cell placed (the shop's own key object; the record holds only while `public_token` is
    still `grown_at`, the public token of the placements' decision: any later change replaces it), or for a round
    scored the board token it made (a used chip and the score, shop and discards unchanged; the record holds while
    the seat's board token is that one: draws follow a scoring). A copy shares the tokens until one
    of them changes a part. Code that edits these fields in place from outside the engine makes the state afresh
    (`referee.position.refresh`) before it is viewed again.
    """

    data: MerchantsData

    def __init__(self, game: Game, config: GameConfig, data: MerchantsData, blank: bool = False) -> None:
        """A game at its start; `blank` only sets the game, config and data, for a copy that sets every field."""
        self.data = data
        self.public_token = TOKENS.new()
        self.layout_token = TOKENS.new()
        if blank:
            self.game = game
            self.config = config
            self.board_tokens: list[int] = []
            self.grown_at = 0
            self.grown_from: list[object] = []
            self.grown_cells: list[object] = []
            return
        super().__init__(game, config)
        variants = config.variants
        self.solo = config.players == 1
        self.back_side = self.solo or bool(variants["personal_board_back"])
        self.first_game = bool(variants["first_game"])
        self.floor99: str | None = None if variants["floor99"] == "off" else variants["floor99"]
        self.floor99_face: str | None = variants["floor99_face"]
        self.phase = CHANCE
        self.stage = "floor99"
        self.round = 0
        self.pick = 0
        self.queue: list[Step] = []
        self.layout: dict[tuple[str, str], tuple[str, str]] = {}
        self.c_cards: dict[str, str] = {}
        self.d_card: str | None = None
        self.grey: dict[str, str] = {}
        self.supply: list[str] = list(data.tile_ids)
        self.reputation_deck: list[str] = sorted(data.reputation)
        self.solo_removed: list[str] = []
        self.players_state: list[PlayerState] = [PlayerState() for _ in range(config.players)]
        self.board_tokens = [TOKENS.new() for _ in range(config.players)]
        self.grown_at = 0
        self.grown_from = [None] * config.players
        self.grown_cells = [None] * config.players
        self.final_ranks: tuple[int, ...] | None = None
        self._outcomes: UniformDraws | None = None
        self._options: dict[Seat, Sequence[Option]] = {}
        if self.first_game:
            for dungeon in DUNGEONS:
                for slot in ("A", "B"):
                    self.layout[(dungeon, slot)] = (data.first_game_layout[dungeon][slot], slot)
        if self.floor99 == "random":
            self.queue.append(("floor99_dungeon", None, True))
        if self.floor99 is not None and self.floor99_face == "random":
            self.queue.append(("floor99_face", None, True))
        self._resume()

    # ----- node kind --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return bool(self.queue)

    def deciding_seats(self) -> tuple[Seat, ...]:
        if self.phase in DECISIONS:
            return _SEATS[len(self.players_state)]
        return ()

    def decision_name(self, seat: Seat) -> str:
        return self.phase

    # ----- chance -----------------------------------------------------------------------
    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        outcomes = self._outcomes
        if outcomes is None:
            queue = self.queue
            if not queue:
                raise RuleError(f"merchants: no chance node is pending (phase {self.phase})")
            step = queue[0]
            outcomes = self._outcomes = UniformDraws(self.supply if step[0] == "hand_tile" else self._chance_items(step))
        return outcomes

    def chance_step(self) -> tuple[str, Any] | None:
        """What the pending chance node draws, e.g. ('hand_tile', seat) or ('c_card', 'dragon'); None if none."""
        return (self.queue[0][0], self.queue[0][1]) if self.queue else None

    def apply_chance(self, outcome_id: str) -> None:
        """Resolve the pending draw by the item's id (found in what remains, without listing every outcome)."""
        queue = self.queue
        if queue:
            step = queue[0]
            if step[0] == "hand_tile":  # the game's most frequent step: its items are the supply
                supply = self.supply
                index = bisect_left(supply, outcome_id)
                if index < len(supply) and supply[index] == outcome_id:
                    self._resolve(outcome_id, index)
                    return
            outcomes = self._outcomes  # the items, if this node's outcomes were listed
            items = outcomes.items if outcomes is not None else self._chance_items(step)
            # The supply and the reputation deck stay sorted (the order of their outcomes): look the item up by halves.
            index = bisect_left(items, outcome_id)
            if index < len(items) and items[index] == outcome_id:
                self._resolve(outcome_id, index)
                return
            if outcome_id in items:  # a position loaded with its items out of order
                self._resolve(outcome_id, items.index(outcome_id))
                return
        super().apply_chance(outcome_id)

    def _chance_items(self, step: Step) -> list[str]:
        what = step[0]
        if what == "hand_tile" or what == "initial_tile":
            return self.supply
        subject = step[1]
        if what == "reputation":
            return self.reputation_deck
        if what == "floor99_dungeon":
            return list(DUNGEONS)
        if what == "floor99_face":
            return ["A", "B"]
        if what == "ab":
            used = {card for (dungeon, _), (card, _) in self.layout.items() if dungeon == subject[0]}
            return [card for card in self.data.ab_cards_of(subject[0]) if card not in used]
        if what == "c_card":
            return sorted(card for card in self.data.c_cards if card not in self.c_cards.values())
        if what == "d_card":
            return sorted(card for card, spec in self.data.d_cards.items() if spec.first_game or not self.first_game)
        used_grey = set(self.grey.values())
        return sorted(grey for grey in self.data.grey_kinds if grey not in used_grey)

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        items = self._chance_items(self.queue[0])
        self._resolve(outcome.id, items.index(outcome.id))

    def _resolve(self, item: str, index: int) -> None:
        """Apply the draw of `item`, found at `index` of the pending node's items."""
        what, subject, last = self.queue.pop(0)
        self._outcomes = None
        self.public_token = TOKENS.new()
        if self._options:  # empty at a chance node unless a position was written with options listed
            self._options = {}
        # The supply and the deck are replaced, never changed in place: outcomes listed and clones share them.
        if what == "hand_tile" or what == "initial_tile":
            supply = self.supply.copy()
            del supply[index]
            self.supply = supply
            player = self.players_state[subject]
            if what == "initial_tile":
                player.shop[(0, 0)] = (item, 0)
                self.board_tokens[subject] = TOKENS.new()
                self._record("initial_tile", {"seat": subject, "tile": item})
            else:
                player.drawn.append(item)
                if last:
                    self._hand_drawn(subject)
        elif what == "reputation":
            deck = self.reputation_deck.copy()
            del deck[index]
            self.reputation_deck = deck
            player = self.players_state[subject]
            player.drawn.append(item)
            if last:
                player.reputation.extend(player.drawn)
                self._record("reputation_drawn", {"seat": subject, "count": len(player.drawn)})
                self._record("reputation_cards", {"seat": subject, "cards": list(player.drawn)}, subject)
                player.drawn = []
        elif what == "floor99_dungeon":
            self.floor99 = item
        elif what == "floor99_face":
            self.floor99_face = item
        elif what == "ab":
            dungeon, slot = subject
            self.layout[(dungeon, slot)] = (item, slot)
            self.layout_token = TOKENS.new()
        elif what == "c_card":
            self.c_cards[subject] = item
            self.layout_token = TOKENS.new()
        elif what == "d_card":
            self.d_card = item
            self.layout_token = TOKENS.new()
        else:
            self.grey[subject] = item
            self.layout_token = TOKENS.new()
        if not self.queue:
            self._resume()

    def _record(self, kind: str, data: dict[str, Any], to: Seat | None = None) -> None:
        """`emit` for the events of every pick (the hottest output): data as built, a shared one-seat audience."""
        self.events.defer(_event, kind, data, None if to is None else _audience(to))

    def _hand_drawn(self, seat: Seat) -> None:
        player = self.players_state[seat]
        tiles = player.drawn
        player.drawn = []
        if player.bundle is None:
            player.bundle = Bundle(list(tiles), {seat})
        else:
            player.bundle.tiles.extend(tiles)
        events = self.events
        events.defer(_hand_drawn_event, seat, len(tiles))
        events.defer(_hand_tiles_event, seat, None, tuple(tiles))

    # ----- flow -------------------------------------------------------------------------
    def _resume(self) -> None:
        """Move on from a finished chance batch or decision to the next node."""
        while not self.queue and self.phase not in DECISIONS and self.phase != OVER:
            stage = self.stage
            if stage == "floor99":
                self.stage = "layout"
                if self.floor99 is not None:
                    self.layout[(self.floor99, self.floor99_face or "A")] = (
                        self.data.floor99_of(self.floor99), self.floor99_face or "A",
                    )
                    self.layout_token = TOKENS.new()
                for dungeon in DUNGEONS:
                    for slot in ("A", "B"):
                        if (dungeon, slot) not in self.layout:
                            self.queue.append(("ab", (dungeon, slot), True))
            elif stage == "layout":
                self.emit("setup_layout", rows=self.layout_rows(with_hidden=False))
                self.stage = "initial_tiles"
                self.queue.extend(("initial_tile", seat, True) for seat in range(self.players))
            elif stage == "initial_tiles":
                self.phase = INITIAL_ROTATION
            elif stage == "setup_reputation":
                self._start_round(1)
            elif stage == "reveal":
                self.emit("trends_revealed", **self.reveal_fields())
                self._queue_reputation(2)
                self.stage = "reputation"
            elif stage == "reputation":
                self.phase = RETURN_REPUTATION
            elif stage == "draw":
                self.phase = CHOOSE_TILE
            else:
                raise RuleError(f"merchants: cannot resume from stage {stage!r}")

    def _queue_reputation(self, count: int) -> None:
        for seat in range(self.players):
            self.queue.extend(("reputation", seat, k == count - 1) for k in range(count))

    def _start_round(self, number: int) -> None:
        self.round = number
        self.pick = 0
        self._record("round_started", {"round": number})
        if number == 1:
            self._start_draft()
            return
        self.phase = CHANCE
        if number == 2:
            self.stage = "reveal"
            self.queue.extend(("c_card", dungeon, True) for dungeon in DUNGEONS)
            self.queue.append(("d_card", None, True))
            self.queue.extend(("grey", slot, True) for slot in GREY_SLOTS)
        else:
            self.stage = "reputation"
            self._queue_reputation(2)

    def _start_draft(self) -> None:
        self.pick = 1
        self.phase = CHANCE
        self.stage = "draw"
        if self.solo:
            self._queue_solo_draw()
            return
        for seat in range(self.players):
            self.players_state[seat].bundle = None
            self.queue.extend(("hand_tile", seat, k == HAND_SIZE - 1) for k in range(HAND_SIZE))

    def _queue_solo_draw(self) -> None:
        count = HAND_SIZE + 1 - self.pick
        self.players_state[0].bundle = None
        self.queue.extend(("hand_tile", 0, k == count - 1) for k in range(count))

    # ----- decisions ----------------------------------------------------------------------
    def legal_options(self, seat: Seat) -> Sequence[Option]:
        options = self._options.get(seat)  # filled while seats decide (as asked, or as hands pass), emptied by every change
        if options is not None:
            return options
        phase = self.phase
        if not 0 <= seat < len(self.players_state):
            raise RuleError(f"merchants: seat {seat} is not deciding (phase {phase})")
        player = self.players_state[seat]
        if phase == CHOOSE_TILE:
            bundle = player.bundle
            if bundle is None or not bundle.tiles:
                raise RuleError(f"merchants: seat {seat} has no draft hand")
            options = tile_options(bundle.tiles)
        elif phase == CHOOSE_TARGET:
            options = target_options(player.shop)
        elif phase == CHOOSE_ROTATION or phase == INITIAL_ROTATION:
            options = ROTATION_OPTIONS
        elif phase == RETURN_REPUTATION:
            options = return_options(player.reputation)
        elif phase == CHOOSE_DUNGEON:
            options = dungeon_options(player.unused_chips)
        else:
            raise RuleError(f"merchants: seat {seat} is not deciding (phase {phase})")
        self._options[seat] = options
        return options

    def apply_decisions(self, choices: Mapping[Seat, str]) -> None:
        """Apply every seat's option id at once; a wrong or missing answer gets the base class's error."""
        players = len(self.players_state)
        if self.phase in DECISIONS and len(choices) == players:
            known = self._options
            chosen: dict[Seat, Option] = {}
            for seat, option_id in choices.items():
                options = known.get(seat)
                if options is None:
                    if seat not in range(players):
                        break
                    options = self.legal_options(seat)
                for option in options:
                    if option.id == option_id:
                        chosen[seat] = option
                        break
                else:
                    break
            else:
                self._apply_decisions(chosen)
                return
        super().apply_decisions(choices)

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        self._options = {}
        self.public_token = TOKENS.new()
        phase = self.phase
        # the draft's decisions first: they are most of a game's
        if phase == CHOOSE_TILE:
            for seat, player in enumerate(self.players_state):
                player.pending_tile = chosen[seat].payload["tile"]
            self.phase = CHOOSE_TARGET
            return
        elif phase == CHOOSE_TARGET:
            for seat, player in enumerate(self.players_state):
                payload = chosen[seat].payload
                player.pending_target = (payload["row"], payload["col"], payload["mode"])
            self.phase = CHOOSE_ROTATION
            self._options = _ROTATION_CHOICES[len(self.players_state)]
            return
        elif phase == CHOOSE_ROTATION:
            self._reveal_placements(chosen)
        elif phase == CHOOSE_DUNGEON:
            self._score_round({seat: chosen[seat].payload["dungeon"] for seat in range(self.players)})
        elif phase == RETURN_REPUTATION:
            for seat in range(self.players):
                card = chosen[seat].payload["card"]
                player = self.players_state[seat]
                player.reputation.remove(card)
                player.returned.append(card)
                self._record("reputation_returned", {"seat": seat})
                self._record("returned_card", {"seat": seat, "card": card}, seat)
            self._start_draft()
        elif phase == INITIAL_ROTATION:
            for seat in range(self.players):
                player = self.players_state[seat]
                tile, _ = player.shop[(0, 0)]
                rotation = chosen[seat].payload["rotation"]
                player.shop[(0, 0)] = (tile, rotation)
                self.board_tokens[seat] = TOKENS.new()
                self._record("placed", {"seat": seat, "tile": tile, "row": 0, "col": 0, "rotation": rotation, "mode": "initial"})
            self.phase = CHANCE
            self.stage = "setup_reputation"
            self._queue_reputation(1)
        else:
            raise RuleError(f"merchants: no decision is pending (phase {phase})")
        self._resume()

    def _reveal_placements(self, chosen: Mapping[Seat, Option]) -> None:
        log = self.events.entries()
        tokens = self.board_tokens
        # how each board grew (read by the writer while the public token is this decision's); the tokens read as
        # the objects the list holds, so that none is boxed again
        self.grown_at = self.public_token
        grown_from = self.grown_from
        grown_cells = self.grown_cells
        token_objects = cast(list[object], tokens)
        for seat, player in enumerate(self.players_state):
            tile, target, bundle = player.pending_tile, player.pending_target, player.bundle
            if tile is None or target is None or bundle is None:
                raise RuleError(f"merchants: seat {seat} has no complete placement to reveal")
            row, col, mode = target
            rotation = chosen[seat].payload["rotation"]
            bundle.tiles.remove(tile)
            shop = player.shop
            old = None
            if mode == REPLACE:
                old = shop[(row, col)][0]
                player.discards.append(old)
            cell: object = (row, col)  # one object: the shop's key and the record
            cast(dict[object, object], shop)[cell] = (tile, rotation)
            grown_from[seat] = token_objects[seat]
            grown_cells[seat] = cell
            tokens[seat] = TOKENS.new()
            player.pending_tile = player.pending_target = None
            log.append((_placed_event, seat, tile, row, col, rotation, mode, old))
        if self.solo:
            player = self.players_state[0]
            removed = list(player.bundle.tiles) if player.bundle else []
            if removed:
                self.solo_removed.extend(removed)
                self.emit("solo_removed", tiles=removed)
            player.bundle = None
            if self.pick < PICKS:
                self.pick += 1
                self.phase = CHANCE
                self.stage = "draw"
                self._queue_solo_draw()
            else:
                self.phase = CHOOSE_DUNGEON
            return
        if self.pick < PICKS:
            self._pass_hands()
            self.pick += 1
            self.phase = CHOOSE_TILE
        else:
            for player in self.players_state:
                player.bundle = None
            self.phase = CHOOSE_DUNGEON

    def pass_target(self, seat: Seat) -> Seat:
        """Who receives `seat`'s hand this round: left (next seat) in rounds 1 and 3, right in round 2."""
        return _receivers(self.round, len(self.players_state))[seat]

    def _pass_hands(self) -> None:
        players_state = self.players_state
        receivers = _receivers(self.round, len(players_state))
        log = self.events.entries()
        # every seat chooses from its new hand next: its options are listed now, in the same pass
        options = self._options
        for seat, bundle in enumerate([player.bundle for player in players_state]):
            if bundle is None:
                raise RuleError(f"merchants: seat {seat} has no hand to pass")
            receiver = receivers[seat]
            bundle.holders.add(receiver)
            players_state[receiver].bundle = bundle
            tiles = bundle.tiles
            log.append((_hand_passed_event, seat, receiver, len(tiles)))
            log.append((_hand_tiles_event, receiver, seat, tuple(tiles)))
            if tiles:
                options[receiver] = tile_options(tiles)

    def round_cards(self, dungeon: str, number: int | None = None) -> list[tuple[str, str, str | None]]:
        """The (card, face, K) scored for `dungeon` in round `number` (spec 4.6 step 2)."""
        number = self.round if number is None else number
        cards: list[tuple[str, str, str | None]] = [
            (*self.layout[(dungeon, "A")], None),
            (*self.layout[(dungeon, "B")], None),
        ]
        if number >= 2:
            cards.append((self.c_cards[dungeon], "", self.data.grey_kinds[self.grey[dungeon]]))
        if number >= 3 and self.d_card is not None:
            cards.append((self.d_card, "", self.data.grey_kinds[self.grey["D"]]))
        return cards

    def _score_round(self, dungeons: Mapping[Seat, str]) -> None:
        log = self.events.entries()
        chosen = tuple(dungeons[seat] for seat in range(len(self.players_state)))
        log.append((_chips_revealed_event, chosen))
        data = self.data
        round_number = self.round
        last = round_number == ROUNDS
        #: the last round's shops are the final ones: their masks serve final scoring too
        final_bits: list[ShopBits | None] = []
        #: each chosen dungeon's cards and their faces, looked up once for every seat that chose it
        cards_of: dict[str, tuple[list[tuple[str, str, str | None]], list[tuple[CompiledFace, str | None]]]] = {}
        scored = []
        # how each board grew (a chip and a score; read by the writer while the board's token is the one made here)
        tokens = self.board_tokens
        token_objects = cast(list[object], tokens)
        grown_from = self.grown_from
        grown_cells = self.grown_cells
        for seat, player in enumerate(self.players_state):
            dungeon = chosen[seat]
            found = cards_of.get(dungeon)
            if found is None:
                round_cards = self.round_cards(dungeon)
                found = cards_of[dungeon] = (round_cards, [(data.face(card, face), kind) for card, face, kind in round_cards])
            round_cards, faces = found
            bits = shop_bits(player.shop, data) if last else None
            final_bits.append(bits)
            board = bits.board() if bits is not None else shop_board(player.shop, data)
            points = face_points(faces, board)
            thumb = min(points) >= 1
            trend = sum(points)
            thumb_points = data.thumb_points_back[round_number] if thumb and self.back_side else 0
            player.score += trend + thumb_points
            player.unused_chips.remove(dungeon)
            player.chips.append(Chip(round_number, dungeon, thumb, trend + thumb_points))
            grown_from[seat] = token_objects[seat]
            tokens[seat] = TOKENS.new()
            grown_cells[seat] = token_objects[seat]
            scored.append((seat, dungeon, round_cards, points, thumb, thumb_points, player.score))
        log.append((_round_scored_event, round_number, scored))
        if not last:
            self._start_round(round_number + 1)
        else:
            self._final_scoring(final_bits)

    def _final_scoring(self, bits: Sequence[ShopBits | None]) -> None:
        front = not self.back_side
        parts = [
            final_parts(p.shop, len(p.discards), p.reputation, p.thumbs, front, self.data, seat_bits)
            for p, seat_bits in zip(self.players_state, bits)
        ]
        if self.solo:
            rank_points = [solo_star_points(parts[0].stars, self.data)]
        else:
            rank_points = star_rank_points([p.stars for p in parts], [p.best_heart for p in parts], self.data)
        totals = [
            player.score + part.attribute_points + part.circle_points + points
            for player, part, points in zip(self.players_state, parts, rank_points)
        ]
        ranks = final_ranks(totals, [part.stars for part in parts])
        self.final_ranks = ranks
        seats = []
        for seat, (player, part, points) in enumerate(zip(self.players_state, parts, rank_points)):
            thumb_points = (
                sum(self.data.thumb_points_back[chip.round] for chip in player.chips if chip.thumb) if self.back_side else 0
            )
            final: dict[str, Any] = {
                "seat": seat,
                "trend_points": player.score - thumb_points,
                "thumb_points": thumb_points,
                "attribute_sets": part.sets,
                "attribute_points": part.attribute_points,
                "circles": part.circles,
                "circle_points": part.circle_points,
                "reputation": [{"card": card, "achieved": met} for card, met in part.achieved],
                "thumbs": player.thumbs,
                "discards": len(player.discards),
                "stars": part.stars,
                "best_heart": part.best_heart,
                "star_points": points,
                "total": totals[seat],
                "rank": ranks[seat],
            }
            if self.solo:
                final["solo_rank"], final["solo_title"] = solo_title(totals[seat], self.data)
            player.final = final
            self.board_tokens[seat] = TOKENS.new()
            seats.append(final)
        self.emit("final_scoring", seats=seats, ranks=list(ranks))
        self.phase = OVER

    # ----- result -----------------------------------------------------------------------
    def result(self) -> GameResult:
        if self.phase != OVER or self.final_ranks is None:
            raise GameOverError("merchants: the game is not over yet")
        totals = tuple(float(player.final["total"]) for player in self.players_state if player.final is not None)
        details: dict[str, Any] = {"stars": [player.final["stars"] for player in self.players_state if player.final]}
        if self.solo and self.players_state[0].final is not None:
            details["solo_rank"] = self.players_state[0].final["solo_rank"]
            details["solo_title"] = self.players_state[0].final["solo_title"]
        return GameResult(self.final_ranks, totals, details)

    # ----- views ------------------------------------------------------------------------
    def layout_rows(self, with_hidden: bool) -> list[dict[str, Any]]:
        rows = []
        for dungeon in DUNGEONS:
            if (dungeon, "A") not in self.layout or (dungeon, "B") not in self.layout:
                continue
            a_card, a_face = self.layout[(dungeon, "A")]
            b_card, b_face = self.layout[(dungeon, "B")]
            row: dict[str, Any] = {"dungeon": dungeon, "a_card": a_card, "a_face": a_face, "b_card": b_card, "b_face": b_face}
            if with_hidden and dungeon in self.c_cards and dungeon in self.grey:
                row["c_card"] = self.c_cards[dungeon]
                row["c_kind"] = self.data.grey_kinds[self.grey[dungeon]]
            rows.append(row)
        return rows

    def reveal_fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {
            "rows": [
                {"dungeon": d, "c_card": self.c_cards[d], "c_kind": self.data.grey_kinds[self.grey[d]]} for d in DUNGEONS
            ],
        }
        if self.d_card is not None:
            fields["d_card"] = self.d_card
            fields["d_kind"] = self.data.grey_kinds[self.grey["D"]]
        return fields

    def trends_revealed(self) -> bool:
        """The C and D cards are public: from round 2 on, once every grey slot is drawn and the reveal is done."""
        return self.round >= 2 and len(self.grey) == len(GREY_SLOTS) and self.stage != "reveal"

    def public_view(self) -> dict[str, Any]:
        return cast("MerchantsGame", self.game).build_view(self, None)  # views.py (the state never imports its views)

    def private_view(self, seat: Seat) -> dict[str, Any]:
        return cast("MerchantsGame", self.game).build_view(self, seat)

    # ----- search support ---------------------------------------------------------------
    def clone(self) -> Self:
        twin = type(self)(self.game, self.config, self.data, True)
        twin.events = self.events.copy()
        twin.solo = self.solo
        twin.back_side = self.back_side
        twin.first_game = self.first_game
        twin.floor99 = self.floor99
        twin.floor99_face = self.floor99_face
        twin.phase = self.phase
        twin.stage = self.stage
        twin.round = self.round
        twin.pick = self.pick
        twin.queue = list(self.queue)
        twin.layout = dict(self.layout)
        twin.c_cards = dict(self.c_cards)
        twin.d_card = self.d_card
        twin.grey = dict(self.grey)
        twin.supply = self.supply  # replaced, never changed in place
        twin.reputation_deck = self.reputation_deck
        twin.solo_removed = list(self.solo_removed)
        twin.final_ranks = self.final_ranks
        twin._outcomes = self._outcomes
        twin._options = dict(self._options)
        bundles: dict[int, Bundle] = {}
        players = []
        for player in self.players_state:
            copy = player.copy()
            bundle = player.bundle
            if bundle is not None:
                twin_bundle = bundles.get(id(bundle))
                if twin_bundle is None:
                    twin_bundle = bundles[id(bundle)] = bundle.copy()
                copy.bundle = twin_bundle
            players.append(copy)
        twin.players_state = players
        twin.public_token = self.public_token
        twin.layout_token = self.layout_token
        twin.board_tokens = self.board_tokens.copy()
        twin.grown_at = self.grown_at
        twin.grown_from = self.grown_from.copy()
        twin.grown_cells = self.grown_cells.copy()
        return twin

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game, config and fields: a compiled build's instances have no `__dict__`.

        The component data every state shares is left out and loaded again on the other side; the tokens of
        what changed are left out and made anew there.
        """
        fields = {name: value for name, value in instance_fields(self).items() if name not in _MADE_FIELDS}
        data = None if self.data is load_data() else self.data
        return (_restore_state, (type(self), self.game, self.config, data, fields))

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        """Redraw other seats' unseen hands, reputation cards and pending answers from what `seat` cannot see."""
        world = self.clone()
        world._outcomes = None
        world._options = {}
        world._redeal_hands(seat, rng)
        world._redeal_reputation(seat, rng)
        world._redraw_unseen_batch(rng)
        world._redraw_pending(seat, rng)
        return world

    def _redeal_hands(self, seat: Seat, rng: random.Random) -> None:
        """Deal the hands `seat` has not seen afresh from them and the supply (only as many tiles as they hold)."""
        unknown = [p.bundle for p in self.players_state if p.bundle is not None and seat not in p.bundle.holders]
        hands = [bundle.tiles for bundle in unknown]
        if not any(hands):
            return
        dealt, self.supply = _redeal(self.supply, hands, rng)
        for bundle, tiles in zip(unknown, dealt):
            bundle.tiles = tiles

    def _redeal_reputation(self, seat: Seat, rng: random.Random) -> None:
        """Deal other seats' reputation cards (held and returned) afresh from them and the deck."""
        others = [p for index, p in enumerate(self.players_state) if index != seat]
        held = [part for p in others for part in (p.reputation, p.returned)]
        if not any(held):
            return
        dealt, self.reputation_deck = _redeal(self.reputation_deck, held, rng)
        for player, (reputation, returned) in zip(others, zip(dealt[::2], dealt[1::2])):
            player.reputation, player.returned = reputation, returned

    def _redraw_pending(self, seat: Seat, rng: random.Random) -> None:
        """Other seats' secret answers (tile, then target) redrawn among their options."""
        for index, player in enumerate(self.players_state):
            if index == seat:
                continue
            if player.pending_tile is not None and player.bundle is not None:
                player.pending_tile = rng.choice(player.bundle.tiles)
            if player.pending_target is not None:
                player.pending_target = rng.choice(targets(player.shop))

    def _redraw_unseen_batch(self, rng: random.Random) -> None:
        """Items of a draw batch still in progress have been told to nobody yet: redraw them too."""
        if not self.queue or self.queue[0][0] not in ("hand_tile", "reputation"):
            return
        player = self.players_state[self.queue[0][1]]
        if not player.drawn:
            return
        from_supply = self.queue[0][0] == "hand_tile"
        pool = (self.supply if from_supply else self.reputation_deck) + player.drawn
        rng.shuffle(pool)
        size = len(player.drawn)
        player.drawn = pool[:size]
        if from_supply:
            self.supply = sorted(pool[size:])
        else:
            self.reputation_deck = sorted(pool[size:])

