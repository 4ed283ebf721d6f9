"""A person plays one seat in the browser: `b99 play GAME --web --bot NAME ...`.

`WebHumanBot` is an ordinary in-process bot of the match: at each request it publishes the seat's view
(drawn by the game's drawing), its options and the events since last time to a `WebSeat`, then waits for
the person's click. The page (`seat.html`) polls `state.json` and posts the chosen option id to `choose`;
an id that is not offered now is refused with a one-line error.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.errors import ArenaError
from referee.viewer.app import Reply, ReplayPages, docs_file, page, rules_link, static_file
from referee.viewer.pictures import draw_view
from referee.viewer.words import event_words
from sdk import Bot, GameOverInfo, GameStartInfo, Request
from sdk.types import EventInfo


@dataclass
class WebSeat:
    """What the browser shows now, and the channel its answers come back on."""

    game_id: str
    game_name: str
    replay_path: str | None = None
    version: int = 0
    seat: int = 0
    picture: str = ""
    decision: str = ""
    options: list[dict[str, str]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    answers: queue.Queue[str] = field(default_factory=queue.Queue)
    changed: threading.Condition = field(default_factory=threading.Condition)
    chosen: list[str] = field(default_factory=list)
    #: The picture shows the end of the game (redrawn from the replay once the match has written it).
    final: bool = False
    _replay: ReplayPages | None = field(default=None, repr=False)

    def publish(self, **fields: Any) -> None:
        with self.changed:
            for key, value in fields.items():
                setattr(self, key, value)
            self.version += 1
            self.changed.notify_all()

    def snapshot(self, since: int, wait_seconds: float) -> dict[str, Any]:
        """The state for the page; waits up to `wait_seconds` for something newer than `since`."""
        self.draw_final()
        with self.changed:
            if self.version <= since:
                self.changed.wait_for(lambda: self.version > since, timeout=wait_seconds)
            return {
                "version": self.version,
                "seat": self.seat,
                "svg": self.picture,
                "decision": self.decision,
                "options": self.options,
                "log": self.log[-40:],
                "result": self.result,
                "replay": "replay/" if self.result is not None and self.replay_path else None,
                "final": self.final,
            }

    def draw_final(self) -> None:
        """Once the game is over, draw the seat's picture of the last position (the last request's picture is
        one decision old); the replay holds it once the match has written it."""
        if self.result is None or self.final:
            return
        if not self.replay_path:
            self.publish(final=True)
            return
        if not Path(self.replay_path).exists():
            return
        try:
            timeline = self.replay_pages().timeline()
            picture = timeline.frame(len(timeline.steps) - 1, self.seat)
        except ArenaError:
            self.publish(final=True)
            return
        self.publish(picture=picture, final=True)

    def choose(self, option_id: str) -> Reply:
        with self.changed:
            if option_id not in {option["id"] for option in self.options}:
                return Reply.error(f"{option_id!r} is not one of the options offered now")
            self.options = []
            self.chosen.append(option_id)
            self.version += 1
            self.changed.notify_all()
        self.answers.put(option_id)
        return Reply.json({"ok": True, "chosen": option_id})

    def respond(self, method: str, path: str, query: Mapping[str, str], body: bytes) -> Reply | Iterator[bytes]:
        """The seat's pages: '/', 'state.json', POST 'choose', and the replay under 'replay/' once over."""
        subpath = path.lstrip("/")
        if subpath in ("", "index.html"):
            config = {"game": self.game_id, "rules": rules_link(self.game_id)}
            body_html = page("seat.html", f"{self.game_name}: your seat", config, game_id=self.game_id, game_name=self.game_name)
            return Reply(200, "text/html; charset=utf-8", body_html)
        if subpath == "state.json":
            try:
                since = int(query.get("since", "-1"))
            except ValueError:
                return Reply.error("since must be a whole number")
            return Reply.json(self.snapshot(since, 10.0 if since >= 0 and self.result is None else 0.0))
        if subpath == "choose" and method == "POST":
            try:
                option_id = str(json.loads(body or b"{}")["option"])
            except (ValueError, KeyError, TypeError):
                return Reply.error('post {"option": "<id>"}')
            return self.choose(option_id)
        if subpath.startswith("replay/") and self.result is not None and self.replay_path and Path(self.replay_path).exists():
            return self.replay_pages().respond(subpath.removeprefix("replay/"), query)
        found = docs_file(subpath) or static_file(subpath)
        return found if found is not None else Reply.error(f"no such page: {subpath}", 404)

    def replay_pages(self) -> ReplayPages:
        """The viewer of this game's replay (read once, after the game is over)."""
        if self._replay is None:
            from referee.replay import read_replay
            from referee.viewer.timeline import Timeline

            timeline = Timeline.from_records(read_replay(str(self.replay_path)))
            self._replay = ReplayPages(lambda: timeline, back_link="../")
        return self._replay


class WebHumanBot(Bot):
    """A seat played from the browser: shows the request on the page and waits for the person's choice."""

    name = "human"

    def __init__(self, seat: WebSeat) -> None:
        self.web = seat

    def _log(self, events: Sequence[EventInfo]) -> list[str]:
        """The page's log so far with these events added in words."""
        return self.web.log + [event_words(event.kind, event.data) for event in events]

    def on_game_start(self, start: GameStartInfo) -> None:
        self.web.publish(seat=start.seat, log=self._log(start.events) + [f"you are seat {start.seat} of {start.players}"])

    def choose(self, request: Request) -> str:
        options = [{"id": option.id, "label": option.label} for option in request.options]
        self.web.publish(
            picture=draw_view(request.game, request.view),
            decision=request.decision,
            options=options,
            log=self._log(request.events),
        )
        return self.web.answers.get()

    def on_game_over(self, over: GameOverInfo) -> None:
        self.web.publish(
            options=[],
            log=self._log(over.events) + ["game over: " + over.summary],
            result={"ranks": list(over.ranks), "scores": list(over.scores)},
        )
