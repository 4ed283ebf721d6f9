"""Per-game heuristic reference bots: bots/heuristic/<game id>.py defines HeuristicBot."""
