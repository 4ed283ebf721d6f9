"""`b99 login`, `b99 submit`, `b99 mybots` and the other calls an account makes on a hosted ladder:
each hands its arguments to the SDK's ladder client (sdk.client.cli), the same command the SDK's
wheel installs, so both installations take the same arguments and print the same."""

from __future__ import annotations

import click

#: Each command's one-line help, shown by `b99 --help` without importing the client.
CLIENT_SUMMARIES = {
    "login": "Open an account on a ladder (or use an existing key) and store its API key.",
    "whoami": "Show your account on a ladder and its quotas.",
    "submit": "Upload a bot's folder to a ladder (a new version if the name is yours) and follow its validation.",
    "mybots": "List your bots on a ladder with their versions, status, rating and games.",
    "retire": "Take one of your bots (every version) out of a ladder's play.",
    "rollback": "Put an earlier admitted version of your bot back in rated play.",
    "keys": "List your API keys on a ladder, or issue, revoke or rotate one.",
    "token": "Issue, rotate or revoke a token of your remote bot.",
    "challenge": "Ask a ladder for unrated games between your bot and another.",
    "cancel-challenge": "Cancel your challenge: games not yet started are dropped.",
}


def forward(name: str) -> click.Command:
    """`b99 NAME ARGS...` run by sdk.client.cli (its own --help included)."""

    @click.command(name, help=CLIENT_SUMMARIES[name], add_help_option=False,
                   context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
    @click.pass_context
    def command(ctx: click.Context) -> None:
        from sdk.client.cli import main as client_main

        ctx.exit(client_main([name, *ctx.args]))

    return command


login, whoami, submit, mybots, retire, rollback, keys, token, challenge = (
    forward(name) for name in ("login", "whoami", "submit", "mybots", "retire", "rollback", "keys", "token", "challenge"))
cancel_challenge = forward("cancel-challenge")
