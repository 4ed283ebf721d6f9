"""Round scoring (trend cards of the chosen dungeon, thumbs-up) and final scoring (sets, circles, ★, ranks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.games.merchants.bitboard import MIN_WIDTH, NEAR, Board, board_of
from referee.games.merchants.data import COLOURS, KINDS, MerchantsData, Tile
from referee.games.merchants.patterns import CompiledFace, score_board, score_masks, token_masks
from referee.games.merchants.shop import Cell, Placed, attribute_sets, circle_points, condition_met, magic_circles, tiles_at
from referee.games.merchants.shop_bits import ShopBits, attribute_sets_of, circles_of, condition_met_on, shop_bits, tile_codes
from referee.ranking import competition_ranks


@dataclass(frozen=True, slots=True)
class ScoredCard:
    """One trend card scored in a round: which card, the face shown ('' for C/D), the K used, the points."""

    card: str
    face: str
    kind: str | None
    points: int


def score_cards(cards: Sequence[tuple[str, str, str | None]], tiles: Mapping[Cell, Tile], data: MerchantsData) -> list[ScoredCard]:
    """Score each (card, face, K) on the shop."""
    board = board_of(tiles)
    return [ScoredCard(card, face, kind, score_board(data.face(card, face), board, kind)) for card, face, kind in cards]


def shop_board(shop: Mapping[Cell, Placed], data: MerchantsData) -> Board:
    """The bitboard of a shop of tile ids: `board_of(tiles_at(shop, data))` without the tiles mapping."""
    codes = tile_codes(data)
    colours = [0, 0, 0]
    kinds = [0, 0, 0, 0]
    for cell, placed in shop.items():
        bit = NEAR.get(cell)
        if bit is None:  # a cell beyond a game's reach (a shop set up by hand): a board of its own size
            return board_of(tiles_at(shop, data))
        colour, kind, _, _ = codes[placed[0]]
        colours[colour] |= bit
        kinds[kind] |= bit
    return Board(
        MIN_WIDTH, colours[0] | colours[1] | colours[2],
        {colour: mask for colour, mask in zip(COLOURS, colours) if mask},
        {kind: mask for kind, mask in zip(KINDS, kinds) if mask},
    )


def face_points(faces: Sequence[tuple[CompiledFace, str | None]], board: Board) -> list[int]:
    """The points of each (face, K) on a shop's bitboard (what `score_cards` scores, without the records)."""
    masks: dict[str | None, tuple[int, int, int, int]] = {}
    points = []
    for face, kind in faces:
        kind_masks = masks.get(kind)
        if kind_masks is None:
            kind_masks = masks[kind] = token_masks(board, kind)
        points.append(score_masks(face, board, kind_masks))
    return points


@dataclass(frozen=True, slots=True)
class FinalParts:
    """A seat's final-scoring parts before the ★ ranking (spec 6.4 steps 1-3)."""

    sets: int
    attribute_points: int
    circles: int
    circle_points: int
    achieved: tuple[tuple[str, bool], ...]
    stars: int
    best_heart: int


def final_parts(
    shop: Mapping[Cell, Placed], discards: int, reputation: Sequence[str], thumbs: int, front_side: bool, data: MerchantsData,
    bits: ShopBits | None = None,
) -> FinalParts:
    """Attribute sets, magic circles, reputation cards met and the ★ total of one shop (`bits`: its masks, if made)."""
    if bits is None:
        bits = shop_bits(shop, data)
    if bits is None:  # a shop set up by hand beyond a game's reach: cell by cell
        tiles = tiles_at(shop, data)
        sets = attribute_sets(tiles)
        circles = magic_circles(shop, data)
        achieved = tuple(
            (card, condition_met(data.reputation[card].condition, tiles, discards, circles)) for card in sorted(reputation)
        )
    else:
        sets = attribute_sets_of(bits)
        circles = circles_of(bits)
        achieved = tuple(
            (card, condition_met_on(data.reputation[card].condition, bits, discards, circles))
            for card in sorted(reputation)
        )
    stars = (data.thumb_stars_front * thumbs if front_side else 0) + data.discard_star_penalty * discards
    stars += sum(data.reputation[card].stars for card, met in achieved if met)
    best_heart = max((data.reputation[card].hearts for card, met in achieved if met), default=0)
    return FinalParts(
        sets, sets * data.attribute_set_points, circles, circle_points(circles, data), achieved, stars, best_heart
    )


def star_rank_points(stars: Sequence[int], best_hearts: Sequence[int], data: MerchantsData) -> list[int]:
    """★ ranking points (2-4 players): ★ descending, then best ♥; still tied seats share the better points."""
    table = data.star_rank_points[len(stars)]
    ranks = competition_ranks(list(zip(stars, best_hearts)))
    return [table[rank - 1] for rank in ranks]


def final_ranks(totals: Sequence[int], stars: Sequence[int]) -> tuple[int, ...]:
    """Final ranking (spec 6.5): total descending, then raw ★; still tied seats share the rank (♥ not used)."""
    return competition_ranks(list(zip(totals, stars)))


def solo_star_points(stars: int, data: MerchantsData) -> int:
    """Solo ★ points from the solo table."""
    for minimum, points in data.solo_star_points:
        if minimum is None or stars >= minimum:
            return points
    return 0


def solo_title(total: int, data: MerchantsData) -> tuple[str, str]:
    """The solo rank (AAA to D) and title for a total score."""
    for minimum, rank, title in data.solo_titles:
        if minimum is None or total >= minimum:
            return rank, title
    return data.solo_titles[-1][1], data.solo_titles[-1][2]
