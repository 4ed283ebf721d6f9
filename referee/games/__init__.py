"""One package per game: `referee/games/<id>/` holds the rules (code) and the component data beside them.

Every game's folder has the same files with the same roles:

- `__init__.py`: exports `GAME` (what the registry finds) and the game's class;
- `game.py`: the `Game`: players, config flags, initial states, and the views a state is shown through;
- `state.py`: the `GameState`: what is where, and the rules that change it (the turn flow);
- `options.py`: the option objects offered at each decision (built once, shared by every state);
- `views.py`: what a seat (or a spectator) may know, read from the state; the state never imports it;
- `position.py`: what a position of the game must satisfy (`referee/position.py`);
- `scoring.py`: the game's scoring and ranks;
- `data.py` with `<id>.json`: the component data, loaded and checked;
- `drawing.py`: a picture of a view; `wire.py`: the typed messages of views, options and events.

A game with more rules than fit one file puts a part in a module of its own, as functions of the state or
of plain values (Fuji 99's card `effects.py` and `phases.py`; Underground Dice's `determinize.py`; the
Merchants shop's `shop.py`, `shop_bits.py`, `bitboard.py`, `patterns.py` and `option_cache.py`; The Magnificent's `setup.py`,
`turn.py`, `build.py`, `travel.py`, `perform.py`, `posters.py`, `round_end.py`, `draft.py`, `dice.py` and its
records in `model.py`). No state is assembled from mixins.
"""
