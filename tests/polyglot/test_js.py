"""JavaScript bots (the Node SDK) play whole games against Python bots over the same gRPC protocol."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from referee.match import BotSpec, MatchSpec, run_match
from referee.registry import game_ids, get_game
from tests.polyglot.helpers import JS_SDK, PROCESS_CLOCK, assert_clean, node_or_skip, python_bot, test_game

BOTS = Path(__file__).resolve().parent / "bots"


def test_js_example_bot_plays_whole_games_against_python_bots() -> None:
    node = node_or_skip()
    game = test_game()
    for seed, transport in ((1, "unix"), (2, "tcp")):
        js = BotSpec(name="random-js", command=(node, str(JS_SDK / "random_bot.js")))
        python = python_bot("random", "bots", "random")
        bots = [js, python] if seed % 2 else [python, js]
        report = run_match(MatchSpec(game=game, bots=bots, seed=seed, time_control=PROCESS_CLOCK, transport=transport))
        assert_clean(report)


def dump_requests(tmp_path: Path, name: str, command: tuple[str, ...], game: str, variants: dict[str, object]) -> list[dict]:
    dump = tmp_path / f"{name}.jsonl"
    dump.touch()
    opponent = BotSpec(name="random", command=(sys.executable, "-m", "bots", "random"), env={"B99_BOT_SEED": "3"})
    report = run_match(
        MatchSpec(
            game=game,
            bots=[BotSpec(name=name, command=command, env={"B99_DUMP": str(dump)}), opponent],
            seed=9,
            variants=variants,
            time_control=PROCESS_CLOCK,
        )
    )
    assert_clean(report)
    return [json.loads(line) for line in dump.read_text().splitlines()]


def test_js_sdk_decodes_views_payloads_and_events_as_the_python_sdk_does(tmp_path: Path) -> None:
    node = node_or_skip()
    game = test_game()
    variants = {name: value for variant in get_game(game).test_variants for name, value in variant.items()}
    try:
        get_game(game).make_config(2, variants)
    except Exception:  # noqa: BLE001 - variants that do not combine: the defaults still compare every field
        variants = {}
    js = dump_requests(tmp_path, "dump-js", (node, str(BOTS / "dump_bot.js")), game, variants)
    python = dump_requests(tmp_path, "dump-py", (sys.executable, str(BOTS / "dump_bot.py")), game, variants)
    assert js and len(js) == len(python)
    for js_request, python_request in zip(js, python):
        assert js_request == python_request


def test_js_bot_without_referee_settings_says_so() -> None:
    import subprocess

    node = node_or_skip()
    completed = subprocess.run(
        [node, str(JS_SDK / "random_bot.js")], capture_output=True, text=True, timeout=30, env={"PATH": f"{Path(node).parent}:/usr/bin:/bin"}
    )
    assert completed.returncode == 1
    assert "B99_ARENA_ADDRESS" in completed.stderr


def test_js_typed_view_example_plays_underground_dice() -> None:
    node = node_or_skip()
    if "underground_dice" not in game_ids():
        pytest.skip("Underground Dice is not registered")
    js = BotSpec(name="cautious-js", command=(node, str(JS_SDK / "greedy_dice_bot.js")))
    report = run_match(
        MatchSpec(game="underground_dice", bots=[js, python_bot("random", "bots", "random")], seed=5, time_control=PROCESS_CLOCK)
    )
    assert_clean(report)
