"""Option lists of every decision point, built once and shared by all states (options are immutable)."""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine import Option
from referee.games.underground_dice.data import Components


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


@dataclass(frozen=True, slots=True)
class OptionTables:
    """Legal option lists keyed by what they depend on, each already in the spec's order."""

    #: (p, q) -> set_pins options: pins:0..p, without pins:0 when q = 0.
    pins: dict[tuple[int, int], tuple[Option, ...]]
    #: (q, pins chosen > 0) -> set_faces options: every face option of size <= q, without none when no pins.
    faces: dict[tuple[int, bool], tuple[Option, ...]]
    #: stake:1..stake:N; a state slices the first max-stake entries.
    stakes: tuple[Option, ...]
    #: fakes:0..fakes:N; a state slices the legal range.
    fakes: tuple[Option, ...]
    #: (p, q, k) -> guess options over PS(p, q, k).
    guesses: dict[tuple[int, int, int], tuple[Option, ...]]
    accept_or_accuse: tuple[Option, ...]


def build_option_tables(data: Components) -> OptionTables:
    """Every option list the rules can offer, from the component data."""
    pins: dict[tuple[int, int], tuple[Option, ...]] = {}
    for p in range(data.pin_count + 1):
        for q in range(data.shigoro_count + 1):
            if p + q == 0:
                continue
            pins[(p, q)] = tuple(
                Option(f"pins:{a}", f"Set {a} pin {'die' if a == 1 else 'dice'}", {"pins": a})
                for a in range(p + 1)
                if a > 0 or q > 0
            )
    faces: dict[tuple[int, bool], tuple[Option, ...]] = {}
    for q in range(data.shigoro_count + 1):
        for have_pins in (False, True):
            faces[(q, have_pins)] = tuple(
                Option(
                    f"faces:{option.name}",
                    "Set no 4-5-6 die" if not option.faces else "Set 4-5-6 dice to " + ", ".join(map(str, option.faces)),
                    {"faces": option.name},
                )
                for option in data.face_options
                if option.dice <= q and (option.dice > 0 or have_pins)
            )
    stakes = tuple(
        Option(f"stake:{n}", f"Stake {_plural(n, 'bill')}", {"stake": n})
        for n in range(data.min_stake, data.bills_in_play + 1)
    )
    fakes = tuple(
        Option(f"fakes:{f}", f"Include {_plural(f, 'counterfeit bill')}", {"fakes": f})
        for f in range(data.bills_in_play + 1)
    )
    guesses = {
        key: tuple(Option(f"guess:{total}", f"Guess {total}", {"guess": total}) for total in sums)
        for key, sums in data.possible_sums.items()
    }
    accept_or_accuse = (
        Option("accept", "Accept the bills", {"accuse": False}),
        Option("accuse", "Accuse: examine the bills for counterfeits", {"accuse": True}),
    )
    return OptionTables(pins, faces, stakes, fakes, guesses, accept_or_accuse)
