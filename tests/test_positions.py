"""Positions as data: every game's whole state to JSON and back, checked; matches and tests start from one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.random_bot import RandomBot
from referee.cli import main
from referee.engine import GameState
from referee.local import play_local
from referee.position import PositionError, load_position, position_json
from referee.registry import game_ids, get_game
from referee.replay import verify_replay


def random_states(game_id: str, seed: int, every: float = 0.08, players: int | None = None, variants: dict | None = None) -> list[GameState]:
    """Snapshots of one random game (some mid-game states, the end), of the default config or the one given."""
    game = get_game(game_id)
    rng = random.Random(seed)
    config = game.make_config() if players is None and variants is None else game.make_config(players, variants or {})
    state = game.new_initial_state(config)
    snapshots = [state.clone()]
    while not state.is_terminal():
        if rng.random() < every:
            snapshots.append(state.clone())
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_chance(rng.choices(outcomes, [o.probability for o in outcomes])[0].id)
        else:
            state.apply_decisions({seat: rng.choice(list(state.legal_options(seat))).id for seat in state.deciding_seats()})
    return [*snapshots, state]


@pytest.mark.parametrize("game_id", game_ids())
def test_every_state_round_trips_through_json_with_the_same_views_options_and_result(game_id: str) -> None:
    for state in random_states(game_id, seed=11):
        data = json.loads(json.dumps(position_json(state)))
        back = load_position(data)
        assert json.loads(json.dumps(position_json(back))) == data
        if state.is_terminal():
            assert back.result() == state.result()
        elif not state.is_chance_node():
            for seat in state.deciding_seats():
                assert [o.id for o in back.legal_options(seat)] == [o.id for o in state.legal_options(seat)]
                assert back.private_view(seat) == state.private_view(seat)
        else:
            assert [o.id for o in back.chance_outcomes()] == [o.id for o in state.chance_outcomes()]


def dice_position() -> dict:
    game = get_game("underground_dice")
    return position_json(game.new_initial_state(game.make_config(2, {"first_parent": "0"})))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"genuine": [31, 30]}, "61 bills in the hands and the pot, but the game has 60"),
        ({"fakes": [1, 0]}, "counterfeit bills without the counterfeit rule"),
        ({"genuine": "thirty"}, "state field 'genuine' must be a list, not str"),
        ({"colour": 1}, "underground_dice has no state field 'colour'"),
        ({"parent": 4}, "parent must be from 0 to 1, not 4"),
        ({"p": 9}, "9 pin and 3 4-5-6 dice unused, but the game has 3 and 3"),
    ],
)
def test_an_impossible_position_gets_a_clear_error(change: dict, message: str) -> None:
    data = dice_position()
    data["state"].update(change)
    with pytest.raises(PositionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_position(data)


def test_a_position_missing_a_field_or_of_another_format_is_refused() -> None:
    data = dice_position()
    del data["state"]["pot"]
    with pytest.raises(PositionError, match="state field 'pot' is missing"):
        load_position(data)
    with pytest.raises(PositionError, match="not a position"):
        load_position({"game": "underground_dice"})


def test_replay_position_then_match_from_it_and_the_replay_verifies(tmp_path: Path) -> None:
    runner = CliRunner()
    first = tmp_path / "first.jsonl"
    assert runner.invoke(main, ["match", "fuji99", "--bot", "random", "--bot", "random", "--in-process", "--seed", "5", "--replay", str(first)]).exit_code == 0
    position = tmp_path / "p.json"
    made = runner.invoke(main, ["replay", "position", str(first), "--step", "30", "--out", str(position)])
    assert made.exit_code == 0, made.output
    second = tmp_path / "second.jsonl"
    played = runner.invoke(
        main, ["match", "fuji99", "--from", str(position), "--bot", "random", "--bot", "heuristic", "--in-process", "--seed", "2", "--replay", str(second)]
    )
    assert played.exit_code == 0, played.output
    assert verify_replay(second).state.is_terminal()
    # Measured: the report of a match started --from a position did not say so. Now its title and a
    # line under the table do, and --json carries it.
    words = " ".join(played.output.split())
    assert "· from a position" in words and "started from the position in " in words and "not the game's start" in words
    as_json = runner.invoke(main, ["match", "fuji99", "--from", str(position), "--bot", "random", "--bot", "random", "--in-process", "--seed", "2", "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.output)["from_position"] is True
    fresh = runner.invoke(main, ["match", "fuji99", "--bot", "random", "--bot", "random", "--in-process", "--seed", "2", "--json"])
    assert json.loads(fresh.output)["from_position"] is False
    too_far = runner.invoke(main, ["replay", "position", str(first), "--step", "100000"])
    assert too_far.exit_code == 2 and "so no step 100000" in too_far.output


def test_a_bot_test_starts_from_a_position() -> None:
    states = random_states("underground_dice", seed=3, every=0.5)
    start = states[len(states) // 2]
    assert not start.is_terminal()
    report = play_local("underground_dice", [RandomBot(1), RandomBot(2)], seed=1, position=position_json(start))
    assert sorted(report.ranks)[0] == 1
    with pytest.raises(Exception, match="players, but 1 bots were given"):
        play_local("deep_dive", [RandomBot(1)], seed=1, position=position_json(random_states("deep_dive", 1)[0]))
