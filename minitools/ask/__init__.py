"""Question ports and the card model (docs/tools.md, "ask_user").

A card is validated (`Card.parse`) before anyone is asked; every port checks the answer
against the card (`Answer.parse`), so an empty or foreign answer never reads as success.
"""

from minitools.ask import _card
from minitools.ask._card import (
    MAX_CONTEXT,
    MAX_DESCRIPTION,
    MAX_LABEL,
    MAX_OPTIONS,
    MAX_QUESTION,
    MAX_TEXT,
    Answer,
    AnswerError,
    Card,
    CardError,
    Option,
)
from minitools.ask._port import CallablePort, HostPort, NoPersonAttached, QuestionPort, Questions, QuestionTimeout, as_port
from minitools.ask._terminal import TerminalPort, parse_reply, render_card

__all__ = [
    "QuestionPort",
    "Questions",
    "CallablePort",
    "HostPort",
    "TerminalPort",
    "as_port",
    "QuestionTimeout",
    "NoPersonAttached",
    "render_card",
    "parse_reply",
]
__all__ += _card.__all__
