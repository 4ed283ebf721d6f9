"""The learned bot: a policy trained with sdk.envs (bots/learned/train.py), its weights committed beside it."""
