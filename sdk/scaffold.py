"""`b99 bot new NAME --lang python|js|cpp|go|raw-python|raw-js`: a new bot's directory with a README
(every step from a bare machine) and a way to play it.

Every command the scaffold writes (the bot's command, its test) works from a plain shell: interpreters,
the `b99` command and the protocol's .proto files are named by absolute paths.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import click

SDK = Path(__file__).resolve().parent
JS_SDK = SDK / "js"
CPP_SDK = SDK / "cpp"
GO_SDK = SDK / "go"
PROTO_ROOT = SDK.parent / "proto"
RAW_SDK = SDK / "raw"
LANGUAGES = ("python", "js", "cpp", "go", "raw-python", "raw-js")
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")

PYTHON_BOT = '''"""{name}: a B99 Arena bot. Run by the referee: b99 match {game} --bot "{python} bot.py" --bot random"""

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

PYTHON_TEST = '''"""{name} plays whole games of {game} against the random bot: in-process (fast), then once over gRPC."""

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bot import {cls}  # noqa: E402

from bots.random_bot import RandomBot  # noqa: E402
from referee.local import play_local  # noqa: E402
from referee.match import BotSpec, MatchSpec, run_match  # noqa: E402


def test_{ident}_plays_whole_games_against_random() -> None:
    for seed in range(10):
        bots = [{cls}(seed=seed), RandomBot(seed=seed)]
        if seed % 2:
            bots.reverse()
        report = play_local("{game}", bots, seed=seed)
        assert sorted(report.ranks)[0] == 1
        assert not any(seat.faults for seat in report.seats), [seat.faults for seat in report.seats]


def test_{ident}_plays_a_match_over_grpc() -> None:
    """The bot as the referee runs it: its own process, dialing the referee, answering every request."""
    with tempfile.TemporaryDirectory() as scratch:
        bots = [
            BotSpec(name="{name}", command=(sys.executable, str(HERE / "bot.py"))),
            BotSpec(name="random", command=(sys.executable, "-m", "bots", "random")),
        ]
        report = run_match(MatchSpec(game="{game}", bots=bots, seed=1, replay_path=str(Path(scratch) / "replay.jsonl")))
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
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

test("{name} plays a whole game against the random bot", () => {{
  // The b99 command of the installation that made this bot (B99 overrides it).
  const b99 = process.env.B99 || {b99_json};
  const bot = `${{process.execPath}} ${{path.join(__dirname, "..", "bot.js")}}`;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "{name}-"));
  try {{
    const replay = path.join(scratch, "replay.jsonl");
    const output = execFileSync(b99, ["match", "{game}", "--bot", bot, "--bot", "random", "--seed", "1", "--replay", replay, "--json"], {{
      encoding: "utf8",
    }});
    const report = JSON.parse(output);
    for (const seat of report.seats) assert.deepStrictEqual(seat.faults, [], JSON.stringify(seat));
  }} finally {{
    fs.rmSync(scratch, {{ recursive: true, force: true }});
  }}
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
  }},
  "allowScripts": {{
    "file:{sdk}": true,
    "protobufjs": false
  }}
}}
"""

README = """# {name}

A bot for B99 Arena ({docs}), in {language}.

## Set up (once per machine)

On a bare Debian or Ubuntu machine, as root: B99 Arena itself, from your clone of it, then what
this bot's language needs.

{skip_setup}```sh
apt-get update && apt-get install -y git python3 python3-venv python3-dev gcc bubblewrap
./scripts/setup          # in the B99 Arena clone: makes .venv and puts b99 on the PATH ({b99})
{setup}
```

## Build and play a match

From this directory:

{skip_run}```sh
{run}
```

The referee launches the bot, gives it the address and its seat token in `B99_ARENA_ADDRESS` and
`B99_SEAT_TOKEN`, and sends it a request for each of its decisions: its seat's view, its legal
options and what happened since. The bot answers with one option. Print logs to stderr.

## Test

{skip_run}```sh
{test}
```
{notes}
## Next

Make it smarter (see {docs} for the views and options of each game), then measure it:
`{b99} match {game} --bot {command_quoted} --bot heuristic --seed 1`.

## Play on a ladder

On a hosted ladder (its operator gives you its address and, if it is invitation-only, a code), from
this folder:

{skip_ladder}```sh
b99 login --ladder HOST:PORT --invite CODE --name YOU
b99 submit . --game {game} --name {name} --command {ladder_command}
b99 mybots
```

`b99 submit` uploads this folder (list what to leave out in `.b99ignore`) and prints each validation
game; it exits 0 once the bot is admitted to rated play. Submitting again makes a new version. To run
the bot on your own machine instead: `b99 submit --remote --game {game} --name {name}` prints its
token; start the bot with `B99_ARENA_ADDRESS=<the ladder's Arena address> B99_SEAT_TOKEN=<token>`.
On a machine without this install, the SDK and `b99` alone come from the ladder: in a virtual
environment (Debian's own Python refuses `pip install`), `pip install <ladder>/sdk/<the wheel>`.
{ladder_note}"""

