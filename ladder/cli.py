"""The ladder's command line: `b99 ladder ...` and `b99 tournament ...` (registered as b99 plug-ins)."""

from __future__ import annotations

import functools
import json
import logging
import os
import signal
import shlex
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ladder.settings import LadderSettings
from ladder.standings_table import standings_table
from referee.cli_options import OutputFile

console = Console(soft_wrap=True)


def _fail(message: str) -> None:
    raise click.ClickException(message)


def _guard(function):  # type: ignore[no-untyped-def]
    """Turn the platform's typed errors into one-line messages with a non-zero exit code."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ladder.registry import LadderError
        from referee.errors import ArenaError

        try:
            return function(*args, **kwargs)
        except (ArenaError, LadderError) as error:
            _fail(str(error))
        except ImportError as error:
            _fail(f"missing component: {error}")

    return wrapper


def parse_variants(pairs: tuple[str, ...]) -> dict[str, Any]:
    """key=value pairs; a value is read as JSON when it parses (true, 3, "x"), else as a string."""
    variants: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            _fail(f"variant {pair!r} is not key=value")
        key, text = pair.split("=", 1)
        try:
            variants[key] = json.loads(text)
        except json.JSONDecodeError:
            variants[key] = text
    return variants


def reference_command(text: str) -> list[str] | None:
    """The process command of a reference bot name (random, heuristic...), None if `text` is not one."""
    try:
        from bots.registry import bot_names
    except ImportError:
        return None
    return [sys.executable, "-m", "bots", text] if text in bot_names() else None


# ---------------------------------------------------------------------------------------------- tournament


@click.command()
@click.argument("game")
@click.option("--bot", "bot_texts", multiple=True, required=True, help="A reference bot name or a command; once per entrant.")
@click.option("--games", "games_per_table", type=click.IntRange(min=1), default=10, show_default=True, help="Games per table of players.")
@click.option("--players", type=click.IntRange(min=1), default=None, help="Seats per game (default: as many bots as the game allows).")
@click.option("--duplicate", is_flag=True, help="Play every seed in every seat rotation, so that luck cancels out.")
@click.option("--seed", type=int, default=None, help="Seed of the schedule's game seeds, to replay a tournament (default: fresh secret seeds).")
@click.option("--parallel", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True, help="Matches at once.")
@click.option("--in-process", is_flag=True, help="Run reference bots inside the referee (no gRPC; fast simulation).")
@click.option("--variant", "variant_pairs", multiple=True, help="A variant flag as key=value.")
@click.option("--time-per-decision", type=float, default=None, help="Seconds per decision.")
@click.option(
    "--sandbox",
    type=click.Choice(["none", "basic", "strict"]),
    default=lambda: _default_sandbox(),
    show_default="strict where the machine provides it, else none (as b99 match)",
    help="Confine bot processes (reference bots run --in-process are not processes).",
)
@click.option("--replays", "replay_dir", type=click.Path(file_okay=False, path_type=Path), default=None, help="Write every replay here.")
@click.option("--json", "json_path", type=OutputFile(path_type=Path), default=None, help="Write the results as JSON.")
@click.option("--warm/--no-warm", default=True, show_default=True,
              help="Fork Python bots at sandbox level none from warm parents kept for the tournament.")
@_guard
def tournament(
    game: str,
    bot_texts: tuple[str, ...],
    games_per_table: int,
    players: int | None,
    duplicate: bool,
    seed: int | None,
    parallel: int,
    in_process: bool,
    variant_pairs: tuple[str, ...],
    time_per_decision: float | None,
    sandbox: str,
    replay_dir: Path | None,
    json_path: Path | None,
    warm: bool,
) -> None:
    """Play a round robin between local bots (all seatings) and print an Elo table with win rates."""
    from referee.match import TimeControl
    from referee.registry import get_game

    from ladder.tournament import round_robin, run_tournament

    get_game(game)
    from referee.bot_resolution import resolve_bot

    bots = [resolve_bot(text, game, in_process, sandbox) for text in bot_texts]
    time_control = TimeControl(per_decision_seconds=time_per_decision) if time_per_decision else None
    engine_game = get_game(game)
    count = players or min(max(len(bots), engine_game.min_players), engine_game.max_players)
    try:
        total = len(round_robin(len(bots), count, games_per_table, seed, duplicate))
    except ValueError as error:
        _fail(str(error))
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TimeRemainingColumn(), console=console, transient=not console.is_terminal,
    ) as progress:
        task = progress.add_task(f"{game} round robin", total=total)
        result = run_tournament(
            game, bots, games_per_table=games_per_table, players=count, seed=seed, duplicate=duplicate,
            parallel=parallel, variants=parse_variants(variant_pairs), time_control=time_control,
            replay_dir=replay_dir, on_result=lambda *_: progress.advance(task), warm=warm,
        )
    confinement = "bots in process (no sandbox)" if in_process else f"sandbox {sandbox}"
    title = f"{game} · {total} games · {count} players per game" + (" · duplicate" if duplicate else "") + f" · {confinement}"
    caption = "Elo: in schedule order, as the ladder rates · strength and its 90% interval: fitted to every game at once"
    multiplayer = count > 2  # with two players the share of pairwise points is the win rate
    columns = [("#", "right"), ("bot", "left"), ("Elo", "right"), ("strength", "right"), ("interval", "right"), ("games", "right"),
               ("wins", "right"), ("win %", "right")] + ([("points %", "right")] if multiplayer else []) + [("faults", "right")]
    rows = []
    for position, line in enumerate(result.standings, 1):
        interval = f"{line.interval[0]:.0f}–{line.interval[1]:.0f}" if line.interval else "-"
        win_rate = line.wins / line.games if line.games else 0.0
        strength = f"{line.strength:.0f}" if line.strength is not None else "-"
        cells = [str(position), line.name, f"{line.rating:.1f}", strength, interval, str(line.games), f"{line.wins:g}", f"{win_rate:.1%}"]
        cells += [f"{line.score_share:.1%}"] if multiplayer else []
        rows.append([*cells, str(line.faults)])
    # Numbers and bot names stay whole in a narrow terminal: the headers wrap first.
    table = standings_table(title, caption, columns, rows, name_column=1, width=console.width)
    console.print(table)
    print_tournament_faults(result)
    if json_path:
        json_path.write_text(json.dumps(result.to_json(), indent=2))


def _default_sandbox() -> str:
    from referee.cli import default_sandbox_level

    return default_sandbox_level()


#: Faulted games shown per entrant below the tournament's table (all of them are in --json).
FAULTS_SHOWN_PER_ENTRANT = 2


def print_tournament_faults(result: Any) -> None:
    """Each entrant's first faulted games, each fault with the last lines of its bot's stderr."""
    from referee.fault_text import fault_block

    if result.void_games:
        console.print(f"[bold]{len(result.void_games)} game(s) void[/bold] (every seat faulted before any decision; not rated)")
    shown: dict[int, int] = {}
    hidden: dict[str, int] = {}
    for record in result.faults:
        if shown.get(record.entrant, 0) >= FAULTS_SHOWN_PER_ENTRANT:
            hidden[record.name] = hidden.get(record.name, 0) + 1
            continue
        shown[record.entrant] = shown.get(record.entrant, 0) + 1
        title = f"{record.name}, game {record.game} seat {record.seat}:"
        console.print(fault_block(title, record.faults, record.stderr_tail, record.replaced))
    for name, count in hidden.items():
        console.print(f"{name}: faults in {count} more game(s) (all of them with --json)")


# ---------------------------------------------------------------------------------------------- ladder


@click.group()
@click.option("--home", type=click.Path(file_okay=False), envvar="B99_LADDER_HOME", default=None,
              help="The ladder's directory (database, replays, uploaded bots). Default: ./b99-ladder")
@click.option("--db", "db_url", envvar="B99_LADDER_DB", default=None,
              help="Database URL (default: SQLite in the home directory; postgresql://... for a hosted ladder).")
@click.pass_context
def ladder(ctx: click.Context, home: str | None, db_url: str | None) -> None:
    """Run a rating ladder: register bots, schedule matches, keep Elo ratings."""
    from click.core import ParameterSource

    from ladder.settings import sqlite_url

    if (home and db_url and ctx.get_parameter_source("home") == ParameterSource.COMMANDLINE
            and ctx.get_parameter_source("db_url") == ParameterSource.ENVIRONMENT
            and db_url != sqlite_url(Path(home) / "ladder.db")):
        # A home named on the command line is a ladder of its own: a database inherited from the
        # environment would silently put its bots on another (perhaps live) ladder.
        _fail(f"--home {home} was given but B99_LADDER_DB points at {masked_url(db_url)}: say which database "
              f"with --db (the home's own: --db {sqlite_url(Path(home) / 'ladder.db')}), or unset B99_LADDER_DB")
    ctx.obj = LadderSettings.create(home, db_url)


def masked_url(url: str) -> str:
    """A database URL with its password hidden, to print."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - a URL SQLAlchemy cannot parse is printed as it is, it has no password field
        return url


