"""A fixed-shape numeric encoding of a seat's private view, laid out from the game's View message.

Every field of the game's `View` message (proto/b99/games/<id>.proto) gets a fixed block of the
vector, so the vector holds exactly what the view holds and nothing more:

- a number or bool: one slot (its value; an `optional` field gets a presence slot before it);
- a string: a one-hot block over the field's vocabulary ("" and absent: all zeros), or, for fields the
  game lists as `indexed` (long lists of component ids), one slot holding 1 + its vocabulary index;
- a repeated string: a count per vocabulary entry (a multiset), or, for fields the game lists as
  `ordered`, one one-hot block per position up to a cap;
- a repeated number: a count slot then one slot per position up to a cap;
- a message: its fields' blocks (an `optional` message gets a presence slot);
- a repeated message: a count slot then, per position up to a cap, a presence slot and the item's blocks;
- a `grid` (repeated strings of equal length, such as a board drawn as rows of characters):
  one one-hot block per cell over the grid's characters ('.', an empty cell: all zeros).

Vocabularies and caps are declared per game in sdk/envs/encodings/<id>.py (frozen lists, so an
index never moves). A value outside its vocabulary or a list over its cap is an EncodingError that
names the field and value, never a silent zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from referee.errors import ArenaError


#: the type of every vector (numpy's dtypes of its own number types are single objects)
_FLOAT32: Any = np.dtype(np.float32)


class EncodingError(ArenaError):
    """A view does not fit its game's encoding (unknown value, list over its cap, undeclared field)."""


class Slots(dict):  # type: ignore[type-arg]
    """The slots an encoder sets (slot -> value), plus parts of the vector made beforehand as numpy arrays.

    An encoder that reads the state (sdk/envs/state_encoders) may hand a stretch of the vector it made
    before (`add_block`: its first slot and its values, zeros included, copied in one go) or scattered
    slots (`add_run`: slot numbers and values), which costs an array copy instead of a dict entry per
    slot. Blocks are copied first, in the order they were added (a later one over an earlier one), then
    the dict's slots and the runs are set over them; a slot is set in at most one of the dict and the runs.
    Blocks are always copied, so an encoder may hand an array it keeps (it must not change it before `vector`).
    """

    def __init__(self) -> None:  # dict's own __init__ has nothing to do for an empty dict
        self.runs: list[tuple[np.ndarray, np.ndarray]] = []
        self.blocks: list[tuple[int, np.ndarray]] = []

    def add_run(self, slots: np.ndarray, values: np.ndarray) -> None:
        """Set `slots` (an int array) to `values` (a float32 array of the same length)."""
        self.runs.append((slots, values))

    def add_block(self, start: int, values: np.ndarray) -> None:
        """Copy `values` (a float32 array) into the vector from slot `start` on."""
        self.blocks.append((start, values))


class Misfit(Exception):  # noqa: N818 - a signal between the two encoders, never seen outside this module
    """The compiled encoder met a view that does not fit: the tree walk then says where."""


