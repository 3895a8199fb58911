"""Question ports: how a run reaches a person.

A port shows a checked question `Card` to a person and returns their checked `Answer`
(chosen labels and typed text, or a skip); a callable given as a port, and a host asked over
JSON-RPC, see the card's plain dict and answer with one (``{"choices": [label, ...], "text"?: str}``
or ``{"skipped": True}``), checked against the card here.
It also says whether a person is attached right now, so a call can fail at once
instead of blocking forever (docs/tools.md, "ask_user").
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, runtime_checkable

from minitools.ask._card import Answer, Card
from minitools.transport import in_thread

__all__ = ["QuestionPort", "CallablePort", "HostPort", "as_port", "QuestionTimeout", "NoPersonAttached", "SendRequest"]

SendRequest = Callable[[str, dict[str, Any]], Awaitable[Any]]


class QuestionTimeout(Exception):
    """Nobody answered within the port's time."""


class NoPersonAttached(Exception):
    """The port has nobody to ask right now."""


@runtime_checkable
class QuestionPort(Protocol):
    #: where the card is shown (a conversation, a terminal, a host); None means nowhere.
    destination: str | None

    def is_attached(self) -> bool: ...

    async def ask(self, card: Card, timeout: float | None = None) -> Answer: ...


class _Port:
    """What every port has: where its cards are shown, and whether a person is there now
    (`attached`, when given, is asked each time; without it a person is assumed)."""

    def __init__(self, destination: str | None, attached: Callable[[], bool] | None) -> None:
        self.destination = destination
        self._attached = attached

    def is_attached(self) -> bool:
        return True if self._attached is None else bool(self._attached())


class CallablePort(_Port):
    """A port over a Python callable (sync or async) from card to answer, for embedders."""

    def __init__(
        self,
        fn: Callable[[dict[str, Any]], Any],
        *,
        destination: str | None = "callable",
        attached: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(destination, attached)
        self._fn = fn

    async def ask(self, card: Card, timeout: float | None = None) -> Answer:
        """Ask the callable with the card's dict; its answer is checked against the card
        (`AnswerError` if it does not fit)."""
        shown = card.to_dict()

        async def answer() -> Any:
            if inspect.iscoroutinefunction(self._fn):
                return await self._fn(shown)
            # A sync callable may block (a person typing); keep the event loop free.
            result = await in_thread(self._fn, shown)
            if inspect.isawaitable(result):
                result = await result
            return result

        try:
            result = await asyncio.wait_for(answer(), timeout)
        except asyncio.TimeoutError:
            raise QuestionTimeout(f"no answer within {timeout:g} s") from None
        return Answer.parse(result, card)


class HostPort(_Port):
    """A port that asks the host over JSON-RPC: `minitools serve` sends a request ``ask``
    with the card as params and waits for the host's answer.

    `send_request(method, params)` sends one request and returns the host's result; an
    exception from it (the host answered with an error, or the connection closed) means the
    question could not be shown, and is reported as `NoPersonAttached`.
    """

    def __init__(
        self,
        send_request: SendRequest,
        *,
        destination: str | None = "host",
        attached: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(destination, attached)
        self._send = send_request

    async def ask(self, card: Card, timeout: float | None = None) -> Answer:
        """Send the card as an ``ask`` request; the answer is checked against the card."""
        try:
            result = await asyncio.wait_for(self._send("ask", card.to_dict()), timeout)
        except asyncio.TimeoutError:
            raise QuestionTimeout(f"the host gave no answer within {timeout:g} s") from None
        except Exception as exc:  # the host's error, or a closed connection: nobody can be asked
            raise NoPersonAttached(f"the host could not ask the question ({exc})") from exc
        return Answer.parse(result, card)


# what `Run(questions=...)` takes: a port, a callable from card to answer (sync or async), or None
Questions = QuestionPort | Callable[[dict[str, Any]], Any] | None


def as_port(questions: Questions) -> QuestionPort | None:
    """Accept a port, a callable, or None."""
    if questions is None:
        return None
    if isinstance(questions, QuestionPort):
        return questions
    if callable(questions):
        return CallablePort(questions)
    raise TypeError(f"questions must be a question port or a callable, got {type(questions).__name__}")
