"""The table under every environment: observations from the state equal the view's encoding, and the info's
view is built only when read, yet is always the view of the position the info was given at."""

from __future__ import annotations

import copy
import pickle
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from referee.registry import game_ids, get_game
from sdk.envs import aec_env
from sdk.envs.encoding import EncodingError, Slots
from sdk.envs.actions import IllegalActionError
from sdk.envs.info import SeatInfo, StaleViewError
from sdk.envs.state_encoders import state_encoder
from sdk.envs.table import Table


def play(table: Table, seed: int, steps: int) -> None:
    """Random legal actions (seeded) for up to `steps` steps."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        seat = table.to_move()
        if seat is None:
            return
        table.act(seat, int(rng.choice(np.flatnonzero(table.action_mask(seat)))))


@pytest.mark.parametrize("game_id", game_ids())
def test_a_table_observes_the_same_from_the_state_as_from_the_view(game_id: str) -> None:
    fast, slow = Table(game_id), Table(game_id, from_state=False)
    assert slow.state_encoder is None
    fast.reset(seed=9)
    slow.reset(seed=9)
    for _ in range(60):
        for seat in range(fast.players):
            assert fast.encode(seat).tobytes() == slow.encode(seat).tobytes()
        seat = fast.to_move()
        if seat is None:
            break
        action = int(np.flatnonzero(fast.action_mask(seat))[-1])
        fast.act(seat, action)
        slow.act(seat, action)


def test_the_games_with_the_largest_views_have_an_encoder_from_the_state() -> None:
    assert state_encoder("deep_dive") is not None and state_encoder("magnificent") is not None
    assert state_encoder("no_such_game") is None


def test_an_info_builds_its_view_when_read_and_replays_it_once_the_game_has_moved_on() -> None:
    table = Table("deep_dive", players=3)
    table.reset(seed=4)
    play(table, 1, 5)
    info = table.info(table.to_move())
    assert isinstance(info, SeatInfo) and not dict.__contains__(info, "view")  # not built yet
    expected = table.state.private_view(table.to_move())
    now = table.info(table.to_move())
    assert now["view"] == expected
    play(table, 2, 30)  # the game moves on; the first info was never read
    assert info["view"] == expected  # replayed from the table's log
    assert {**table.info(0)}.keys() >= {"view", "decision", "options"}
    copied, pickled = copy.deepcopy(table.info(0)), pickle.loads(pickle.dumps(table.info(0)))
    assert type(copied) is dict and type(pickled) is dict and copied["view"] == pickled["view"] == table.view(0)


def test_an_info_of_a_position_set_from_outside_cannot_be_replayed() -> None:
    table = Table("underground_dice")
    table.reset(seed=1)
    table.changed()  # as a driver that edits the state itself says
    info = table.info(table.to_move())
    play(table, 3, 3)
    with pytest.raises(StaleViewError, match="read info\\['view'\\] during the step"):
        info["view"]


def _edit_deep_dive(state: Any) -> None:
    state.face_down[0] = max(0, state.face_down[0] - 1)


def _edit_fuji99(state: Any) -> None:
    state.cubes[state.hands[0][0]] += 1


def _edit_magnificent(state: Any) -> None:
    state.players_state[0].coins += 3


@pytest.mark.parametrize(
    ("game_id", "ready", "edit"),
    [
        ("deep_dive", lambda state: True, _edit_deep_dive),
        ("fuji99", lambda state: bool(state.hands[0]), _edit_fuji99),
        ("magnificent", lambda state: True, _edit_magnificent),
    ],
)
def test_a_state_a_driver_edits_in_place_is_observed_as_edited_once_it_says_so(
    game_id: str, ready: Callable[[Any], bool], edit: Callable[[Any], None]
) -> None:
    """Games whose engines record what changed: `changed()` renews the records, so no part written before the
    edit (kept observation vectors, parts found by token) stands for the edited position."""
    table = Table(game_id)
    table.reset(seed=4)
    rng = np.random.default_rng(4)
    while table.to_move() is not None and not ready(table.state):
        seat = table.to_move()
        table.act(seat, int(rng.choice(np.flatnonzero(table.action_mask(seat)))))
    seat = table.to_move()
    assert seat is not None
    for observer in range(table.players):
        table.encode(observer)  # the encoder keeps what it wrote for this state
    edit(table.state)
    table.changed()
    for observer in range(table.players):
        expected = Slots()
        table.view_encoding.encode_into(table.state.private_view(observer), expected)
        assert np.array_equal(table.encode(observer), table.view_encoding.vector(expected))


def test_aec_infos_read_late_still_hold_their_own_views() -> None:
    env = aec_env("magnificent", players=2)
    env.reset(seed=3)
    kept = []
    for _ in range(40):
        agent = env.agent_selection
        kept.append((env.infos[agent], env.table.state.clone(), env.agent_seat[agent]))
        env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))
    for info, state, seat in kept[::7]:
        assert info["view"] == state.private_view(seat)
    for info, state, seat in kept[3::7]:  # the decision and options are made when read too, of their own position
        assert info["decision"] == state.decision_name(seat)
        assert [option.id for option in info["options"]] == [option.id for option in state.legal_options(seat)]


def test_an_aec_info_is_a_dict_of_its_decision_options_and_view_whose_keys_are_made_when_read() -> None:
    env = aec_env("underground_dice")
    env.reset(seed=2)
    info = env.infos[env.agent_selection]
    assert dict.__len__(info) == 0  # nothing made yet
    assert len(info) == 3 and "options" in info and "decision" in info and "view" in info and "result" not in info
    options = info["options"]
    assert dict.__len__(info) == 1 and info["options"] is options and len(info) == 3
    options.append("mine")  # a list of the learner's own: the table's options stay as they were
    assert "mine" not in env.table.options(env.agent_seat[env.agent_selection])
    del info["decision"]
    assert "decision" not in info and len(info) == 2 and info.get("decision") is None
    info["view"] = "set by hand"
    assert list(info) == ["options", "view"] and info["view"] == "set by hand"
    fresh = env.infos[env.agent_selection] = env.table.mover_info()[1]
    assert list(fresh) == ["decision", "options", "view"] and fresh == {**fresh} and pickle.loads(pickle.dumps(fresh)) == fresh


def test_a_value_outside_its_vocabulary_is_an_encoding_error_from_the_state_too() -> None:
    table = Table("magnificent", players=2)
    table.reset(seed=2)
    table.state.players_state[0].board = "IX"
    with pytest.raises(EncodingError, match="IX"):
        table.encode(0)


@pytest.mark.parametrize("game_id", ["fuji99", "underground_dice"])
def test_a_phase_outside_its_vocabulary_is_an_encoding_error_from_the_state(game_id: str) -> None:
    table = Table(game_id)
    table.reset(seed=2)
    table.state.phase = "intermission"
    with pytest.raises(EncodingError, match="intermission"):
        table.encode(0)


def test_slots_hand_blocks_runs_and_single_slots_to_the_vector() -> None:
    encoding = Table("deep_dive").encoding.view
    out = Slots()
    out.add_block(2, np.array([5.0, 0.0, 7.0], np.float32))
    out.add_block(3, np.array([6.0], np.float32))  # a later block over an earlier one
    out.add_run(np.array([10, 12]), np.array([1.0, 2.0], np.float32))
    out[0] = 3  # an int is taken as its float
    vector = encoding.vector(out)
    assert vector[:5].tolist() == [3.0, 0.0, 5.0, 6.0, 7.0] and vector[10] == 1.0 and vector[12] == 2.0
    assert vector.sum() == 24.0 and vector.dtype == np.float32
    many = {slot: 1.0 for slot in range(0, 2 * 90, 2)}  # more slots than are set one by one
    assert encoding.vector(many).sum() == 90.0


@pytest.mark.parametrize("game_id", game_ids())
def test_actions_by_index_play_the_same_game_as_the_engines_checked_path(game_id: str) -> None:
    """A one-seat decision taken by index skips the engine's second legality check: the game must not differ."""
    table = Table(game_id)
    table.reset(seed=5)
    engine = table.game.new_initial_state(table.config)
    rng = np.random.default_rng(6)
    for _ in range(150):
        seat = table.to_move()
        if seat is None:
            break
        action = rng.choice(np.flatnonzero(table.action_mask(seat)))  # a numpy integer, as learners give
        table.act(seat, action)
    replayed = table.replayed(table.log)  # every link through the engine's checked apply_decisions
    assert replayed.public_view() == table.state.public_view()
    for seat in range(table.players):
        assert replayed.private_view(seat) == table.state.private_view(seat)


