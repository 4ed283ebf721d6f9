"""The example bots in other languages still play under the strict sandbox's seccomp filter."""

from __future__ import annotations

import pytest

from referee.match import BotSpec, MatchSpec, run_match
from referee.sandbox import machine_support
from tests.polyglot.helpers import JS_SDK, PROCESS_CLOCK, assert_clean, node_or_skip, python_bot, test_game
from tests.polyglot.test_cpp import build_cpp_bot

pytestmark = pytest.mark.skipif(
    not machine_support().available("strict"), reason=f"no strict sandbox here: {machine_support().missing.get('strict')}"
)


def strict(bot: BotSpec, cwd: str | None = None) -> BotSpec:
    return BotSpec(name=bot.name, command=bot.command, env=bot.env, cwd=cwd, sandbox="strict")


def test_cpp_node_and_python_bots_play_under_the_filter() -> None:
    node = node_or_skip()
    binary = build_cpp_bot()
    python = strict(python_bot("random", "bots", "random"))
    cpp = strict(BotSpec(name="random-cpp", command=(str(binary),), env={"B99_BOT_SEED": "3"}), cwd=str(binary.parent))
    js = strict(BotSpec(name="random-js", command=(node, str(JS_SDK / "random_bot.js"))), cwd=str(JS_SDK))
    for bots in ([cpp, python], [python, js]):
        report = run_match(MatchSpec(game=test_game(), bots=bots, seed=5, time_control=PROCESS_CLOCK))
        assert_clean(report)
        assert all("seccomp" in seat.sandbox["syscalls"] for seat in report.seats)
