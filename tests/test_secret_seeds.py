"""Chance nobody can predict: a keyed generator, a secret seed committed to at the start and revealed at the end."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from bots.random_bot import RandomBot
from ladder.tournament import round_robin
from referee.chance import KeyedRandom, fresh_seed, sample_outcome, seed_commitment
from referee.cli import main
from referee.errors import ReplayError
from referee.local import play_local
from referee.replay import read_replay, revealed_seed, verify_replay

GAME = "underground_dice"


def test_keyed_generator_replays_per_seed_and_stream() -> None:
    first = [KeyedRandom(11, "chance").random() for _ in range(1)]
    again = KeyedRandom(11, "chance")
    assert [again.random()] == first
    assert KeyedRandom(11, "world:0").random() != first[0]
    assert KeyedRandom(12, "chance").random() != first[0]
    numbers = KeyedRandom(5, "chance")
    draws = [numbers.random() for _ in range(2000)]
    assert all(0.0 <= x < 1.0 for x in draws) and 0.45 < sum(draws) / len(draws) < 0.55
    assert sorted(numbers.sample(range(10), 10)) == list(range(10))


def test_outcomes_no_longer_follow_the_mersenne_twister_of_the_seed(tmp_path: Path) -> None:
    """The attack that predicted every outcome from `random.Random(seed)` in game order now fails."""
    replay = tmp_path / "r.jsonl"
    play_local("deep_dive", [RandomBot(1), RandomBot(2)], seed=7, replay_path=str(replay))
    records = read_replay(replay)
    chance = [record["outcome"] for record in records if record["type"] == "chance"]
    assert len(chance) >= 10
    from referee.registry import get_game

    game = get_game("deep_dive")
    header = records[0]
    state = game.new_initial_state(game.config_from_json(header["config"]))
    twister, keyed = random.Random(7), KeyedRandom(7, "chance")
    twister_hits = keyed_hits = 0
    steps = iter(record for record in records if record["type"] in ("chance", "decision"))
    for record in steps:
        if record["type"] == "chance":
            outcomes = state.chance_outcomes()
            twister_hits += sample_outcome(outcomes, twister).id == record["outcome"]
            keyed_hits += sample_outcome(outcomes, keyed).id == record["outcome"]
            state.apply_chance(record["outcome"])
        else:
            state.apply_decisions({int(seat): option for seat, option in record["choices"].items()})
    assert keyed_hits == len(chance)
    assert twister_hits < len(chance)


def test_replay_header_commits_and_the_last_line_reveals(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    report = play_local(GAME, [RandomBot(1), RandomBot(2)], seed=424242, replay_path=str(replay))
    records = read_replay(replay)
    header = records[0]
    assert "seed" not in header and "424242" not in json.dumps(header)
    assert header["seed_commitment"] == seed_commitment(424242, header["match_id"]) == report.seed_commitment
    assert records[-1] == {"type": "seed", "seed": 424242} and revealed_seed(records) == 424242
    verify_replay(replay)

    lines = replay.read_text().splitlines()
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([*lines[:-1], json.dumps({"type": "seed", "seed": 424243})]) + "\n")
    with pytest.raises(ReplayError, match="does not match the commitment"):
        verify_replay(forged)
    # A referee that picked outcomes itself (here: a consistent seed and commitment, but other outcomes) is caught.
    other = tmp_path / "other.jsonl"
    play_local(GAME, [RandomBot(1), RandomBot(2)], seed=1, replay_path=str(other))
    body = [json.loads(line) for line in other.read_text().splitlines()]
    body[-1]["seed"] = 2
    body[0]["seed_commitment"] = seed_commitment(2, body[0]["match_id"])
    other.write_text("".join(json.dumps(record) + "\n" for record in body))
    with pytest.raises(ReplayError, match="the revealed seed draws"):
        verify_replay(other)
    unrevealed = tmp_path / "running.jsonl"
    unrevealed.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ReplayError, match="not revealed"):
        verify_replay(unrevealed)


def test_tournament_seeds_are_fresh_unless_given() -> None:
    assert {game.seed for game in round_robin(2, 2, 4, None)}.isdisjoint({game.seed for game in round_robin(2, 2, 4, None)})
    assert round_robin(2, 2, 4, 9) == round_robin(2, 2, 4, 9)
    assert fresh_seed() != fresh_seed() and fresh_seed() < 2**63


def test_match_takes_its_seed_from_the_environment_off_the_command_line(tmp_path: Path) -> None:
    """Other users can read a command line in /proc; B99_SEED keeps the seed out of it."""
    result = CliRunner().invoke(
        main, ["match", GAME, "--bot", "random", "--bot", "random", "--in-process", "--json", "--replay", str(tmp_path / "r.jsonl")],
        env={"B99_SEED": "987654321"},
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["seed"] == 987654321
    unseeded = CliRunner().invoke(main, ["match", GAME, "--bot", "random", "--bot", "random", "--in-process", "--json", "--replay", str(tmp_path / "s.jsonl")])
    assert json.loads(unseeded.output)["seed"] >= 0


def test_a_requeued_attempt_draws_other_chance() -> None:
    """A bot that saw part of a failed attempt must not know the chance of the next one."""
    from referee.chance import attempt_seed

    assert attempt_seed(77, 1) == 77
    seeds = {attempt_seed(77, attempt) for attempt in range(1, 6)}
    assert len(seeds) == 5 and all(0 <= seed < 2**63 for seed in seeds)
    assert attempt_seed(77, 2) == attempt_seed(77, 2)


class SeedCheckingBot(RandomBot):
    """A random bot that keeps what GameStart committed to and what GameOver revealed."""

    def on_game_start(self, start):  # type: ignore[no-untyped-def]
        self.start = start

    def on_game_over(self, over):  # type: ignore[no-untyped-def]
        self.over = over


def test_bots_get_the_commitment_at_the_start_and_the_seed_at_the_end() -> None:
    from sdk import seed_was_committed

    bots = [SeedCheckingBot(1), SeedCheckingBot(2)]
    report = play_local(GAME, bots, seed=777)  # type: ignore[arg-type]
    for bot in bots:
        assert bot.start.seed_commitment == report.seed_commitment == seed_commitment(777, bot.start.match_id)
        assert bot.over.seed == 777 and seed_was_committed(bot.start, bot.over)
    forged = type(bots[0].over)(ranks=bots[0].over.ranks, scores=bots[0].over.scores, seed=778)
    assert not seed_was_committed(bots[0].start, forged)
