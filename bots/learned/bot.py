"""The learned bot: a policy trained in sdk.envs, wrapped as a Bot in a few lines (docs/training.md).

The request's view is encoded exactly as the environment encoded it during training, the legal
options become the action mask, and the policy's action index is answered as its option id.
"""

from __future__ import annotations

from sdk import Bot, Request
from sdk.envs.encodings import game_encoding

#: Games with trained weights in this folder.
TRAINED_GAMES = ("underground_dice",)


class LearnedBot(Bot):
    """Plays the trained table policy (bots/learned/underground_dice.json) greedily."""

    name = "learned"

    def __init__(self) -> None:
        from bots.learned.policy import TablePolicy

        self.policy = TablePolicy.load()

    def choose(self, request: Request) -> str:
        encoding = game_encoding(request.game)
        observation = encoding.view.encode(request.view)
        mask = encoding.actions.mask(request.options)  # type: ignore[arg-type] - OptionInfo has the id it reads
        action, _, _ = self.policy.act(observation, mask)
        return encoding.actions.ids[action]
