"""The trend-card pattern engine: one scorer for every card face, driven only by the face's data.

A face is compiled once (`compile_face`) into rotated shapes; `score_face` then scores it on a
shop (cells mapped to tiles that have a `colour` and a `kind`). Every type keeps the rule of at
most one point per tile per card (spec 6.1, 6.2).

Two scorers give the same points: `score_face_by_cells` follows the rules cell by cell (placements,
groups, region coverage: the definitions) and `score_board`, which the game uses, computes the same
on the shop's bitboard (`bitboard.py`) several times faster; a property test holds them equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from referee.errors import ComponentDataError
from referee.games.merchants.bitboard import (
    MIN_WIDTH,
    PAD,
    Board,
    Shape,
    TileLike,
    best_overlap,
    board_of,
    component_sizes,
    max_disjoint_masks,
)

Cell = tuple[int, int]
Entry = tuple[int, int, str]

COLOUR_TOKENS: Mapping[str, str] = {"R": "red", "B": "blue", "Y": "yellow"}
KIND_TOKEN = "K"
_TOKEN_OF_COLOUR: Mapping[str, str] = {colour: token for token, colour in COLOUR_TOKENS.items()}
#: a token's place in the masks tuple of a board (`token_masks`): the colours in COLOUR_TOKENS order, then K
TOKEN_INDEX: Mapping[str, int] = {token: index for index, token in enumerate((*COLOUR_TOKENS, KIND_TOKEN))}
#: a shape on a board of MIN_WIDTH bits as (token index, bit offset) pairs, what the scorers' inner loops read
Program = tuple[tuple[int, int], ...]
FACE_TYPES = ("multi", "per_tile", "per_instance", "formula", "groups", "largest", "region")
ROTATIONS = (0, 90, 180, 270)


Shop = Mapping[Cell, TileLike]


def rotate(i: int, j: int, quarter: int) -> Cell:
    """Where pattern entry (i, j) lands under a clockwise rotation of `quarter` degrees (spec 6.1)."""
    if quarter == 0:
        return (i, j)
    if quarter == 90:
        return (j, -i)
    if quarter == 180:
        return (-i, -j)
    return (-j, i)


def _normalise(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    top = min(i for i, _, _ in entries)
    left = min(j for _, j, _ in entries)
    return tuple(sorted((i - top, j - left, token) for i, j, token in entries))


def rotated_variants(entries: Sequence[Entry]) -> tuple[tuple[Entry, ...], ...]:
    """The distinct shapes of a pattern under the four rotations (never mirrored), normalised."""
    variants: list[tuple[Entry, ...]] = []
    for quarter in ROTATIONS:
        shape = _normalise([(*rotate(i, j, quarter), token) for i, j, token in entries])
        if shape not in variants:
            variants.append(shape)
    return tuple(variants)


def parse_grid(rows: Sequence[str], allowed: str, where: str) -> tuple[Entry, ...]:
    """Entries (row, col, token) of a pattern or template, skipping '.'; rows must be equally wide."""
    if not rows or not all(isinstance(row, str) for row in rows):
        raise ComponentDataError(f"merchants: {where}: a grid needs one or more row strings")
    if len({len(row) for row in rows}) != 1:
        raise ComponentDataError(f"merchants: {where}: rows {list(rows)} have different widths")
    if max(len(rows), len(rows[0])) > PAD + 1:
        raise ComponentDataError(f"merchants: {where}: the grid {list(rows)} is larger than {PAD + 1}x{PAD + 1} cells")
    entries: list[Entry] = []
    for i, row in enumerate(rows):
        for j, token in enumerate(row):
            if token == ".":
                continue
            if token not in allowed:
                raise ComponentDataError(f"merchants: {where}: token {token!r} not one of {allowed!r} or '.'")
            entries.append((i, j, token))
    if not entries:
        raise ComponentDataError(f"merchants: {where}: the grid {list(rows)} has no cell")
    return tuple(entries)


@dataclass(frozen=True, slots=True)
class Alternative:
    """One pattern of a face with its rotated shapes, its points and whether its tiles need distinct kinds."""

    variants: tuple[tuple[Entry, ...], ...]
    points: int
    distinct_kinds: bool = False
    shapes: tuple[Shape, ...] = field(init=False, repr=False, compare=False)
    programs: tuple[Program, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shapes = tuple(Shape.of(variant) for variant in self.variants)
        object.__setattr__(self, "shapes", shapes)
        object.__setattr__(self, "programs", tuple(_program(shape) for shape in shapes))


def _program(shape: Shape) -> Program:
    return tuple((TOKEN_INDEX[token], shift) for token, shift in zip(shape.tokens, shape.shifts))


@dataclass(frozen=True, slots=True)
class Target:
    """Which tiles a groups/largest/region/formula term looks at: a colour, any colour, or the card's kind."""

    colour: str | None = None
    any_colour: bool = False
    card_kind: bool = False

    def key(self, tile: TileLike, kind: str | None) -> str | None:
        """The group key of `tile` for this target (tiles group only with equal keys), None if not a target."""
        if self.card_kind:
            return tile.kind if tile.kind == kind else None
        if self.any_colour:
            return tile.colour
        return tile.colour if tile.colour == self.colour else None


