"""The Magnificent: gaining a poster (spec §4.7): source (deck, display, decline), display refill, placement."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Option

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


def step_gain_poster(state: MagnificentState, seat: int) -> None:
    full = None not in state.players_state[seat].posters
    if full or state.poster_deck or state.poster_discard or any(state.poster_display):
        state._ask("GP1", seat)
    else:
        state.emit("poster_lost", seat=seat)


def options_gp1(state: MagnificentState, seat: int) -> list[Option]:
    options = []
    if state.poster_deck or state.poster_discard:
        options.append(Option("deck", "draw the top poster of the deck", {"kind": "deck"}))
    for i, poster in enumerate(state.poster_display):
        if poster is not None:
            options.append(Option(f"display:{i + 1}", f"take {poster}", {"kind": "display", "slot": i + 1, "poster": poster}))
    if None not in state.players_state[seat].posters:
        options.append(Option("decline", "take no poster", {"kind": "decline"}))
    return options


def reshuffle_if_needed(state: MagnificentState) -> None:
    if not state.poster_deck and state.poster_discard:
        state.poster_deck = sorted(state.poster_discard)
        state.poster_discard = []
        state.poster_token = object()
        state.emit("posters_reshuffled", size=len(state.poster_deck))


def apply_gp1(state: MagnificentState, seat: int, option: Option) -> None:
    kind = option.payload["kind"]
    if kind == "decline":
        state.emit("poster_declined", seat=seat)
    elif kind == "deck":
        reshuffle_if_needed(state)
        state._schedule(("chance", "poster_draw", seat), ("gp2", seat))
    else:
        slot = option.payload["slot"]
        state.poster_in_hand = state.poster_display[slot - 1]  # type: ignore[assignment]
        state.poster_display[slot - 1] = None
        state.poster_token = object()
        state.emit("poster_taken", seat=seat, slot=slot, poster=state.poster_in_hand)
        state._schedule(("refill",), ("gp2", seat))


def chance_poster_draw(state: MagnificentState, outcome: str, seat: int) -> None:
    state.poster_deck.remove(outcome)
    state.poster_in_hand = outcome
    state.poster_token = object()
    state.emit("poster_drawn", seat=seat, poster=outcome)


def step_refill(state: MagnificentState) -> None:
    for slot, poster in enumerate(state.poster_display):
        if poster is None:
            reshuffle_if_needed(state)
            if state.poster_deck:
                state._schedule(("refill",))
                state.chance = ("poster_display", slot)
            return


def chance_poster_display(state: MagnificentState, outcome: str, slot: int) -> None:
    state.poster_deck.remove(outcome)
    state.poster_display[slot] = outcome
    state.poster_token = object()
    state.emit("display_poster", slot=slot + 1, poster=outcome)


def step_gp2(state: MagnificentState, seat: int) -> None:
    state._ask("GP2", seat)


def options_gp2(state: MagnificentState, seat: int) -> list[Option]:
    posters = state.players_state[seat].posters
    new = state.poster_in_hand
    if None in posters:
        return [
            Option(f"slot:{s + 1}", f"put {new} in poster slot {s + 1}", {"kind": "slot", "slot": s + 1})
            for s, held in enumerate(posters)
            if held is None
        ]
    options = [
        Option(f"replace:{s + 1}", f"replace {posters[s]} with {new}", {"kind": "replace", "slot": s + 1})
        for s in range(5)
    ]
    options.append(Option("discard", f"discard {new}", {"kind": "discard"}))
    return options


def apply_gp2(state: MagnificentState, seat: int, option: Option) -> None:
    posters = state.players_state[seat].posters
    new = state.poster_in_hand
    state.poster_in_hand = ""
    state.poster_token = object()
    kind = option.payload["kind"]
    if kind == "discard":
        state.poster_discard.append(new)
        state.emit("poster_discarded", seat=seat, poster=new)
        return
    slot = option.payload["slot"]
    old = posters[slot - 1]
    if old is not None:
        state.poster_discard.append(old)
        state.emit("poster_discarded", seat=seat, poster=old)
    posters[slot - 1] = new
    state.player_tokens[seat] = object()
    state.emit("poster_placed", seat=seat, slot=slot, poster=new)