def test_an_action_index_names_its_own_option_even_after_an_info_list_was_changed() -> None:
    table = Table("underground_dice")
    table.reset(seed=3)
    seat = table.to_move()
    info = table.info(seat)
    legal = np.flatnonzero(table.action_mask(seat))
    wanted = table.encoding.actions.ids[int(legal[-1])]
    info["options"].reverse()  # a learner that reorders the list it was given
    table.act(seat, int(legal[-1]))
    log = table.log
    while log is not None and log[1] != "decide":  # the chance outcomes drawn after it come later in the chain
        log = log[0]
    assert log is not None and log[2] == {seat: wanted}


@pytest.mark.parametrize("action", [True, 1.0, "1", None, -1])
def test_an_action_that_is_not_an_index_is_an_error_and_nothing_is_applied(action: object) -> None:
    table = Table("deep_dive")
    table.reset(seed=2)
    seat, version = table.to_move(), table.version
    with pytest.raises(IllegalActionError, match=repr(action).replace("(", r"\(").replace(".", r"\.")):
        table.act(seat, action)  # type: ignore[arg-type]
    assert table.version == version and table.to_move() == seat


@pytest.mark.parametrize("game_id", game_ids())
def test_every_seats_observation_along_whole_games_is_its_views_encoding(game_id: str) -> None:
    """Each seat's observation at every step of whole games equals its view's encoding, and one handed out earlier
    never changes as the table goes on (encoders keep parts of vectors: the table must hand out copies)."""
    table = Table(game_id, players=get_game(game_id).max_players)
    view = table.view_encoding
    held = []
    for seed in (1, 2):
        table.reset(seed=seed)
        for step in range(300):
            for seat in range(table.players):
                observation = table.observation(seat)["observation"]
                assert observation.tobytes() == view.encode(table.state.private_view(seat)).tobytes(), (seed, step, seat)
                held.append((observation, observation.tobytes()))
            seat = table.to_move()
            if seat is None:
                break
            table.act(seat, int(np.flatnonzero(table.action_mask(seat))[(seed * step) % 7 % int(table.action_mask(seat).sum())]))
    assert all(observation.tobytes() == was for observation, was in held)


