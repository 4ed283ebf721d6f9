"""The searching reference bot (`search`): heuristic-guided playouts from sampled worlds, on a time budget."""

from __future__ import annotations

import os
import random
import sys
import time

from bots.registry import UnknownBotError, per_game_bot
from bots.search.budget import SearchSettingsError, clock_limit, env_number, env_seed, run_search
from bots.search.parallel import RootHelpers, Search, SearchSettings, make_search
from bots.search.policy import HeuristicPolicy
from sdk import Bot, GameOverInfo, OptionInfo, Request

DEFAULT_SECONDS = 1.0
#: How much earlier than the bot its root helpers stop (at most; 10% of a shorter budget).
HELPER_MARGIN_SECONDS = 0.1
STYLES = ("plain", "paired")


#: Tables measured with both searches where the paired one did better than the plain one, in a game
#: that otherwise keeps the plain search: DEEP DIVE at four players (docs/bots.md, "Search").
PAIRED_TABLES: frozenset[tuple[str, int]] = frozenset({("deep_dive", 4)})


def default_style(game_id: str, players: int) -> str:
    """The search a table gets: the plain UCB search where it was measured ahead of the heuristic, else paired.

    Underground Dice and DEEP DIVE with other players keep the plain search (docs/bots.md, "Search"),
    except DEEP DIVE at four players, where the paired search ranked first more often than the plain
    one on the same seeds; DEEP DIVE at three, five and six players was not measured and stays plain.
    Solo games, Fuji 99, Merchants of B99 and The Magnificent get the paired search.
    """
    if (game_id, players) in PAIRED_TABLES:
        return "paired"
    if game_id == "underground_dice" or (game_id == "deep_dive" and players >= 2):
        return "plain"
    return "paired"


#: The paired search's bar (z, min_pairs) where the default (2 standard errors after 8 pairs) was
#: measured worse (docs/bots.md, "Search"): DEEP DIVE solo, where it left the heuristic on noise and
#: the heuristic alone won more games than the search at 1 s; DEEP DIVE at four players, where 1.5
#: standard errors ranked first a little more often and scored more pairwise than 2 on the same 96
#: seeds (within the noise of 96 games).
PAIRED_BARS: dict[tuple[str, int], tuple[float, int]] = {("deep_dive", 1): (3.0, 16), ("deep_dive", 4): (1.5, 8)}


def paired_bar(game_id: str, players: int) -> tuple[float, int]:
    """How far above the heuristic's choice (z standard errors, after min_pairs pairs) an option must be."""
    return PAIRED_BARS.get((game_id, players), (2.0, 8))


