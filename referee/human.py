"""A person plays one seat in the terminal: `b99 play GAME --bot NAME ...`.

The person is an ordinary in-process bot of the match (`HumanBot`): it sees exactly what any bot
of that seat sees (the seat's view, its options, the events it may see) and nothing else.
"""

from __future__ import annotations

from referee.cli_options import OutputFile, seed_option, variant_option
from referee.chance import fresh_seed
import queue
import random
import sys
import threading
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import click

from referee.clock import TimeControl
from referee.errors import ArenaError
from sdk import Bot, GameOverInfo, GameStartInfo, Request
from referee.viewer.words import explain, ids_in, value_words
from sdk.types import EventInfo

QUIT_WORDS = ("q", "quit", "exit")
#: At most this many ids of the view are explained at each decision.
MAX_NOTES = 40


def component_glossary(game_id: str) -> Mapping[str, str]:
    """What each component id of the game is (from its drawing module), or nothing if it has none."""
    from referee.errors import UnknownGameError
    from referee.viewer.pictures import glossary

    try:
        return glossary(game_id)
    except UnknownGameError:
        return {}


class QuitGame(Exception):  # noqa: N818 - a request, not an error
    """The person left (q, end of input or Ctrl-C at the prompt): the fallback plays the seat to the end, so
    the match finishes cleanly and its replay is written."""


#: A JSON value in words (shared with the viewer's step log).
format_value = value_words


def render_view(view: Mapping[str, Any], indent: str = "  ") -> list[str]:
    """A view as indented `name: value` lines; lists of records get one line per record."""
    lines: list[str] = []
    for key, value in view.items():
        name = key.replace("_", " ")
        if isinstance(value, Mapping) and value:
            lines.append(f"{indent}{name}:")
            lines.extend(render_view(value, indent + "  "))
        elif isinstance(value, list) and value and all(isinstance(item, Mapping) for item in value):
            lines.append(f"{indent}{name}:")
            for index, item in enumerate(value):
                lines.append(f"{indent}  {index}: {format_value(item)}")
        else:
            lines.append(f"{indent}{name}: {format_value(value)}")
    return lines


def render_event(event: EventInfo) -> str:
    details = ", ".join(f"{key.replace('_', ' ')} {format_value(value)}" for key, value in event.data.items())
    return f"  · {event.kind.replace('_', ' ')}" + (f": {details}" if details else "")


#: How often the prompt looks up from waiting for input (to notice Ctrl-C).
INPUT_SLICE_SECONDS = 0.2


class HumanBot(Bot):
    """Asks a person at the terminal; answers by number (1 = first option) or by option id."""

    name = "human"

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.seat = 0
        self._lines: queue.Queue[str] | None = None

    def next_line(self) -> str:
        """The next line typed ('' when the input ended).

        A thread reads the input and this waits for it in short slices: the kernel may hand Ctrl-C to
        any of the process's threads (gRPC has several), and then only Python code running in the main
        thread raises KeyboardInterrupt, which a blocking read there would hold off until Enter.
        """
        if self._lines is None:
            self._lines = queue.Queue()
            threading.Thread(target=self._read_lines, args=(self._lines,), name="human-input", daemon=True).start()
        while True:
            try:
                return self._lines.get(timeout=INPUT_SLICE_SECONDS)
            except queue.Empty:
                continue

    def _read_lines(self, lines: queue.Queue[str]) -> None:
        while True:
            line = self.stdin.readline()
            lines.put(line)
            if not line:
                return

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show_events(self, events: Sequence[EventInfo]) -> None:
        if events:
            self.say("What happened:")
            for event in events:
                self.say(render_event(event))

    def on_game_start(self, start: GameStartInfo) -> None:
        self.seat = start.seat
        variants = ", ".join(f"{key}={format_value(value)}" for key, value in start.variants.items())
        self.say(f"{start.game}: you are seat {start.seat} of {start.players}" + (f" ({variants})" if variants else ""))
        self.show_events(start.events)

    def choose(self, request: Request) -> str:
        self.say()
        self.show_events(request.events)
        self.say(f"Your view (seat {request.seat}):")
        for line in render_view(request.view):
            self.say(line)
        glossary = component_glossary(request.game)
        option_ids = {token for option in request.options for token in ids_in([option.id, option.label])}
        notes = explain([t for t in ids_in(request.view) if t not in option_ids], glossary)
        if notes:
            self.say("What the ids in your view are:")
            for note in notes[:MAX_NOTES]:
                self.say(f"  {note}")
            if len(notes) > MAX_NOTES:
                self.say(f"  ... and {len(notes) - MAX_NOTES} more")
        self.say(f"Decision: {request.decision.replace('_', ' ')}")
        for option in request.options:
            what = "; ".join(explain(ids_in([option.id, option.label]), glossary))
            self.say(f"  {option.index + 1:>3}. {option.label}  [{option.id}]" + (f"  ({what})" if what else ""))
        while True:
            try:
                self.stdout.write(f"seat {request.seat} > ")
                self.stdout.flush()
                line = self.next_line()
            except KeyboardInterrupt:
                raise QuitGame("Ctrl-C") from None
            if not line:
                raise QuitGame("input ended")
            answer = line.strip()
            if answer.lower() in QUIT_WORDS:
                raise QuitGame("quit")
            if answer.isdigit() and 1 <= int(answer) <= len(request.options):
                return request.options[int(answer) - 1].id
            if any(option.id == answer for option in request.options):
                return answer
            self.say(f"  type a number from 1 to {len(request.options)}, an option id, or q to quit")

    def on_game_over(self, over: GameOverInfo) -> None:
        self.say()
        self.show_events(over.events)
        self.say("Game over.")
        for seat, (rank, score) in enumerate(zip(over.ranks, over.scores)):
            you = "  (you)" if seat == self.seat else ""
            self.say(f"  seat {seat}: rank {rank}, score {score:g}{you}")


