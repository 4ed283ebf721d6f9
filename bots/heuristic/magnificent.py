"""The Magnificent heuristic: cheap dice, posters it can finish, compact camps, and never an unpaid round.

Per decision, from the seat's view only:
- dice: the die whose power (value plus this round's dice of its colour) buys the most, minus what it
  adds to the round-end payment beyond the coins held (each missing coin costs points);
- action: perform when a poster above a tent can be completed, build when a tile is missing for a
  held poster (or power reaches a large tile), travel otherwise;
- camp tiles: the placement that covers bonus squares, completes areas and touches the most built
  squares; travel: the distance whose spaces give the most (gems, posters, a tent on landing);
- posters: the completable set worth the most; new posters that the camp can already serve;
- master cards and pairs: the card worth the most points now; bonuses always taken, Patron and
  Treasurer with spare markers; gems are kept for posters, never spent on power.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.magnificent.data import COLOURS, Components, components
from sdk import Bot, OptionInfo, Request

DATA: Components = components()
TRAINER_PREFERENCE = ("TR12", "TR02", "TR01", "TR10", "TR04", "TR03", "TR08", "TR09", "TR05", "TR11", "TR06", "TR07")


def _me(request: Request) -> Mapping[str, Any]:
    return request.view["players"][request.seat]


def _tile_counts(player: Mapping[str, Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for tile in player["tiles"]:
        counts[tile["tile_type"]] = counts.get(tile["tile_type"], 0) + 1
    return counts


def _camp_mask(player: Mapping[str, Any]) -> int:
    mask = 0
    for y, row in enumerate(player["camp"]):
        for x, cell in enumerate(row):
            if cell != ".":
                mask |= 1 << (y * 8 + x)
    return mask


def _poster_ready(poster_id: str, tiles: Mapping[str, int], gems: Sequence[int]) -> bool:
    poster = DATA.posters[poster_id]
    need: dict[str, int] = {}
    for tile in poster.tiles:
        need[tile] = need.get(tile, 0) + 1
    if any(tiles.get(t, 0) < n for t, n in need.items()):
        return False
    shortfall = sum(max(0, poster.gems[i] - gems[i]) for i in range(3))
    return shortfall <= gems[3] and sum(poster.gems) <= sum(gems)


def _missing_tiles(poster_id: str, tiles: Mapping[str, int]) -> list[str]:
    need: dict[str, int] = {}
    for tile in DATA.posters[poster_id].tiles:
        need[tile] = need.get(tile, 0) + 1
    return [t for t, n in need.items() if tiles.get(t, 0) < n]


def _poster_value(poster_id: str, tiles: Mapping[str, int]) -> float:
    poster = DATA.posters[poster_id]
    return poster.points - 3 * len(_missing_tiles(poster_id, tiles)) - sum(poster.gems)


def _payment_due(dice: Sequence[tuple[str, int]]) -> int:
    sums = {c: 0 for c in COLOURS}
    for colour, value in dice:
        sums[colour] += value
    return max(sums["O"], sums["G"], sums["P"]) + sums["C"]


class HeuristicBot(Bot):
    """Greedy rules per decision point; uses only the request (view, options) and the game's component data."""

    name = "heuristic"

    def __init__(self) -> None:
        self.plan: dict[str, Any] = {}

    def choose(self, request: Request) -> str:
        decision = request.view.get("decision", "")
        options = list(request.options)
        chooser = getattr(self, f"_{decision.lower()}", None)
        if chooser is not None:
            choice = chooser(request, options)
            if choice is not None:
                return choice
        return options[0].id

    # ----- setup and round end ---------------------------------------------------------------
    def _sd1(self, request: Request, options: list[OptionInfo]) -> str:
        return min(options, key=lambda o: TRAINER_PREFERENCE.index(o.payload["trainer"][:4])).id

    def _sd2(self, request: Request, options: list[OptionInfo]) -> str:
        order = ("POWER", "GEM_ACTING", "POSTER", "COINS", "GEM_ANY", "POINTS", "DIE_SHIFT", "DIE_FLIP")
        return min(options, key=lambda o: (order.index(DATA.masters[o.payload["card"]].bonus), -DATA.masters[o.payload["card"]].bonus_value)).id

    def _rd1(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)

        def value(option: OptionInfo) -> float:
            card = DATA.masters.get(option.payload.get("card", ""))
            worth = self._card_value(card.id, me) if card else 0
            tile = option.payload.get("trainer", "")
            return worth + (3 - TRAINER_PREFERENCE.index(tile[:4]) * 0.2 if tile else 0)

        return max(options, key=value).id

    def _rd2(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        return max(options, key=lambda o: self._card_value(o.payload["card"], me)).id

    def _card_value(self, card_id: str, player: Mapping[str, Any]) -> int:
        card = DATA.masters[card_id]
        n = card.scoring_value
        kind = card.scoring
        tiles = _tile_counts(player)
        if kind == "PER_COMPLETED_POSTER":
            return n * len(player["completed"])
        if kind == "PER_TENT":
            return n * sum(1 for t in player["tents"][1:] if t)
        if kind == "PER_FULL_AREA":
            camp = _camp_mask(player)
            return n * sum(1 for _, mask, _ in DATA.areas if camp & mask == mask)
        if kind == "PER_LARGE_TILE":
            return n * sum(c for t, c in tiles.items() if t.endswith("l"))
        if kind == "PER_SMALL_TILE":
            return n * sum(c for t, c in tiles.items() if t.endswith("s"))
        if kind == "PER_TILE_SET":
            return n * min(sum(c for t, c in tiles.items() if t[0] == colour) for colour in "OGP")
        if kind == "PER_MARKER":
            return n * (player["markers"] + player["spent_markers"])
        if kind == "PER_TRAINER_TILE":
            return n * len(player["trainers"])
        if kind == "PER_GEM":
            return n * sum(player["gems"])
        return n * (player["coins"] // 2)

    # ----- the turn ------------------------------------------------------------------------------
    def _td1(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        held = [(m["die"]["colour"], m["die"]["value"]) for m in me["masters"] if "die" in m]
        round_number = max(1, request.view["round"])
        due_now = _payment_due(held)

        def value(option: OptionInfo) -> float:
            colour, die = option.payload["colour"], option.payload["value"]
            if colour == "C":
                power = die + max(sum(v for c, v in held if c == x) for x in "OGP")
            else:
                power = die + sum(v for c, v in held if c == colour)
            due = _payment_due(held + [(colour, die)])
            missing = max(0, due - me["coins"]) - max(0, due_now - me["coins"])
            return min(power, 12) - 0.35 * (due - due_now) - 1.5 * round_number * missing

        return max(options, key=value).id

    def _td2(self, request: Request, options: list[OptionInfo]) -> str:
        order = ("POWER", "GEM_ACTING", "POSTER", "COINS", "GEM_ANY", "POINTS", "DIE_SHIFT", "DIE_FLIP")
        return min(options, key=lambda o: order.index(DATA.masters[o.payload["card"]].bonus)).id

    def _td3(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        sums = {c: 0 for c in "OGP"}
        for m in me["masters"]:
            if "die" in m and m["die"]["colour"] in sums:
                sums[m["die"]["colour"]] += m["die"]["value"]
        return max(options, key=lambda o: sums[o.payload["colour"]]).id

    def _ready_posters(self, me: Mapping[str, Any]) -> int:
        tiles = _tile_counts(me)
        return sum(
            1
            for slot, poster in enumerate(me["posters"])
            if poster and me["tents"][slot] and _poster_ready(poster, tiles, me["gems"])
        )

    def _td4(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        power = request.view["turn"]["power"]
        tiles = _tile_counts(me)
        if self._ready_posters(me) and power >= 2:
            return "action:PERFORM"
        colour = request.view["turn"]["acting_colour"]
        wanted = {t for p in me["posters"] if p for t in _missing_tiles(p, tiles)}
        if power >= 3 and any(t[0] == colour for t in wanted) or power >= 5:
            return "action:BUILD"
        return "action:TRAVEL"

    def _td5(self, request: Request, options: list[OptionInfo]) -> str:
        return self._window(request, options, "resolve")

    def _td6(self, request: Request, options: list[OptionInfo]) -> str:
        return self._window(request, options, "end")

    def _window(self, request: Request, options: list[OptionInfo], done: str) -> str:
        me = _me(request)
        for option in options:
            if option.payload.get("kind") == "master":
                if "delta" in option.payload:
                    continue
                if "colour" in option.payload:
                    return self._gem_choice(me, [o for o in options if o.payload.get("kind") == "master"])
                if DATA.masters[option.payload["card"]].bonus == "DIE_FLIP":
                    die = request.view["turn"]["die"]["value"]
                    if die >= 4:
                        continue
                return option.id
        if "master:+1" in (o.id for o in options):
            return "master:+1"
        for option in options:
            if option.payload.get("kind") != "trainer":
                continue
            kind = option.payload["trainer"][:4]
            if kind in ("TR12", "TR03") or (kind in ("TR01", "TR02") and me["markers"] >= 2):
                return option.id
        return done

    def _gem_choice(self, me: Mapping[str, Any], options: list[OptionInfo]) -> str:
        need = [0, 0, 0]
        for poster in me["posters"]:
            if poster:
                for i, n in enumerate(DATA.posters[poster].gems):
                    need[i] += n
        gems = me["gems"]
        best = max(range(3), key=lambda i: (need[i] - gems[i], -gems[i]))
        colour = COLOURS[best] if need[best] > gems[best] else "C"
        return next((o.id for o in options if o.payload["colour"] == colour), options[-1].id)

    # ----- build -------------------------------------------------------------------------------
    def _bd1(self, request: Request, options: list[OptionInfo]) -> str:
        return options[-1].id

    def _bd2(self, request: Request, options: list[OptionInfo]) -> str:
        return options[-1].id

    def _best_placement(self, request: Request) -> tuple[int, int, int]:
        me = _me(request)
        turn = request.view["turn"]
        camp = _camp_mask(me)
        board = DATA.boards[me["board"]]
        best: tuple[float, tuple[int, int, int]] | None = None
        for p in DATA.tile_types[turn["tile_type"]].placements:
            if p.mask & camp or (camp and not p.neighbours & camp):
                continue
            after = camp | p.mask
            score = 3.0 * sum(1 for index in board.bonus_squares if p.mask >> index & 1)
            score += sum(10 for _, mask, _ in DATA.areas if after & mask == mask and camp & mask != mask)
            score += 0.5 * (p.neighbours & camp).bit_count()
            score -= 0.3 * sum(1 for _, mask, _ in DATA.areas if p.mask & mask and after & mask != mask)
            if best is None or score > best[0]:
                best = (score, (p.x, p.y, p.k))
        assert best is not None
        return best[1]

    def _bd3(self, request: Request, options: list[OptionInfo]) -> str:
        x, y, k = self._best_placement(request)
        self.plan = {"k": k}
        return f"cell:{x},{y}"

    def _bd4(self, request: Request, options: list[OptionInfo]) -> str:
        wanted = f"orient:{self.plan.get('k')}"
        return wanted if any(o.id == wanted for o in options) else options[0].id

    # ----- travel ------------------------------------------------------------------------------
    def _vd1(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        turn = request.view["turn"]
        track = next(t for t in request.view["tracks"] if t["colour"] == (turn["wagon_colour"] or turn["acting_colour"]))
        free_slots = sum(1 for p in me["posters"] if not p)
        free_tents = sum(1 for t in me["tents"][1:] if not t)
        gems = list(me["gems"])

        def value(option: OptionInfo) -> float:
            steps = option.payload["steps"]
            total = 0.0
            have = gems.copy()
            for i in range(1, steps + 1):
                space = track["spaces"][(track["wagon"] + i) % 12]
                if space.startswith("gem:"):
                    index = COLOURS.index(space[4])
                    total += 1.5 if have[index] < 3 else 1.0
                    have[index] += 1
                elif space == "poster":
                    total += 2.5 if free_slots else 0.5
                elif i == steps and free_tents:
                    total += 1 + DATA.tents[space[5:]].points
            return total

        return max(options, key=value).id

    def _vd2(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        slots = [o for o in options if o.payload.get("kind") == "tent_slot"]
        if not slots:
            return "decline"
        with_poster = [o for o in slots if me["posters"][o.payload["slot"] - 1]]
        return (with_poster or slots)[0].id

    # ----- perform -----------------------------------------------------------------------------
    def _pd1(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        ready = self._ready_posters(me)
        shows = {s.space: s.shows for s in DATA.show_spaces}
        enough = [o for o in options if shows[o.payload["space"]] >= ready]
        # the lowest space that shows every ready poster, else the most shows on offer
        return enough[0].id if enough else options[-1].id

    def _pd2(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)

        def value(option: OptionInfo) -> float:
            total = 0.0
            for slot in option.payload.get("slots", []):
                poster = DATA.posters[me["posters"][slot - 1]]
                tent = DATA.tents[me["tents"][slot - 1]]
                total += poster.points + tent.points + poster.coins + tent.coins - tent.extra_gems
            return total

        return max(options, key=value).id

    def _pd3(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        return max(options, key=lambda o: (o.payload["colour"] != "C", me["gems"][COLOURS.index(o.payload["colour"])])).id

    def _pd4(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        tents = me["tents"]
        tiles = _tile_counts(me)
        held = [p for p in me["posters"] if p]
        order = sorted(range(len(held)), key=lambda i: -_poster_value(held[i], tiles))
        tent_slots = sorted(
            (s + 1 for s in range(5) if tents[s]), key=lambda s: -DATA.tents[tents[s - 1]].points
        )
        target = [0] * len(held)
        free = [s for s in range(1, 6) if s not in tent_slots]
        for rank, index in enumerate(order):
            target[index] = tent_slots[rank] if rank < len(tent_slots) else free.pop(0)
        wanted = "arrange:" + ",".join(map(str, target))
        return wanted if any(o.id == wanted for o in options) else options[0].id

    # ----- posters -----------------------------------------------------------------------------
    def _gp1(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        tiles = _tile_counts(me)
        full = all(me["posters"])
        worst = min((_poster_value(p, tiles) for p in me["posters"] if p), default=-99)
        best_id, best_value = "deck", 2.0
        for option in options:
            if option.payload.get("kind") == "display":
                value = _poster_value(option.payload["poster"], tiles)
                if value > best_value:
                    best_id, best_value = option.id, value
        if full and best_value <= worst and "decline" in (o.id for o in options):
            return "decline"
        if best_id == "deck" and all(o.id != "deck" for o in options):
            return options[0].id
        return best_id

    def _gp2(self, request: Request, options: list[OptionInfo]) -> str:
        me = _me(request)
        new = request.view["poster_in_hand"]
        tiles = _tile_counts(me)
        slots = [o for o in options if o.payload.get("kind") == "slot"]
        if slots:
            with_tent = [o for o in slots if me["tents"][o.payload["slot"] - 1]]
            return (with_tent or slots)[0].id
        worst_slot = min(range(5), key=lambda s: _poster_value(me["posters"][s], tiles))
        if _poster_value(me["posters"][worst_slot], tiles) < _poster_value(new, tiles):
            return f"replace:{worst_slot + 1}"
        return "discard"
