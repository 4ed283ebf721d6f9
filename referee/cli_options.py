"""Click options that several referee commands share, written once."""

from __future__ import annotations

import click

#: `--seed`: the referee's chance seed; B99_SEED keeps it off the command line.
seed_option = click.option(
    "--seed",
    type=int,
    default=None,
    envvar="B99_SEED",
    help="Seed of the referee's chance (a fresh secret one when omitted). B99_SEED keeps it off the command line, which other users can read.",
)
