"""State-construction helpers for DEEP DIVE scenario tests.

A scenario starts from a real game (the start player given as the chance outcome), then moves
tiles out of the unrevealed pool to where an example puts them, exactly as earlier turns would
have (each such tile was flipped, so its depth's face-down count drops by one), and finally
starts the turn of the seat the example is about with the engine's own turn-start step.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.deep_dive import GAME
from referee.games.deep_dive.data import FOOD, ROCK
from referee.games.deep_dive.state import AI, DeepDiveState


def new_game(players: int, start: int = 0, difficulty: str | None = None) -> DeepDiveState:
    """A fresh game; for 2+ players the start player is applied as the setup chance outcome."""
    variants = {"ai_difficulty": difficulty} if difficulty else {}
    state = GAME.new_initial_state(GAME.make_config(players, variants))
    if players > 1:
        state.apply_chance(f"start:{start}")
    return state


def tile(state: DeepDiveState, tile_id: str) -> int:
    return state.data.by_id[tile_id].index


def _reveal_for_setup(state: DeepDiveState, tile_id: str) -> int:
    index = tile(state, tile_id)
    depth = state.data.tiles[index].depth
    state.renew_tokens()  # edited outside the rules: views written before must not be found again
    state.unseen[depth - 1].remove(index)
    state.face_down[depth - 1] -= 1
    return index


def place_available(state: DeepDiveState, *tile_ids: str) -> None:
    """Face-up food/rock tiles lying at their depth (flipped earlier and left there)."""
    for tile_id in tile_ids:
        state._put_available(_reveal_for_setup(state, tile_id))


def place_inert(state: DeepDiveState, *tile_ids: str) -> None:
    """Face-up open water / predator tiles with no penguin on them."""
    for tile_id in tile_ids:
        index = _reveal_for_setup(state, tile_id)
        state.inert[state.data.tiles[index].depth - 1].append(index)


def capture(state: DeepDiveState, seat: int, *tile_ids: str) -> None:
    """The seat's penguins captured on these predator tiles."""
    for tile_id in tile_ids:
        index = _reveal_for_setup(state, tile_id)
        state.inert[state.data.tiles[index].depth - 1].append(index)
        state.penguin_on[index] = seat
        state.captured[seat].append(index)


def acquire(state: DeepDiveState, seat: int, tile_ids: Iterable[str]) -> None:
    """Tiles the seat acquired earlier, in this order (food to its column, rocks to its pile)."""
    for tile_id in tile_ids:
        index = _reveal_for_setup(state, tile_id)
        info = state.data.tiles[index]
        if info.type == FOOD:
            state.columns[seat][info.colour_index].append(index)
        elif info.type == ROCK:
            state.rocks[seat].append(index)
        else:
            raise ValueError(f"{tile_id} cannot be held")


def ai_acquire(state: DeepDiveState, tile_ids: Iterable[str]) -> None:
    """Tiles the solo AI took earlier, in this order."""
    for tile_id in tile_ids:
        info = state.data.tiles[_reveal_for_setup(state, tile_id)]
        if info.type == FOOD:
            state.ai_columns[info.colour_index].append(info.index)
        elif info.type == ROCK:
            state.ai_rocks.append(info.index)
        else:
            state.ai_open_water.append(info.index)


def set_stack(state: DeepDiveState, depth: int, face_down: int, keep: Iterable[str] = ()) -> None:
    """Depth `depth` keeps only `face_down` face-down tiles plus its removed ones; the tiles in `keep`
    stay unrevealed. The other unrevealed tiles count as flipped earlier and are set aside."""
    index = depth - 1
    wanted = [tile(state, t) for t in keep]
    others = [t for t in state.unseen[index] if t not in wanted]
    pool = wanted + others[: face_down + state.removed_per_depth - len(wanted)]
    state.unseen[index] = sorted(pool)
    state.face_down[index] = face_down
    state.renew_tokens()


def exhaust(state: DeepDiveState, *depths: int) -> None:
    """These depths' stacks are empty (their removed tiles stay unrevealed); the end is triggered."""
    for depth in depths:
        set_stack(state, depth, 0)
    state.end_triggered = True


def begin_turn(state: DeepDiveState, seat: int) -> None:
    """Start `seat`'s turn (AI = the solo AI) with the engine's turn-start step (T0/T1/T2)."""
    state.phase = "turn_start"
    state._begin_turn(seat)


def option_ids(state: DeepDiveState, seat: int | None = None) -> list[str]:
    """Ids of the current legal options of the deciding seat."""
    deciding = state.deciding_seats()
    assert len(deciding) == 1
    if seat is not None:
        assert deciding == (seat,)
    return [o.id for o in state.legal_options(deciding[0])]


def decide(state: DeepDiveState, option_id: str) -> None:
    (seat,) = state.deciding_seats()
    state.apply_decision(seat, option_id)


def ids(state: DeepDiveState, indices: Iterable[int]) -> list[str]:
    return [state.data.tiles[t].id for t in indices]


def events_since(state: DeepDiveState, start: int) -> list[tuple[str, dict]]:
    return [(e.kind, dict(e.data)) for e in state.events.since(start)]


__all__ = ["AI"]
