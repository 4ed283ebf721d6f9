"""Compiles a game's encoding tree (sdk/envs/encoding.py) into one straight-line Python function.

Walking the tree node by node costs a method call per field of every view, which made encoding most of
an environment step. The compiled function writes the same slots with the same values, with the offsets
folded into constants and each vocabulary turned into a value -> slot table. It does not phrase errors
itself: on anything that does not fit it raises `Misfit` (a value outside its vocabulary: KeyError), and the caller runs the tree, which raises the
EncodingError naming the first field that does not fit (so both paths fail alike).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sdk.envs.encoding import Misfit, _Counts, _Grid, _Index, _Message, _Node, _Number, _OneHot, _Sequence

#: a compiled encoder: writes the view's non-zero slots into `out` (slot -> value)
Encoder = Callable[[Any, dict[int, float]], None]


class _Writer:
    """Accumulates the source of the function and the constants it refers to."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {"Misfit": Misfit}
        self.count = 0

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def constant(self, value: Any) -> str:  # noqa: ANN401 - any table
        name = self.name("K")
        self.constants[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)


def _slot(base: str | None, offset: int) -> str:
    """The source of a slot number: a constant, or a loop's base variable plus a constant."""
    if base is None:
        return str(offset)
    return base if offset == 0 else f"{base} + {offset}"


def _node(w: _Writer, node: _Node, value: str, base: str | None, offset: int, depth: int) -> None:
    """Emit the statements that write `node`'s block for the value in variable `value`."""
    if isinstance(node, _Message):
        _message(w, node, value, base, offset, depth)
    elif isinstance(node, _Number):
        w.emit(depth, f"if {value} is not None:")
        if node.present:
            w.emit(depth + 1, f"out[{_slot(base, offset)}] = 1.0")
            offset += 1
        w.emit(depth + 1, f"out[{_slot(base, offset)}] = float({value})")
    elif isinstance(node, _Index):
        table = w.constant({v: float(i + 1) for v, i in node.index.items()})
        w.emit(depth, f'if {value} is not None and {value} != "":')
        w.emit(depth + 1, f"out[{_slot(base, offset)}] = {table}[{value}]")
    elif isinstance(node, _OneHot):
        table = w.constant({v: i + offset for v, i in node.index.items()})
        slot = f"{table}[{value}]" if base is None else f"{base} + {table}[{value}]"
        w.emit(depth, f'if {value} is not None and {value} != "":')
        w.emit(depth + 1, f"out[{slot}] = 1.0")
    elif isinstance(node, _Counts):
        table = w.constant({v: i + offset for v, i in node.index.items()})
        item, found = w.name("e"), w.name("x")
        w.emit(depth, f"for {item} in {value} or ():")
        w.emit(depth + 1, f'if {item} == "": continue')
        w.emit(depth + 1, f"{found} = {table}[{item}]" + ("" if base is None else f" + {base}"))
        w.emit(depth + 1, f"out[{found}] = out.get({found}, 0.0) + 1.0")
    elif isinstance(node, _Sequence):
        _sequence(w, node, value, base, offset, depth)
    elif isinstance(node, _Grid):
        _grid(w, node, value, base, offset, depth)
    else:
        raise TypeError(f"no compiler for encoding node {type(node).__name__}")


def _message(w: _Writer, node: _Message, value: str, base: str | None, offset: int, depth: int) -> None:
    field_names = [name for name, _ in node.fields]
    names = w.constant(frozenset(field_names))
    subs = [w.name("v") for _ in field_names]
    w.emit(depth, f"if {value} is not None:")
    depth += 1
    w.emit(depth, f"if not {names}.issuperset({value}): raise Misfit")
    if len(field_names) > 1:  # all the fields' values in one pass (a missing field is None)
        w.emit(depth, f"{', '.join(subs)} = map({value}.get, {w.constant(tuple(field_names))})")
    else:
        w.emit(depth, f"{subs[0]} = {value}.get({field_names[0]!r})")
    if node.present:
        w.emit(depth, f"out[{_slot(base, offset)}] = 1.0")
        offset += 1
    for (_, field), sub in zip(node.fields, subs):
        _node(w, field, sub, base, offset, depth)
        offset += field.size


def _sequence(w: _Writer, node: _Sequence, value: str, base: str | None, offset: int, depth: int) -> None:
    items, index, item, at = w.name("s"), w.name("i"), w.name("e"), w.name("o")
    w.emit(depth, f"{items} = {value} or ()")
    w.emit(depth, f"if len({items}) > {node.cap}: raise Misfit")
    w.emit(depth, f"out[{_slot(base, offset)}] = float(len({items}))")
    w.emit(depth, f"for {index}, {item} in enumerate({items}):")
    w.emit(depth + 1, f"{at} = {_slot(base, offset + 1)} + {index} * {node.stride}")
    if node.presence:
        w.emit(depth + 1, f"out[{at}] = 1.0")
        _node(w, node.item, item, at, 1, depth + 1)
    else:
        _node(w, node.item, item, at, 0, depth + 1)


def _grid(w: _Writer, node: _Grid, value: str, base: str | None, offset: int, depth: int) -> None:
    width = len(node.index)
    table = w.constant(dict(node.index))
    rows, r, row, c, char, at = (w.name(p) for p in ("s", "r", "e", "c", "h", "o"))
    w.emit(depth, f"{rows} = {value} or ()")
    w.emit(depth, f"if len({rows}) > {node.rows}: raise Misfit")
    w.emit(depth, f"for {r}, {row} in enumerate({rows}):")
    w.emit(depth + 1, f"if len({row}) > {node.cols}: raise Misfit")
    w.emit(depth + 1, f"{at} = {_slot(base, offset)} + {r} * {node.cols * width}")
    w.emit(depth + 1, f"for {c}, {char} in enumerate({row}):")
    w.emit(depth + 2, f'if {char} == ".": continue')
    w.emit(depth + 2, f"out[{at} + {c} * {width} + {table}[{char}]] = 1.0")


def compile_encoder(root: _Message, game_id: str) -> Encoder:
    """The tree rooted at `root` as one function `encode(view, out)`; Misfit or KeyError where the tree would raise."""
    w = _Writer()
    w.emit(0, "def encode(view, out):")
    _node(w, root, "view", None, 0, 1)
    source = "\n".join(w.lines) + "\n"
    namespace = dict(w.constants)
    exec(compile(source, f"<encoding of {game_id}>", "exec"), namespace)  # noqa: S102 - source built above from the game's own tree
    encoder: Encoder = namespace["encode"]
    return encoder
