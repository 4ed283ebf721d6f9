"""The search bot's paired search (common random numbers, the heuristic's choice kept unless beaten
significantly), its root helpers, its choice of search per table, and the budget settings it shares with `mcts`."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Self

import pytest

from bots.ismcts import ISMCTSBot
from bots.search.bot import SearchBot, default_style, paired_bar
from bots.search.budget import SearchSettingsError
from bots.search.paired import PairedSearch
from bots.search.policy import HeuristicPolicy
from bots.search.rollout import RolloutSearch
from referee.chance import sample_outcome, uniform_outcomes
from referee.engine import ChanceOutcome, Game, GameConfig, GameResult, GameState, JsonValue, Option, Seat
from referee.local import request_for
from referee.match import MatchSpec, run_match
from referee.registry import get_game
from sdk.forward import InformationSet, seat_world
from sdk.types import ClockInfo
from tests.polyglot.helpers import PROCESS_CLOCK, assert_clean, python_bot
from tests.polyglot.toy_game import dealt

ROOT = Path(__file__).resolve().parents[2]


class CoinGame(Game):
    """One choice that changes nothing (`a` or `b`), then a coin decides: pure noise for a search."""

    id = "coin_toss"
    name = "Coin Toss"
    min_players = 1
    max_players = 2
    default_players = 1

    def new_initial_state(self, config: GameConfig) -> CoinState:
        return CoinState(self, config)


class CoinState(GameState):
    def __init__(self, game: Game, config: GameConfig) -> None:
        super().__init__(game, config)
        self.picked: str | None = None
        self.coin: str | None = None

    def is_terminal(self) -> bool:
        return self.coin is not None

    def is_chance_node(self) -> bool:
        return self.picked is not None and self.coin is None

    def chance_outcomes(self) -> Sequence[ChanceOutcome]:
        return uniform_outcomes(("heads", "tails"))

    def deciding_seats(self) -> tuple[Seat, ...]:
        return () if self.picked is not None else (0,)

    def decision_name(self, seat: Seat) -> str:
        return "pick"

    def legal_options(self, seat: Seat) -> Sequence[Option]:
        return (Option("a", "A", {}), Option("b", "B", {}))

    def _apply_chance(self, outcome: ChanceOutcome) -> None:
        self.coin = outcome.id

    def _apply_decisions(self, chosen: Mapping[Seat, Option]) -> None:
        self.picked = chosen[0].id

    def private_view(self, seat: Seat) -> dict[str, JsonValue]:
        return {}

    def public_view(self) -> dict[str, JsonValue]:
        return {}

    def result(self) -> GameResult:
        self.require_over()
        points = 10.0 if self.coin == "heads" else 0.0
        return GameResult((1,), (points,))

    def clone(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.game, twin.config, twin.events = self.game, self.config, self.events.copy()
        twin.picked, twin.coin = self.picked, self.coin
        return twin

    def determinize(self, seat: Seat, rng: random.Random) -> Self:
        return self.clone()


def coin_worlds() -> InformationSet:
    game = CoinGame()
    return InformationSet(0, game.new_initial_state(game.make_config(1)))


def no_heuristic(state: GameState) -> HeuristicPolicy:
    return HeuristicPolicy(state.game.id, state.players, epsilon=0.0)


def test_paired_search_keeps_the_heuristic_s_choice_when_the_options_differ_only_by_luck() -> None:
    # The plain search, on the same noise, leaves the prior in some of these searches (see the next test):
    # what made it worse than the heuristic alone in the solo games.
    worlds = coin_worlds()
    policy = no_heuristic(worlds.anchor)
    for seed in range(20):
        search = PairedSearch(worlds, ["a", "b"], "b", policy, random.Random(seed))
        search.run(float("inf"), iterations=40)
        assert search.best() == "b", seed
        assert search.challengers["a"].pairs >= 8 and search.challengers["a"].total == 0.0


def test_the_plain_search_follows_the_luck_of_its_playouts() -> None:
    worlds = coin_worlds()
    policy = no_heuristic(worlds.anchor)
    answers = set()
    for seed in range(20):
        search = RolloutSearch(worlds, ["a", "b"], "b", policy, random.Random(seed))
        search.run(float("inf"), iterations=40)
        answers.add(search.best())
    assert answers == {"a", "b"}


@pytest.mark.parametrize("card", [1, 2, 3])
def test_paired_search_overturns_a_wrong_prior_when_the_evidence_is_clear(card: int) -> None:
    # High Card against a random opponent: playing beats folding with any card (tests/polyglot/toy_game.py).
    state = dealt(2, [card, 2])
    search = PairedSearch(InformationSet(0, state), ["fold", "play"], "fold", no_heuristic(state), random.Random(card))
    search.run(float("inf"), iterations=120)
    assert search.best() == "play"
    assert search.challengers["play"].mean > 0


def test_a_challenger_clearly_worse_than_the_prior_leaves_play() -> None:
    state = dealt(2, [3, 1])
    search = PairedSearch(InformationSet(0, state), ["fold", "play"], "play", no_heuristic(state), random.Random(5))
    search.run(float("inf"), iterations=400)
    fold = search.challengers["fold"]
    assert fold.out and fold.mean < 0
    assert search.best() == "play"
    assert search.iterations < 400  # nothing left to compare: the search stops early


def test_wide_choices_join_play_as_the_samples_grow() -> None:
    game = get_game("fuji99")
    state = game.new_initial_state(game.make_config(2))
    rng = random.Random(4)
    while True:
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        seat = state.deciding_seats()[0]
        options = state.legal_options(seat)
        if len(options) >= 6:
            break
        state.apply_decisions({seat: options[0].id})
    legal = [option.id for option in options]
    search = PairedSearch(InformationSet(seat, seat_world(state, seat, rng)), legal, legal[0], HeuristicPolicy("fuji99", 2, 0.0), rng)
    assert len(search.in_play()) == 2  # the prior and its two nearest options
    search.run(float("inf"), iterations=30)
    assert search.samples >= 4 and len(search.in_play()) + sum(c.out for c in search.challengers.values()) >= 3


def test_merged_statistics_add_up() -> None:
    state = dealt(2, [2, 2])
    worlds = InformationSet(0, state)
    searches = [PairedSearch(worlds, ["fold", "play"], "fold", no_heuristic(state), random.Random(seed)) for seed in (1, 2)]
    for search in searches:
        search.run(float("inf"), iterations=20)
    pairs = [search.challengers["play"].pairs for search in searches]
    totals = [search.challengers["play"].total for search in searches]
    searches[0].absorb(searches[1].statistics())
    assert searches[0].challengers["play"].pairs == sum(pairs)
    assert searches[0].challengers["play"].total == pytest.approx(sum(totals))
    assert searches[0].iterations == 40

    plain = [RolloutSearch(worlds, ["fold", "play"], "fold", no_heuristic(state), random.Random(seed)) for seed in (1, 2)]
    for search in plain:
        search.run(float("inf"), iterations=15)
    plain[0].absorb(plain[1].statistics())
    assert sum(arm.visits for arm in plain[0].arms.values()) == plain[0].iterations == 30


@pytest.mark.parametrize(
    ("game_id", "players", "style"),
    [("underground_dice", 2, "plain"), ("deep_dive", 2, "plain"), ("deep_dive", 3, "plain"), ("deep_dive", 4, "paired"),
     ("deep_dive", 6, "plain"), ("deep_dive", 1, "paired"),
     ("fuji99", 2, "paired"), ("merchants", 1, "paired")],
)
def test_each_table_gets_its_search(game_id: str, players: int, style: str) -> None:
    assert default_style(game_id, players) == style


def first_decision(game_id: str, players: int, seed: int) -> tuple[GameState, Seat]:
    """The first state where a seat has more than one option, after random play."""
    game = get_game(game_id)
    state = game.new_initial_state(game.make_config(players))
    rng = random.Random(seed)
    while True:
        if state.is_chance_node():
            state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
            continue
        for seat in state.deciding_seats():
            if len(state.legal_options(seat)) > 1:
                return state, seat
        state.apply_decisions({seat: state.legal_options(seat)[0].id for seat in state.deciding_seats()})


def with_world(state: GameState, seat: Seat) -> object:
    request = request_for(state, seat)
    return dataclasses.replace(request, local_world=InformationSet(seat, seat_world(state, seat, random.Random(1))))


def test_the_bot_searches_deep_dive_solo_with_the_paired_search() -> None:
    state, seat = first_decision("deep_dive", 1, seed=2)
    bot = SearchBot(iterations=6, seed=1)
    answer = bot.choose(with_world(state, seat))  # type: ignore[arg-type]
    assert isinstance(bot.last_search, PairedSearch) and bot.last_search.iterations >= 6
    assert (bot.last_search.z, bot.last_search.min_pairs) == (3.0, 16)  # DEEP DIVE solo's stricter bar
    assert answer in {option.id for option in state.legal_options(seat)}


def test_deep_dive_solo_alone_has_a_stricter_bar() -> None:
    assert paired_bar("deep_dive", 1) == (3.0, 16)
    for game_id, players in (("deep_dive", 2), ("fuji99", 2), ("fuji99", 4), ("merchants", 1), ("magnificent", 2)):
        assert paired_bar(game_id, players) == (2.0, 8)


def test_deep_dive_at_four_players_has_a_lower_bar() -> None:
    assert paired_bar("deep_dive", 4) == (1.5, 8)


def test_a_stricter_bar_waits_for_more_pairs_before_leaving_the_prior() -> None:
    # High Card with a 3: playing beats folding; the default bar leaves the prior after 8 pairs,
    # DEEP DIVE solo's (3 standard errors after 16 pairs) not before 16
    state = dealt(2, [3, 2])
    worlds = InformationSet(0, state)
    answers = {}
    for z, min_pairs in ((2.0, 8), (3.0, 16)):
        search = PairedSearch(worlds, ["fold", "play"], "fold", no_heuristic(state), random.Random(3), z, min_pairs)
        search.run(float("inf"), iterations=24)
        answers[min_pairs] = search.best()
    assert answers == {8: "play", 16: "fold"}


def test_root_helpers_add_their_playouts_to_the_answer() -> None:
    state, seat = first_decision("fuji99", 2, seed=3)
    bot = SearchBot(iterations=6, seed=1, workers=2)
    # A generous allowance: the bot waits for its helper within it, however loaded the machine.
    request = dataclasses.replace(with_world(state, seat), clock=ClockInfo(per_decision_seconds=60.0, bank_remaining_seconds=0.0))
    try:
        for _ in range(2):
            bot.choose(request)  # type: ignore[arg-type]
            assert bot.last_search is not None and bot.last_search.iterations >= 12  # its own 6 and the helper's 6
    finally:
        bot.close()


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [("B99_SEARCH_SECONDS", "abc", "B99_SEARCH_SECONDS='abc': not a float"), ("B99_SEARCH_ITERATIONS", "0", "must be above 0"),
     ("B99_SEARCH_STYLE", "deep", "search style 'deep'"), ("B99_BOT_SEED", "x", "B99_BOT_SEED='x': not an int")],
)
def test_a_bad_search_setting_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch, variable: str, value: str, message: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(SearchSettingsError, match=message.replace("(", r"\(")):
        SearchBot()


def test_both_searching_bots_read_their_budgets_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("B99_SEARCH_ITERATIONS", "7")
    monkeypatch.setenv("B99_SEARCH_WORKERS", "1")
    monkeypatch.setenv("B99_MCTS_SECONDS", "0.25")
    monkeypatch.setenv("B99_BOT_SEED", "9")
    search, mcts = SearchBot(), ISMCTSBot()
    assert (search.iterations, search.seconds, search.workers) == (7, None, 1)
    assert (mcts.iterations, mcts.seconds) == (None, 0.25)
    assert search.rng.random() == mcts.rng.random() == random.Random(9).random()


def test_the_bot_process_refuses_a_bad_budget_in_one_line() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bots", "mcts"], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "B99_MCTS_ITERATIONS": "-3"},
    )
    assert completed.returncode == 2
    assert completed.stderr.strip() == "bots: B99_MCTS_ITERATIONS='-3': must be above 0"


def test_plays_as_a_process_with_a_root_helper_and_exits_cleanly() -> None:
    search = python_bot("search", "bots", "search")
    env = {"B99_SEARCH_ITERATIONS": "3", "B99_BOT_SEED": "3", "B99_SEARCH_WORKERS": "2"}
    search = type(search)(name="search", command=search.command, env=env)
    report = run_match(MatchSpec(game="fuji99", bots=[search, python_bot("random", "bots", "random")], seed=4, time_control=PROCESS_CLOCK))
    assert_clean(report)
    assert report.seats[0].stderr_tail.strip() == ""