@dataclass(frozen=True)
class EncodingSpec:
    """What the View message alone does not say: vocabularies of strings, caps of lists, layouts.

    Paths name fields as `players[].posters[]` (a `[]` after each repeated field).
    """

    vocab: Mapping[str, Sequence[str]] = field(default_factory=dict)
    caps: Mapping[str, int] = field(default_factory=dict)
    ordered: frozenset[str] = frozenset()
    indexed: frozenset[str] = frozenset()
    grids: Mapping[str, tuple[int, int, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class Block:
    """One documented block of the vector: where it starts, how long it is, what it holds."""

    start: int
    size: int
    path: str
    meaning: str


_NUMBER_TYPES = {
    FieldDescriptor.TYPE_BOOL, FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT,
    FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT32,
    FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
    FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED32,
    FieldDescriptor.TYPE_SFIXED64,
}


def _optional(fd: FieldDescriptor) -> bool:
    oneof = fd.containing_oneof
    return oneof is not None and oneof.name == f"_{fd.name}"


class _Node:
    """One field's encoder: writes its block's non-zero slots into `out` (slot -> value) from offset `at`."""

    size: int = 0

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401 - JSON value
        raise NotImplementedError


class _Number(_Node):
    def __init__(self, path: str, present: bool) -> None:
        self.path, self.present, self.size = path, present, 2 if present else 1

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        if value is None:
            return
        if self.present:
            out[at] = 1.0
            at += 1
        out[at] = float(value)


class _OneHot(_Node):
    def __init__(self, path: str, vocab: Sequence[str]) -> None:
        self.path, self.index, self.size = path, {v: i for i, v in enumerate(vocab)}, len(vocab)

    def position_of(self, value: Any) -> int | None:  # noqa: ANN401
        """The value's place in the vocabulary; None for an absent value (None or ""), an error for an unknown one."""
        if value is None or value == "":
            return None
        index = self.index.get(value)
        if index is None:
            raise EncodingError(f"view field {self.path} has value {value!r}, which its vocabulary lacks")
        return index

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        index = self.position_of(value)
        if index is not None:
            out[at + index] = 1.0


class _Index(_OneHot):
    def __init__(self, path: str, vocab: Sequence[str]) -> None:
        super().__init__(path, vocab)
        self.size = 1

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        index = self.position_of(value)
        if index is not None:
            out[at] = float(index + 1)


class _Counts(_Node):
    def __init__(self, path: str, vocab: Sequence[str]) -> None:
        self.path, self.index, self.size = path, {v: i for i, v in enumerate(vocab)}, len(vocab)

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        for item in value or ():
            if item == "":
                continue
            index = self.index.get(item)
            if index is None:
                raise EncodingError(f"view field {self.path} has value {item!r}, which its vocabulary lacks")
            out[at + index] = out.get(at + index, 0.0) + 1.0


class _Sequence(_Node):
    """A capped list: a count slot, then each position's block (with a presence slot for messages)."""

    def __init__(self, path: str, cap: int, item: _Node, presence: bool) -> None:
        self.path, self.cap, self.item, self.presence = path, cap, item, presence
        self.stride = item.size + (1 if presence else 0)
        self.size = 1 + cap * self.stride

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        items = value or ()
        if len(items) > self.cap:
            raise EncodingError(f"view field {self.path} holds {len(items)} items, more than its cap {self.cap}")
        out[at] = float(len(items))
        at += 1
        for item in items:
            if self.presence:
                out[at] = 1.0
                self.item.write(item, out, at + 1)
            else:
                self.item.write(item, out, at)
            at += self.stride


class _Grid(_Node):
    def __init__(self, path: str, rows: int, cols: int, chars: str) -> None:
        self.path, self.rows, self.cols = path, rows, cols
        self.index = {c: i for i, c in enumerate(chars)}
        self.size = rows * cols * len(chars)

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        rows = value or ()
        if len(rows) > self.rows:
            raise EncodingError(f"view field {self.path} has {len(rows)} rows, more than {self.rows}")
        width = len(self.index)
        for r, row in enumerate(rows):
            if len(row) > self.cols:
                raise EncodingError(f"view field {self.path} row {r} is {row!r}, longer than {self.cols}")
            for c, char in enumerate(row):
                if char == ".":
                    continue
                index = self.index.get(char)
                if index is None:
                    raise EncodingError(f"view field {self.path} has character {char!r}, which its grid lacks")
                out[at + (r * self.cols + c) * width + index] = 1.0


class _Message(_Node):
    def __init__(self, path: str, fields: list[tuple[str, _Node]], present: bool) -> None:
        self.path, self.fields, self.present = path, fields, present
        self.size = sum(node.size for _, node in fields) + (1 if present else 0)
        self.names = {name for name, _ in fields}

    def write(self, value: Any, out: dict[int, float], at: int) -> None:  # noqa: ANN401
        if value is None:
            return
        if not self.names.issuperset(value):
            extra = sorted(set(value) - self.names)
            raise EncodingError(f"view field {self.path or 'View'} has no field {extra[0]!r} in its encoding")
        if self.present:
            out[at] = 1.0
            at += 1
        for name, node in self.fields:
            node.write(value.get(name), out, at)
            at += node.size


class ViewEncoding:
    """The encoding of one game's views: `encode(view)` gives a float32 vector of `size` slots."""

    def __init__(self, game_id: str, descriptor: Descriptor, spec: EncodingSpec) -> None:
        self.game_id = game_id
        self.spec = spec
        self.blocks: list[Block] = []
        #: each field path -> where its block starts (in the first item of every list around it) and its node
        self.fields: dict[str, tuple[int, _Node]] = {}
        used: set[str] = set()
        self.root = self._message(descriptor, "", False, 0, used)
        self.size = self.root.size
        unused = (set(spec.vocab) | set(spec.caps) | set(spec.grids) | set(spec.ordered) | set(spec.indexed)) - used
        if unused:
            raise EncodingError(f"{game_id}: the encoding names fields the view lacks: {sorted(unused)}")
        from sdk.envs.encoding_compiler import compile_encoder  # the compiler builds on the node classes here

        self._compiled = compile_encoder(self.root, game_id)

    def encode(self, view: Mapping[str, Any]) -> np.ndarray:
        """The view as a float32 vector; EncodingError if a value does not fit."""
        out: dict[int, float] = {}  # the few slots that are set: most of a vector is zeros
        self.encode_into(view, out)
        return self.vector(out)

    def encode_into(self, view: Mapping[str, Any], out: dict[int, float]) -> None:
        """Write the view's non-zero slots into `out` (slot -> value); EncodingError if a value does not fit."""
        try:
            self._compiled(view, out)
        except (Misfit, KeyError):  # the compiled tables raise KeyError for a value outside a vocabulary
            self.root.write(view, {}, 0)  # raises the EncodingError that names the field
            raise EncodingError(f"{self.game_id}: the compiled encoding refused a view the encoding takes") from None

    def encode_reference(self, view: Mapping[str, Any]) -> np.ndarray:
        """`encode` by walking the encoding tree field by field (what the compiled encoder must match)."""
        out: dict[int, float] = {}
        self.root.write(view, out, 0)
        return self.vector(out)

    def vector(self, out: dict[int, float]) -> np.ndarray:
        """A new float32 vector of `size` slots holding `out`'s slots and, for `Slots`, its blocks and runs (zeros elsewhere)."""
        blocks: Any = getattr(out, "blocks", ())
        first = 0
        vector: Any
        if blocks and blocks[0][0] == 0 and len(blocks[0][1]) == self.size and blocks[0][1].dtype is _FLOAT32:
            # the whole vector made by the encoder (Underground Dice's): one copy instead of zeros and a copy
            vector = blocks[0][1].copy()  # a copy: an encoder may hand the same array out again
            first = 1
        else:
            vector = np.zeros(self.size, dtype=np.float32)  # Any: numpy's stubs do not declare its buffer
        slots: Any = memoryview(vector)  # item and slice assignment without numpy's per-call cost (floats too)
        for index in range(first, len(blocks)):
            start, values = blocks[index]
            slots[start : start + len(values)] = values
        single: dict[Any, Any] = out  # typed Any: a compiled build hands the dict's own objects on, unconverted
        try:  # one by one is quicker than numpy's arrays of slots and values, even for a thousand slots
            for slot, value in single.items():
                slots[slot] = value
        except (TypeError, ValueError):  # a value that is not a number Python converts (numpy converts it)
            vector[np.fromiter(out.keys(), np.intp, len(out))] = np.fromiter(out.values(), np.float32, len(out))
        runs = getattr(out, "runs", None)
        if runs:
            if len(runs) == 1:
                vector[runs[0][0]] = runs[0][1]
            else:
                vector[np.concatenate([slots for slots, _ in runs])] = np.concatenate([values for _, values in runs])
        return vector

    # ----- where fields are, for encoders that read a game's state (sdk/envs/state_encoders) ----
    def start(self, path: str) -> int:
        """The first slot of a field's block (`players[].camp`: in the first item of each list around it).

        A list's own path names its count slot; `path[]` the first item (its presence slot for messages).
        """
        placed = self.fields.get(path)
        if placed is None:
            raise EncodingError(f"{self.game_id}: the view encoding has no field {path!r}")
        return placed[0]

    def offset(self, path: str, within: str) -> int:
        """Where a field's block starts, counted from the start of `within` (an item or message around it)."""
        return self.start(path) - self.start(within)

    def stride(self, path: str) -> int:
        """The distance between two consecutive items of the list `path` (its item's slots, with presence)."""
        node = self.node(path)
        if not isinstance(node, _Sequence):
            raise EncodingError(f"{self.game_id}: view field {path!r} is not a list with a cap")
        return node.stride

    def cap(self, path: str) -> int:
        """The most items the list `path` may hold."""
        node = self.node(path)
        if not isinstance(node, _Sequence):
            raise EncodingError(f"{self.game_id}: view field {path!r} is not a list with a cap")
        return node.cap

    def slots(self, path: str) -> dict[str, int]:
        """A one-hot, count or index field's value -> its place in the block (0-based, as in its vocabulary)."""
        node = self.node(path)
        index = getattr(node, "index", None)
        if index is None:
            raise EncodingError(f"{self.game_id}: view field {path!r} has no vocabulary")
        return dict(index)

    def one_hot(self, path: str, within: str | None = None, shift: int = 0) -> dict[str, int]:
        """A one-hot or count field's value -> its slot: counted from the start of `within` when given, and
        moved by `shift` (for an item of a list other than the first)."""
        base = self.start(path) - (self.start(within) if within is not None else 0) + shift
        return {value: base + place for value, place in self.slots(path).items()}

    def indexed(self, path: str) -> dict[str, float]:
        """An indexed field's value -> what its slot holds (1 + its place in the vocabulary)."""
        return {value: float(place + 1) for value, place in self.slots(path).items()}

    def node(self, path: str) -> _Node:
        """The encoding node of a field (for writing a small part of a view through the tree)."""
        placed = self.fields.get(path)
        if placed is None:
            raise EncodingError(f"{self.game_id}: the view encoding has no field {path!r}")
        return placed[1]

    # ----- building the layout from the View message ------------------------------------
    def _message(self, descriptor: Descriptor, path: str, present: bool, start: int, used: set[str]) -> _Message:
        fields: list[tuple[str, _Node]] = []
        at = start + (1 if present else 0)
        if present:
            self.blocks.append(Block(start, 1, path, "1 if present"))
        for fd in descriptor.fields:
            sub = f"{path}.{fd.name}" if path else fd.name
            node = self._field(fd, sub, at, used)
            fields.append((fd.name, node))
            at += node.size
        return _Message(path, fields, present)

    def _field(self, fd: FieldDescriptor, path: str, at: int, used: set[str]) -> _Node:
        node = self._field_node(fd, path, at, used)
        self.fields[path] = (at, node)
        if isinstance(node, _Sequence):
            self.fields[path + "[]"] = (at + 1, node.item)
        return node

    def _field_node(self, fd: FieldDescriptor, path: str, at: int, used: set[str]) -> _Node:
        repeated = fd.is_repeated
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            raise EncodingError(f"{self.game_id}: view field {path} is a map, which the encoding does not take")
        if repeated and path in self.spec.grids:
            used.add(path)
            rows, cols, chars = self.spec.grids[path]
            self.blocks.append(Block(at, rows * cols * len(chars), path, f"{rows}x{cols} grid, one-hot per cell over {chars!r}"))
            return _Grid(path, rows, cols, chars)
        if repeated:
            item_path = path + "[]"
            if fd.message_type is None and fd.type == FieldDescriptor.TYPE_STRING and path not in self.spec.ordered:
                vocab = self._vocab(item_path, used)
                self.blocks.append(Block(at, len(vocab), path, "count of each value: " + _listing(vocab)))
                return _Counts(item_path, vocab)
            cap = self.spec.caps.get(path)
            if cap is None:
                raise EncodingError(f"{self.game_id}: view field {path} is a list and needs a cap in its encoding")
            used.add(path)
            self.blocks.append(Block(at, 1, path, "number of items"))
            presence = fd.message_type is not None
            item_start = at + 1
            first_block = len(self.blocks)
            item = self._item(fd, item_path, item_start + (1 if presence else 0), used)
            if presence:
                self.blocks.insert(first_block, Block(item_start, 1, item_path, "1 if the item is there"))
            stride = item.size + (1 if presence else 0)
            if cap > 1:
                self.blocks.append(
                    Block(item_start + stride, (cap - 1) * stride, item_path, f"items 2 to {cap}, each laid out as item 1")
                )
            return _Sequence(path, cap, item, presence)
        return self._item(fd, path, at, used, present=_optional(fd))

    def _item(self, fd: FieldDescriptor, path: str, at: int, used: set[str], present: bool = False) -> _Node:
        if fd.message_type is not None:
            return self._message(fd.message_type, path, present, at, used)
        if fd.type == FieldDescriptor.TYPE_STRING:
            vocab = self._vocab(path, used)
            if path in self.spec.indexed:
                used.add(path)
                self.blocks.append(Block(at, 1, path, "1 + index in: " + _listing(vocab) + " (0: none)"))
                return _Index(path, vocab)
            self.blocks.append(Block(at, len(vocab), path, "one-hot: " + _listing(vocab)))
            return _OneHot(path, vocab)
        if fd.type == FieldDescriptor.TYPE_ENUM:
            enum_type = fd.enum_type
            if enum_type is None:
                raise EncodingError(f"{self.game_id}: view field {path} is an enum without its values")
            names = [value.name for value in enum_type.values]
            self.blocks.append(Block(at, len(names), path, "one-hot: " + _listing(names)))
            return _OneHot(path, names)
        if fd.type in _NUMBER_TYPES:
            if present:
                self.blocks.append(Block(at, 2, path, "1 if set, then the value"))
            else:
                self.blocks.append(Block(at, 1, path, "the value" + (" (1 = true)" if fd.type == FieldDescriptor.TYPE_BOOL else "")))
            return _Number(path, present)
        raise EncodingError(f"{self.game_id}: view field {path} has a type the encoding does not take")

    def _vocab(self, path: str, used: set[str]) -> Sequence[str]:
        vocab = self.spec.vocab.get(path)
        if vocab is None:
            raise EncodingError(f"{self.game_id}: view field {path} is a string and needs a vocabulary in its encoding")
        used.add(path)
        return vocab


def _listing(values: Sequence[str], shown: int = 24) -> str:
    """A vocabulary for the docs: every value in order, or the first and last of a long one."""
    if len(values) <= shown:
        return ", ".join(f"`{value}`" for value in values)
    head = ", ".join(f"`{value}`" for value in values[:3])
    return f"{head}, ... `{values[-1]}` ({len(values)} values, in the order of the game's encoding file)"
