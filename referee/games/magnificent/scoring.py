"""Scoring: master card conditions, round-end payment, gem filling, final scores and ranks (spec §2.8, §4.10, §6)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.magnificent.data import Components, MasterCard
from referee.games.magnificent.model import Player
from referee.ranking import competition_ranks


def full_areas(components: Components, camp: int) -> int:
    """Camp areas whose every square is covered by camp tiles."""
    return sum(1 for _, mask, _ in components.areas if camp & mask == mask)


def master_value(components: Components, card: MasterCard, player: Player) -> int:
    """A master card's scoring condition evaluated on its owner now."""
    kind, n = card.scoring, card.scoring_value
    if kind == "PER_COMPLETED_POSTER":
        return n * len(player.completed)
    if kind == "PER_TENT":
        return n * sum(1 for tent in player.tents[1:] if tent is not None)
    if kind == "PER_FULL_AREA":
        return n * full_areas(components, player.camp)
    if kind == "PER_LARGE_TILE":
        return n * sum(1 for tile in player.tiles if components.tile_types[tile[0]].large)
    if kind == "PER_SMALL_TILE":
        return n * sum(1 for tile in player.tiles if not components.tile_types[tile[0]].large)
    if kind == "PER_TILE_SET":
        per_colour = {"O": 0, "G": 0, "P": 0}
        for tile in player.tiles:
            per_colour[tile[0][0]] += 1
        return n * min(per_colour.values())
    if kind == "PER_MARKER":
        return n * (player.markers + player.spent)
    if kind == "PER_TRAINER_TILE":
        return n * len(player.trainers)
    if kind == "PER_GEM":
        return n * sum(player.gems)
    if kind == "PER_2_COINS":
        return n * (player.coins // 2)
    raise ValueError(f"unknown scoring code {kind!r}")


def payment_due(player: Player) -> int:
    """Round-end payment: the largest O/G/P sum of the player's dice plus all their clear dice."""
    sums = {"O": 0, "G": 0, "P": 0, "C": 0}
    for colour, value in player.dice.values():
        sums[colour] += value
    return max(sums["O"], sums["G"], sums["P"]) + sums["C"]


def areas_after_gem_filling(components: Components, camp: int, gems: int) -> tuple[int, list[str]]:
    """Full areas once gems fill empty squares, smallest gaps first until one cannot be filled; and the filled ids."""
    full = 0
    gaps: list[tuple[int, int, str]] = []
    for order, (area_id, mask, size) in enumerate(components.areas):
        empty = size - (camp & mask).bit_count()
        if empty == 0:
            full += 1
        else:
            gaps.append((empty, order, area_id))
    filled: list[str] = []
    for empty, _, area_id in sorted(gaps):
        if empty > gems:
            break
        gems -= empty
        full += 1
        filled.append(area_id)
    return full, filled


def final_breakdown(components: Components, player: Player) -> dict[str, int]:
    """The end-of-game score parts of one player (master values are taken before gem filling)."""
    masters = sum(
        master_value(components, components.masters[card], player) // components.final_master_divisor
        for card in player.masters
    )
    coins = player.coins // components.final_coins_per_point
    areas, _ = areas_after_gem_filling(components, player.camp, sum(player.gems))
    area_points = components.final_points_per_area * areas
    return {
        "track": player.points,
        "masters": masters,
        "coins": coins,
        "full_areas": areas,
        "areas": area_points,
        "total": player.points + masters + coins + area_points,
    }


def final_ranks(scores: Sequence[int], players: Sequence[Player]) -> tuple[int, ...]:
    """Competition ranks by score, then coins, then completed posters."""
    return competition_ranks([(score, p.coins, len(p.completed)) for score, p in zip(scores, players)])
