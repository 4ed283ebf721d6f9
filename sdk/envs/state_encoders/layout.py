"""Slot numbers of a game's view encoding, looked up by field path, for the encoders that read the state.

Every number comes from the compiled `ViewEncoding` (its `blocks` and its spec's vocabularies), so an
encoder from the state writes where the view encoding writes, and a change of the View message or of a
vocabulary moves both alike.
"""

from __future__ import annotations

from sdk.envs.encoding import EncodingError, ViewEncoding
from sdk.envs.encodings import game_encoding


class Layout:
    """Where each field of one game's view encoding starts, how far apart list items are, and vocabulary slots."""

    def __init__(self, game_id: str) -> None:
        self.view: ViewEncoding = game_encoding(game_id).view
        self.game_id = game_id
        self.starts: dict[str, int] = {}
        #: the start of each path's last block: for a list's items (`seats[]`), the block of items 2 to its cap
        self.last: dict[str, int] = {}
        for block in self.view.blocks:
            self.starts.setdefault(block.path, block.start)
            self.last[block.path] = block.start

    def slot(self, path: str) -> int:
        """The first slot of a field's block (for the first item of every list on its path)."""
        start = self.starts.get(path)
        if start is None:
            raise EncodingError(f"{self.game_id}: the view encoding has no field {path}")
        return start

    def stride(self, path: str) -> int:
        """How many slots apart two consecutive items of the list `path` are (0 for a list capped at one item).

        A list's blocks are its count, then its first item's blocks (from count + 1), then one block
        holding items 2 to its cap laid out as the first: that block starts one stride after the first item.
        """
        first_item = self.slot(path) + 1
        return self.last.get(path + "[]", first_item) - first_item

    def cap(self, path: str) -> int:
        """How many items the list `path` may hold."""
        cap = self.view.spec.caps.get(path)
        if cap is None:
            raise EncodingError(f"{self.game_id}: the view encoding has no cap for {path}")
        return cap

    def vocab(self, path: str) -> tuple[str, ...]:
        """The vocabulary of a string field (path as the encoding spec names it, such as `discard[]`)."""
        vocab = self.view.spec.vocab.get(path)
        if vocab is None:
            raise EncodingError(f"{self.game_id}: the view encoding has no vocabulary for {path}")
        return tuple(vocab)

    def one_hot(self, path: str, block: str | None = None, shift: int = 0) -> dict[str, int]:
        """value -> slot of a one-hot or count block (`block` names the block when it differs from `path`).

        `shift` moves every slot, for an item of a list other than the first.
        """
        start = self.slot(path if block is None else block) + shift
        return {value: start + index for index, value in enumerate(self.vocab(path))}

    def index(self, path: str) -> dict[str, int]:
        """value -> the number an indexed field holds (1 + the value's place in its vocabulary)."""
        return {value: index + 1 for index, value in enumerate(self.vocab(path))}
