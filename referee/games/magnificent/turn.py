"""The Magnificent: a turn (spec §4.3, §4.9): take and place a die, the action, windows A and B with master bonuses and trainer tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Option
from referee.errors import RuleError
from referee.games.magnificent import options as opt
from referee.games.magnificent.data import COLOUR_INDEX, COLOURS, DIE_COLOURS
from referee.games.magnificent.model import Turn

ACTIONS = ("BUILD", "TRAVEL", "PERFORM")
DIE_KEYS = tuple(f"{c}:{v}" for c in COLOURS for v in range(1, 7))
WINDOW_B_MASTER = ("COINS", "POINTS", "GEM_ANY", "GEM_ACTING", "POSTER")

if TYPE_CHECKING:
    from referee.games.magnificent.state import MagnificentState


def step_round_start(state: MagnificentState) -> None:
    state.round += 1
    state.turn_count = 0
    state.emit("round_start", round=state.round, start_player=state.start_player)
    state._schedule(("turn",))


def step_turn(state: MagnificentState) -> None:
    if state.turn_count >= 4 * state.players:
        state._schedule(("round_end",))
        return
    seat = (state.start_player + state.turn_count) % state.players
    state.turn = Turn(seat)
    state.turn_token = object()
    state._ask("TD1", seat)


def options_td1(state: MagnificentState, seat: int) -> list[Option]:
    tent = state.main_tent
    return [opt.die(key[0], int(key[2])) for key in DIE_KEYS if key in tent]


def apply_td1(state: MagnificentState, seat: int, option: Option) -> None:
    colour, value = option.payload["colour"], option.payload["value"]
    key = f"{colour}:{value}"
    state.main_tent[key] -= 1
    if not state.main_tent[key]:
        del state.main_tent[key]
    turn = state.turn
    assert turn is not None
    turn.die_colour, turn.die_value = colour, value
    state.tent_token = state.turn_token = object()
    state.emit("die_taken", seat=seat, colour=colour, value=value)
    state._ask("TD2", seat)


def options_td2(state: MagnificentState, seat: int) -> list[Option]:
    player = state.players_state[seat]
    return [opt.card(card) for card in player.masters if card not in player.dice]


def apply_td2(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    turn.card = option.payload["card"]
    state.players_state[seat].dice[turn.card] = (turn.die_colour, turn.die_value)
    state.turn_token = state.player_tokens[seat] = object()
    state.emit("die_placed", seat=seat, card=turn.card)
    if turn.die_colour == "C":
        state._ask("TD3", seat)
    else:
        turn.acting = turn.die_colour
        state._ask("TD4", seat)


def options_td3(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.colour(c) for c in DIE_COLOURS]


def apply_td3(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    turn.acting = option.payload["colour"]
    state.turn_token = object()
    state.emit("clear_colour", seat=seat, colour=turn.acting)
    state._ask("TD4", seat)


def options_td4(state: MagnificentState, seat: int) -> list[Option]:
    return [opt.action(a) for a in ACTIONS]


def apply_td4(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    turn.action = option.payload["action"]
    state.turn_token = object()
    state.emit("action_chosen", seat=seat, action=turn.action)
    state._schedule(("window", "A"))


def step_window(state: MagnificentState, window: str) -> None:
    assert state.turn is not None
    state._ask("TD5" if window == "A" else "TD6", state.turn.seat)


def usable_trainers(state: MagnificentState, seat: int, window: str) -> list[str]:
    turn = state.turn
    assert turn is not None
    player = state.players_state[seat]
    display = sorted(t for _, t in state.display if t is not None)
    usable = []
    for tile_id in player.trainers + display:
        tile = state.c.trainers[tile_id]
        if tile_id in turn.trainers_used or tile.cost > player.markers:
            continue
        if window == "A":
            if tile.timing not in ("ANY", "BEFORE", turn.action):
                continue
        elif tile.timing != "ANY":
            continue
        usable.append(tile_id)
    return usable


def master_options(state: MagnificentState, seat: int, window: str) -> list[Option]:
    turn = state.turn
    assert turn is not None
    if turn.master_used:
        return []
    card = state.c.masters[turn.card]
    kind = card.bonus
    if window == "B" and kind not in WINDOW_B_MASTER:
        return []
    if kind == "DIE_SHIFT":
        options = []
        if turn.die_value > 1:
            options.append(opt.master(card.id, kind, "-1"))
        if turn.die_value < 6:
            options.append(opt.master(card.id, kind, "+1"))
        return options
    if kind == "GEM_ANY":
        return [opt.master(card.id, kind, c) for c in COLOURS]
    return [opt.master(card.id, kind)]


def trainer_options(state: MagnificentState, seat: int, window: str) -> list[Option]:
    turn = state.turn
    assert turn is not None
    options = []
    for tile_id in usable_trainers(state, seat, window):
        tile = state.c.trainers[tile_id]
        if tile.effect in ("BUILD_COLOUR", "WAGON_COLOUR"):
            used = any(state.c.trainers[t].effect == tile.effect for t in turn.trainers_used)
            if not used:
                options += [opt.trainer(tile_id, tile.name, c) for c in DIE_COLOURS]
        elif tile.effect == "DIE_SET":
            options += [opt.trainer(tile_id, tile.name, str(v)) for v in range(1, 7) if v != turn.die_value]
        else:
            options.append(opt.trainer(tile_id, tile.name))
    return options


def options_td5(state: MagnificentState, seat: int) -> list[Option]:
    turn = state.turn
    assert turn is not None
    player = state.players_state[seat]
    options = [opt.gem_power(c) for c in (turn.acting, "C") if player.gems[COLOUR_INDEX[c]] > 0]
    options += master_options(state, seat, "A")
    options += trainer_options(state, seat, "A")
    options.append(opt.simple("resolve", "resolve the action"))
    return options


def options_td6(state: MagnificentState, seat: int) -> list[Option]:
    options = master_options(state, seat, "B") + trainer_options(state, seat, "B")
    options.append(opt.simple("end", "end the turn"))
    return options


def apply_td5(state: MagnificentState, seat: int, option: Option) -> None:
    turn = state.turn
    assert turn is not None
    kind = option.payload["kind"]
    if kind == "resolve":
        turn.resolved = True
        state.turn_token = object()
        state._schedule((turn.action.lower(),), ("window", "B"))
        return
    state._schedule(("window", "A"))
    if kind == "gem_power":
        colour = option.payload["colour"]
        state.players_state[seat].gems[COLOUR_INDEX[colour]] -= 1
        turn.power_bonus += 2
        turn.gems_spent += 1
        state.turn_token = state.player_tokens[seat] = object()
        state.emit("gem_power", seat=seat, colour=colour)
    else:
        use_effect(state, seat, option)


def apply_td6(state: MagnificentState, seat: int, option: Option) -> None:
    if option.payload["kind"] == "end":
        state._schedule(("end_turn",))
        return
    state._schedule(("window", "B"))
    use_effect(state, seat, option)


def use_effect(state: MagnificentState, seat: int, option: Option) -> None:
    """A master bonus or a trainer tile chosen in window A or B; poster gains run before the window returns."""
    turn = state.turn
    assert turn is not None
    payload = option.payload
    player = state.players_state[seat]
    state.turn_token = object()  # the master used or the trainer, and most effects
    if payload["kind"] == "master":
        turn.master_used = True
        card = state.c.masters[turn.card]
        kind, n = card.bonus, card.bonus_value
        reason = f"master:{card.id}"
        state.emit("master_bonus", seat=seat, card=card.id, choice=option.id)
    else:
        tile = state.c.trainers[payload["trainer"]]
        turn.trainers_used.append(tile.id)
        player.markers -= tile.cost
        player.spent += tile.cost
        state.player_tokens[seat] = object()
        kind, n = tile.effect, tile.value
        reason = f"trainer:{tile.id}"
        state.emit("trainer_used", seat=seat, tile=tile.id, choice=option.id)
    if kind == "POWER":
        turn.power_bonus += n
    elif kind == "DIE_SHIFT":
        state._set_die_value(turn.die_value + payload["delta"])
    elif kind == "DIE_FLIP":
        state._set_die_value(7 - turn.die_value)
    elif kind == "DIE_SET":
        state._set_die_value(payload["value"])
    elif kind == "COINS":
        state._gain(seat, reason, coins=n)
    elif kind == "POINTS":
        state._gain(seat, reason, points=n)
    elif kind == "GEM_ANY":
        state._gain_gem(seat, payload["colour"])
    elif kind == "GEM_ACTING":
        for _ in range(max(n, 1)):
            state._gain_gem(seat, turn.acting)
    elif kind == "POSTER":
        state._schedule(("gain_poster", seat))
    elif kind == "EXTRA_SMALL_TILE":
        turn.extra_small += 1
    elif kind == "EXTRA_SHOW":
        turn.extra_show += 1
    elif kind == "POINTS_PER_SHOW":
        turn.points_per_show += n
    elif kind == "BUILD_COLOUR":
        turn.build_colour = payload["colour"]
    elif kind == "WAGON_COLOUR":
        turn.wagon_colour = payload["colour"]
    else:
        raise RuleError(f"magnificent: unknown effect {kind!r}")


def step_end_turn(state: MagnificentState) -> None:
    assert state.turn is not None
    state.turn = None
    state.turn_token = object()
    state.turn_count += 1
    state._schedule(("turn",))
