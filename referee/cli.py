"""The `b99` command line: games, matches, replays (and commands other packages plug in).

Start-up is kept to click alone: every heavy module (rich, the referee, grpc, the commands other
packages plug in) is imported by the command that needs it, so `b99 --version` and `b99 --help`
cost little more than the interpreter's own start.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from referee.cli_options import OutputFile, seed_option, variant_option
from referee.errors import ArenaError


class _Console:
    """rich's Console, made on first use (importing rich costs more than the rest of `b99 --help`)."""

    def __init__(self) -> None:
        self._console: Any = None

    def __getattr__(self, name: str) -> Any:  # noqa: ANN401 - whatever rich's Console has
        if self._console is None:
            from rich.console import Console

            self._console = Console()
        return getattr(self._console, name)


console: Any = _Console()


def _table(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 - rich.table.Table
    """A rich Table at least as wide as its title (a narrow table would wrap the title mid-name)."""
    from rich.table import Table

    title = kwargs.get("title")
    if isinstance(title, str) and "min_width" not in kwargs:
        kwargs["min_width"] = len(title)
    return Table(*args, **kwargs)


#: The one-line help of the commands this distribution plugs in (entry points `b99.commands`), so
#: `b99 --help` lists them without importing them; tests/test_cli.py checks each against its command.
PLUGIN_SUMMARIES = {
    "bot": "Make a new bot.",
    "bridge": "Play a seat with COMMAND, a bot that speaks JSON lines on stdin/stdout (b99 bridge -- COMMAND).",
    "ladder": "Run a rating ladder: register bots, schedule matches, keep Elo ratings.",
    "play": "Play GAME yourself in the terminal (or the browser with --web) against bots; you see only your seat's view and options.",
    "tournament": "Play a round robin between local bots (all seatings) and print an Elo table with win rates.",
}
#: The same for `b99 replay`'s commands that live with the viewer.
VIEWER_SUMMARIES = {
    "render": "Draw one frame of the replay at PATH as an SVG picture of the table.",
    "view": "Serve the replay viewer for PATH on a local web page (prints its URL; Ctrl-C stops).",
}


class LazyGroup(click.Group):
    """A group whose commands named in `lazy` ("module:attribute") are imported only when run or asked
    for their own help; its listing uses `summaries` instead of importing them."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, summaries: dict[str, str] | None = None,
                 plugins: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})
        self.summaries = dict(summaries or {})
        self.plugins = plugins
        self._plugins_found = plugins is None

    def _find_plugins(self) -> None:
        """Add the entry points of the plug-in group to the lazy commands (names only: nothing is imported)."""
        if self._plugins_found or self.plugins is None:
            return
        self._plugins_found = True
        from referee.dist_info import entry_points

        for name, target in entry_points(self.plugins).items():
            if name not in self.commands:
                self.lazy.setdefault(name, target)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._find_plugins()
        return sorted(set(self.commands) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        self._find_plugins()
        target = self.lazy.get(cmd_name)
        if target is None:
            return None
        command = _load(cmd_name, target)
        if command is not None:
            self.add_command(command, cmd_name)
        else:
            self.lazy.pop(cmd_name, None)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            if name not in self.commands and name in self.summaries:
                rows.append((name, self.summaries[name]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, short_help(what, limit)) for name, what in rows])


def short_help(what: str | click.Command, limit: int) -> str:
    """A command's one-line help as click lists it (from its summary when it is not imported)."""
    command = what if isinstance(what, click.Command) else click.Command(None, help=what)
    return command.get_short_help_str(limit)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """`--version`, read from the installed metadata without importing importlib.metadata."""
    if not value or ctx.resilient_parsing:
        return
    from referee.dist_info import version

    click.echo(f"{ctx.find_root().info_name or 'b99'}, version {version('b99-arena') or 'unknown'}")
    ctx.exit()


def _load(name: str, target: str) -> click.Command | None:
    """The command at "module:attribute"; a broken plug-in is a warning, never the end of the core commands."""
    module_name, _, attribute = target.partition(":")
    try:
        import importlib

        command = getattr(importlib.import_module(module_name), attribute)
    except Exception as error:  # noqa: BLE001 - a broken plug-in must not break the core commands
        click.echo(f"warning: command {name!r} could not be loaded: {error}", err=True)
        return None
    return command if isinstance(command, click.Command) else None


def fail(message: str) -> None:
    """Print a one-line error and exit non-zero (never a traceback for bad input)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def _client_commands() -> tuple[dict[str, str], dict[str, str]]:
    """The hosted-ladder client's commands (referee.client_commands), lazily, with their summaries."""
    from referee.client_commands import CLIENT_SUMMARIES

    return ({name: f"referee.client_commands:{name.replace('-', '_')}" for name in CLIENT_SUMMARIES}, CLIENT_SUMMARIES)


@click.group(cls=LazyGroup, plugins="b99.commands", lazy=_client_commands()[0], summaries={**PLUGIN_SUMMARIES, **_client_commands()[1]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version, help="Show the version and exit.")
def main() -> None:
    """B99 Arena: run bots against each other on five board games."""


@main.command()
def games() -> None:
    """List the games and their config flags."""
    from referee.registry import all_games

    table = _table(title="Games")
    table.add_column("id", style="bold")
    table.add_column("name")
    table.add_column("players")
    table.add_column("flags (default)")
    for game in all_games():
        players = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        flags = "\n".join(f"{flag.name}={json.dumps(flag.default)}" for flag in game.flags) or "-"
        table.add_row(game.id, game.name, players, flags)
    console.print(table)
    console.print("Rules, components and variants of each game: docs/games/<id>.md (for example docs/games/underground_dice.md)")


def print_report(report: Any, position_path: str | None = None) -> None:
    """The match report for a person: ranks, scores and why, faults, sandboxes, where the replay is."""
    from referee.fault_text import fault_block
    from referee.faults import fault_words
    from referee.rank_reasons import rank_reasons
    from referee.registry import get_game

    game = get_game(report.game)
    status = " · VOID" if getattr(report, "void", False) else ""
    start = " · from a position" if getattr(report, "from_position", False) else ""
    table = _table(title=f"{report.game} · seed {report.seed} · match {report.match_id}{start}{status}", caption=f"score: {game.score_unit}")
    ranks = [seat.rank for seat in report.seats]
    scores = [seat.score for seat in report.seats]
    reasons = (
        [""] * len(report.seats)
        if getattr(report, "void", False)
        else rank_reasons(game, ranks, scores, [seat.replaced for seat in report.seats], report.details or {})
    )
    table.add_column("seat", justify="right")
    table.add_column("bot")
    table.add_column("rank", justify="right", style="bold")
    table.add_column("score", justify="right")
    if any(reasons):
        table.add_column("why this rank")
    table.add_column("faults")
    for seat, reason in zip(report.seats, reasons):
        faults = "; ".join(fault_words(fault) for fault in seat.faults)
        if seat.replaced:
            faults = (faults + " (fallback played on, ranked last)").strip()
        score = "-" if report.void else f"{seat.score:g}"
        rank = str(seat.rank) if seat.rank else "-"
        table.add_row(str(seat.seat), seat.name, rank, score, *([reason or "-"] if any(reasons) else []), faults or "-")
    console.print(table)
    if getattr(report, "from_position", False):
        where = f" in {position_path}" if position_path else ""
        console.print(f"started from the position{where}, not the game's start (--from): "
                      "ranks and scores are those of the game played on from there", highlight=False)
    if report.void:
        console.print(f"[bold red]void[/bold red]: no result ({report.void_reason})", highlight=False)
    for seat in report.seats:
        if seat.faults:
            console.print(fault_block(f"seat {seat.seat} ({seat.name}):", seat.faults, seat.stderr_tail, seat.replaced))
    for seat in report.seats:
        sandbox = getattr(seat, "sandbox", None) or {}
        if sandbox:
            caps = ", ".join(f"{key} {sandbox[key].split(' (')[0]}" for key in ("memory", "cpu", "processes") if key in sandbox)
            console.print(f"seat {seat.seat} sandbox: {sandbox.get('level', '?')}" + (f" ({caps})" if caps else ""))
    if report.details:
        console.print("result details: " + json.dumps(report.details, sort_keys=True, default=str))
    console.print(f"{report.decisions} decisions in {report.duration_seconds:.2f}s")
    if report.replay_path:
        console.print(f"replay written to {report.replay_path}")


def print_late_exits(early: Any, report: Any) -> None:
    """What stopping the bots added to a report already printed: a bot that ended badly after the game."""
    for before, after in zip(early.seats, report.seats):
        if after.exit_code not in (None, 0) and before.exit_code != after.exit_code:
            how = f"was stopped by signal {-after.exit_code}" if after.exit_code < 0 else f"exited with code {after.exit_code}"
            console.print(f"seat {after.seat} ({after.name}): its bot {how} after the game (the result stands)", highlight=False)


def default_sandbox_level() -> str:
    """strict where this machine provides it; otherwise none, said on stderr (basic must be asked for:
    it cannot bind what a bot needs, so a bot installed in a private directory would not start)."""
    from referee.sandbox import machine_support

    context = click.get_current_context(silent=True)
    if context is not None and context.params.get("tcp"):
        click.echo("note: bots run unsandboxed (--sandbox none): a strict sandbox has no network, so not with --tcp", err=True)
        return "none"
    support = machine_support()
    if support.available("strict"):
        return "strict"
    click.echo(f"note: bots run unsandboxed (--sandbox none): no strict sandbox here ({support.missing['strict']})", err=True)
    return "none"


@main.command()
@click.argument("game")
@click.option("--bot", "bot_texts", multiple=True, required=True, help="A reference bot name or a command; once per seat.")
@seed_option
@variant_option
@click.option(
    "--replay",
    "replay_path",
    type=OutputFile(),
    default=None,
    help="Write the replay here (default: runs/<game>-<match id>.jsonl).",
)
@click.option("--time-per-decision", type=float, default=5.0, show_default=True, help="Seconds per decision.")
@click.option("--time-bank", type=float, default=30.0, show_default=True, help="Time bank in seconds.")
@click.option("--increment", type=float, default=0.0, show_default=True, help="Seconds added to the bank per decision.")
@click.option("--startup-time", type=float, default=15.0, show_default=True, help="Seconds a bot has to connect.")
@click.option("--strikes", type=int, default=0, show_default=True, help="Timeouts tolerated before the fallback takes over.")
@click.option("--tcp", is_flag=True, help="Serve bots on 127.0.0.1 instead of a Unix socket.")
@click.option("--in-process", is_flag=True, help="Run reference bots inside the referee (no processes, no gRPC).")
@click.option("--ask-forced", is_flag=True, help="Ask bots even for decisions with a single legal option.")
@click.option(
    "--sandbox",
    type=click.Choice(["none", "basic", "strict"]),
    default=None,
    show_default="strict where the machine provides it and without --tcp, else none",
    help="Confine bot processes: strict (namespaces, no network, own uid, caps), basic (own uid and caps), "
    "none (trusted local code). The match report says which level and caps were in force.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the match report as JSON.")
@click.option(
    "--from",
    "position_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Start from this position (a JSON file: b99 replay position ..., see docs/positions.md).",
)
def match(
    game: str,
    bot_texts: tuple[str, ...],
    seed: int | None,
    variants: tuple[tuple[str, str], ...],
    replay_path: str | None,
    time_per_decision: float,
    time_bank: float,
    increment: float,
    startup_time: float,
    strikes: int,
    tcp: bool,
    in_process: bool,
    ask_forced: bool,
    sandbox: str | None,
    as_json: bool,
    position_path: str | None,
) -> None:
    """Play one match of GAME between the given bots and print ranks and scores."""
    import uuid
    from dataclasses import replace

    from referee.bot_resolution import resolve_bot
    from referee.chance import fresh_seed
    from referee.clock import TimeControl
    from referee.match import MatchSpec, run_match
    from referee.registry import get_game

    try:
        game_object = get_game(game)
        position = None
        if position_path is not None:
            from referee.position import position_json, read_position

            if variants:
                fail("--variant cannot be given with --from: the position holds the game's config")
            position = position_json(read_position(position_path))
        else:
            game_object.make_config(len(bot_texts), dict(variants))
        control = TimeControl(
            per_decision_seconds=time_per_decision,
            bank_seconds=time_bank,
            increment_seconds=increment,
            startup_seconds=startup_time,
            strikes_allowed=strikes,
        )
        specs = [resolve_bot(text, game, in_process, sandbox or "none") for text in bot_texts]
        if sandbox is None and any(spec.command is not None for spec in specs):
            # The machine is probed only when a bot runs as a process: an in-process match never pays for it.
            level = default_sandbox_level()
            specs = [replace(spec, sandbox=level) if spec.command is not None else spec for spec in specs]
        match_id = uuid.uuid4().hex[:12]
        if replay_path is None:
            Path("runs").mkdir(exist_ok=True)
            replay_path = str(Path("runs") / f"{game}-{match_id}.jsonl")
        spec = MatchSpec(
            match_id=match_id,
            game=game,
            bots=specs,
            seed=seed if seed is not None else fresh_seed(),
            variants=dict(variants),
            time_control=control,
            replay_path=replay_path,
            ask_forced=ask_forced,
            transport="tcp" if tcp else "unix",
            position=position,
            decision_logs=True,  # a local match: the bots' own output goes into the replay beside each decision
        )
        shown: list[Any] = []
        with console.status(f"playing {game}…") as status:

            def show_result(early: Any) -> None:
                # The result is printed the moment the referee knows it; the bots are stopped after.
                if not as_json:
                    print_report(early, position_path)
                    shown.append(early)
                    status.update("stopping the bots…")

            report = run_match(spec, on_result=show_result)
    except ArenaError as error:
        fail(str(error))
        return
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    elif not shown:
        print_report(report, position_path)
    else:
        print_late_exits(shown[0], report)
    startup_faults = [seat for seat in report.seats if any(f.kind == "startup" for f in seat.faults)]
    if startup_faults or report.void:
        for seat in startup_faults:
            click.echo(f"error: seat {seat.seat} ({seat.name}) did not start: {seat.faults[0].detail}", err=True)
        sys.exit(1)


@main.group(cls=LazyGroup, lazy={"render": "referee.viewer.commands:replay_render", "view": "referee.viewer.commands:replay_view"},
            summaries=VIEWER_SUMMARIES)
def replay() -> None:
    """Show or verify a replay file."""


@replay.command("verify")
@click.argument("path", type=click.Path(dir_okay=False))
def replay_verify(path: str) -> None:
    """Re-simulate PATH and check every event and the result."""
    from referee.replay import verify_replay

    try:
        verified = verify_replay(path)
    except ArenaError as error:
        fail(str(error))
        return
    result = verified.state.result()
    console.print(
        f"[green]ok[/green]: {path} re-simulates exactly ({verified.steps} steps, {verified.events} events; "
        f"ranks {list(result.ranks)}, scores {[f'{s:g}' for s in result.scores]})"
    )


@replay.command("position")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--step", type=int, required=True, help="The position after this many steps (0 = the start).")
@click.option("--out", "out_path", type=OutputFile(), default=None, help="Write it here (default: print it).")
def replay_position(path: str, step: int, out_path: str | None) -> None:
    """Print (or write) the whole game state after STEP steps of a replay, as a position (docs/positions.md)."""
    from referee.position import position_json, position_text
    from referee.replay import read_replay
    from referee.replay_steps import state_at

    try:
        state = state_at(read_replay(path), step, path)
        data = position_json(state)
    except ArenaError as error:
        fail(str(error))
        return
    text = position_text(data)
    if out_path is None:
        click.echo(text)
        return
    Path(out_path).write_text(text + "\n", encoding="utf-8")
    who = ", ".join(f"seat {seat}" for seat in state.deciding_seats()) if not state.is_terminal() and not state.is_chance_node() else ""
    click.echo(f"position after step {step} written to {out_path}" + (f" ({who} to decide)" if who else ""), err=True)


@main.group()
def position() -> None:
    """Write and check positions by hand (docs/positions.md)."""


@position.command("new")
@click.argument("game")
@click.option("--players", type=int, default=None, help="Players (default: the game's default).")
@variant_option
@click.option("--out", "out_path", type=OutputFile(), default=None, help="Write it here (default: print it).")
def position_new(game: str, players: int | None, variants: tuple[tuple[str, Any], ...], out_path: str | None) -> None:
    """Print (or write) GAME's initial position for this config: the start for writing one by hand."""
    from referee.position import initial_position, position_text

    try:
        data = initial_position(game, players, dict(variants))
    except ArenaError as error:
        fail(str(error))
        return
    text = position_text(data)
    if out_path is None:
        click.echo(text)
    else:
        Path(out_path).write_text(text + "\n", encoding="utf-8")
        click.echo(f"initial {game} position written to {out_path}", err=True)


@position.command("check")
@click.argument("path", type=click.Path(dir_okay=False))
def position_check(path: str) -> None:
    """Check a position file: every problem it has, one a line (field, rule, what is wrong), or what happens next."""
    from referee.position import PositionError, read_position

    try:
        state = read_position(path)
    except PositionError as error:
        if len(error.problems) > 1:
            for problem in error.problems:
                click.echo(f"  {problem.field} [{problem.rule}]: {problem.message}", err=True)
        fail(f"{path}: {error}")
        return
    if state.is_terminal():
        now = "the game is over"
    elif state.is_chance_node():
        now = "a chance draw is next"
    else:
        now = ", ".join(f"seat {seat} to decide {state.decision_name(seat)}" for seat in state.deciding_seats())
    click.echo(f"{path}: a valid {state.game.id} position ({state.config.players} players; {now})")


@replay.command("show")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None, help="Show only what this seat saw (default: everything).")
@click.option("--limit", type=int, default=0, help="Show at most this many timeline rows (0 = all).")
@click.option("--json", "as_json", is_flag=True, help="Print the timeline as JSON, with the options each seat was offered and its think time.")
def replay_show(path: str, seat: int | None, limit: int, as_json: bool) -> None:
    """Print a replay's timeline: chance outcomes, decisions (forced, fallback) and events."""
    from referee.replay import read_replay, revealed_seed
    from referee.replay_steps import timeline_json

    try:
        records = read_replay(path)
        players = len(records[0].get("seats", [])) or int(records[0]["config"].get("players", 0))
        if seat is not None and not 0 <= seat < players:
            fail(f"no seat {seat} in a {players}-player game (seats 0 to {players - 1})")
        if as_json:
            data = timeline_json(records, seat, path)
            if limit:
                data["timeline"] = data["timeline"][:limit]
            click.echo(json.dumps(data, indent=1))
            return
    except ArenaError as error:
        fail(str(error))
        return
    header = records[0]
    console.print(
        f"[bold]{header['config']['game']}[/bold] · match {header.get('match_id')} · seed {revealed_seed(records)} · "
        f"seats {', '.join(f'{i}: {name}' for i, name in enumerate(header.get('seats', [])))}"
    )
    from rich.markup import escape

    from referee.faults import fault_words
    from referee.replay_steps import walk

    table = _table(show_lines=False, caption="step N: the position after it is `b99 replay position --step N` and the viewer's ?step=N")
    table.add_column("step", justify="right")
    table.add_column("what")
    table.add_column("detail")
    rows = 0

    def add_row(*cells: str) -> None:
        table.add_row(*(escape(cell) for cell in cells))  # option ids and output hold brackets, not markup

    has_fault_lines = any(other.get("type") == "fault" for other in records)
    try:
        for walked in walk(records, path):
            record, kind = walked.record, walked.record.get("type")
            step = str(walked.number + 1) if walked.before is not None else str(walked.number)
            if kind == "chance":
                if seat is not None:
                    continue
                add_row(step, "chance", str(record.get("outcome")))
            elif kind == "decision" and walked.before is not None:
                parts = []
                for who, option in record.get("choices", {}).items():
                    if seat is not None and int(who) != seat:
                        continue
                    parts.append(_decision_words(walked.before, int(who), option, record))
                if not parts:
                    continue
                add_row(step, "decision", "\n".join(parts))
            elif kind == "event":
                audience = record.get("audience")
                if seat is not None and audience is not None and seat not in audience:
                    continue
                who = "all" if audience is None else "seat " + ",".join(str(a) for a in audience)
                add_row(step, f"event → {who}", f"{record.get('kind')} {json.dumps(record.get('data'), sort_keys=True)}")
            elif kind == "logs":
                for who, text in record.get("seats", {}).items():
                    if seat is None or int(who) == seat:
                        add_row(str(walked.number + 1), f"output seat {who}", " ⏎ ".join(str(text).splitlines())[:300])
            elif kind == "fault":
                if seat is not None and record.get("seat") != seat:
                    continue
                add_row(step, f"fault seat {record.get('seat')}", fault_words(record))
            elif kind == "faults":
                if has_fault_lines:
                    continue
                for index, faults in enumerate(record.get("seats", [])):
                    for fault in faults:
                        add_row(step, f"fault seat {index}", fault_words(fault))
            elif kind == "result":
                add_row(step, "result", f"ranks {record.get('ranks')} scores {record.get('scores')}")
            elif kind == "void":
                add_row(step, "void", f"no result: {record.get('reason')}")
            else:
                continue
            rows += 1
            if limit and rows >= limit:
                break
    except ArenaError as error:
        fail(str(error))
        return
    console.print(table)


#: Options listed in full per decision in `b99 replay show`; past this the rest are counted.
OPTIONS_SHOWN = 8


def _decision_words(before: Any, seat: int, option: str, record: dict[str, Any]) -> str:  # noqa: ANN401 - a GameState
    """'seat 0: take:D3 [fallback] · 12.3 ms · of 5: take:D3, take:D4, ...' for one seat's choice at a decision."""
    how = record.get("how", {}).get(str(seat), "")
    marker = "" if how in ("bot", "") else f" [{how}]"
    seconds = record.get("seconds", {}).get(str(seat))
    think = f" · {seconds * 1000:.1f} ms" if isinstance(seconds, (int, float)) else ""
    offered = [o.id for o in before.legal_options(seat)]
    shown = ", ".join(offered[:OPTIONS_SHOWN]) + (f", … {len(offered) - OPTIONS_SHOWN} more" if len(offered) > OPTIONS_SHOWN else "")
    return f"seat {seat}: {option}{marker}{think} · of {len(offered)}: {shown}"


@main.command("bots")
def list_bots() -> None:
    """List the reference bots."""
    from bots.registry import bot_names, supports
    from referee.registry import game_ids

    table = _table(title="Reference bots")
    table.add_column("name", style="bold")
    table.add_column("plays")
    for name in bot_names():
        limited = name in ("heuristic", "learned")  # bots made for some games only
        plays = ", ".join(game for game in game_ids() if supports(name, game)) if limited else "every game"
        table.add_row(name, plays)
    console.print(table)


if __name__ == "__main__":
    main()  # python -m referee.cli ... (the same as b99 ...)
