"""Question ports and the card model (SPEC.md, "ask_user")."""

from minitools.ask._port import CallablePort, NoPersonAttached, QuestionPort, QuestionTimeout, as_port

__all__ = ["QuestionPort", "CallablePort", "as_port", "QuestionTimeout", "NoPersonAttached"]
