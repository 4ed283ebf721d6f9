"""The "Training encoding" section of each game's page (docs/games/<id>.md), generated from sdk/envs/encodings."""

from __future__ import annotations

from sdk.envs.encodings import game_encoding


def _action_runs(ids: tuple[str, ...]) -> list[tuple[int, int, str, str]]:
    """Consecutive indices whose ids share a prefix (up to the last ':'), as (first, last, first id, last id)."""
    runs: list[tuple[int, int, str, str]] = []
    for index, option_id in enumerate(ids):
        prefix = option_id.rsplit(":", 1)[0] if ":" in option_id else option_id
        if runs and ":" in option_id and runs[-1][2].rsplit(":", 1)[0] == prefix and ":" in runs[-1][2]:
            first, _, first_id, _ = runs[-1]
            runs[-1] = (first, index, first_id, option_id)
        else:
            runs.append((index, index, option_id, option_id))
    return runs


def training_section(game_id: str) -> list[str]:
    """Markdown lines: the observation vector block by block and the action space index by index."""
    encoding = game_encoding(game_id)
    view, actions = encoding.view, encoding.actions
    lines = [
        "",
        "## Training encoding",
        "",
        f"What `sdk.envs` gives a learner (see [training.md](../training.md)): `observation` is a float32 vector of "
        f"{view.size} slots holding this seat's private view and nothing more, `action_mask` an int8 vector of "
        f"{actions.size} actions. Generated from `sdk/envs/encodings/{game_id}.py` and the `View` message of "
        f"`proto/b99/games/{game_id}.proto`: every field of the view has a block, in the message's order. A list holds "
        "a count slot, then one block per item up to its cap; a missing optional field or item leaves its block at 0.",
        "",
        "### Observation",
        "",
        "| slots | field | encoding |",
        "|---|---|---|",
    ]
    for block in view.blocks:
        slots = f"{block.start}" if block.size == 1 else f"{block.start}-{block.start + block.size - 1}"
        lines.append(f"| {slots} | `{block.path or 'View'}` | {block.meaning} |")
    lines += [
        "",
        "### Actions",
        "",
        "Every option id any decision can offer has one index, for good (new ids are only ever appended). An index "
        "that is not legal now is an error naming it.",
        "",
        "| indices | option ids |",
        "|---|---|",
    ]
    for first, last, first_id, last_id in _action_runs(actions.ids):
        if first == last:
            lines.append(f"| {first} | `{first_id}` |")
        else:
            lines.append(f"| {first}-{last} | `{first_id}` ... `{last_id}` ({last - first + 1}) |")
    return lines
