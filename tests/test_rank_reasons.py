"""The result table says why a seat ranks where it does when its score alone does not, and the score's unit."""

from __future__ import annotations

import io

from rich.console import Console

import referee.cli as cli
from bots.random_bot import RandomBot
from referee.local import play_local
from referee.rank_reasons import rank_reasons
from referee.registry import get_game


def test_a_bankrupt_seat_ranks_last_whatever_it_holds_and_the_table_says_why() -> None:
    # Seed 3: seat 1 cannot pay and goes bankrupt holding 50 bills against seat 0's 10 (the rule: it ranks last).
    report = play_local("underground_dice", [RandomBot(3), RandomBot(4)], seed=3)
    assert report.details["bankrupt"] == 1 and report.seats[1].score > report.seats[0].score
    assert list(report.ranks) == [1, 2]
    reasons = rank_reasons(get_game("underground_dice"), report.ranks, [s.score for s in report.seats], [False, False], report.details)
    assert reasons[1] == "went bankrupt (cannot pay): ranks last whatever bills it holds"
    assert reasons[0] == "ranks above seat 1, which went bankrupt (cannot pay)"
    screen = io.StringIO()
    original = cli.console
    cli.console = Console(file=screen, width=200)
    try:
        cli.print_report(report)
    finally:
        cli.console = original
    text = screen.getvalue()
    assert "why this rank" in text and "ranks last whatever bills it holds" in text
    assert "score: P (money: a bill is worth 1000 P)" in text


def test_ranks_the_score_explains_get_no_reason_and_tie_breaks_name_the_rule() -> None:
    game = get_game("magnificent")
    assert rank_reasons(game, [2, 1], [10.0, 12.0], [False, False], {}) == ["", ""]
    assert rank_reasons(game, [2, 1], [12.0, 12.0], [False, False], {})[0] == (
        "tie-break: more points first, then more coins, then more completed posters"
    )
    replaced = rank_reasons(game, [2, 1], [30.0, 12.0], [True, False], {})
    assert replaced[0].startswith("replaced by the fallback") and replaced[1] == "ranks above seat 0, which was replaced by the fallback"
