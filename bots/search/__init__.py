"""The searching reference bot's parts: direct requests for in-search policies, playout policies, the search."""
