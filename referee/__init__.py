"""B99 Arena referee: game engines, the match runner, bot launching and replays."""