#: Why a README's set-up block is not run by the docs tests, and which test covers the same steps.
SETUP_SKIP = (
    "<!-- docs-test: skip (installs system packages as root; scripts/system-packages installs the same ones for CI, "
    "and every test runs on the .venv scripts/setup makes) -->\n"
)
#: Why a README's ladder block is not run by the docs tests, and which test covers the same commands.
LADDER_SKIP = (
    "<!-- docs-test: skip (needs a hosted ladder, its address and an invitation: tests/ladder/test_stranger.py "
    "logs in, submits a bot from its folder and lists it with these commands against a ladder served with TLS) -->\n"
)
#: The Debian packages (and other once-per-machine steps) of each language, after B99 Arena's own.
LANGUAGE_SETUP = {
    "python": "# Python bots need nothing more: b99's own Python has the SDK (`python` in a bot command means it)",
    "js": "apt-get install -y nodejs npm",
    "cpp": "apt-get install -y g++ make pkg-config libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc",
    "go": ("apt-get install -y make golang-go golang-google-grpc-dev golang-google-protobuf-dev "
           "golang-github-golang-protobuf-1-5-dev protoc-gen-go protoc-gen-go-grpc protobuf-compiler"),
    "raw-python": "python3 -m venv .venv && .venv/bin/pip install grpcio grpcio-tools   # in this directory: gRPC and protoc for Python",
    "raw-js": "apt-get install -y nodejs npm",
}
#: Why a compiled bot's build is not run by the docs tests, and which test builds and plays it.
BUILD_SKIP = {
    "cpp": "<!-- docs-test: skip (compiles gRPC stubs for minutes: tests/polyglot/test_scaffold.py builds this scaffold with make and plays it) -->\n",
    "go": "<!-- docs-test: skip (compiles gRPC stubs for minutes: tests/polyglot/test_scaffold.py builds this scaffold with make and plays it) -->\n",
}
#: What goes up to a ladder with the folder, where a language needs it said.
LADDER_NOTES = {
    "raw-python": (
        "On the ladder's workers `python` is a Python with grpcio and protobuf; the generated `b99/` goes up\n"
        "with the folder (`.venv/` never does).\n"
    ),
}
#: What a reader may see and need not worry about, per language.
NOTES = {
    "js": (
        "\n`npm install` copies the SDK into `node_modules` (with its own copy of the `.proto` files, made by\n"
        "the SDK's `prepare` script: `package.json` allows that script in `allowScripts`, and denies\n"
        "protobufjs's `postinstall`, which the SDK does not need), so npm 11 installs without a warning.\n"
    ),
    "raw-js": (
        "\n`package.json` denies protobufjs's `postinstall` in `allowScripts` (the bot does not need it), so\n"
        "npm 11 installs without a warning about install scripts.\n"
    ),
    "cpp": "\n`make` builds with one job per core (the Makefile sets `-j`): the gRPC stubs take a few minutes once.\n",
    "go": "\n`make` builds from Debian's Go packages alone (GOPATH mode, no module proxy), in a few minutes once.\n",
}

