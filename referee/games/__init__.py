"""One package per game: `referee/games/<id>/` holds the rules (code) and the component data beside them."""
