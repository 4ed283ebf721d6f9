"""Click options that several referee commands share, written once."""

from __future__ import annotations

import os
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


class OutputFile(click.Path):
    """A file a command writes: its folder must exist and be writable, checked before any work is done
    (a mistyped folder costs no match and prints one line, not a traceback at the end)."""

    def __init__(self, **kwargs: Any) -> None:  # noqa: ANN401 - click.Path's own options
        super().__init__(dir_okay=False, writable=True, **kwargs)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:  # noqa: ANN401 - as click.Path
        path = super().convert(value, param, ctx)
        folder = os.path.dirname(os.path.abspath(os.fspath(path)))
        if not os.path.isdir(folder):
            self.fail(f"{os.fspath(value)!r}: folder {folder} does not exist", param, ctx)
        if not os.access(folder, os.W_OK):
            self.fail(f"{os.fspath(value)!r}: folder {folder} is not writable", param, ctx)
        return path


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