#: What each language's files, command and test are; filled in by `scaffold`.
LANGUAGE_NAMES = {
    "python": "Python",
    "js": "JavaScript (Node)",
    "cpp": "C++ (gRPC from Debian's packages)",
    "go": "Go (gRPC from Debian's packages)",
    "raw-python": "Python on grpcio alone (no SDK)",
    "raw-js": "Node on @grpc/grpc-js alone (no SDK)",
}


def b99_command() -> str:
    """The absolute path of this installation's `b99` (works without an activated environment)."""
    own = Path(sys.executable).with_name("b99")
    if own.is_file():
        return str(own)
    return shutil.which("b99") or "b99"


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name) if part) + "Bot"


def make_settings(name: str, game: str, b99: str) -> str:
    """The lines that point a copied SDK Makefile at this installation (its .proto files, b99, the game)."""
    return f"BOT = bot\nPROTO_ROOT = {PROTO_ROOT}\nB99 = {b99}\nGAME = {game}\n# {name}: built by the Makefile below.\n\n"


def copy_protos(target: Path) -> None:
    """Copy the protocol's .proto files (proto/b99/...) into `target`: a bot on bare gRPC generates or
    loads its messages from its own copy, the only one the strict sandbox lets it see."""
    for source in sorted((PROTO_ROOT / "b99").rglob("*.proto")):
        destination = target / source.relative_to(PROTO_ROOT)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, destination)


@dataclass(frozen=True)
class Scaffold:
    """A new bot's directory and the commands (run from inside it) that build and play it and run its test."""

    directory: Path
    run: str
    test: str


