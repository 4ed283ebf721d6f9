"""Every message a seat receives carries exactly that seat's view, options and events, nothing more.

A match is played with recording bots; its replay is then re-simulated and, at every request, what
the bot received is compared with what the engine says that seat may know at that point.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bots.random_bot import RandomBot
from referee.local import play_local
from referee.registry import game_ids, get_game
from referee.replay import read_replay
from referee.wire import get_wire
from sdk import Request
from sdk.decode import message_dict


class RecordingBot(RandomBot):
    """A random bot that keeps everything it was sent."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[dict[str, Any]] = []

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        self.seen.append(
            {
                "decision": request.decision,
                "view": dict(request.view),
                "options": [(o.id, o.label, dict(o.payload)) for o in request.options],
                "events": [(e.sequence, e.kind, dict(e.data)) for e in request.events],
            }
        )
        return super().choose(request)


@pytest.mark.parametrize("game_id", game_ids())
@pytest.mark.parametrize("seed", [1, 2])
def test_requests_equal_the_seat_view(tmp_path: Path, game_id: str, seed: int) -> None:
    game = get_game(game_id)
    wire = get_wire(game_id)
    players = game.default_players
    bots = [RecordingBot(seed * 10 + seat) for seat in range(players)]
    replay_path = tmp_path / "r.jsonl"
    play_local(game_id, bots, seed=seed, replay_path=str(replay_path))
    records = read_replay(replay_path)
    state = game.new_initial_state(game.config_from_json(records[0]["config"]))
    cursors = [0] * players
    asked = [0] * players
    received = [0] * players  # events each seat received: its own sequence numbers
    for record in records[1:]:
        if record["type"] == "chance":
            state.apply_chance(record["outcome"])
        elif record["type"] == "decision":
            for seat_text, how in record["how"].items():
                seat = int(seat_text)
                if how != "bot":
                    continue
                visible = [event for event in state.events.since(cursors[seat]) if event.visible_to(seat)]
                expected_events = [
                    (sequence, event.kind, message_dict(wire.event_message(event)).get(event.kind, {}))
                    for sequence, event in enumerate(visible, start=received[seat])
                ]
                received[seat] += len(visible)
                cursors[seat] = len(state.events)
                expected = {
                    "decision": state.decision_name(seat),
                    "view": message_dict(wire.view_message(state.private_view(seat))),
                    "options": [
                        (o.id, o.label, message_dict(wire.option_message(o.payload))) for o in state.legal_options(seat)
                    ],
                    "events": expected_events,
                }
                assert bots[seat].seen[asked[seat]] == expected, f"seat {seat} request {asked[seat]}"
                asked[seat] += 1
            state.apply_decisions({int(s): o for s, o in record["choices"].items()})
    assert asked == [len(bot.seen) for bot in bots]
    assert sum(asked) > 0
