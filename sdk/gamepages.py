"""Writes docs/games/<id>.md: each game's rules in brief, its variants, and its component data field by field.

    python -m sdk.gamepages --write docs/games

The overviews below are this project's own summaries; the component tables are generated from the data
files the engines read (referee/games/<id>/<id>.json), so an id such as B03, DR3 or REP21 has its meaning
in the page of its game. tests/docs checks that the pages are up to date.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from referee.registry import all_games
from sdk.envs.docs import training_section

DATA_ROOT = Path(__file__).resolve().parents[1] / "referee" / "games"

OVERVIEWS: dict[str, str] = {
    "underground_dice": """\
Two players bluff with six special dice: three *pin* dice (every face shows 1) and three *4-5-6* dice
(faces 4, 5 and 6). The dice are never rolled: they are **set**. One player is the **parent**, the
other the **child**. Each round the parent secretly sets some unused pin dice (`set_pins`) and some
unused 4-5-6 dice to faces of its choice (`set_faces`); only how many dice were set (k) is announced.
The child **stakes** bills (`stake`) and **guesses** the total (`guess`). The dice are revealed: a hit
returns the stake and the parent pays the stake times a multiplier that grows with k; a miss hands the
stake to the parent. Once the parent has used all six dice the roles swap. After five parent turns each
(or at once when a hand is empty: a **bankruptcy**) the game ends. Scores are money in P (a bill is
1000 P); a bankrupt player ranks last whatever it holds. With the **counterfeit** variant, 6 of the 66
bills are fakes: a payer chooses how many fakes go into each payment (`stake_fakes`, `pay_fakes`) and
the receiver may accept or accuse (`accept_or_accuse`).""",
    "deep_dive": """\
Each turn a penguin dives through up to five depths of face-down ocean tiles. At each depth the diver
may take a face-up food or rock tile and surface, flip the next face-down tile, or (in some cases) skip
the depth. A flipped food or rock tile may be kept (surface) or left face-up while diving on; open
water sends the diver one depth deeper; a predator captures the penguin and ends the turn with nothing.
A third captured penguin lets its owner retreat with one tile from the depths where its penguins are
held. Rocks let a later dive start deeper. Food tiles come in three colours (pink, green, yellow);
a player lines them up in one column per colour and complete rows score the full value, incomplete
rows half. When a depth's stack runs out the end is triggered and a last round is played. Solo, the
player races an automa run by the engine (`ai_difficulty`).""",
    "fuji99": """\
A push-your-luck race up a 99-space track. Each player has a bag of coloured cubes. On a turn a player
announces how many cubes to draw (`draw_count`), draws them and moves: white cubes move the climber,
red cubes are danger (too many red and the turn **busts**), yellow cubes pay for Fuji cards. After a
draw the player may go on (put the cubes back and draw again) or stop (`continue_or_stop`); stopping
keeps the progress and places clear cubes. Fuji cards are drawn from a deck and help (or hinder, as
omens given to others); a card's danger value can also bust its holder. The first player to reach the
goal wins; the others rank by position, then by fewer turns taken. Scores are spaces climbed (the
winner scores the goal).""",
    "merchants": """\
Players are merchants fitting out their shop, a 4x4 grid of equipment tiles, over three rounds. Each
round is a draft: players hold a hand of tiles, each picks one (`choose_tile`) and places it in the
shop, either on an empty square next to its tiles or over a tile already there (`choose_target`,
`choose_rotation`), then hands the rest on. Tiles have a colour (red, blue, yellow), a kind (sword,
staff, shield, armor), an attribute (fire, ice, thunder) and thumbs-up halves on some edges. Trend
cards in each dungeon row (the AB layout, then C and D cards in later rounds) score patterns in the
shop; at each round's end a player scores one dungeon (`choose_dungeon`). Reputation cards are secret
objectives scored at the end (stars and hearts); `return_reputation` gives one back. Highest total
wins, stars break ties. Solo, the player scores against a table of titles.""",
    "magnificent": """\