def scaffold(name: str, lang: str, game: str, parent: Path) -> Scaffold:
    """Write the bot's files into parent/name (which must not exist yet); returns it with its commands."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGUAGES)})")
    target = parent / name
    target.mkdir(parents=True)
    b99 = b99_command()
    python = sys.executable
    fields = {"name": name, "cls": class_name(name), "game": game, "ident": re.sub(r"\W", "_", name), "python": python}
    if lang == "python":
        (target / "bot.py").write_text(PYTHON_BOT.format(**fields))
        (target / f"test_{fields['ident']}.py").write_text(PYTHON_TEST.format(**fields))
        command = f"{python} bot.py"
        ladder_command = "python bot.py"  # on a ladder's workers `python` is the Python with the SDK
        run = f'{b99} match {game} --bot "{command}" --bot random --seed 1'
        test = f"{python} -m pytest -q"
    elif lang == "js":
        (target / "bot.js").write_text(JS_BOT.format(**fields))
        (target / "test").mkdir()
        (target / "test" / "bot.test.js").write_text(JS_TEST.format(**fields, b99_json=json.dumps(b99)))
        (target / "package.json").write_text(JS_PACKAGE.format(name=name.lower(), sdk=JS_SDK.as_posix()))
        # A copy of the SDK (with its .proto files) in node_modules, never a symlink: the strict sandbox
        # binds only the bot's directory, so a link pointing out of it would dangle there.
        (target / ".npmrc").write_text("install-links=true\n")
        (target / ".gitignore").write_text("node_modules/\n")
        command = ladder_command = "node bot.js"
        run = f'npm install\n{b99} match {game} --bot "{command}" --bot random --seed 1'
        test = "npm test"
    elif lang == "raw-python":
        shutil.copy(RAW_SDK / "raw_bot.py", target / "raw_bot.py")
        copy_protos(target / "proto")
        (target / ".gitignore").write_text(".venv/\nb99/\n")
        command = ".venv/bin/python raw_bot.py"
        # On a ladder's workers `python` is the Python with grpcio and protobuf; the generated b99/ is uploaded with the folder.
        ladder_command = "python raw_bot.py"
        run = (
            ".venv/bin/python -m grpc_tools.protoc -I proto --python_out=. --grpc_python_out=. proto/b99/arena.proto proto/b99/games/*.proto\n"
            "touch b99/__init__.py b99/games/__init__.py\n"
            f'{b99} match {game} --bot "{command}" --bot random --seed 1'
        )
        test = f'{b99} match {game} --bot "{command}" --bot random --seed 2 --json > /dev/null   # exits 1 if the bot does not start'
    elif lang == "raw-js":
        shutil.copy(RAW_SDK / "raw_bot.js", target / "raw_bot.js")
        copy_protos(target / "proto")
        (target / ".gitignore").write_text("node_modules/\n")
        command = ladder_command = "node raw_bot.js"
        sdk_packages = json.loads((JS_SDK / "package.json").read_text())["dependencies"]
        (target / "package.json").write_text(json.dumps({
            "name": name.lower(),
            "version": "0.1.0",
            "private": True,
            "main": "raw_bot.js",
            "scripts": {"test": f'{shlex.quote(b99)} match {game} --bot "{command}" --bot random --seed 2 --json > /dev/null'},
            "dependencies": {package: sdk_packages[package] for package in ("@grpc/grpc-js", "@grpc/proto-loader")},
            "allowScripts": {"protobufjs": False},
        }, indent=2) + "\n")
        run = f'npm install --no-audit --no-fund\n{b99} match {game} --bot "{command}" --bot random --seed 1'
        test = "npm test"
    else:
        sdk = CPP_SDK if lang == "cpp" else GO_SDK
        source = (sdk / "random_bot.cc").read_text() if lang == "cpp" else (sdk / "main.go").read_text()
        (target / ("bot.cc" if lang == "cpp" else "main.go")).write_text(source)
        (target / "Makefile").write_text(make_settings(name, game, b99) + (sdk / "Makefile").read_text())
        (target / ".gitignore").write_text("build/\n")
        command = ladder_command = "build/bot"
        run = f'make\n{b99} match {game} --bot {command} --bot random --seed 1'
        test = "make test"
    (target / "README.md").write_text(
        README.format(
            name=name,
            game=game,
            language=LANGUAGE_NAMES[lang],
            run=run,
            test=test,
            b99=b99,
            command_quoted=f'"{command}"',
            ladder_command=f'"{ladder_command}"',
            docs=(SDK.parent / "docs" / "writing-a-bot.md").as_posix(),
            setup=LANGUAGE_SETUP[lang],
            skip_setup=SETUP_SKIP,
            skip_run=BUILD_SKIP.get(lang, ""),
            skip_ladder=LADDER_SKIP,
            ladder_note=LADDER_NOTES.get(lang, ""),
            notes=NOTES.get(lang, ""),
        )
    )
    return Scaffold(target, run, test)


@click.group("bot")
def bot_group() -> None:
    """Make a new bot."""


@bot_group.command("new")
@click.argument("name")
@click.option("--lang", type=click.Choice(LANGUAGES), default="python", show_default=True)
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
    made = scaffold(name, lang, chosen, Path(parent))
    click.echo(f"created {made.directory}/ ({LANGUAGE_NAMES[lang]} bot for {chosen}); from inside it:")
    for line in ["cd " + shlex.quote(str(made.directory)), *made.run.splitlines(), *made.test.splitlines()]:
        click.echo(f"  {line}")


def test_command(directory: Path) -> list[str] | None:
    """The command that runs a scaffolded bot's own test, from its files (None if it is no bot we know)."""
    if (directory / "package.json").is_file():
        return ["npm", "test"]
    if (directory / "Makefile").is_file():
        return ["make", "test"]
    if any(directory.glob("test_*.py")):
        return [sys.executable, "-m", "pytest", "-q"]
    return None


@bot_group.command("test")
@click.argument("directory", type=click.Path(file_okay=False, exists=True), default=".")
def test_bot(directory: str) -> None:
    """Run the own test of the bot in DIRECTORY (made by `b99 bot new`) with the right tools."""
    import subprocess

    command = test_command(Path(directory))
    if command is None:
        click.echo(f"error: {directory} holds no bot made by `b99 bot new` (no test_*.py, package.json or Makefile)", err=True)
        sys.exit(2)
    click.echo(f"$ {shlex.join(command)}  (in {directory})", err=True)
    try:
        completed = subprocess.run(command, cwd=directory)
    except FileNotFoundError:
        click.echo(f"error: {command[0]} is not installed", err=True)
        sys.exit(2)
    sys.exit(completed.returncode)
