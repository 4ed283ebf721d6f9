"""Underground Dice component data: loaded from underground_dice.json beside this module and validated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from referee.components import load_component_json, require

PACKAGE = "referee.games.underground_dice"
DATA_FILE = "underground_dice.json"
DIE_TYPES = ("pin", "shigoro")


@dataclass(frozen=True, slots=True)
class FaceOption:
    """A multiset of faces for the 4-5-6 dice the parent sets: its name ('none', '4', '45', ...), faces and sum."""

    name: str
    faces: tuple[int, ...]
    total: int

    @property
    def dice(self) -> int:
        return len(self.faces)


@dataclass(frozen=True, slots=True)
class Components:
    """Everything the rules read from the data file: dice, bills, payouts, face options, possible sums."""

    pin_count: int
    shigoro_count: int
    pin_value: int
    shigoro_values: tuple[int, ...]
    bills_total: int
    bills_per_player: int
    bills_set_aside: int
    bill_value: int
    counterfeit_count: int
    counterfeit_value: int
    multipliers: Mapping[int, int]
    parent_turns_per_player: int
    min_stake: int
    face_options: tuple[FaceOption, ...]
    #: PS(p, q, k) for every p <= pin_count, q <= shigoro_count, 1 <= k <= p + q.
    possible_sums: Mapping[tuple[int, int, int], tuple[int, ...]]

    @property
    def bills_in_play(self) -> int:
        return 2 * self.bills_per_player

    def face_option(self, name: str) -> FaceOption:
        for option in self.face_options:
            if option.name == name:
                return option
        raise KeyError(name)


def compute_possible_sums(
    pins: int, shigoro: int, dice: int, pin_value: int, shigoro_values: tuple[int, ...]
) -> tuple[int, ...]:
    """PS(p, q, k): every total some choice of exactly k dice among p pin and q 4-5-6 dice can show, ascending."""
    low, high = min(shigoro_values), max(shigoro_values)
    totals: set[int] = set()
    for a in range(0, min(pins, dice) + 1):
        b = dice - a
        if b > shigoro:
            continue
        totals.update(a * pin_value + s for s in range(low * b, high * b + 1))
    return tuple(sorted(totals))


def parse_components(raw: Any, source: str = PACKAGE) -> Components:
    """Validate the raw JSON data and build Components; ComponentDataError names the first problem."""
    require(isinstance(raw, dict), source, "the data file must hold a JSON object")
    require(raw.get("id") == "underground_dice", source, f"data file is for {raw.get('id')!r}, not 'underground_dice'")
    dice = {die.get("id"): die for die in raw.get("dice", []) if isinstance(die, dict)}
    require(set(dice) == set(DIE_TYPES), source, f"dice must be exactly {DIE_TYPES}, found {sorted(map(str, dice))}")
    pin, shigoro = dice["pin"], dice["shigoro"]
    for die in (pin, shigoro):
        require(isinstance(die.get("count"), int) and die["count"] >= 1, source, f"die {die['id']!r}: bad count")
        values = die.get("settable_values")
        require(
            isinstance(values, list) and values and all(isinstance(v, int) and v >= 1 for v in values),
            source,
            f"die {die['id']!r}: settable_values must be positive integers",
        )
        require(
            set(values) == set(die.get("faces", [])), source, f"die {die['id']!r}: settable values differ from its faces"
        )
    require(len(pin["settable_values"]) == 1, source, "a pin die must have exactly one settable value")
    shigoro_values = tuple(sorted(shigoro["settable_values"]))
    require(
        list(shigoro_values) == list(range(shigoro_values[0], shigoro_values[-1] + 1)),
        source,
        "4-5-6 die values must be consecutive",
    )

    bills = raw.get("bills", {})
    fakes = raw.get("counterfeit_bills", {})
    for key in ("total", "value_p", "dealt_per_player", "set_aside", "in_play"):
        require(isinstance(bills.get(key), int) and bills[key] >= 0, source, f"bills.{key} must be an integer >= 0")
    require(
        bills["total"] == 2 * bills["dealt_per_player"] + bills["set_aside"]
        and bills["in_play"] == 2 * bills["dealt_per_player"],
        source,
        "bills: total must equal two hands plus the set-aside bills",
    )
    for key in ("genuine", "counterfeit", "counterfeit_end_value_p"):
        require(isinstance(fakes.get(key), int), source, f"counterfeit_bills.{key} must be an integer")
    require(
        fakes["genuine"] + fakes["counterfeit"] == bills["total"] and 0 <= fakes["counterfeit"] <= bills["total"],
        source,
        "counterfeit_bills: genuine + counterfeit must equal the bill total",
    )

    table = raw.get("payout_multiplier_by_k", {})
    total_dice = pin["count"] + shigoro["count"]
    require(
        isinstance(table, dict) and sorted(table) == sorted(str(k) for k in range(1, total_dice + 1)),
        source,
        f"payout_multiplier_by_k must have keys 1..{total_dice}",
    )
    multipliers = {int(k): v for k, v in table.items()}
    require(all(isinstance(v, int) and v >= 1 for v in multipliers.values()), source, "multipliers must be integers >= 1")

    face_options: list[FaceOption] = []
    for entry in raw.get("face_options", []):
        require(isinstance(entry, dict), source, "face_options entries must be objects")
        faces = tuple(entry.get("faces", ()))
        name = "".join(str(face) for face in faces) or "none"
        require(entry.get("option") == name, source, f"face option {entry.get('option')!r} does not match its faces {faces}")
        require(all(face in shigoro_values for face in faces), source, f"face option {name!r} has a face no 4-5-6 die shows")
        require(list(faces) == sorted(faces), source, f"face option {name!r} is not in ascending order")
        require(entry.get("dice") == len(faces) and entry.get("sum") == sum(faces), source, f"face option {name!r}: wrong dice or sum")
        face_options.append(FaceOption(name, faces, sum(faces)))
    expected = _all_face_multisets(shigoro_values, shigoro["count"])
    require(
        [option.faces for option in face_options] == expected,
        source,
        "face_options must list every multiset of 4-5-6 faces once, by size then lexicographically",
    )

    possible: dict[tuple[int, int, int], tuple[int, ...]] = {}
    for p in range(pin["count"] + 1):
        for q in range(shigoro["count"] + 1):
            for k in range(1, p + q + 1):
                possible[(p, q, k)] = compute_possible_sums(p, q, k, pin["settable_values"][0], shigoro_values)
    listed = raw.get("possible_sums", [])
    require(len(listed) == len(possible), source, f"possible_sums must have {len(possible)} rows, has {len(listed)}")
    for row in listed:
        key = (row.get("p"), row.get("q"), row.get("k"))
        require(key in possible, source, f"possible_sums row {key} is not a valid (p, q, k)")
        require(
            tuple(row.get("sums", ())) == possible[key],  # type: ignore[index]
            source,
            f"possible_sums {key} lists {row.get('sums')}, the rules give {list(possible[key])}",  # type: ignore[index]
        )

    turns = raw.get("parent_turns_per_player")
    require(isinstance(turns, int) and turns >= 1, source, "parent_turns_per_player must be an integer >= 1")
    min_stake = raw.get("min_stake_bills")
    require(isinstance(min_stake, int) and min_stake >= 1, source, "min_stake_bills must be an integer >= 1")

    return Components(
        pin_count=pin["count"],
        shigoro_count=shigoro["count"],
        pin_value=pin["settable_values"][0],
        shigoro_values=shigoro_values,
        bills_total=bills["total"],
        bills_per_player=bills["dealt_per_player"],
        bills_set_aside=bills["set_aside"],
        bill_value=bills["value_p"],
        counterfeit_count=fakes["counterfeit"],
        counterfeit_value=fakes["counterfeit_end_value_p"],
        multipliers=multipliers,
        parent_turns_per_player=turns,
        min_stake=min_stake,
        face_options=tuple(face_options),
        possible_sums=possible,
    )


def _all_face_multisets(values: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """Every ascending multiset of `values` with 0..count members, by size then lexicographically."""
    result: list[tuple[int, ...]] = [()]
    layer: list[tuple[int, ...]] = [()]
    for _ in range(count):
        layer = sorted({tuple(sorted(base + (v,))) for base in layer for v in values})
        result.extend(layer)
    return result


@cache
def components() -> Components:
    """The validated component data (loaded once)."""
    return parse_components(load_component_json(PACKAGE, DATA_FILE))
