"""The Magnificent: view vocabularies and caps, and the frozen action list (see docs/games/magnificent.md)."""

from __future__ import annotations

from itertools import combinations, permutations

from sdk.envs.encoding import EncodingSpec

COLOURS = ("O", "G", "P", "C")
TRACK_COLOURS = ("O", "G", "P")
MASTERS = tuple(f"M{n:02d}" for n in range(1, 41)) + tuple(
    f"M{board}-{n}" for board in ("I", "II", "III", "IV") for n in range(1, 5)
)
TRAINERS = tuple(f"TR{n:02d}{side}" for n in range(1, 13) for side in "ab")
POSTERS = tuple(f"P{n:02d}" for n in range(1, 49)) + tuple(f"SP{n}" for n in range(1, 7))
TENTS = ("T00",) + tuple(f"T{n:02d}" for n in range(1, 17))
TILE_TYPES = ("Os", "Gs", "Ps", "Ol", "Gl", "Pl")
DECISIONS = ("BD1", "BD2", "BD3", "BD4", "GP1", "GP2", "PD1", "PD2", "PD3", "PD4", "RD1", "RD2", "SD1", "SD2",
             "TD1", "TD2", "TD3", "TD4", "TD5", "TD6", "VD1", "VD2")
ACTION_NAMES = ("BUILD", "PERFORM", "TRAVEL")
SHOW_SPACES = 13
HATS = tuple(f"#{n}" for n in range(1, 5)) + tuple(str(n) for n in range(1, SHOW_SPACES + 1))
TRACK_SPACES = tuple(f"gem:{c}" for c in COLOURS) + ("poster",) + tuple(f"tent:{t}" for t in TENTS[1:])
MAX_PLAYERS = 4

SPEC = EncodingSpec(
    vocab={
        "decision": DECISIONS,
        "main_tent[].colour": COLOURS,
        "display[].card": MASTERS,
        "display[].trainer": TRAINERS,
        "poster_display[]": POSTERS,
        "poster_discard[]": POSTERS,
        "draft_pool[]": TRAINERS,
        "removed_trainers[]": TRAINERS,
        "tracks[].colour": TRACK_COLOURS,
        "tracks[].spaces[]": TRACK_SPACES,
        "supply[].tile_type": TILE_TYPES,
        "players[].board": ("I", "II", "III", "IV"),
        "players[].masters[].card": MASTERS,
        "players[].masters[].die.colour": COLOURS,
        "players[].trainers[]": TRAINERS,
        "players[].tiles[].tile_type": TILE_TYPES,
        "players[].posters[]": POSTERS,
        "players[].tents[]": TENTS,
        "players[].completed[]": POSTERS,
        "players[].hats[]": HATS,
        "turn.die.colour": COLOURS,
        "turn.card": MASTERS,
        "turn.acting_colour": COLOURS,
        "turn.action": ACTION_NAMES,
        "turn.build_colour": COLOURS,
        "turn.wagon_colour": COLOURS,
        "turn.trainers_used[]": TRAINERS,
        "turn.pending_tiles[]": TILE_TYPES,
        "turn.tile_type": TILE_TYPES,
        "turn.tent": TENTS,
        "poster_in_hand": POSTERS,
        "draft_hand[]": MASTERS,
        "draft_picks[]": MASTERS,
        "draft_removed": MASTERS,
    },
    indexed=frozenset({"players[].masters[].card", "tracks[].spaces[]", "display[].card", "display[].trainer",
                       "poster_display[]", "players[].posters[]", "players[].tents[]"}),
    ordered=frozenset({"poster_display", "tracks[].spaces", "players[].posters", "players[].tents", "players[].hats"}),
    grids={"players[].camp": (7, 8, "OGP")},
    caps={
        "deciding": MAX_PLAYERS, "main_tent": 24, "display": 4, "poster_display": 4, "tracks": 3,
        "tracks[].spaces": 12, "supply": 6, "players": MAX_PLAYERS, "players[].gems": 4, "players[].masters": 8,
        "players[].tiles": 40, "players[].posters": 5, "players[].tents": 5, "players[].hats": 2,
        "turn.chosen_slots": 5, "final_scores": MAX_PLAYERS,
    },
)

ACTIONS: tuple[str, ...] = (
    tuple(f"trainer:{t}" for t in TRAINERS)
    + tuple(f"trainer:{t}:{c}" for t in TRAINERS for c in COLOURS)
    + tuple(f"trainer:{t}:{v}" for t in TRAINERS for v in range(1, 7))
    + tuple(f"die:{c}:{v}" for c in COLOURS for v in range(1, 7))
    + tuple(f"card:{m}" for m in MASTERS)
    + tuple(f"colour:{c}" for c in COLOURS)
    + tuple(f"action:{a}" for a in ACTION_NAMES)
    + tuple(f"gem_power:{c}" for c in COLOURS)
    + ("master", "master:-1", "master:+1") + tuple(f"master:{c}" for c in COLOURS)
    + ("resolve", "end", "deck", "decline", "discard")
    + tuple(f"level:{n}" for n in range(1, 21))
    + tuple(f"tile:{t}" for t in TILE_TYPES)
    + tuple(f"cell:{x},{y}" for x in range(8) for y in range(7))
    + tuple(f"orient:{k}" for k in range(8))
    + tuple(f"steps:{k}" for k in range(1, 13))
    + tuple(f"space:{m}" for m in range(1, SHOW_SPACES + 1))
    + tuple(f"pay:{c}" for c in COLOURS)
    + tuple(f"{kind}:{s}" for kind in ("tent_slot", "slot", "replace") for s in range(1, 6))
    + tuple(f"display:{s}" for s in range(1, 5))
    + tuple(f"pair:{s}" for s in range(1, 5))
    + tuple(f"draft:{m}" for m in MASTERS)
    + tuple(f"score:{m}" for m in MASTERS)
    + tuple(
        "posters:" + (",".join(map(str, combo)) or "-")
        for size in range(6) for combo in combinations(range(1, 6), size)
    )
    + tuple(f"arrange:{','.join(map(str, p))}" for size in range(1, 6) for p in permutations(range(1, 6), size))
)
