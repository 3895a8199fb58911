"""Question ports: how a run reaches a person.

A port turns a question card (a plain dict, see `minitools.ask.card`) into an
answer dict: ``{"choices": [label, ...], "text"?: str}`` or ``{"skipped": True}``.
It also says whether a person is attached right now, so a call can fail at once
instead of blocking forever (SPEC.md, "ask_user").
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

__all__ = ["QuestionPort", "CallablePort", "as_port", "QuestionTimeout", "NoPersonAttached"]


class QuestionTimeout(Exception):
    """Nobody answered within the port's time."""


class NoPersonAttached(Exception):
    """The port has nobody to ask right now."""


@runtime_checkable
class QuestionPort(Protocol):
    #: where the card is shown (a conversation, a terminal, a host); None means nowhere.
    destination: str | None

    def is_attached(self) -> bool: ...

    async def ask(self, card: dict[str, Any], timeout: float | None = None) -> dict[str, Any]: ...


class CallablePort:
    """A port over a Python callable (sync or async) from card to answer, for embedders."""

    def __init__(
        self,
        fn: Callable[[dict[str, Any]], Any],
        *,
        destination: str | None = "callable",
        attached: Callable[[], bool] | None = None,
    ) -> None:
        self._fn = fn
        self.destination = destination
        self._attached = attached

    def is_attached(self) -> bool:
        return True if self._attached is None else bool(self._attached())

    async def ask(self, card: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        async def answer() -> Any:
            if inspect.iscoroutinefunction(self._fn):
                return await self._fn(card)
            # A sync callable may block (a person typing); keep the event loop free.
            result = await asyncio.to_thread(self._fn, card)
            if inspect.isawaitable(result):
                result = await result
            return result

        try:
            result = await asyncio.wait_for(answer(), timeout)
        except asyncio.TimeoutError:
            raise QuestionTimeout(f"no answer within {timeout:g} s") from None
        if not isinstance(result, dict):
            raise TypeError(f"question callable returned {type(result).__name__}, expected an answer dict")
        return result


def as_port(questions: Any) -> QuestionPort | None:
    """Accept a port, a callable, or None."""
    if questions is None:
        return None
    if isinstance(questions, QuestionPort):
        return questions
    if callable(questions):
        return CallablePort(questions)
    raise TypeError(f"questions must be a question port or a callable, got {type(questions).__name__}")