@click.command("play")
@click.argument("game")
@click.option("--bot", "bot_texts", multiple=True, help="An opponent: a reference bot name or a command; once per other seat.")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 = first).")
@seed_option
@variant_option
@click.option("--ask-forced", is_flag=True, help="Ask even when only one option is legal.")
@click.option("--replay", "replay_path", type=OutputFile(), default=None, help="Write the replay here.")
@click.option("--web", is_flag=True, help="Play in the browser: serve a page with your seat's picture (prints its URL).")
@click.option("--host", default="127.0.0.1", show_default=True, help="With --web: the address to serve on.")
@click.option("--port", type=int, default=0, help="With --web: the port to serve on (0 = any free port).")
def play_command(
    game: str,
    bot_texts: tuple[str, ...],
    seat: int,
    seed: int | None,
    variants: tuple[tuple[str, str], ...],
    ask_forced: bool,
    replay_path: str | None,
    web: bool,
    host: str,
    port: int,
) -> None:
    """Play GAME yourself in the terminal (or the browser with --web) against bots; you see only your seat's view and options."""
    from referee.bot_resolution import resolve_bot
    from referee.cli import fail
    from referee.match import BotSpec, MatchSpec, run_match
    from referee.registry import get_game

    parsed = dict(variants)
    try:
        game_object = get_game(game)
        players = len(bot_texts) + 1
        if not 0 <= seat < players:
            fail(f"seat must be between 0 and {players - 1} with {len(bot_texts)} bot(s)")
        game_object.make_config(players, parsed)
        # In the browser the bots run as processes over the protocol, as in any match.
        opponents = [resolve_bot(text, game, not web, "none") for text in bot_texts]
        human = BotSpec(name="human", factory=HumanBot)
        if web:
            from referee.viewer.seat import WebHumanBot, WebSeat
            from referee.viewer.server import serve

            if replay_path is None:
                Path("runs").mkdir(exist_ok=True)
                replay_path = str(Path("runs") / f"{game}-web-{random.SystemRandom().randrange(16**8):08x}.jsonl")
            web_seat = WebSeat(game, game_object.name, replay_path)
            server, url = serve(web_seat.respond, host, port)
            click.echo(f"your seat is at {url} (Ctrl-C stops)")
            human = BotSpec(name="human", factory=lambda: WebHumanBot(web_seat))
        if replay_path is None:
            Path("runs").mkdir(exist_ok=True)
            replay_path = str(Path("runs") / f"{game}-play-{uuid.uuid4().hex[:12]}.jsonl")
        specs = opponents[:seat] + [human] + opponents[seat:]
        spec = MatchSpec(
            game=game,
            bots=specs,
            seed=seed if seed is not None else fresh_seed(),
            variants=parsed,
            time_control=TimeControl(per_decision_seconds=86_400.0, bank_seconds=0.0, startup_seconds=15.0),
            replay_path=replay_path,
            ask_forced=ask_forced,
        )
        report = run_match(spec)
    except ArenaError as error:
        fail(str(error))
        return
    except KeyboardInterrupt:
        # A second Ctrl-C, while the fallback finished the game: stop at once (no replay).
        click.echo("\nstopped: the game was not finished, no replay written")
        sys.exit(130)
    mine = report.seats[seat]
    if mine.replaced:
        reason = mine.faults[-1].detail if mine.faults else "unknown"
        left = reason.split("QuitGame: ", 1)[1] if "QuitGame: " in reason else ""
        if left:
            click.echo(f"\nyou left the game ({left}); the fallback policy played your seat to the end (ranked last)")
        else:
            click.echo(f"your seat was taken over by the fallback policy ({reason})")
        click.echo(f"replay written to {replay_path}")
        sys.exit(1)
    click.echo(f"replay written to {replay_path}")
    if web:
        click.echo(f"game over: {', '.join(f'seat {s.seat} rank {s.rank}' for s in report.seats)}; the result and the replay stay at {url} (Ctrl-C stops)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            server.shutdown()