A heavy euro game about a travelling circus. Each round dice are rolled into a shared pool; on a turn
a player takes a die, places it on one of its master cards, and uses the die's colour and value to
**build** (take polyomino camp tiles and place them on its camp grid), **travel** (move a wagon along
one of three tracks, gaining what it lands on: gems, tents, posters) or **perform** (shows for points).
Master cards and trainer tiles add bonuses; posters are goals that pay points and coins when completed;
tents give points, coins and gems. Rounds end when the dice run out; the game ends after the last
round, and final scoring adds track points, master cards, coins and filled camp areas. Highest score
wins, then most coins, then most completed posters. A draft variant deals master cards; solo plays
against a fixed schedule.""",
}

FIELD_NOTES: dict[str, dict[str, str]] = {
    "merchants.tiles": {
        "id": "R01..R24 red, B01..B24 blue, Y01..Y24 yellow",
        "colour": "red, blue or yellow",
        "kind": "sword, staff, shield or armor",
        "attribute": "fire, ice or thunder",
        "halves": "edges (N, E, S, W at rotation 0) that show half a thumbs-up; two halves meeting across a shared edge make one",
    },
    "merchants.ab_cards": {
        "id": "DR (dragon), CA (castle), SW (swamp) and 1..4: the dungeon's four AB trend cards",
        "A/B": "the two faces: name, scoring type and its parameters (patterns use R/B/Y for a tile of that colour, K for the kind on the row's grey tile, . for any)",
        "first_game": "the face used by the first-game layout",
    },
    "merchants.reputation_cards": {
        "id": "REP01..REP22",
        "condition": "what the shop must show at the end for the card to count",
        "stars": "stars it gives if achieved (stars rank players and break ties)",
        "hearts": "its heart value (the best heart breaks star ties)",
    },
    "deep_dive.tiles": {
        "id": "D<depth>-<nn>",
        "depth": "1..5, the stack the tile starts in",
        "type": "food, rock, open_water or predator",
        "colour": "food only: pink, green or yellow",
        "value": "food only: points in a complete row (half in an incomplete one)",
    },
    "fuji99.card_types": {
        "type": "the card's kind; deck ids are <type>-<copy>",
        "danger": "the value that can bust the holder when a stop is checked",
        "cost": "yellow cubes from the current draw to use the card (null: it cannot be used)",
        "timing": "use (when the holder chooses), instant (on draw) or persistent",
        "effect": "what it does, as the engine reads it; text says it in words",
    },
    "magnificent.master_cards.regular": {
        "id": "M01..M40",
        "bonus": "what the card gives when a die is placed on it (for example POWER:2)",
        "scoring": "what it scores at the end (for example PER_COMPLETED_POSTER:2)",
    },
    "magnificent.posters.regular": {
        "id": "P01..P48",
        "tiles": "camp tile types it asks for",
        "gems": "gems it asks for (O, G, P, C)",
        "points": "points when completed",
        "coins": "coins when completed",
    },
    "magnificent.camp_tile_types": {
        "id": "colour letter (O, G, P) and size (s small, l large)",
        "cells": "the cells it covers at orientation 0",
        "orientations": "the cells at each orientation k",
        "copies": "how many such tiles exist",
    },
}


def _cell(value: Any, limit: int = 160) -> str:  # noqa: ANN401 - any JSON value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _tables(data: Any, path: str, game_id: str, depth: int = 0) -> list[str]:  # noqa: ANN401
    """Markdown for every list of records in the data (each record one row, every field a column)."""
    lines: list[str] = []
    if isinstance(data, list) and data and all(isinstance(item, dict) for item in data):
        keys: list[str] = []
        for item in data:
            keys.extend(key for key in item if key not in keys and key not in ("source", "name_ja", "title_ja", "text_ja"))
        lines += ["", f"### `{path}` ({len(data)})", ""]
        notes = FIELD_NOTES.get(f"{game_id}.{path}", {})
        for key, note in notes.items():
            lines.append(f"- `{key}`: {note}")
        if notes:
            lines.append("")
        lines.append("| " + " | ".join(keys) + " |")
        lines.append("|" + "---|" * len(keys))
        for item in data:
            lines.append("| " + " | ".join(_cell(item.get(key, "")) for key in keys) + " |")
    elif isinstance(data, dict) and depth < 2:
        for key, value in data.items():
            lines += _tables(value, f"{path}.{key}" if path else key, game_id, depth + 1)
    return lines


def page(game_id: str) -> str:
    """The Markdown page of one game."""
    game = next(game for game in all_games() if game.id == game_id)
    data = json.loads((DATA_ROOT / game_id / f"{game_id}.json").read_text(encoding="utf-8"))
    players = f"{game.min_players}" if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
    lines = [
        f"# {game.name} (`{game.id}`)",
        "",
        f"Players: {players}. Score: {game.score_unit}. Ranking: {game.ranking_rule}.",
        "",
        "## How it plays",
        "",
        OVERVIEWS[game_id],
        "",
        f"The decisions a bot is asked, the fields of its view and the event kinds are listed in "
        f"[writing-a-bot.md](../writing-a-bot.md#the-games); a whole state as JSON is described in "
        f"[positions.md](../positions.md).",
        "",
        "## Variants",
        "",
        "`--variant key=value` on `b99 match`; `GameStart.variants` has every value.",
        "",
    ]
    lines += [f"- `{flag.name}` (default `{json.dumps(flag.default)}`): {flag.doc}" for flag in game.flags] or ["- none"]
    lines += [
        "",
        "## Components",
        "",
        f"Generated from `referee/games/{game_id}/{game_id}.json`, the data the engine reads (a bot may read it too).",
        "Every list of records is one table: one row per component, one column per field.",
    ]
    lines += _tables(data, "", game_id)
    lines += training_section(game_id)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", metavar="DIR", help="write DIR/<id>.md for every game (default: print)")
    args = parser.parse_args()
    for game in all_games():
        text = page(game.id)
        if args.write:
            Path(args.write, f"{game.id}.md").write_text(text, encoding="utf-8")
        else:
            print(text)


if __name__ == "__main__":
    main()
