"""Requests against the step in machine instructions per decision, counted by valgrind (load does not move them).

    python -m benchmarks.request_instructions GAME PLAYERS [DECISIONS] [--gc] [--keep DIR]

Plays the first DECISIONS decisions (600 by default) of `bench_decision_cost`'s random play (seed 1) twice under
`valgrind --tool=callgrind`: once counting only `messages.seat_events`, `messages.seat_numbered` and
`messages.outgoing_request` (every deciding seat's request, as the benchmark times them), once counting only the step (`apply_decisions`, called through a
`functools.partial` so that callgrind can single it out), and prints both per decision and their ratio. The garbage
collector is off unless `--gc` (a collection lands in whichever side allocates when it falls due). Needs the request
writers compiled (`./scripts/setup` says so): callgrind finds the compiled functions by their C names. `--keep DIR`
keeps the callgrind files, for `callgrind_annotate --inclusive=yes` (per function, e.g. two runs at 200 and 600
decisions differenced: the warm cost). Runs about 50 times slower than the game.
"""

from __future__ import annotations

import argparse
import functools
import gc
import random
import re
import subprocess
import sys
from pathlib import Path

from referee import messages
from referee.chance import sample_outcome
from referee.clock import SeatClock, TimeControl
from referee.registry import get_game
from referee.wire import get_wire

#: callgrind's names of what each side counts (the compiled functions' Python entry points; the step's partial)
REQUESTS = ("CPyPy_messages___outgoing_request", "CPyPy_messages___seat_events", "CPyPy_messages___seat_numbered")
STEP = ("partial_vectorcall",)


def play(game_id: str, players: int, decisions: int, seed: int = 1) -> None:
    """`bench_decision_cost.decision_cost`'s loop without its timers: every deciding seat's request, then the step."""
    game = get_game(game_id)
    wire = get_wire(game_id)
    rng = random.Random(seed)
    clocks = [SeatClock.start(TimeControl()) for _ in range(players)]
    counted = 0
    while counted < decisions:
        state = game.new_initial_state(game.make_config(players))
        cursors = [0] * players
        sent = [0] * players
        request_ids = [1] * players
        while not state.is_terminal() and counted < decisions:
            if state.is_chance_node():
                state.apply_chance(sample_outcome(state.chance_outcomes(), rng).id)
                continue
            deciding = state.deciding_seats()
            options = {seat: list(state.legal_options(seat)) for seat in deciding}
            shared: messages.SharedParts = {}
            for seat in deciding:
                events = messages.seat_numbered(messages.seat_events(state, seat, cursors[seat]), sent[seat])
                sent[seat] += len(events)
                cursors[seat] = len(state.events)
                request = messages.outgoing_request(wire, request_ids[seat], state, seat, options[seat], events,
                                                    clocks[seat], shared)
                request_ids[seat] += 1
                len(request.message_bytes())
            choices = {seat: rng.choice(options[seat]).id for seat in deciding}
            functools.partial(state.apply_decisions, choices)()  # the step, as callgrind singles it out
            counted += 1


def instructions(game_id: str, players: int, decisions: int, functions: tuple[str, ...], collector: bool,
                 keep: Path | None, label: str) -> int:
    """Instructions counted in `functions` (and what they call) over a run under callgrind."""
    out = str(keep / f"callgrind.{game_id}{players}.{label}.{decisions}") if keep else "/dev/null"
    command = [
        "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *(f"--toggle-collect={name}" for name in functions),
        sys.executable, "-m", "benchmarks.request_instructions", game_id, str(players), str(decisions), "--play",
        *(["--gc"] if collector else []),
    ]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    counted = re.search(r"Collected : (\d+)", run.stderr)
    if counted is None:
        raise RuntimeError(f"valgrind gave no count: {run.stderr[-300:]}")
    return int(counted.group(1))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("players", type=int)
    parser.add_argument("decisions", type=int, nargs="?", default=600)
    parser.add_argument("--gc", action="store_true", help="leave the garbage collector on")
    parser.add_argument("--keep", type=Path, help="write the callgrind files into this directory")
    parser.add_argument("--play", action="store_true", help="only play (what valgrind runs)")
    arguments = parser.parse_args()
    if arguments.play:
        if not arguments.gc:
            gc.disable()
        play(arguments.game, arguments.players, arguments.decisions)
    else:
        if arguments.keep:
            arguments.keep.mkdir(parents=True, exist_ok=True)
        counts = [
            instructions(arguments.game, arguments.players, arguments.decisions, functions, arguments.gc, arguments.keep, label)
            / arguments.decisions
            for functions, label in ((REQUESTS, "requests"), (STEP, "step"))
        ]
        print(f"{arguments.game} {arguments.players}p: requests {counts[0]:,.0f}  step {counts[1]:,.0f}  "
              f"ratio {counts[0] / counts[1]:.2f} (instructions a decision, first {arguments.decisions} decisions, "
              f"garbage collector {'on' if arguments.gc else 'off'})")
