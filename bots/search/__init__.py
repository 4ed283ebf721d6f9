"""The searching reference bot's parts: direct requests and playout policies, the plain (rollout) and paired
searches, root helpers (parallel), the budget settings it shares with `mcts`, and the bot."""