def test_a_vector_handed_whole_by_the_encoder_is_copied_and_still_takes_slots_over_it() -> None:
    encoding = Table("underground_dice").encoding.view
    whole = np.arange(encoding.size, dtype=np.float32)
    out = Slots()
    out.add_block(0, whole)
    out.add_block(3, np.array([9.0], np.float32))
    out[5] = 7.0
    vector = encoding.vector(out)
    assert vector is not whole and vector[3] == 9.0 and vector[5] == 7.0 and vector[6] == 6.0
    vector[0] = 99.0
    assert whole[0] == 0.0  # the encoder's own array is never handed out


def test_a_mask_is_found_by_an_option_tuples_identity_and_by_its_ids_otherwise() -> None:
    table = Table("underground_dice")
    actions = table.actions
    table.reset(seed=3)
    options = tuple(table.state.legal_options(table.to_move()))
    mask, positions = actions.legal(options)

    def found(seen: tuple) -> bool:  # type: ignore[type-arg]
        """The very mask and positions remembered (a compiled build hands out a new pair holding them)."""
        again_mask, again_positions = actions.legal(seen)
        return again_mask is mask and again_positions is positions

    assert found(options)  # the same tuple: found by its identity
    again = tuple(list(options))  # another tuple of the same options
    assert again is not options and found(again) and found(list(options))  # equal ids: the same mask
    assert actions.tuples[id(options)][0] is options and all(type(seen[0]) is tuple for seen in actions.tuples.values())
    made = [tuple(list(options)) for _ in range(600)]  # new tuples every time: the memory of identities stays small
    assert all(found(made_now) for made_now in made) and 0 < len(actions.tuples) <= 256


def test_an_encoder_that_makes_the_whole_vector_hands_it_to_the_table_directly() -> None:
    """Underground Dice's module has `observation_vector` beside `encode`: the table calls it (no `Slots`), and it
    makes what `ViewEncoding.vector` makes of `encode`'s slots; an encoder replaced by hand is looked up again."""
    from sdk.envs.state_encoders import underground_dice
    from sdk.envs.table import whole_vector_of

    table = Table("underground_dice")
    assert whole_vector_of(state_encoder("underground_dice")) is underground_dice.observation_vector
    for game_id in game_ids():  # a module's own `observation_vector` where it has one (The Magnificent's too), else none
        encoder = state_encoder(game_id)
        if encoder is not None:
            assert whole_vector_of(encoder) is getattr(sys.modules[encoder.__module__], "observation_vector", None)
    table.reset(seed=4)
    for _ in range(40):
        for seat in range(table.players):
            out = Slots()
            underground_dice.encode(table.state, seat, out)
            assert table.encode(seat).tobytes() == table.view_encoding.vector(out).tobytes()
        seat = table.to_move()
        if seat is None:
            break
        table.act(seat, int(np.flatnonzero(table.action_mask(seat))[0]))
    assert table.whole_vector is underground_dice.observation_vector
    table.state_encoder = lambda state, seat, out: underground_dice.encode(state, seat, out)  # no module's `encode`
    seat = 0
    assert table.encode(seat).tobytes() == table.view_encoding.encode(table.state.private_view(seat)).tobytes()
    assert table.whole_vector is None


def test_vectors_kept_per_seat_stay_exact_when_games_and_clones_are_observed_in_turn() -> None:
    """Two Underground Dice games, and a clone of one, observed in turn (each seat's vector kept last is then another
    game's): every observation is still its view's encoding, dice set and cleared as turns go by included."""
    tables = [Table("underground_dice", variants={"counterfeit": seed % 2 == 0}) for seed in range(2)]
    for seed, table in enumerate(tables):
        table.reset(seed=seed + 20)
    rng = np.random.default_rng(5)
    for step in range(400):
        for table in tables:
            states = [table.state, table.state.clone()]
            for state in states:
                for seat in range(table.players):
                    expected = table.view_encoding.encode(state.private_view(seat)).tobytes()
                    assert state_vector_of(state, seat) == expected, (step, seat)
            seat = table.to_move()
            if seat is None:
                table.reset(seed=step)
                continue
            table.act(seat, int(rng.choice(np.flatnonzero(table.action_mask(seat)))))


def state_vector_of(state: object, seat: int) -> bytes:
    """Underground Dice's observation of `state` for `seat` from its module's `observation_vector`."""
    from sdk.envs.state_encoders import underground_dice

    return underground_dice.observation_vector(state, seat).tobytes()  # type: ignore[arg-type]
