"""Screenshots of each game's replay viewer for the docs: a seeded game of random bots, shown mid-game.

    python -m referee.viewer.screenshots [--out docs/images]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bots.random_bot import RandomBot
from referee.match import BotSpec, MatchSpec, run_match
from referee.registry import all_games
from referee.replay import read_replay
from referee.viewer.app import ReplayPages
from referee.viewer.headless import Browser
from referee.viewer.server import serve
from referee.viewer.timeline import Timeline

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as directory, Browser(width=1400, height=1000) as browser:
        page = browser.page()
        for game in all_games():
            players = min(game.max_players, 4)
            replay = Path(directory) / f"{game.id}.jsonl"
            bots = [BotSpec(name=f"random{i}", factory=RandomBot) for i in range(players)]
            run_match(MatchSpec(game=game.id, bots=bots, seed=7, replay_path=str(replay)))
            timeline = Timeline.from_records(read_replay(replay))
            # A position that asks for a decision: the panel then lists the options offered and the one chosen.
            middle = next(i for i in range(len(timeline.steps) // 2, len(timeline.steps) - 1) if timeline.steps[i + 1].kind == "decision")
            pages = ReplayPages(lambda timeline=timeline: timeline)
            server, url = serve(lambda method, sub, query, body, pages=pages: pages.respond(sub.lstrip("/"), query))
            # A link to the step and seat 0's perspective, as a bot author shares one.
            page.goto(f"{url}?step={middle}&seat=0")
            page.wait_for("document.body && document.body.dataset.ready === '1'")
            page.wait_for("document.getElementById('picture').textContent.includes('view: seat 0')")
            target = out / f"{game.id}.png"
            page.screenshot(target, full_page=False)
            server.shutdown()
            print(f"{target} ({game.name}, {players} players, step {middle}, seat 0's view)")
        page.close()


if __name__ == "__main__":
    main()
