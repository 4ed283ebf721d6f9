"""Pictures of a game's table and the pages that show them: the replay viewer, live matches, the browser seat.

Each game draws its table in `referee/games/<id>/drawing.py` from a view (the same data a bot receives);
the engines never import those modules, and nothing here imports gRPC, processes or databases.
"""
