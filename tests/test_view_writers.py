"""A game's View written straight from the state carries exactly the bytes of its dict view through the View message.

Every game that has a writer (`GameWire.view_bytes`), every player count and test variant: at each
decision and chance node of random games, every seat's written View (alone, and sharing what all seats
see alike with the other seats' views of the same state) is compared, byte for byte, with
`View(**state.private_view(seat))` serialized; so the dict views (what engines, playouts and the
viewer read) and the typed messages (what bots receive) cannot drift apart, secrets included.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.chance import sample_outcome
from referee.registry import game_ids, get_game
from referee.wire import SharedParts, get_wire, varint


def _variants(game_id: str) -> list[dict]:  # type: ignore[type-arg]
    return [dict(variant) for variant in getattr(get_game(game_id), "test_variants", ({},))]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_writes_its_view_from_the_state(game_id: str) -> None:
    assert get_wire(game_id).view_bytes is not None


@pytest.mark.parametrize("game_id", game_ids())
def test_written_views_equal_the_dict_views(game_id: str) -> None:
    game = get_game(game_id)
    wire = get_wire(game_id)
    assert wire.view_bytes is not None
    compared = 0
    for variant_index, variant in enumerate(_variants(game_id)):
        for players in range(game.min_players, game.max_players + 1):
            rng = random.Random(players * 100 + variant_index)
            state = game.new_initial_state(game.make_config(players, variant))
            while True:
                shared: SharedParts = {}  # as for one decision's requests: what all seats see alike, written once
                for seat in range(players):
                    expected = wire.view_message(state.private_view(seat)).SerializeToString()
                    written = wire.view_bytes(state, seat, shared)
                    assert wire.view_bytes(state, seat, None) == written
                    if written != expected:
                        # Say which field differs, not only that the bytes do.
                        assert wire.view.FromString(written) == wire.view.FromString(expected), (
                            f"{game_id} players={players} variants={variant} seat={seat}"
                        )
                        assert written == expected, f"{game_id}: same fields, other bytes (field order?)"
                    compared += 1
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                    continue
                deciding = state.deciding_seats()
                state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in deciding})
    assert compared > 0


def test_varints_match_protobufs() -> None:
    from google.protobuf.internal import encoder  # the pure-Python encoder protobuf ships

    for value in (0, 1, 127, 128, 129, 300, 1023, 1024, 1025, 8191, 16_383, 16_384, 2**21, 2**31, 2**63):
        assert varint(value) == encoder._VarintBytes(value)
    assert varint(-1) == encoder._VarintBytes((1 << 64) - 1)


@given(st.lists(st.lists(st.integers(0, 12), max_size=9), min_size=3, max_size=3))
def test_deep_dive_writer_scores_rows_as_the_rules_do(columns: list[list[int]]) -> None:
    from referee.games.deep_dive.scoring import complete_rows, row_score
    from referee.games.deep_dive.wire import _row_score

    # Tile i is worth values[i]: the writer reads the columns as tile indices, the rules as food values.
    values = tuple(value for column in columns for value in column)
    indices: list[list[int]] = []
    for column in columns:
        start = sum(map(len, indices))
        indices.append(list(range(start, start + len(column))))
    assert _row_score(values, *indices) == (row_score(columns), complete_rows(columns))


@given(
    st.lists(st.lists(st.integers(0, 12), max_size=9), min_size=3, max_size=3),
    st.integers(0, 6),
    st.integers(0, 6),
    st.sampled_from(["easy", "medium", "hard"]),
)
def test_deep_dive_writer_scores_the_solo_ai_as_the_rules_do(columns: list[list[int]], rocks: int, water: int, difficulty: str) -> None:
    from referee.games.deep_dive.scoring import ai_score, complete_rows
    from referee.games.deep_dive.wire import _ai_score

    values = tuple(value for column in columns for value in column)
    indices: list[list[int]] = []
    for column in columns:
        start = sum(map(len, indices))
        indices.append(list(range(start, start + len(column))))
    expected = (ai_score(columns, rocks, water, difficulty), complete_rows(columns))
    assert _ai_score(values, indices, rocks, water, difficulty) == expected
