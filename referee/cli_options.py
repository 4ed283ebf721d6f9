"""Click options that several referee commands share, written once."""

from __future__ import annotations

from typing import Any

import click


class VariantParam(click.ParamType):
    """A `key=value` variant flag; the value is checked by the game later."""

    name = "key=value"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[str, str]:
        if isinstance(value, tuple):
            return value
        key, sep, raw = str(value).partition("=")
        if not sep or not key:
            self.fail(f"{value!r} is not key=value", param, ctx)
        return key.strip(), raw.strip()


#: `--seed`: the referee's chance seed; B99_SEED keeps it off the command line.
seed_option = click.option(
    "--seed",
    type=int,
    default=None,
    envvar="B99_SEED",
    help="Seed of the referee's chance (a fresh secret one when omitted). B99_SEED keeps it off the command line, which other users can read.",
)

#: `--variant key=value`, repeatable: one of the game's config flags.
variant_option = click.option("--variant", "variants", type=VariantParam(), multiple=True, help="A config flag, key=value.")