pass_settings = click.make_pass_decorator(LadderSettings)


@ladder.command()
@pass_settings
@_guard
def init(settings: LadderSettings) -> None:
    """Create the ladder (or bring its database schema up to date)."""
    from ladder.db import current_revision, migrate

    settings.secure()
    migrate(settings.db_url)
    console.print(f"ladder ready in {settings.home}, database {masked_url(settings.db_url)} "
                  f"(schema {current_revision(settings.db_url)})")


@ladder.command("add-bot")
@click.argument("name")
@click.option("--game", required=True, help="The game this bot plays.")
@click.option("--command", "command_text", default=None, help="Start command (a reference bot name works too).")
@click.option("--upload", type=click.Path(exists=True, path_type=Path), default=None,
              help="A directory or archive copied into the ladder's store; --command runs inside it.")
@click.option("--remote", is_flag=True, help="A bot that dials the ladder itself with a token.")
@click.option("--owner", default="", help="Who to tell about the bot (shown with notices).")
@click.option("--version", "version", default=None,
              help="Register version N of the bot: for a name the ladder has, a new version that takes the name in "
                   "rated play once admitted (the version playing now retires).")
@click.option("--sandbox", type=click.Choice(["none", "basic", "strict"]), default=None,
              help="Sandbox level (default: strict for uploads, none for local commands).")
