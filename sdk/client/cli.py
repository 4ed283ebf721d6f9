"""`b99 login`, `b99 submit`, `b99 mybots` and the other calls an account makes on a hosted ladder.

argparse rather than click: this is the command the SDK's wheel installs, which depends on grpcio
and protobuf only. The full installation's `b99` offers the same subcommands (referee.cli)."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import grpc

from sdk.client.config import ClientConfigError, LadderLogin, config_file, load_login, save_login
from sdk.client.ladder import LadderClient, create_account
from sdk.client.pack import PackError, pack_folder

#: The subcommands this module answers (the full `b99` forwards these to it).
COMMANDS = ("login", "whoami", "submit", "mybots", "retire", "rollback", "keys", "token", "challenge", "cancel-challenge")


class Refused(RuntimeError):
    """The ladder said no (a rejected bot, a refused call): exit 1 with the reason."""


def _client(args: argparse.Namespace) -> LadderClient:
    return LadderClient(load_login(args.ladder))


def cmd_login(args: argparse.Namespace) -> None:
    tls = bool(args.tls or args.ca_file)
    ca_file = str(Path(args.ca_file).resolve()) if args.ca_file else ""
    if args.key:
        login = LadderLogin(args.ladder, "", args.key, tls, ca_file)
        with LadderClient(login) as client:
            login = LadderLogin(args.ladder, client.whoami().name, args.key, tls, ca_file)
    else:
        if not args.name:
            raise Refused("--name NAME is needed to open an account (or --key KEY to use an existing one)")
        login = create_account(args.ladder, args.name, args.invite or "", tls, ca_file)
    path = save_login(login)
    print(f"logged in to {login.address} as {login.account}; API key stored in {path} (mode 0600)")


def cmd_whoami(args: argparse.Namespace) -> None:
    with _client(args) as client:
        info = client.whoami()
    print(f"{info.name} on {client.login.address}: {info.status}" + (f" ({info.suspended_reason})" if info.suspended_reason else ""))
    for quota in info.quotas:
        print(f"  {quota.name}: {quota.used} of {quota.limit}" if quota.name != "archive_bytes" else f"  {quota.name}: {quota.limit}")


def follow_validation(client: LadderClient, name: str, version: str) -> bool:
    """Print each validation event as it comes; True if the version was admitted."""
    for event in client.follow(name, version):
        print(event.message, flush=True)
        if event.stderr_tail.strip():
            print("  stderr (last lines):")
            for line in [line for line in event.stderr_tail.splitlines() if line.strip()][-12:]:
                print(f"    {line}")
        if event.kind == "admitted":
            return True
        if event.kind == "rejected":
            return False
    return False


def cmd_submit(args: argparse.Namespace) -> None:
    command = shlex.split(args.command) if args.command else []
    with _client(args) as client:
        if args.remote:
            reply = client.submit(args.name, args.game, [], None, remote=True)
            print(f"{reply.bot.name}: remote bot, version {reply.bot.version}, {reply.bot.status}")
            print(f"token (shown once; keep it secret): {reply.token}")
            print("run your bot with B99_ARENA_ADDRESS=<the ladder's Arena address> B99_SEAT_TOKEN=<token>;"
                  " it plays its validation games when it connects")
            return
        if not command:
            raise Refused("--command CMD is needed: how to start the bot inside its folder (e.g. \"python bot.py\")")
        data, files = pack_folder(Path(args.folder))
        print(f"packed {len(files)} files ({len(data)} bytes) from {args.folder}")
        reply = client.submit(args.name, args.game, command, data)
        print(f"{args.name} version {reply.bot.version} submitted; validation games follow", flush=True)
        if args.no_wait:
            return
        if not follow_validation(client, args.name, reply.bot.version):
            raise Refused(f"{args.name} version {reply.bot.version} was not admitted")


def cmd_mybots(args: argparse.Namespace) -> None:
    with _client(args) as client:
        bots = client.mybots().bots
    if not bots:
        print("no bots yet: b99 submit DIR --game GAME --name NAME --command CMD")
    for bot in bots:
        print(f"{bot.name} ({bot.game}, {bot.kind})")
        for version in bot.versions:
            mark = "*" if version.current else " "
            reason = f" - {version.reason}" if version.reason else ""
            print(f"  {mark} v{version.version:<4} {version.status:<10} Elo {version.rating:7.1f}  {version.games:4d} games{reason}")


def cmd_retire(args: argparse.Namespace) -> None:
    with _client(args) as client:
        client.retire(args.name)
    print(f"{args.name} retired")


def cmd_rollback(args: argparse.Namespace) -> None:
    with _client(args) as client:
        client.rollback(args.name, args.version)
    print(f"{args.name} version {args.version} plays rated matches again")


def cmd_keys(args: argparse.Namespace) -> None:
    with _client(args) as client:
        if args.new is not None:
            print(f"new API key (shown once): {client.create_key(args.new)}")
            return
        if args.revoke:
            client.revoke_key(args.revoke)
            print(f"key #{args.revoke} revoked")
            return
        if args.rotate:
            key = client.revoke_key(0)
            save_login(LadderLogin(client.login.address, client.login.account, key, client.login.tls, client.login.ca_file))
            print(f"key rotated; the new one is stored in {config_file()}")
            return
        for key in client.keys().keys:
            print(f"#{key.id}  ...{key.hint}  {key.label or '-':<16} {key.created_at[:19]}  {'revoked' if key.revoked else 'live'}")


def cmd_token(args: argparse.Namespace) -> None:
    action = "rotate" if args.rotate else "revoke" if args.revoke else "issue"
    with _client(args) as client:
        result = client.token(args.name, action)
    print(f"{args.name}: {result} token(s) revoked" if action == "revoke" else f"token (shown once): {result}")


def cmd_challenge(args: argparse.Namespace) -> None:
    with _client(args) as client:
        if args.show:
            status = client.get_challenge(args.show)
        else:
            status = client.challenge(args.name, args.opponent, args.games)
    print(f"challenge #{status.id}: {status.bot} against {status.opponent}, {status.finished} of {status.games} played; "
          f"won {status.wins}, drew {status.draws}, lost {status.losses}")


def cmd_cancel_challenge(args: argparse.Namespace) -> None:
    with _client(args) as client:
        status = client.cancel_challenge(args.id)
    print(f"challenge #{status.id} cancelled: {status.finished} of {status.games} games ended")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="b99", description="Play on a hosted B99 Arena ladder.")
    commands = top.add_subparsers(dest="command_name", required=True)

    def sub(name: str, function, help_text: str) -> argparse.ArgumentParser:  # type: ignore[no-untyped-def]
        command = commands.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(function=function)
        if name != "login":
            command.add_argument("--ladder", default=None, help="HOST:PORT of the ladder (default: the last one logged in to)")
        return command

    login = sub("login", cmd_login, "Open an account on a ladder (or use an existing key) and store its API key.")
    login.add_argument("--ladder", required=True, help="HOST:PORT of the ladder's LadderService")
    login.add_argument("--name", default=None, help="your account's name")
    login.add_argument("--invite", default=None, help="the invitation code the operator gave you")
    login.add_argument("--key", default=None, help="an API key you already have (instead of opening an account)")
    login.add_argument("--tls", action="store_true", help="the ladder serves TLS with a publicly trusted certificate")
    login.add_argument("--ca-file", default=None, help="the CA certificate of a ladder with its own (self-signed) certificate")
    sub("whoami", cmd_whoami, "Show your account and its quotas.")
    submit = sub("submit", cmd_submit, "Upload a bot's folder (a new version if the name is yours) and follow its validation.")
    submit.add_argument("folder", nargs="?", default=".")
    submit.add_argument("--game", required=True)
    submit.add_argument("--name", required=True)
    submit.add_argument("--command", default=None, help="how to start the bot inside its folder, e.g. \"python bot.py\"")
    submit.add_argument("--remote", action="store_true", help="a bot you run yourself, dialling in with a token (printed once)")
    submit.add_argument("--no-wait", action="store_true", help="do not follow the validation games")
    sub("mybots", cmd_mybots, "List your bots with their versions, status, rating and games.")
    retire = sub("retire", cmd_retire, "Take a bot (every version) out of play.")
    retire.add_argument("name")
    rollback = sub("rollback", cmd_rollback, "Put an earlier admitted version back in rated play.")
    rollback.add_argument("name")
    rollback.add_argument("version")
    keys = sub("keys", cmd_keys, "List your API keys, or issue, revoke or rotate one.")
    keys.add_argument("--new", metavar="LABEL", default=None, help="issue a further key")
    keys.add_argument("--revoke", metavar="ID", type=int, default=None, help="revoke key #ID")
    keys.add_argument("--rotate", action="store_true", help="replace the key in use (stored in its place)")
    token = sub("token", cmd_token, "Issue, rotate or revoke a remote bot's token.")
    token.add_argument("name")
    token.add_argument("--rotate", action="store_true")
    token.add_argument("--revoke", action="store_true")
    challenge = sub("challenge", cmd_challenge, "Ask for unrated games between your bot and another.")
    challenge.add_argument("name", nargs="?")
    challenge.add_argument("opponent", nargs="?")
    challenge.add_argument("--games", type=int, default=10)
    challenge.add_argument("--show", type=int, default=None, metavar="ID", help="show challenge #ID instead")
    cancel = sub("cancel-challenge", cmd_cancel_challenge, "Cancel your challenge: games not yet started are dropped.")
    cancel.add_argument("id", type=int)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; 0 on success, 1 with a one-line reason when refused."""
    args = parser().parse_args(argv)
    try:
        args.function(args)
    except grpc.RpcError as error:
        details = error.details() if hasattr(error, "details") else str(error)  # type: ignore[attr-defined]
        if error.code() == grpc.StatusCode.UNAVAILABLE:  # type: ignore[attr-defined]
            details = (f"cannot reach the ladder ({details}); check its address, and for a ladder that serves TLS "
                       "log in with --tls, or --ca-file with its certificate")
        print(f"b99: {details or error.code().name}", file=sys.stderr)  # type: ignore[attr-defined]
        return 1
    except (Refused, ClientConfigError, PackError, OSError) as error:
        print(f"b99: {error}", file=sys.stderr)
        return 1
    return 0


def entry() -> None:
    """The console script's entry point (exit with main's code)."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
