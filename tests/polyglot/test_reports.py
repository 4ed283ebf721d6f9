"""The generated documents: the strength table's statistics and merging, and the per-game bot reference."""

from __future__ import annotations

import math
from pathlib import Path

from benchmarks.strength import Pairing, elo, pairings_for, play_one, wilson, write_section
from referee.registry import get_game
from referee.wire import get_wire
from sdk.gamedocs import game_section
from tests.polyglot.helpers import test_game


def test_wilson_interval_brackets_the_mean_and_narrows_with_games() -> None:
    low, high = wilson(0.7, 50)
    assert low < 0.7 < high
    narrow = wilson(0.7, 500)
    assert narrow[1] - narrow[0] < high - low
    assert math.isclose(wilson(1.0, 10)[1], 1.0) and wilson(0.0, 10)[0] == 0.0


def test_elo_of_even_score_is_zero_and_symmetric() -> None:
    assert elo(0.5) == 0.0
    assert math.isclose(elo(0.75), -elo(0.25))
    assert math.isclose(elo(0.75), 400 * math.log10(3))


def test_pairings_skip_bots_a_game_lacks() -> None:
    game = get_game(test_game())
    pairings = pairings_for(game.id, game.min_players, game.max_players)
    assert Pairing(game.id, 2, "mcts", "random") in pairings
    assert all(p.players in (2, 4) and game.min_players <= p.players <= game.max_players for p in pairings)


def test_one_strength_game_scores_the_bot_against_the_other_seats() -> None:
    score, first, scores = play_one(Pairing(test_game(), 2, "mcts", "random"), seed=1, iterations=5)
    assert score in (0.0, 0.5, 1.0) and 0.0 <= first <= 1.0 and len(scores) == 2


def test_new_rows_replace_measured_ones_and_other_sections_stay(tmp_path: Path) -> None:
    path = tmp_path / "bots.md"
    path.write_text("# Reference bots\n\n## Some game\n\nIts heuristic wins 80%.\n")
    first = "| g | 2 | mcts vs random | 10 | 5 | 90% | +380 | 90% | 0.1 | d1 |"
    write_section(path, [first, "| g | 4 | mcts vs random | 10 | 5 | 50% | 0 | 25% | 0.1 | d1 |"], [])
    again = "| g | 2 | mcts vs random | 20 | 5 | 80% | +240 | 80% | 0.2 | d2 |"
    write_section(path, [again], ["| g | mcts | 20 | 5 | 3.00 ± 1.00 | d2 |"])
    text = path.read_text()
    assert "Its heuristic wins 80%." in text
    assert again in text and first not in text
    assert text.index(again) < text.index("| g | 4 |")
    assert "| g | mcts | 20 |" in text


def test_bot_reference_lists_every_view_field_and_decision() -> None:
    game = get_game(test_game())
    text = "\n".join(game_section(game))
    for field in get_wire(game.id).view.DESCRIPTOR.fields:
        assert f"| `{field.name}` |" in text
    assert "**Decisions**" in text and "(up to " in text
