"""The per-game reference of docs/writing-a-bot.md: views, decisions, options and events of every game.

    python -m sdk.gamedocs                                 # print it
    python -m sdk.gamedocs --write docs/writing-a-bot.md   # replace the "## The games" section

Field lists come from each game's typed messages (proto/b99/games/<id>.proto, with their
comments); decision points and example options from random games played with the engine.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from referee.chance import sample_outcome
from referee.engine import Game, Option
from referee.registry import all_games
from referee.wire import get_wire

SECTION = "## The games"
ROOT = Path(__file__).resolve().parent.parent
FIELD_LINE = re.compile(r"^\s*(?:optional\s+|repeated\s+)?[\w.]+\s+(\w+)\s*=\s*\d+\s*;\s*(?://\s*(.*))?$")


def field_comments(proto: Path) -> dict[tuple[str, str], str]:
    """(message, field) -> the comment at the end of that field's line in the .proto source."""
    comments: dict[tuple[str, str], str] = {}
    stack: list[str] = []
    for line in proto.read_text().splitlines():
        opened = re.match(r"^\s*message\s+(\w+)\s*\{", line)
        if opened:
            stack.append(opened.group(1))
            continue
        if re.match(r"^\s*oneof\s+\w+\s*\{", line):
            stack.append("")  # a oneof block: its fields belong to the enclosing message
            continue
        if line.strip().startswith("}") and stack:
            stack.pop()
            continue
        match = FIELD_LINE.match(line)
        if match and stack:
            owner = next((name for name in reversed(stack) if name), "")
            if match.group(2):
                comments[(owner, match.group(1))] = match.group(2).strip()
    return comments


def type_name(field: FieldDescriptor) -> str:
    if field.message_type is not None:
        base = field.message_type.name
    elif field.enum_type is not None:
        base = field.enum_type.name
    else:
        base = {
            FieldDescriptor.TYPE_BOOL: "bool",
            FieldDescriptor.TYPE_STRING: "string",
            FieldDescriptor.TYPE_DOUBLE: "double",
            FieldDescriptor.TYPE_FLOAT: "float",
            FieldDescriptor.TYPE_BYTES: "bytes",
        }.get(field.type, "int")
    if field.is_repeated:
        return f"list of {base}"
    return base


def is_optional(field: FieldDescriptor) -> bool:
    oneof = field.containing_oneof
    return oneof is not None and oneof.name == f"_{field.name}"


def message_table(descriptor: Descriptor, comments: dict[tuple[str, str], str], seen: set[str]) -> list[str]:
    """A markdown table of a message's fields, then tables of the messages it uses (each once)."""
    seen.add(descriptor.full_name)
    lines = [f"`{descriptor.name}`:", "", "| field | type | note |", "|---|---|---|"]
    nested: list[Descriptor] = []
    for field in descriptor.fields:
        note = comments.get((descriptor.name, field.name), "")
        if is_optional(field):
            note = f"only when set; {note}" if note else "only when set"
        lines.append(f"| `{field.name}` | {type_name(field)} | {note} |")
        if field.message_type is not None and field.message_type.full_name not in seen:
            nested.append(field.message_type)
            seen.add(field.message_type.full_name)
    lines.append("")
    for message in nested:
        lines += message_table(message, comments, seen)
    return lines


def sample_decisions(game: Game, games: int = 30, seed: int = 0) -> dict[str, tuple[int, list[Option]]]:
    """decision name -> (most options seen at once, a few example options), from random play."""
    rng = random.Random(seed)
    found: dict[str, tuple[int, list[Option]]] = {}
    for index in range(games * max(1, len(game.test_variants))):
        players = [game.min_players, game.max_players, game.default_players][index % 3]
        variants = game.test_variants[index % len(game.test_variants)] if game.test_variants else {}
        try:
            config = game.make_config(players, variants)
        except Exception:  # noqa: BLE001 - a test variant meant for other player counts
            config = game.make_config(players)
        state = game.new_initial_state(config)
        steps = 0
        while not state.is_terminal() and steps < 5000:
            steps += 1
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            choices = {}
            for seat in state.deciding_seats():
                options = list(state.legal_options(seat))
                name = state.decision_name(seat)
                most, examples = found.get(name, (0, []))
                for option in options:
                    if len(examples) < 3 and all(option.id != known.id for known in examples):
                        examples.append(option)
                found[name] = (max(most, len(options)), examples)
                choices[seat] = options[rng.randrange(len(options))].id
            state.apply_decisions(choices)
    return found


def game_section(game: Game) -> list[str]:
    wire = get_wire(game.id)
    proto = ROOT / "proto" / "b99" / "games" / f"{game.id}.proto"
    comments = field_comments(proto) if proto.exists() else {}
    players = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
    lines = [f"### {game.name} (`{game.id}`)", "", f"Players: {players}. Messages: `proto/b99/games/{game.id}.proto`.", ""]
    if game.flags:
        lines += ["Variant flags (`--variant key=value`; `GameStart.variants` has every value):", ""]
        lines += [f"- `{flag.name}` (default `{flag.default}`): {flag.doc}" for flag in game.flags]
        lines.append("")
    lines += ["**Decisions** (name, most options seen at once, example options as id, label, payload):", ""]
    for name, (most, examples) in sorted(sample_decisions(game).items()):
        shown = "; ".join(f"`{o.id}` \"{o.label}\" `{dict(o.payload)}`" for o in examples)
        lines.append(f"- `{name}` (up to {most}): {shown}")
    lines += ["", "**View** (what `request.view` holds):", ""]
    seen: set[str] = set()
    lines += message_table(wire.view.DESCRIPTOR, comments, seen)
    lines += ["**Option payload**:", ""]
    lines += message_table(wire.option.DESCRIPTOR, comments, seen)
    kinds = [field.name for field in wire.event.DESCRIPTOR.fields]
    lines += ["**Event kinds**: " + ", ".join(f"`{kind}`" for kind in kinds) + f" (fields: `{game.id}.proto`, message `Event`).", ""]
    return lines


def reference() -> list[str]:
    lines = [
        SECTION,
        "",
        "Generated by `python -m sdk.gamedocs --write docs/writing-a-bot.md` from each game's messages and",
        "random games; the rules of each game, with its components, are in [games/](games/) (one page per game).",
        "",
    ]
    for game in all_games():
        lines += game_section(game)
    return lines


def write_section(path: Path, lines: Sequence[str]) -> None:
    """Replace the section in `path` (or append it), leaving the rest of the file alone."""
    text = path.read_text() if path.exists() else ""
    block = "\n".join(lines).rstrip() + "\n"
    start = text.find(SECTION + "\n")
    if start < 0:
        text = text.rstrip() + "\n\n" + block
    else:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + block + ("\n" + text[end + 1 :] if end >= 0 else "")
    path.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, default=None, help="replace the section in this markdown file")
    args = parser.parse_args(argv)
    lines = reference()
    if args.write:
        write_section(args.write, lines)
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
