"""B99 Arena referee: game engines, the match runner, bot launching and replays."""

from referee.compiled import install_guard

install_guard()  # before any compiled module loads: a group with a source edited since the build runs as Python