@click.option("--validate/--no-validation", default=True, show_default=True,
              help="Play unrated validation games against the reference bot before rated play (a remote bot plays them once it connects).")
@pass_settings
@_guard
def add_bot(settings: LadderSettings, name: str, game: str, command_text: str | None, upload: Path | None,
            remote: bool, owner: str, version: str | None, sandbox: str | None, validate: bool) -> None:
    """Register a bot (it plays validation games first, unless --no-validation)."""
    from ladder.registry import NameTakenError
    from ladder.registry import add_bot as register

    command: list[str] | str | None = command_text
    if command_text is not None and upload is None:
        command = reference_command(command_text) or command_text
    try:
        bot = register(settings, name, game, command=command, upload=upload, remote=remote, owner=owner,
                       version=version, sandbox=sandbox, validate=validate, versioned=version is not None)
    except NameTakenError as error:
        raise click.ClickException(f"{error}; `--version N` registers a new version of it") from None
    console.print(f"bot {bot.name} (#{bot.id}) added to {game} as a {bot.kind} bot (sandbox {bot.sandbox}, {bot.status})")
    if bot.family and bot.name != bot.family:
        console.print(f"version {bot.version} of {bot.family}: it takes the name in rated play once admitted")
    if bot.sandbox != "none":
        from referee.sandbox import machine_support

        support = machine_support()
        if not support.available(bot.sandbox):
            console.print(f"warning: this machine cannot run the {bot.sandbox} sandbox ({support.missing[bot.sandbox]}); "
                          "the bot's matches will end in startup faults here")


@ladder.command()
@click.argument("name")
@click.option("--rotate", is_flag=True, help="Revoke every token the bot has, then issue the new one.")
@click.option("--revoke", is_flag=True, help="Revoke the bot's tokens (all of them, or the one in --token) and issue none.")
@click.option("--token", "token_text", default=None, help="With --revoke: only this token.")
@pass_settings
@_guard
def token(settings: LadderSettings, name: str, rotate: bool, revoke: bool, token_text: str | None) -> None:
    """Issue a secret token for a remote bot (shown once; the ladder keeps only its hash), or rotate or
    revoke its tokens. A revoked token opens no new connection, and one waiting for a seat is closed."""
    from ladder.registry import issue_token, revoke_tokens, rotate_token

    if rotate and revoke:
        _fail("--rotate and --revoke exclude each other")
    if token_text and not revoke:
        _fail("--token goes with --revoke")
    if revoke:
        count = revoke_tokens(settings, name, token_text)
        console.print(f"{name}: {count} token{'s' if count != 1 else ''} revoked")
        return
    click.echo(rotate_token(settings, name) if rotate else issue_token(settings, name))


@ladder.command()
@click.option("--uses", type=click.IntRange(min=1), default=1, show_default=True, help="Accounts the code may open.")
@pass_settings
@_guard
def invite(settings: LadderSettings, uses: int) -> None:
    """Print a new invitation code (shown once) for `b99 login --invite CODE`."""
    from ladder.accounts import create_invite
    from ladder.ladder_config import config_path, load_config

    click.echo(create_invite(settings, uses))
    if load_config(settings.home).registration == "open":
        console.print(f"(registration is open in {config_path(settings.home)}: nobody needs a code)", markup=False)


@ladder.command()
@click.argument("name", required=False)
@click.option("--suspend", "reason", default=None, help="Suspend the account, saying why.")
@click.option("--restore", is_flag=True, help="Lift the account's suspension.")
@pass_settings
@_guard
def accounts(settings: LadderSettings, name: str | None, reason: str | None, restore: bool) -> None:
    """List the accounts, or suspend one (--suspend REASON) or lift its suspension (--restore)."""
    from ladder.accounts import list_accounts, set_suspended

    if (reason is not None or restore) and not name:
        _fail("name the account to suspend or restore")
    if reason is not None and restore:
        _fail("--suspend and --restore exclude each other")
    if name and (reason is not None or restore):
        change = set_suspended(settings, name, reason is not None, reason or "")
        account = change.account
        console.print(f"{account.name}: {account.status}" + (f" ({account.suspended_reason})" if account.suspended_reason else ""), markup=False)
        done = "paused" if reason is not None else "back in rated play"
        console.print(f"bots {done}: {', '.join(change.bots) if change.bots else 'none'}", markup=False)
        if change.challenges:
            console.print(f"challenges cancelled: {change.challenges}", markup=False)
        return
    for account in list_accounts(settings):
        console.print(f"{account.name}: {account.status}" + (f" ({account.suspended_reason})" if account.suspended_reason else ""), markup=False)


