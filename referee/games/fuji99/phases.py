"""The node a Fuji 99 state is at (its phase), shared by the rules and the views."""

DRAW_COUNT = "draw_count"  # D1: how many cubes
CUBES = "cubes"  # chance: one cube from the bag
USE_CARDS = "use_cards"  # D2: use a card or end
CARDS = "cards"  # chance: one Fuji card (S5 and echo draws)
CONTINUE_OR_STOP = "continue_or_stop"  # D3
PLACE_CUBE = "place_cube"  # D4
OVER = "over"

DECISIONS = (DRAW_COUNT, USE_CARDS, CONTINUE_OR_STOP, PLACE_CUBE)
