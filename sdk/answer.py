"""Turning whatever a bot's `choose` returned into an option id (shared by in-process and remote play)."""

from __future__ import annotations

from sdk.decode import WireRequest
from sdk.types import OptionInfo, Request


class BadAnswer(ValueError):
    """A bot returned something that names no option of the request."""


def option_id_of(request: Request, answer: object) -> str:
    """The option id a bot meant: an id, an index, or an OptionInfo of this request."""
    if isinstance(answer, OptionInfo):
        return answer.id
    if isinstance(answer, bool):
        raise BadAnswer(f"answer {answer!r} is neither an option id nor an index")
    if isinstance(answer, int):
        if isinstance(request, WireRequest) and "options" not in request.__dict__:
            # the options were not read: the id comes from the message, without decoding the others
            option_id = request.wire_option_id(answer)
            if option_id is not None:
                return option_id
        elif 0 <= answer < len(request.options):
            return request.options[answer].id
        raise BadAnswer(f"option index {answer} out of range 0..{len(request.options) - 1}")
    if isinstance(answer, str):
        return answer
    raise BadAnswer(f"answer {answer!r} is neither an option id nor an index")