@ladder.command()
@click.argument("archive", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--no-files", is_flag=True, help="Only the database (no replays, no uploaded bots).")
@pass_settings
@_guard
def backup(settings: LadderSettings, archive: Path, no_files: bool) -> None:
    """Write the ladder (database snapshot, replays, uploaded bots) to ARCHIVE (.tar.gz); safe while it runs."""
    from ladder.backup import backup as write_backup

    summary = write_backup(settings, archive, with_files=not no_files)
    console.print(f"backed up to {archive}: {summary.describe()}")


@ladder.command()
@click.argument("archive", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@pass_settings
@_guard
def restore(settings: LadderSettings, archive: Path) -> None:
    """Restore a backup into this ladder (an empty database: SQLite or PostgreSQL, whichever it came from)."""
    from ladder.backup import restore as read_backup

    summary = read_backup(settings, archive)
    console.print(f"restored {archive} into {settings.home}: {summary.describe()}")


@ladder.command("settings")
@click.argument("game", required=False)
@click.option("--players", default=None, help='Player counts: "3", a mix "2,3,4", or weighted "2:1,4:2".')
@click.option("--time-per-decision", type=float, default=None, help="Seconds per decision.")
@click.option("--time-bank", type=float, default=None, help="Seconds in each seat's bank.")
@click.option("--increment", type=float, default=None, help="Seconds added to the bank after each decision.")
@click.option("--startup-time", type=float, default=None, help="Seconds a bot has to connect.")
@click.option("--strikes", type=click.IntRange(min=0), default=None, help="Timeouts forgiven before a seat is replaced.")
@click.option("--variant", "variant_pairs", multiple=True, help="A variant flag as key=value (repeatable).")
@click.option("--reset", is_flag=True, help="Forget the game's settings (back to the game's defaults).")
@click.option("--file", "path", type=click.Path(dir_okay=False, path_type=Path), envvar="B99_LADDER_GAMES", default=None,
              help="The games file (default: games.toml in the ladder's home).")
@pass_settings
@_guard
def game_settings_command(settings: LadderSettings, game: str | None, players: str | None, time_per_decision: float | None,
                          time_bank: float | None, increment: float | None, startup_time: float | None, strikes: int | None,
                          variant_pairs: tuple[str, ...], reset: bool, path: Path | None) -> None:
    """Show or change per-game settings (player counts, time control, variants) used for new matches."""
    from ladder.game_settings import games_file, load_games, make_settings, save_games

    path = path or games_file(settings.home)
    games = load_games(path)
    changes: dict[str, Any] = {key: value for key, value in (
        ("players", players), ("time_per_decision", time_per_decision), ("time_bank", time_bank),
        ("increment", increment), ("startup_time", startup_time), ("strikes", strikes)) if value is not None}
    if variant_pairs:
        changes["variants"] = parse_variants(variant_pairs)
    if (changes or reset) and not game:
        _fail("name the GAME to change")
    if game and reset:
        games.pop(game, None)
        save_games(path, games)
    elif game and changes:
        table = {**(games[game].to_toml() if game in games else {}), **changes}
        games[game] = make_settings(game, table)
        save_games(path, games)
    shown = [game] if game else sorted(games)
    if not shown:
        console.print(f"no per-game settings in {path}: every game plays with its defaults")
    for game_id in shown:
        current = games.get(game_id) or make_settings(game_id, {})
        control = ", ".join(f"{name} {value:g}" for name, value in sorted(current.time_control.items())) or "defaults"
        variants = ", ".join(f"{name}={json.dumps(value)}" for name, value in sorted(current.variants.items())) or "standard"
        console.print(f"{game_id}: players {current.describe_players()} · time control {control} · variants {variants}")


@ladder.command()
@click.argument("name")
@click.option("--reason", required=True, help="Why (the owner gets a notice saying so).")
@pass_settings
@_guard
def pause(settings: LadderSettings, name: str, reason: str) -> None:
    """Stop scheduling a bot."""
    from ladder.registry import set_status

    set_status(settings, name, "paused", reason)
    console.print(f"{name} paused: {reason}")


@ladder.command()
@click.argument("name")
@pass_settings
@_guard
def resume(settings: LadderSettings, name: str) -> None:
    """Schedule a paused bot again."""
    from ladder.registry import set_status

    set_status(settings, name, "active")
    console.print(f"{name} is active again")


@ladder.command()
@click.argument("game", required=False)
@pass_settings
@_guard
def leaderboard(settings: LadderSettings, game: str | None) -> None:
    """Show the leaderboard of GAME (or of every game): the ranked bots, then the bots listed apart."""
    from ladder import queries

    for game_id in [game] if game else queries.games(settings):
        rows = queries.leaderboard(settings, game_id)
        table = Table(title=f"{game_id} leaderboard",
                      caption="Elo: official rating · strength and its 90% interval: fitted to the whole history, from the field's "
                              "mean (1500) · > next: the probability it is stronger than the bot below")
        for column, justify in [("#", "right"), ("bot", "left"), ("owner", "left"), ("Elo", "right"), ("strength", "right"),
                                ("90% interval", "right"), ("> next", "right"), ("games", "right"), ("status", "left")]:
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        for row in rows:
            if not row.ranked:
                continue
            interval = f"{row.interval[0]:.0f}–{row.interval[1]:.0f}" if row.interval else "-"
            strength = f"{row.strength:.0f}" if row.strength is not None else "-"
            above = f"{row.above_next:.0%}" if row.above_next is not None else "-"
            table.add_row(str(row.position), row.name, row.owner or "-", f"{row.rating:.1f}", strength, interval, above,
                          str(row.games), row.status)
        console.print(table)
        apart = [row for row in rows if not row.ranked]
        if apart:
            reasons = queries.status_reasons(settings, game_id)
            listing = Table(title=f"{game_id}: not ranked")
            for column in ("bot", "owner", "status", "why", "games"):
                listing.add_column(column)
            for row in apart:
                listing.add_row(row.name, row.owner or "-", row.status, reasons.get(row.bot_id, "-"), str(row.games))
            console.print(listing)


@ladder.command()
@click.argument("name")
@pass_settings
@_guard
def validate(settings: LadderSettings, name: str) -> None:
    """Send a bot (rejected, paused, or a fixed one) through its validation games again."""
    from ladder.validation import VALIDATION_GAMES, revalidate

    revalidate(settings, name)
    console.print(f"{name} will play {VALIDATION_GAMES} validation games before rated play")


@ladder.command()
@click.argument("name")
@click.option("--limit", type=int, default=10, show_default=True, help="Latest faulted matches to show.")
@click.option("--lines", type=int, default=12, show_default=True, help="Last stderr lines per fault.")
@pass_settings
@_guard
def faults(settings: LadderSettings, name: str, limit: int, lines: int) -> None:
    """Show a bot's latest faults (any match kind) with the reasons and the last lines of its stderr."""
    from ladder import queries
    from ladder.registry import get_bot

    from referee.faults import fault_words

    bot = get_bot(settings, name)
    found = queries.bot_faults(settings, bot.id or 0, limit=limit)
    status = f"{bot.name}: {bot.status}" + (f" ({bot.paused_reason})" if bot.paused_reason else "")
    console.print(status, markup=False)
    if not found:
        console.print("no faults")
    for row in found:
        finished = row.finished_at.strftime("%Y-%m-%d %H:%M:%S") if row.finished_at else "-"
        console.print(f"match #{row.match_id} ({row.kind}, seat {row.seat}, {finished})", markup=False)
        for fault in row.faults:
            console.print(f"  {fault_words(fault)}", markup=False)
        if row.exit_code is not None:
            console.print(f"  exit code {row.exit_code}", markup=False)
        tail = [line for line in row.stderr_tail.splitlines() if line.strip()][-lines:]
        console.print("  stderr:" + ("".join(f"\n    {line}" for line in tail) if tail else " (empty)"), markup=False)


@ladder.command()
@click.argument("bot")
@click.argument("opponent")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True, help="Unrated games to play.")
@click.option("--by", "requested_by", default="", help="Who asks (shown with the results).")
@click.option("--seed", type=int, default=None)
@pass_settings
@_guard
def challenge(settings: LadderSettings, bot: str, opponent: str, games: int, requested_by: str, seed: int | None) -> None:
    """Ask for GAMES unrated games between BOT and OPPONENT (seats alternate; ratings never change).

    The running ladder (`b99 ladder serve`) plays them; `b99 ladder challenge-results ID` shows them."""
    from ladder.challenges import request_challenge

    challenge_id = request_challenge(settings, bot, opponent, games, requested_by, seed)
    console.print(f"challenge #{challenge_id}: {games} unrated games, {bot} against {opponent}, queued")


@ladder.command("challenge-results")
@click.argument("challenge_id", type=int)
@pass_settings
@_guard
def challenge_results(settings: LadderSettings, challenge_id: int) -> None:
    """Show a challenge's games: ranks, faults and replays, and the challenger's record."""
    from ladder.challenges import challenge_result
    from ladder.replays import replay_file

    result = challenge_result(settings, challenge_id)
    files: list[tuple[int, Path]] = []
    table = Table(title=f"challenge #{result.id}: {result.bot} against {result.opponent} · "
                        f"{result.finished} of {result.games} played · {result.bot} won {result.wins}, "
                        f"drew {result.draws}, lost {result.losses}")
    for column in ("match", "status", "seats (rank, faults)", "replay"):
        table.add_column(column)
    for row in result.matches:
        seats = []
        for seat in row.seats:
            text = seat.bot + (f" #{seat.rank}" if seat.rank is not None else "")
            if seat.faults:
                text += " [" + ", ".join(f"{fault['kind']}: {fault['detail']}" for fault in seat.faults) + "]"
            seats.append(text)
        path = replay_file(settings, row.id) if getattr(row, "has_replay", False) or row.replay_path else None
        if path is not None:
            files.append((row.id, path))
        table.add_row(str(row.id), row.status, "\n".join(seats), "below" if path is not None else "-")
    console.print(table)
    # Whole paths on lines of their own (a table cell would wrap them): each opens with `b99 replay show`.
    for match_id, path in files:
        click.echo(f"match {match_id}: b99 replay show {shlex.quote(str(path))}")


@ladder.command()
@click.option("--game", default=None)
@click.option("--bot", "bot_name", default=None)
@click.option("--status", type=click.Choice(["queued", "running", "done", "void"]), default=None)
@click.option("--limit", type=int, default=20, show_default=True)
@pass_settings
@_guard
def matches(settings: LadderSettings, game: str | None, bot_name: str | None, status: str | None, limit: int) -> None:
    """List recent matches with ranks, faults and rating changes."""
    from ladder import queries
    from ladder.registry import get_bot

    bot_id = get_bot(settings, bot_name).id if bot_name else None
    table = Table(title="matches")
    for column in ("id", "game", "status", "seats (rank, Elo change, faults)", "finished"):
        table.add_column(column)
    for row in queries.matches(settings, game=game, bot_id=bot_id, status=status, limit=limit):
        seats = []
        for seat in row.seats:
            text = f"{seat.bot}"
            if seat.rank is not None:
                text += f" #{seat.rank}"
                if seat.rating_after is not None:
                    text += f" ({(seat.rating_after or 0) - (seat.rating_before or 0):+.1f})"
            if seat.faults:
                text += " [" + ", ".join(fault["kind"] for fault in seat.faults) + "]"
            seats.append(text)
        status_text = row.status + (f" ({row.kind})" if row.kind != "rated" else "")
        status_text += f": {row.void_reason}" if row.status == "void" and row.void_reason else ""
        status_text += f" (unrated: {row.unrated_reason})" if row.unrated_reason else ""
        finished = row.finished_at.strftime("%Y-%m-%d %H:%M:%S") if row.finished_at else "-"
        table.add_row(str(row.id), row.game, status_text, "\n".join(seats), finished)
    console.print(table)


@ladder.command()
@click.argument("game", required=False)
@click.option("--check", is_flag=True, help="Only compare; exit 1 if a stored rating differs.")
@pass_settings
@_guard
def recompute(settings: LadderSettings, game: str | None, check: bool) -> None:
    """Recompute ratings from the match history (and compare them with the stored ones)."""
    from ladder import queries
    from ladder.recompute import recompute as replay

    differing = 0
    for game_id in [game] if game else queries.games(settings):
        differences = replay(settings, game_id, write=not check)
        differing += len(differences)
        for difference in differences:
            console.print(f"{game_id}: bot #{difference.bot_id}: stored {difference.stored:.3f}, recomputed {difference.recomputed:.3f}")
        console.print(f"{game_id}: {len(differences)} ratings differ" + ("" if check or not differences else " (rewritten)"))
    if check and differing:
        sys.exit(1)


@ladder.command()
@click.option("--margin", type=float, default=10.0, show_default=True,
              help="Seconds past its lease after which an open match counts as stuck.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
@pass_settings
@_guard
def status(settings: LadderSettings, margin: float, as_json: bool) -> None:
    """Show queued, running, stuck and retried matches, and the workers seen with their last heartbeat."""
    from ladder.models import utcnow
    from ladder.status import ladder_status

    from ladder.game_settings import GamesFile, games_file

    report = ladder_status(settings, margin=margin, games=GamesFile(games_file(settings.home)))
    now = utcnow()
    if as_json:
        click.echo(json.dumps({
            "counts": report.counts, "retried": report.retried, "stuck": [m.id for m in report.stuck],
            "open": [{"id": m.id, "game": m.game, "status": m.status, "attempts": m.attempts, "dispatches": m.dispatches,
                      "worker": m.worker, "lease_expires_at": m.lease_expires_at.isoformat() if m.lease_expires_at else None,
                      "stuck": m.stuck} for m in report.open],
            "workers": [{"name": w.name, "kind": w.kind, "heartbeat_age_seconds": round((now - _utc(w.heartbeat_at)).total_seconds(), 1),
                         "match": w.match_id, "playing": list(w.playing), "processes": w.processes,
                         "matches_done": w.matches_done} for w in report.workers],
            "scheduler": None if report.scheduler is None else {
                "name": report.scheduler.host_and_pid,
                "renewed_age_seconds": round((now - _utc(report.scheduler.renewed_at)).total_seconds(), 1)},
            "unplayable": [{"game": g.game, "active": g.active, "needs": g.needs, "reason": g.reason} for g in report.unplayable],
        }, indent=2))
        return
    summary = ", ".join(f"{report.counts.get(name, 0)} {name}" for name in ("queued", "running", "done", "void"))
    console.print(f"matches: {summary}; {len(report.stuck)} stuck; {report.retried} retried")
    if report.scheduler is None:
        console.print("scheduler: none running (`b99 ladder serve` schedules the matches)")
    else:
        age = (now - _utc(report.scheduler.renewed_at)).total_seconds()
        console.print(f"scheduler: {report.scheduler.host_and_pid} (lease renewed {age:.1f} s ago)")
    for game in report.unplayable:
        console.print(f"[bold]cannot play[/bold] {game.reason}")
    if report.open:
        table = Table(title="open matches")
        for column in ("id", "game", "status", "attempts", "sent", "worker", "lease", ""):
            table.add_column(column)
        for match in report.open:
            lease = "-" if match.lease_expires_at is None else f"{(match.lease_expires_at - now).total_seconds():+.1f} s"
            table.add_row(str(match.id), match.game, match.status, str(match.attempts), str(match.dispatches),
                          match.worker or "-", lease, "STUCK" if match.stuck else "")
        console.print(table)
    table = Table(title="workers seen (the last hour)")
    for column in ("worker", "kind", "last heartbeat", "playing", "match processes", "matches done"):
        table.add_column(column)
    for worker in report.workers:
        age = (now - _utc(worker.heartbeat_at)).total_seconds()
        playing = ", ".join(str(match) for match in worker.playing) or "-"
        table.add_row(worker.name, worker.kind, f"{age:.1f} s ago", playing, str(worker.processes), str(worker.matches_done))
    console.print(table)


def _utc(moment: Any) -> Any:
    """SQLite gives back naive datetimes: they are UTC."""
    from datetime import timezone

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=timezone.utc)


@ladder.command()
@click.option("--executor", type=click.Choice(["local", "celery"]), default="local", show_default=True)
@click.option("--broker", envvar="B99_LADDER_BROKER", default=None, help="Celery broker URL (redis://...).")
@click.option("--workers", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True, help="Local worker processes.")
@click.option("--concurrency", type=click.IntRange(min=1), default=None, help="Matches in flight (default: workers).")
@click.option("--warm/--no-warm", default=True, show_default=True,
              help="Fork Python bots at sandbox level none from warm parents kept between matches (local executor).")
@click.option("--game", "games", multiple=True, help="Games to schedule (default: every game with bots).")
@click.option("--self-play", is_flag=True, help="Allow a bot to meet itself when too few bots are active.")
@click.option("--max-matches", type=int, default=None, help="Stop after scheduling this many matches (and finishing them).")
@click.option("--seed", type=int, default=None)
@click.option("--grpc", "grpc_address", default=None, help="Serve the LadderService here (host:port, or unix:PATH).")
@click.option("--http", "http_address", default=None, help="Serve the web pages here (host:port).")
@click.option("--arena", "arena_address", default=None, help="Accept remote bots here (host:port).")
@click.option("--arena-advertise", default=None, envvar="B99_LADDER_ARENA_ADVERTISE",
              help="host:port at which Celery workers on other machines reach --arena (default: this machine's).")
@click.option("--metrics", "metrics_address", default=None,
              help="Serve Prometheus metrics on a port of their own (host:port); they are also under /metrics of --http.")
@click.option("--games-config", type=click.Path(dir_okay=False, path_type=Path), envvar="B99_LADDER_GAMES", default=None,
              help="Per-game settings (TOML). Default: games.toml in the ladder's home.")
@click.option("--private", is_flag=True, help="Streams (WatchResults, FetchReplay) need the admin token or a bot's token.")
@click.option("--max-watchers", type=click.IntRange(min=1), default=1000, show_default=True, help="Open WatchResults streams in all.")
@click.option("--max-watchers-per-client", type=click.IntRange(min=1), default=20, show_default=True,
              help="Open WatchResults streams per client address.")
@click.option("--trust-proxy", is_flag=True,
              help="Behind a reverse proxy: count watchers per the x-real-ip header it sets, not per connection address.")
@click.option("--tls-cert", type=click.Path(dir_okay=False), envvar="B99_LADDER_TLS_CERT", default=None,
              help="PEM certificate chain: the LadderService and the Arena endpoint serve TLS (with --tls-key).")
@click.option("--tls-key", type=click.Path(dir_okay=False), envvar="B99_LADDER_TLS_KEY", default=None, help="PEM private key of --tls-cert.")
@click.option("--log-format", type=click.Choice(["text", "json"]), envvar="B99_LADDER_LOG_FORMAT", default="text",
              show_default=True, help="json: one JSON object per line (time, level, logger, message, match_id...).")
@pass_settings
@_guard
def serve(settings: LadderSettings, executor: str, broker: str | None, workers: int, concurrency: int | None, warm: bool,
          games: tuple[str, ...], self_play: bool, max_matches: int | None, seed: int | None,
          grpc_address: str | None, http_address: str | None, arena_address: str | None, metrics_address: str | None,
          games_config: Path | None, private: bool, max_watchers: int, max_watchers_per_client: int, trust_proxy: bool,
          log_format: str, arena_advertise: str | None, tls_cert: str | None, tls_key: str | None) -> None:
    """Run the ladder: schedule and play matches continuously, serve the APIs and pages."""
    from ladder.api import WatchLimits
    from ladder.db import migrate
    from ladder.game_settings import games_file, load_games
    from ladder.logs import configure_logging
    from ladder.server import LadderServer
    from ladder.service import SchedulerOptions

    configure_logging(log_format)
    load_games(games_config or games_file(settings.home))  # a bad games file stops here, with its reason
    from ladder.ladder_config import load_config

    load_config(settings.home)  # so does a bad ladder.toml
    migrate(settings.db_url)
    if executor == "celery" and not broker:
        _fail("--executor celery needs --broker redis://...")
    if bool(tls_cert) != bool(tls_key):
        _fail("--tls-cert and --tls-key go together")
    from ladder.tls import TlsFiles

    tls = TlsFiles.load(tls_cert, tls_key) if tls_cert and tls_key else None
    options = SchedulerOptions(games=games, concurrency=concurrency or workers, allow_self_play=self_play,
                               seed=seed, max_matches=max_matches, games_file=games_config)
    server = LadderServer(settings, options, executor=executor, broker=broker, workers=workers,
                          grpc_address=grpc_address, http_address=http_address, arena_address=arena_address,
                          metrics_address=metrics_address, private=private,
                          watch_limits=WatchLimits(per_client=max_watchers_per_client, total=max_watchers,
                                                   trust_proxy=trust_proxy),
                          arena_advertise=arena_advertise, tls=tls, warm=warm)
    signal.signal(signal.SIGTERM, lambda *_: server.stop())
    try:
        server.start()
    except (OSError, ValueError, RuntimeError) as error:  # an address taken or malformed
        server.stop()
        _fail(f"cannot start the servers: {error}")
    for line in server.describe():
        console.print(line)
    if not server.ladder.has_lease():
        from ladder.scheduler_lease import current_holder

        holder = current_holder(settings)
        console.print(f"another scheduler ({holder.host_and_pid if holder else '?'}) runs on this database: this serve "
                      "answers the APIs and pages only, and schedules matches if that one stops")
    try:
        server.run(until_idle=max_matches is not None)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


@ladder.command()
@click.option("--broker", envvar="B99_LADDER_BROKER", required=True, help="Celery broker URL (redis://...).")
@click.option("--concurrency", type=click.IntRange(min=1), default=os.cpu_count() or 1, show_default=True)
@click.option("--name", "hostname", default=None, help="Worker name (default: celery's).")
@click.option("--scratch", type=click.Path(file_okay=False), envvar="B99_LADDER_WORKER_HOME", default=None,
              help="This machine's directory for match scratch files and unpacked bots (default: the service's home path).")
def worker(broker: str, concurrency: int, hostname: str | None, scratch: str | None) -> None:
    """Run a Celery worker that plays the ladder's matches (one per process at a time). It needs
    only the broker and the database: bots and replays travel through the database."""
    from ladder.celery_app import configure

    os.environ["B99_LADDER_WORKER_KIND"] = "celery"
    if scratch:
        os.environ["B99_LADDER_WORKER_HOME"] = str(Path(scratch).resolve())
    app = configure(broker)
    argv = ["worker", "--loglevel=INFO", f"--concurrency={concurrency}", "--pool=prefork", "-Q", "ladder", "--without-gossip", "--without-mingle"]
    if hostname:
        argv.append(f"--hostname={hostname}")
    app.worker_main(argv)