class SearchBot(Bot):
    """Searches every decision with more than one option for `seconds` (or `iterations` playouts).

    Budget from the arguments, else B99_SEARCH_SECONDS / B99_SEARCH_ITERATIONS, else 1 s a decision,
    never more than 80% of the per-decision allowance. Without worlds it plays the heuristic.
    `cpu_seconds=True` counts the budget in CPU time of the searching thread instead of wall time:
    strength measurements on a shared machine then mean "seconds of one core", whatever the load
    (the per-decision allowance of a match is still checked against the wall clock).
    """

    name = "search"
    wants_world = True

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        epsilon: float = 0.05,
        exploration: float = 0.5,
        prior_visits: int = 4,
        cpu_seconds: bool = False,
        style: str | None = None,
        workers: int | None = None,
    ) -> None:
        if seconds is None:
            seconds = env_number("B99_SEARCH_SECONDS", float)
        if iterations is None:
            iterations = env_number("B99_SEARCH_ITERATIONS", int)  # type: ignore[assignment]
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        if seed is None:
            seed = env_seed()
        if style is None:
            style = os.environ.get("B99_SEARCH_STYLE", "").strip() or None
        if style is not None and style not in STYLES:
            raise SearchSettingsError(f"search style {style!r}: not one of {', '.join(STYLES)}")
        self.style = style
        if workers is None:
            workers = env_number("B99_SEARCH_WORKERS", int)  # type: ignore[assignment]
        self.workers = workers or 1
        if self.workers < 1:
            raise SearchSettingsError(f"search workers {self.workers}: must be 1 or more")
        self.helpers: RootHelpers | None = None
        self.helper_warned = False
        self.seconds = seconds
        self.iterations = iterations
        self.epsilon = epsilon
        self.exploration = exploration
        self.prior_visits = prior_visits
        self.rng = random.Random(seed)
        self.cpu_seconds = cpu_seconds
        self.heuristic: Bot | None = None
        self.heuristic_game: str | None = None
        self.policy: HeuristicPolicy | None = None
        self.last_search: Search | None = None
        self.warned = False

    def _heuristic_choice(self, request: Request) -> str | None:
        """The game's heuristic on the real request (it sees every event, as in a match)."""
        if self.heuristic_game != request.game:
            self.heuristic_game = request.game
            try:
                self.heuristic = per_game_bot("bots.heuristic", request.game)
            except UnknownBotError:
                self.heuristic = None
        if self.heuristic is None:
            return None
        answer = self.heuristic.choose(request)
        if isinstance(answer, OptionInfo):
            return answer.id
        if isinstance(answer, int):
            return request.options[answer].id
        return answer

    def choose(self, request: Request) -> str | OptionInfo:
        began = time.monotonic()
        began_cpu = time.thread_time()
        prior = self._heuristic_choice(request)
        legal = [option.id for option in request.options]
        if len(legal) == 1:
            return legal[0]
        worlds = request.world
        if worlds is None:
            if not self.warned:
                print("search: the referee sends no worlds; playing the heuristic", file=sys.stderr)
                self.warned = True
            return prior if prior is not None else self.rng.choice(legal)
        style = self.style or default_style(request.game, request.players)
        # The paired search evaluates the heuristic's own continuation: no random moves in its playouts.
        epsilon = self.epsilon if style == "plain" else 0.0
        if self.policy is None or self.policy.table != (request.game, request.players) or self.policy.epsilon != epsilon:
            self.policy = HeuristicPolicy(request.game, request.players, epsilon)
        z, min_pairs = paired_bar(request.game, request.players)
        settings = SearchSettings(style, epsilon, self.exploration, self.prior_visits, z, min_pairs)
        search = make_search(worlds, legal, prior, self.policy, self.rng, settings)
        wall_deadline = self._deadline(request, began)
        cpu_budget = None
        if self.cpu_seconds and self.seconds is not None:
            cpu_budget = max(0.0, self.seconds - (time.thread_time() - began_cpu))
        helping = []
        if self.workers > 1:
            if self.helpers is None:
                self.helpers = RootHelpers(self.workers - 1)
            # Helpers stop a little before the bot, so their statistics are back by its deadline.
            margin = min(HELPER_MARGIN_SECONDS, 0.1 * (wall_deadline - began))
            helping = self.helpers.start(worlds, legal, prior, settings, self.rng, wall_deadline - margin, cpu_budget, self.iterations)
        run_search(search, wall_deadline, cpu_budget, self.iterations)
        # Wait for the helpers until the match's allowance runs out (or a second past the budget without one).
        from_clock = clock_limit(request)
        patience = began + from_clock if from_clock is not None else wall_deadline + 1.0
        for future in helping:
            try:
                search.absorb(future.result(timeout=max(0.0, patience - time.monotonic())))
            except Exception as error:  # noqa: BLE001 - a lost helper costs its playouts, never the answer
                if not self.helper_warned:
                    print(f"search: a helper process gave no statistics ({type(error).__name__}: {error})", file=sys.stderr)
                    self.helper_warned = True
        self.last_search = search
        return search.best()

    def on_game_over(self, over: GameOverInfo) -> None:
        """The game is over: stop the helper processes (a next game starts them again)."""
        self.close()

    def close(self) -> None:
        """Stop the helper processes, if any, once their last search is done."""
        if self.helpers is not None:
            self.helpers.close()
            self.helpers = None

    def _deadline(self, request: Request, began: float) -> float:
        """The wall-clock deadline: the budget (unless counted in CPU time), capped by the match's allowance."""
        limits = [self.seconds if self.seconds is not None and not self.cpu_seconds else 3600.0]
        from_clock = clock_limit(request)
        if from_clock is not None:
            limits.append(from_clock)
        return began + min(limits)
