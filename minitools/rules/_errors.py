"""The one error a rule that cannot run raises, whichever part of it is wrong."""

from __future__ import annotations

__all__ = ["RuleError"]


class RuleError(ValueError):
    """A rule that cannot run: the message names the key and says what was expected."""
