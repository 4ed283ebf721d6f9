"""The strength table's budget column: rows made before it named its budget are converted, new rows say theirs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.strength import (
    HEADER,
    LEGACY_HEADER,
    LEGACY_SOLO_HEADER,
    SOLO_HEADER,
    Budget,
    Pairing,
    make_bot,
    pairings_for,
    play_one,
    write_section,
)


def test_old_rows_get_their_budget_named_and_new_rows_join_them(tmp_path: Path) -> None:
    path = tmp_path / "bots.md"
    path.write_text(
        "# Reference bots\n\n## Strength table\n\n"
        f"{LEGACY_HEADER}\n|---|---|---|---|---|---|---|---|---|---|\n"
        "| g | 2 | mcts vs random | 60 | 30 | 80.0% | +241 | 80.0% | 0.6 | d1 |\n"
        "| g | 2 | heuristic vs random | 60 | 30 | 88.3% | +352 | 88.3% | 0.0 | d1 |\n\n"
        f"Solo games.\n\n{LEGACY_SOLO_HEADER}\n|---|---|---|---|---|---|\n| g | mcts | 60 | 30 | 52.23 ± 2.46 | d1 |\n"
    )
    new = "| g | 2 | search vs heuristic | 40 | 1 s CPU | 70.0% | +147 | 70.0% | 3.0 | d2 |"
    write_section(path, [new], ["| g ai=hard | search | 40 | 1 s CPU | 60.00 ± 2.00 | 25.0% (14.2–40.2) | d2 |"])
    text = path.read_text()
    assert HEADER in text and LEGACY_HEADER not in text and SOLO_HEADER in text
    assert "| g | 2 | mcts vs random | 60 | 30 iterations | 80.0% |" in text
    assert "| g | 2 | heuristic vs random | 60 | — | 88.3% |" in text
    assert "| g | mcts | 60 | 30 iterations | 52.23 ± 2.46 | — | d1 |" in text
    assert new in text and "| g ai=hard | search | 40 |" in text


def test_budget_labels_and_chosen_pairings() -> None:
    assert Budget(30, 0.5).label(("search", "heuristic")) == "0.5 s CPU"
    assert Budget(30, 0.5).label(("mcts", "random")) == "30 iterations"
    assert Budget(30, 0.5).label(("heuristic", "random")) == "—"
    assert Budget(30, 0.5, "paired").label(("search", "mcts")) == "0.5 s CPU paired, 30 iterations"
    assert Budget(30, 0.5, None, 1.0).label(("mcts", "heuristic")) == "mcts 1 s CPU"
    pairings = pairings_for("deep_dive", 1, 6, [2, 4], [("search", "heuristic")], (("ai_difficulty", "hard"),))
    assert [(p.players, p.bot, p.opponent) for p in pairings] == [(2, "search", "heuristic"), (4, "search", "heuristic")]
    assert Pairing("deep_dive", 1, "search", "search", (("ai_difficulty", "hard"),)).game_label == "deep_dive ai_difficulty=hard"


def test_the_measured_search_bot_runs_on_one_core_with_the_style_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("B99_SEARCH_WORKERS", "2")
    bot = make_bot("search", Budget(1, 0.3, "plain"), seed=4)
    assert (bot.workers, bot.style, bot.seconds, bot.cpu_seconds) == (1, "plain", 0.3, True)
    assert make_bot("search", Budget(1, 0.3), seed=4).style is None
    mcts = make_bot("mcts", Budget(30, 0.3, None, 0.7), seed=4)
    assert (mcts.iterations, mcts.seconds, mcts.cpu_seconds) == (None, 0.7, True)
    assert make_bot("mcts", Budget(30, 0.3), seed=4).iterations == 30


def test_a_solo_game_against_the_engine_ai_counts_a_loss_as_no_first_place() -> None:
    # The random bot never beat DEEP DIVE's hard AI in 200 games (docs/bots.md): every game is a loss.
    pairing = Pairing("deep_dive", 1, "random", "random", (("ai_difficulty", "hard"),))
    firsts = [play_one(pairing, seed, Budget(1, 0.01))[1] for seed in range(3)]
    assert firsts == [0.0, 0.0, 0.0]


def test_a_measurement_with_a_log_resumes_where_it_stopped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every finished game goes to the log; a second run with the same log plays only what is missing."""
    from benchmarks.strength import main

    log = tmp_path / "games.jsonl"
    common = ["--only", "underground_dice", "--pairings", "heuristic:random", "--players", "2", "--workers", "1", "--log", str(log)]
    assert main([*common, "--games", "2"]) == 0
    fresh = next(line for line in capsys.readouterr().out.splitlines() if "heuristic vs random" in line)
    assert fresh.split(" | ")[-2] != "—"  # a run that played every game gives its minutes
    first = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(record["seed"] for record in first) == [0, 1]
    assert {record["table"] for record in first} == {"underground_dice | 2 | heuristic vs random | —"}
    # Mark the logged games as losses: a resumed run must count them as logged, not play them again.
    log.write_text("".join(json.dumps({**record, "outcome": [0.0, 0.0, record["outcome"][2]]}) + "\n" for record in first))
    capsys.readouterr()
    assert main([*common, "--games", "3"]) == 0
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted(record["seed"] for record in records) == [0, 1, 2]  # only seed 2 was played
    row = next(line for line in capsys.readouterr().out.splitlines() if "heuristic vs random" in line)
    third = records[-1]["outcome"][0]
    assert f"| 3 | — | {100 * third / 3:.1f}% (" in row
    assert row.split(" | ")[-2] == "—"  # the run's minutes are not the logged games' time
    log.write_text("not json\n")
    with pytest.raises(SystemExit, match="not a game of a strength measurement"):
        main([*common, "--games", "1"])
