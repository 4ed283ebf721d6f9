"""`b99 bot new NAME --lang python|js`: a new bot's directory with a README and a test against the random bot."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

JS_SDK = Path(__file__).resolve().parent / "js"
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")

PYTHON_BOT = '''"""{name}: a B99 Arena bot. Run by the referee: b99 match {game} --bot "python bot.py" --bot random"""

import random

from sdk import Bot, Request
from sdk.run import run


class {cls}(Bot):
    name = "{name}"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, request: Request) -> str:
        # request.view: this seat's view (a dict with the game's proto field names);
        # request.options: the legal options (id, label, payload); request.events: what happened.
        return self.rng.choice(list(request.options)).id


if __name__ == "__main__":
    run({cls}())
'''

PYTHON_TEST = '''"""{name} plays whole games of {game} against the random bot (in-process: fast, same requests as over gRPC)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot import {cls}  # noqa: E402

from bots.random_bot import RandomBot  # noqa: E402
from referee.local import play_local  # noqa: E402


def test_{ident}_plays_whole_games_against_random() -> None:
    for seed in range(10):
        bots = [{cls}(seed=seed), RandomBot(seed=seed)]
        if seed % 2:
            bots.reverse()
        report = play_local("{game}", bots, seed=seed)
        assert sorted(report.ranks)[0] == 1
        assert not any(seat.faults for seat in report.seats), [seat.faults for seat in report.seats]
'''

JS_BOT = '''#!/usr/bin/env node
// {name}: a B99 Arena bot. Run by the referee: b99 match {game} --bot "node bot.js" --bot random
"use strict";
const {{ Bot, run }} = require("b99-arena-sdk");

class {cls} extends Bot {{
  choose(request) {{
    // request.view: this seat's view (proto field names); request.options: id, label, payload.
    return request.options[Math.floor(Math.random() * request.options.length)].id;
  }}
}}

run(new {cls}("{name}")).catch((error) => {{
  console.error(error.message);
  process.exit(1);
}});
'''

JS_TEST = '''// {name} plays a whole game of {game} against the random bot, over gRPC, through `b99 match`.
"use strict";
const test = require("node:test");
const assert = require("node:assert");
const {{ execFileSync }} = require("node:child_process");
const path = require("node:path");

test("{name} plays a whole game against the random bot", () => {{
  const b99 = process.env.B99 || "b99";
  const bot = `node ${{path.join(__dirname, "..", "bot.js")}}`;
  const output = execFileSync(b99, ["match", "{game}", "--bot", bot, "--bot", "random", "--seed", "1", "--json"], {{
    encoding: "utf8",
  }});
  const report = JSON.parse(output);
  for (const seat of report.seats) assert.deepStrictEqual(seat.faults, [], JSON.stringify(seat));
}});
'''

JS_PACKAGE = """{{
  "name": "{name}",
  "version": "0.1.0",
  "private": true,
  "main": "bot.js",
  "scripts": {{
    "test": "node --test test/"
  }},
  "dependencies": {{
    "b99-arena-sdk": "file:{sdk}"
  }}
}}
"""

README = """# {name}

A bot for [B99 Arena]({docs}), in {language}.

## Play a match

```
{run}
```

The referee launches the bot, gives it the address and its seat token in `B99_ARENA_ADDRESS` and
`B99_SEAT_TOKEN`, and sends it a request for each of its decisions: its seat's view, its legal
options and what happened since. The bot answers with one option. Print logs to stderr.

## Test

```
{test}
```

## Next

Make `choose` smarter (see docs/writing-a-bot.md for the views and options of each game), then
measure it: `b99 match {game} --bot {command_quoted} --bot heuristic --seed 1`.
"""


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name) if part) + "Bot"


def scaffold(name: str, lang: str, game: str, parent: Path) -> Path:
    """Write the bot's files into parent/name (which must not exist yet); returns that directory."""
    target = parent / name
    target.mkdir(parents=True)
    fields = {"name": name, "cls": class_name(name), "game": game, "ident": re.sub(r"\W", "_", name)}
    if lang == "python":
        (target / "bot.py").write_text(PYTHON_BOT.format(**fields))
        (target / f"test_{fields['ident']}.py").write_text(PYTHON_TEST.format(**fields))
        command = "python bot.py"
        run = f'b99 match {game} --bot "{command}" --bot random --seed 1'
        test = "pytest -q"
        language = "Python"
    else:
        (target / "bot.js").write_text(JS_BOT.format(**fields))
        (target / "test").mkdir()
        (target / "test" / "bot.test.js").write_text(JS_TEST.format(**fields))
        (target / "package.json").write_text(JS_PACKAGE.format(name=name.lower(), sdk=JS_SDK.as_posix()))
        command = "node bot.js"
        # --install-links copies the SDK (with its .proto files) into node_modules: the bot's
        # directory then holds all it needs, as the strict sandbox sees only that directory.
        run = f'npm install --install-links\nb99 match {game} --bot "{command}" --bot random --seed 1'
        test = "npm test"
        language = "JavaScript (Node)"
    (target / "README.md").write_text(
        README.format(
            name=name, game=game, language=language, run=run, test=test, command_quoted=f'"{command}"', docs="docs/writing-a-bot.md"
        )
    )
    return target


@click.group("bot")
def bot_group() -> None:
    """Make a new bot."""


@bot_group.command("new")
@click.argument("name")
@click.option("--lang", type=click.Choice(["python", "js"]), default="python", show_default=True)
@click.option("--game", default=None, help="The game its README and test use (default: the first registered game).")
@click.option("--dir", "parent", type=click.Path(file_okay=False), default=".", show_default=True, help="Where to create it.")
def new_bot(name: str, lang: str, game: str | None, parent: str) -> None:
    """Create NAME/: a bot that plays any game at random, a README and a test against the random bot."""
    from referee.errors import ArenaError
    from referee.registry import game_ids, get_game

    if not NAME_PATTERN.match(name):
        click.echo(f"error: bot name {name!r} must start with a letter and use only letters, digits, - and _", err=True)
        sys.exit(2)
    try:
        chosen = get_game(game).id if game else game_ids()[0]
    except (ArenaError, IndexError) as error:
        click.echo(f"error: {error or 'no games are registered'}", err=True)
        sys.exit(2)
    if (Path(parent) / name).exists():
        click.echo(f"error: {Path(parent) / name} already exists", err=True)
        sys.exit(2)
    target = scaffold(name, lang, chosen, Path(parent))
    click.echo(f"created {target}/ ({lang} bot for {chosen}); see {target / 'README.md'}")
