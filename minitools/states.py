"""What the state tables of a language server, a debugged program and a background worker have
in common: states that read as their names, and one table of the moves allowed between them,
checked at each move (a move outside the table is a bug here, not the peer's)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Generic, TypeVar

__all__ = ["NamedState", "MoveTable"]


class NamedState(str, enum.Enum):
    """A state whose text is its value ("running"), in messages and format strings alike."""

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


S = TypeVar("S", bound=enum.Enum)


class MoveTable(Generic[S]):
    """The moves allowed from each state; `what` names the thing that moves, for the error."""

    def __init__(self, what: str, moves: Mapping[S, frozenset[S]], error: type[Exception] = RuntimeError) -> None:
        self.what = what
        self.moves = dict(moves)
        self.error = error

    def __getitem__(self, state: S) -> frozenset[S]:
        return self.moves[state]

    def allowed(self, old: S, new: S) -> bool:
        """Whether the table allows ``old → new``."""
        return new in self.moves[old]

    def check(self, old: S, new: S) -> None:
        """Raise the table's error unless it allows ``old → new``."""
        if new not in self.moves[old]:
            raise self.error(f"{self.what} cannot move from {old.value} to {new.value}")