@dataclass(frozen=True, slots=True)
class CompiledFace:
    """A trend-card face ready to score: its type and the parameters that type reads."""

    card: str
    face: str
    name: str
    type: str
    uses_kind: bool
    alternatives: tuple[Alternative, ...] = ()
    points_per_instance: int = 0
    terms: tuple[tuple[int, Target], ...] = ()
    constant: int = 0
    target: Target | None = None
    min_size: int = 1
    points_per_group: int = 0
    cap: int = 0
    template: tuple[tuple[Entry, ...], ...] = ()
    threshold: int = 0
    template_shapes: tuple[Shape, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "template_shapes", tuple(Shape.of(variant) for variant in self.template))


def _target(data: Any, where: str) -> Target:
    if not isinstance(data, Mapping) or len(data) != 1:
        raise ComponentDataError(f"merchants: {where}: target/count must be {{colour}} or {{kind: card}}, not {data!r}")
    if data.get("kind") == "card":
        return Target(card_kind=True)
    colour = data.get("colour")
    if colour == "any":
        return Target(any_colour=True)
    if colour in COLOUR_TOKENS.values():
        return Target(colour=colour)
    raise ComponentDataError(f"merchants: {where}: unknown target {data!r}")


def _int(face: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int:
    value = face.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ComponentDataError(f"merchants: {where}: {key!r} must be an integer >= {minimum}, not {value!r}")
    return value


def compile_face(card: str, face_name: str, face: Mapping[str, Any]) -> CompiledFace:
    """Validate one face's data and precompute its rotated shapes; ComponentDataError names what is wrong."""
    where = f"card {card} face {face_name or '-'}"
    kind = face.get("type")
    if kind not in FACE_TYPES:
        raise ComponentDataError(f"merchants: {where}: unknown type {kind!r}")
    tokens = "RBYK"
    name = str(face.get("name", ""))
    if kind in ("multi", "per_tile", "per_instance"):
        if kind == "multi":
            raw_alternatives = face.get("alternatives")
            if not isinstance(raw_alternatives, list) or not raw_alternatives:
                raise ComponentDataError(f"merchants: {where}: multi needs a list of alternatives")
        else:
            raw_alternatives = [{"pattern": face.get("pattern"), "points": 1}]
        alternatives = []
        for index, alternative in enumerate(raw_alternatives):
            entries = parse_grid(alternative.get("pattern") or [], tokens, f"{where} alternative {index}")
            points = _int(alternative, "points", where, 1)
            if points > len(entries):
                raise ComponentDataError(f"merchants: {where}: {points} points for {len(entries)} tiles breaks 1 point per tile")
            alternatives.append(Alternative(rotated_variants(entries), points, bool(alternative.get("distinct_kinds", False))))
        uses_kind = any(token == KIND_TOKEN for a in alternatives for v in a.variants for _, _, token in v)
        per_instance = _int(face, "points_per_instance", where, 1) if kind == "per_instance" else 0
        if kind == "per_instance":
            size = len(alternatives[0].variants[0])
            if per_instance > size:
                raise ComponentDataError(f"merchants: {where}: {per_instance} points per instance of {size} tiles")
        return CompiledFace(card, face_name, name, kind, uses_kind, tuple(alternatives), points_per_instance=per_instance)
    if kind == "formula":
        raw_terms = face.get("terms")
        if not isinstance(raw_terms, list) or not raw_terms:
            raise ComponentDataError(f"merchants: {where}: formula needs terms")
        terms = []
        for term in raw_terms:
            coef = term.get("coef")
            if isinstance(coef, bool) or not isinstance(coef, int):
                raise ComponentDataError(f"merchants: {where}: term coef {coef!r} is not an integer")
            terms.append((coef, _target(term.get("count"), where)))
        constant = face.get("constant", 0)
        if isinstance(constant, bool) or not isinstance(constant, int):
            raise ComponentDataError(f"merchants: {where}: constant {constant!r} is not an integer")
        uses_kind = any(target.card_kind for _, target in terms)
        if any(coef > 1 for coef, _ in terms):
            raise ComponentDataError(f"merchants: {where}: a coefficient above 1 breaks 1 point per tile")
        return CompiledFace(card, face_name, name, kind, uses_kind, terms=tuple(terms), constant=constant)
    target = _target(face.get("target"), where)
    if kind == "groups":
        ppg = _int(face, "points_per_group", where, 1)
        min_size = _int(face, "min_size", where, 1)
        if ppg > min_size:
            raise ComponentDataError(f"merchants: {where}: {ppg} points per group of {min_size} breaks 1 point per tile")
        return CompiledFace(card, face_name, name, kind, target.card_kind, target=target, min_size=min_size, points_per_group=ppg)
    if kind == "largest":
        return CompiledFace(
            card, face_name, name, kind, target.card_kind, target=target,
            min_size=_int(face, "min_size", where, 1), cap=_int(face, "cap", where, 1),
        )
    cells = parse_grid(face.get("template") or [], "#", where)
    return CompiledFace(
        card, face_name, name, kind, target.card_kind, target=target,
        template=rotated_variants(cells), threshold=_int(face, "threshold", where, 1),
    )


def _matches(token: str, tile: TileLike, kind: str | None) -> bool:
    if token == KIND_TOKEN:
        return tile.kind == kind
    return tile.colour == COLOUR_TOKENS[token]


def token_cells(shop: Shop, kind: str | None) -> dict[str, frozenset[Cell]]:
    """The cells each template token matches on `shop` (computed once per shop, not once per template cell)."""
    matching: dict[str, set[Cell]] = {token: set() for token in (*COLOUR_TOKENS, KIND_TOKEN)}
    for cell, tile in shop.items():
        token = _TOKEN_OF_COLOUR.get(tile.colour)
        if token is not None:
            matching[token].add(cell)
        if tile.kind == kind:
            matching[KIND_TOKEN].add(cell)
    return {token: frozenset(cells) for token, cells in matching.items()}


def placements(
    alternative: Alternative, shop: Shop, kind: str | None, first_only: bool = False,
    matching: Mapping[str, frozenset[Cell]] | None = None,
) -> set[frozenset[Cell]]:
    """Instances (cell sets) of every valid placement of the alternative under any rotation and translation.

    `matching` is `token_cells(shop, kind)` when the caller already has it.
    """
    if matching is None:
        matching = token_cells(shop, kind)
    found: set[frozenset[Cell]] = set()
    for variant in alternative.variants:
        i0, j0, token0 = variant[0]
        for row, col in matching[token0]:
            dr, dc = row - i0, col - j0
            cells = []
            for i, j, token in variant:
                cell = (i + dr, j + dc)
                if cell not in matching[token]:
                    break
                cells.append(cell)
            else:
                if alternative.distinct_kinds and len({shop[cell].kind for cell in cells}) != len(cells):
                    continue
                found.add(frozenset(cells))
                if first_only:
                    return found
    return found


def max_disjoint(instances: Sequence[frozenset[Cell]]) -> int:
    """The largest number of instances that pairwise share no cell (exact, branching on one cell)."""
    if not instances:
        return 0
    cell = min(instances[0])
    with_cell = [instance for instance in instances if cell in instance]
    without = [instance for instance in instances if cell not in instance]
    best = max_disjoint(without)
    for chosen in with_cell:
        rest = [instance for instance in without if not (instance & chosen)]
        best = max(best, 1 + max_disjoint(rest))
    return best


def groups(target: Target, shop: Shop, kind: str | None) -> list[int]:
    """Sizes of the maximal orthogonally connected sets of target tiles with the same group key."""
    keys = {cell: key for cell, tile in shop.items() if (key := target.key(tile, kind)) is not None}
    seen: set[Cell] = set()
    sizes = []
    for start, key in keys.items():
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        size = 0
        while stack:
            row, col = stack.pop()
            size += 1
            for near in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                if near not in seen and keys.get(near) == key:
                    seen.add(near)
                    stack.append(near)
        sizes.append(size)
    return sizes


def region_best(face: CompiledFace, shop: Shop, kind: str | None) -> int:
    """Most target tiles covered by the template under any rotation and translation."""
    target = face.target
    if target is None:
        return 0
    targets = [cell for cell, tile in shop.items() if target.key(tile, kind) is not None]
    best = 0
    for variant in face.template:
        # A translation's coverage is how many (template cell, target) pairs it maps onto each
        # other: count the pairs per translation instead of testing every translation cell by cell.
        counts: dict[Cell, int] = {}
        for i, j, _ in variant:
            for row, col in targets:
                shift = (row - i, col - j)
                counts[shift] = counts.get(shift, 0) + 1
        if counts:
            best = max(best, max(counts.values()))
    return best


def score_face_by_cells(face: CompiledFace, shop: Shop, kind: str | None = None) -> int:
    """Points the face gives on `shop`, cell by cell (the definition `score_board` is tested against)."""
    kind_of = face.type
    if kind_of == "multi":
        best = 0
        matching = token_cells(shop, kind)
        for alternative in face.alternatives:
            if alternative.points > best and placements(alternative, shop, kind, first_only=True, matching=matching):
                best = alternative.points
        return best
    if kind_of == "per_tile":
        covered: set[Cell] = set()
        for instance in placements(face.alternatives[0], shop, kind):
            covered |= instance
        return len(covered)
    if kind_of == "per_instance":
        instances = sorted(placements(face.alternatives[0], shop, kind), key=sorted)
        return face.points_per_instance * max_disjoint(instances)
    if kind_of == "formula":
        value = face.constant
        for coef, target in face.terms:
            value += coef * sum(1 for tile in shop.values() if target.key(tile, kind) is not None)
        return max(0, value)
    if kind_of == "groups":
        if face.target is None:
            return 0
        return face.points_per_group * sum(1 for size in groups(face.target, shop, kind) if size >= face.min_size)
    if kind_of == "largest":
        if face.target is None:
            return 0
        largest = max(groups(face.target, shop, kind), default=0)
        return min(largest, face.cap) if largest >= face.min_size else 0
    best = region_best(face, shop, kind)
    return best if best >= face.threshold else 0


def score_face(face: CompiledFace, shop: Shop, kind: str | None = None) -> int:
    """Points the face gives on `shop`; `kind` is the card's K (grey tile) for C and D cards."""
    return score_board(face, board_of(shop), kind)


def score_board(face: CompiledFace, board: Board, kind: str | None = None) -> int:
    """Points the face gives on a shop's bitboard (build it once with `board_of` to score several faces)."""
    return score_masks(face, board, token_masks(board, kind))


def token_masks(board: Board, kind: str | None) -> tuple[int, int, int, int]:
    """The cells each pattern token matches on the board, in TOKEN_INDEX order (red, blue, yellow, the card's K)."""
    colours = board.colours
    return (
        colours.get("red", 0), colours.get("blue", 0), colours.get("yellow", 0),
        board.kinds.get(kind, 0) if kind is not None else 0,
    )


def _programs(alternative: Alternative, width: int) -> tuple[Program, ...]:
    """The alternative's shapes as (token index, bit offset) programs on a board `width` bits wide."""
    return alternative.programs if width == MIN_WIDTH else _wide_programs(alternative.shapes, width)


@lru_cache(maxsize=None)
def _wide_programs(shapes: tuple[Shape, ...], width: int) -> tuple[Program, ...]:
    """Programs for a board wider than MIN_WIDTH (a shop set up beyond a game's reach), made once per width."""
    return tuple(
        tuple((TOKEN_INDEX[token], shift) for token, shift in zip(shape.tokens, shape.shifts_on(width))) for shape in shapes
    )


def _anchors(program: Program, masks: Sequence[int]) -> int:
    """Where a shape's anchor can go (`Shape.anchors` with indexed masks and offsets made for the board's width)."""
    found = -1
    for token, shift in program:
        found &= masks[token] >> shift
        if not found:
            return 0
    return found


def score_masks(face: CompiledFace, board: Board, masks: Sequence[int]) -> int:
    """`score_board` with the board's `token_masks` made once (for several faces with the same K).

    Shapes are read as precompiled (token index, offset) programs: made with the face for boards of
    MIN_WIDTH bits (every shop of a game), once per width for wider ones."""
    width = board.width
    kind_of = face.type
    if kind_of == "multi":
        best = 0
        for alternative in face.alternatives:
            if alternative.points <= best:
                continue
            if alternative.distinct_kinds:
                if _instances(alternative, masks, board):
                    best = alternative.points
            else:
                for program in _programs(alternative, width):
                    found = -1  # `_anchors`, written out: this loop is the hottest of round scoring
                    for token, shift in program:
                        found &= masks[token] >> shift
                        if not found:
                            break
                    if found:
                        best = alternative.points
                        break
        return best
    if kind_of == "per_tile":
        alternative = face.alternatives[0]
        covered = 0
        if alternative.distinct_kinds:
            for instance in _instances(alternative, masks, board):
                covered |= instance
        else:
            for program in _programs(alternative, width):
                found = _anchors(program, masks)
                if found:
                    for _, shift in program:
                        covered |= found << shift
        return covered.bit_count()
    if kind_of == "per_instance":
        instances = _instances(face.alternatives[0], masks, board)
        return face.points_per_instance * max_disjoint_masks(list(instances))
    if kind_of == "formula":
        value = face.constant
        for coef, term_target in face.terms:
            value += coef * _target_masked(term_target, board, masks).bit_count()
        return max(0, value)
    target = face.target
    if target is None:
        return 0
    if kind_of == "groups" or kind_of == "largest":
        if target.any_colour:
            sizes = [size for cells in board.colours.values() for size in component_sizes(cells, width)]
        else:
            sizes = component_sizes(_target_masked(target, board, masks), width)
        if kind_of == "groups":
            return face.points_per_group * sum(1 for size in sizes if size >= face.min_size)
        largest = max(sizes, default=0)
        return min(largest, face.cap) if largest >= face.min_size else 0
    targets = _target_masked(target, board, masks)
    best = max((best_overlap(targets, shape.shifts_on(width)) for shape in face.template_shapes), default=0)
    return best if best >= face.threshold else 0


def _target_masked(target: Target, board: Board, masks: Sequence[int]) -> int:
    """The cells of the target's tiles (as `Target.key` picks them) from the board's token masks."""
    if target.card_kind:
        return masks[3]
    if target.any_colour:
        return board.cells
    return masks[TOKEN_INDEX[_TOKEN_OF_COLOUR[target.colour]]] if target.colour is not None else 0


def _instances(alternative: Alternative, masks: Sequence[int], board: Board) -> set[int]:
    """Every placement of the alternative under any rotation and translation, as cell masks."""
    found = set()
    for program in _programs(alternative, board.width):
        anchors = _anchors(program, masks)
        while anchors:
            low = anchors & -anchors
            anchors ^= low
            instance = 0
            for _, shift in program:
                instance |= low << shift
            if not alternative.distinct_kinds or _distinct_kinds(instance, board):
                found.add(instance)
    return found


def _distinct_kinds(instance: int, board: Board) -> bool:
    return all((instance & cells).bit_count() <= 1 for cells in board.kinds.values())
