"""B99 Arena ladder: bot registry, matchmaking, match execution, Elo ratings, storage and the service APIs."""
